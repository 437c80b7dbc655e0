// tests/counts/shared_banks_test.cpp — wavefronts, ideal wavefronts and way counts of shared accesses.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <vector>

#include "sim/counts/shared_banks.hpp"
#include "tests/counts/access_builders.hpp"

using namespace warpsim::counts;
using namespace warpsim::counts::test;

namespace {
constexpr uint32_t kAll = 0xffffffffu;

void check_cost(const SharedCost& c, uint32_t wavefronts, uint32_t ideal, uint32_t max_way) {
    CHECK(c.wavefronts == wavefronts);
    CHECK(c.ideal == ideal);
    CHECK(c.max_way == max_way);
    CHECK(c.conflicts() == wavefronts - ideal);
}
}  // namespace

TEST_CASE("float row read: 32 banks, one wavefront", "[counts][shared]") {
    check_cost(shared_wavefronts(shared_load(4, kAll, [](uint32_t i) { return 4ull * i; })), 1, 1, 1);
}

TEST_CASE("tile[32][32] column read: every lane in bank c, 32 wavefronts, 31 conflicts", "[counts][shared]") {
    for (uint64_t c : {0ull, 7ull}) {
        const auto cost =
            shared_wavefronts(shared_load(4, kAll, [c](uint32_t i) { return 4 * (32 * i + c); }));
        check_cost(cost, 32, 1, 32);
        CHECK(cost.conflicts() == 31);
    }
}

TEST_CASE("tile[32][33] column read: bank (i + c) % 32, conflict-free", "[counts][shared]") {
    check_cost(shared_wavefronts(shared_load(4, kAll, [](uint32_t i) { return 4 * (33ull * i + 5); })), 1, 1,
               1);
}

TEST_CASE("broadcast: all lanes on one word is one wavefront", "[counts][shared]") {
    check_cost(shared_wavefronts(shared_load(4, kAll, [](uint32_t) { return 4ull * 77; })), 1, 1, 1);
    // Two words in one bank, each shared by 16 lanes: 2-way.
    check_cost(shared_wavefronts(shared_load(4, kAll, [](uint32_t i) { return i < 16 ? 0ull : 128ull; })), 2,
               1, 2);
}

TEST_CASE("XOR swizzle tile[i][c ^ i] column read is conflict-free", "[counts][shared]") {
    for (uint64_t c : {0ull, 3ull, 31ull})
        check_cost(
            shared_wavefronts(shared_load(4, kAll, [c](uint32_t i) { return 4 * (32ull * i + (c ^ i)); })), 1,
            1, 1);
}

TEST_CASE("word strides 2, 31, 32, 33", "[counts][shared]") {
    // Stride 2: lanes i and i + 16 share bank 2i % 32 with different words -> 2-way.
    check_cost(shared_wavefronts(shared_load(4, kAll, [](uint32_t i) { return 8ull * i; })), 2, 1, 2);
    // Stride 31: bank -i mod 32, all distinct.
    check_cost(shared_wavefronts(shared_load(4, kAll, [](uint32_t i) { return 4 * 31ull * i; })), 1, 1, 1);
    check_cost(shared_wavefronts(shared_load(4, kAll, [](uint32_t i) { return 4 * 32ull * i; })), 32, 1, 32);
    check_cost(shared_wavefronts(shared_load(4, kAll, [](uint32_t i) { return 4 * 33ull * i; })), 1, 1, 1);
    // Stride 2 with only the first 16 lanes active: banks 0, 2, .., 30, no conflict.
    check_cost(shared_wavefronts(shared_load(4, 0xffffu, [](uint32_t i) { return 8ull * i; })), 1, 1, 1);
}

TEST_CASE("u8 and u16 shared accesses share words", "[counts][shared]") {
    // 32 consecutive bytes = words 0..7: one wavefront.
    check_cost(shared_wavefronts(shared_load(1, kAll, [](uint32_t i) { return uint64_t{i}; })), 1, 1, 1);
    check_cost(shared_wavefronts(shared_load(2, kAll, [](uint32_t i) { return 2ull * i; })), 1, 1, 1);
    // Bytes 128 apart all fall in bank 0, each in its own word.
    check_cost(shared_wavefronts(shared_load(1, kAll, [](uint32_t i) { return 128ull * i; })), 32, 1, 32);
    // Four lanes per word (bytes 0..3 of words 0, 32, 64, ...): 8 distinct words in bank 0.
    check_cost(shared_wavefronts(shared_load(1, kAll, [](uint32_t i) { return 128ull * (i / 4) + i % 4; })),
               8, 1, 8);
}

namespace {
WarpAccess shared_store(uint8_t bytes, uint32_t mask, const std::function<uint64_t(uint32_t)>& address) {
    return make_access(AccessSpace::shared, AccessKind::store, bytes, mask, address);
}
}  // namespace

TEST_CASE("8-byte stores: two half-warp passes", "[counts][shared]") {
    // Consecutive doubles: half 0 asks words 0..31, half 1 words 32..63, each bank once per pass.
    check_cost(shared_wavefronts(shared_store(8, kAll, [](uint32_t i) { return 8ull * i; })), 2, 2, 1);
    // Only the first half active: one pass.
    check_cost(shared_wavefronts(shared_store(8, 0xffffu, [](uint32_t i) { return 8ull * i; })), 1, 1, 1);
    // Only lanes 15 and 16 active: one lane in each half -> two passes of one wavefront.
    check_cost(shared_wavefronts(shared_store(8, 0x18000u, [](uint32_t i) { return 8ull * i; })), 2, 2, 1);
    // Stride 16 bytes: lanes 0..7 use banks {4i, 4i+1}, lanes 8..15 the same banks, other words -> 2-way per
    // half.
    check_cost(shared_wavefronts(shared_store(8, kAll, [](uint32_t i) { return 16ull * i; })), 4, 2, 2);
    // Both halves write the same 16 doubles: passes do not share words with each other.
    check_cost(shared_wavefronts(shared_store(8, kAll, [](uint32_t i) { return 8ull * (i % 16); })), 2, 2, 1);
    // Column of a double tile[32][16]: lane i at 128 i -> banks 0-1 -> 16-way per half.
    check_cost(shared_wavefronts(shared_store(8, kAll, [](uint32_t i) { return 128ull * i; })), 32, 2, 16);
}

TEST_CASE("8-byte loads: one full-warp pass, ideal = distinct words / 32", "[counts][shared]") {
    // Consecutive doubles: 64 distinct words, 2 per bank -> 2 wavefronts, 2 ideal (measured on H200: 2, 0).
    check_cost(shared_wavefronts(shared_load(8, kAll, [](uint32_t i) { return 8ull * i; })), 2, 2, 2);
    // Broadcast of one double: 2 words -> 1 (H200: 1).
    check_cost(shared_wavefronts(shared_load(8, kAll, [](uint32_t) { return 64ull; })), 1, 1, 1);
    // Lanes 15 and 16: words 30..33 in banks 30, 31, 0, 1 -> 1 (H200: 1).
    check_cost(shared_wavefronts(shared_load(8, 0x18000u, [](uint32_t i) { return 8ull * i; })), 1, 1, 1);
    // Stride 16 bytes: banks {4i, 4i+1} mod 32 taken by lanes i, i+8, i+16, i+24 -> 4-way, 2 ideal (H200: 4,
    // 2).
    check_cost(shared_wavefronts(shared_load(8, kAll, [](uint32_t i) { return 16ull * i; })), 4, 2, 4);
    // Column (lane i at 128 i): 32 words in bank 0 and 32 in bank 1 -> 32 (H200: 32, 30).
    check_cost(shared_wavefronts(shared_load(8, kAll, [](uint32_t i) { return 128ull * i; })), 32, 2, 32);
}

TEST_CASE("16-byte stores: four quarter-warp passes", "[counts][shared]") {
    // Consecutive float4: quarter q writes words 32q..32q+31.
    check_cost(shared_wavefronts(shared_store(16, kAll, [](uint32_t i) { return 16ull * i; })), 4, 4, 1);
    // Stride 32 bytes: lanes 0..3 and 4..7 of a quarter use banks {8i..8i+3} twice -> 2-way per quarter.
    check_cost(shared_wavefronts(shared_store(16, kAll, [](uint32_t i) { return 32ull * i; })), 8, 4, 2);
    // Every lane on the same float4: one wavefront in each quarter.
    check_cost(shared_wavefronts(shared_store(16, kAll, [](uint32_t) { return 256ull; })), 4, 4, 1);
    // Lanes 0 and 31 only: quarters 0 and 3.
    check_cost(shared_wavefronts(shared_store(16, 0x80000001u, [](uint32_t i) { return 16ull * i; })), 2, 2,
               1);
    // float4 column (lane i at 128 i): each quarter's 8 lanes all use banks 0..3.
    check_cost(shared_wavefronts(shared_store(16, kAll, [](uint32_t i) { return 128ull * i; })), 32, 4, 8);
}

TEST_CASE("16-byte loads: two half-warp passes", "[counts][shared]") {
    // Consecutive float4: each half asks 64 words, 2 per bank -> 2 + 2, ideal 2 + 2 (H200: 4, 0).
    check_cost(shared_wavefronts(shared_load(16, kAll, [](uint32_t i) { return 16ull * i; })), 4, 4, 2);
    // Broadcast: one float4 per half -> 2 (H200: 2, 0).
    check_cost(shared_wavefronts(shared_load(16, kAll, [](uint32_t) { return 256ull; })), 2, 2, 1);
    // Lanes 0 and 31: one per half (H200: 2).
    check_cost(shared_wavefronts(shared_load(16, 0x80000001u, [](uint32_t i) { return 16ull * i; })), 2, 2,
               1);
    // Stride 32 bytes: lanes i, i+4, i+8, i+12 of a half share banks {8i..8i+3} -> 4-way (H200: 8, 4).
    check_cost(shared_wavefronts(shared_load(16, kAll, [](uint32_t i) { return 32ull * i; })), 8, 4, 4);
    // Column (lane i at 128 i): a half's 16 lanes all in banks 0..3 -> 16 per half (H200: 32, 28).
    check_cost(shared_wavefronts(shared_load(16, kAll, [](uint32_t i) { return 128ull * i; })), 32, 4, 16);
}

TEST_CASE("shared atomics do not share words: same-address atomics serialise", "[counts][shared]") {
    auto atom = make_access(AccessSpace::shared, AccessKind::atomic, 4, kAll, [](uint32_t) { return 64ull; });
    check_cost(shared_wavefronts(atom), 32, 1, 32);  // H200: 32 wavefronts, 31 conflicts
    atom = make_access(AccessSpace::shared, AccessKind::atomic, 4, kAll, [](uint32_t i) { return 4ull * i; });
    check_cost(shared_wavefronts(atom), 1, 1, 1);
}

TEST_CASE("rules are data: a table entry changes passes and word sharing", "[counts][shared]") {
    SharedBankRules rules = SharedBankRules::h200();
    auto store = make_access(AccessSpace::shared, AccessKind::store, 4, kAll, [](uint32_t) { return 64ull; });
    check_cost(shared_wavefronts(store, rules), 1, 1, 1);
    // Word sharing off for 4-byte stores: the broadcast store now serialises.
    rules.rule[static_cast<std::size_t>(AccessKind::store)][static_cast<std::size_t>(SharedWidth::b4)] = {
        32, false};
    check_cost(shared_wavefronts(store, rules), 32, 1, 32);
    // Loads keep their own entry.
    auto load = store;
    load.kind = AccessKind::load;
    check_cost(shared_wavefronts(load, rules), 1, 1, 1);
    // Half-warp passes for 4-byte loads: a row read becomes 2 ideal wavefronts.
    rules.rule[static_cast<std::size_t>(AccessKind::load)][static_cast<std::size_t>(SharedWidth::b4)] = {
        16, true};
    check_cost(shared_wavefronts(shared_load(4, kAll, [](uint32_t i) { return 4ull * i; }), rules), 2, 2, 1);
}

namespace {

// The rule as DESIGN.md words it, written out without any shortcut: per pass of the rule's lanes, each
// bank's distinct words (or lane-words without sharing), the worst bank's count and ceil(distinct / 32).
SharedCost reference_cost(const WarpAccess& a, const SharedBankRules& rules, uint32_t width) {
    const SharedAccessRule& rule = rules.for_access(a.kind, width);
    SharedCost cost;
    for (uint32_t base = 0; base < 32; base += rule.lanes_per_pass) {
        std::vector<std::vector<uint64_t>> bank(32);
        std::vector<uint64_t> all;
        for (uint32_t l = base; l < base + rule.lanes_per_pass; ++l) {
            if (!(a.active_mask >> l & 1u)) continue;
            for (uint64_t w = a.addr[l] / 4; w <= (a.addr[l] + width - 1) / 4; ++w) {
                auto& b = bank[w % 32];
                if (!rule.same_word_shared || std::find(b.begin(), b.end(), w) == b.end()) b.push_back(w);
                if (std::find(all.begin(), all.end(), w) == all.end()) all.push_back(w);
            }
        }
        if (all.empty()) continue;
        uint32_t way = 0;
        for (const auto& b : bank) way = std::max<uint32_t>(way, static_cast<uint32_t>(b.size()));
        cost.wavefronts += way;
        cost.ideal += std::max<uint32_t>(1, static_cast<uint32_t>((all.size() + 31) / 32));
        cost.max_way = std::max(cost.max_way, way);
    }
    return cost;
}

}  // namespace

TEST_CASE("bank model shortcuts (broadcasts, multi-word lanes) agree with the rule written out",
          "[counts][shared]") {
    const SharedBankRules rules = SharedBankRules::h200();
    uint64_t seed = 12345;
    const auto next = [&seed] {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<uint32_t>(seed >> 33);
    };
    const AccessKind kinds[] = {AccessKind::load, AccessKind::store, AccessKind::atomic};
    for (int trial = 0; trial < 20000; ++trial) {
        const uint32_t width = 1u << (next() % 5);  // 1, 2, 4, 8, 16 bytes, aligned as the engine requires
        const uint32_t shape = next() % 7;
        const uint32_t mask = shape == 0 ? 0xffffffffu : shape == 1 ? 0x0000ffffu : next() | 1u;
        const uint64_t word = next() % 64, stride = next() % 4;
        WarpAccess a = test::make_access(
            AccessSpace::shared, kinds[next() % 3], static_cast<uint8_t>(width), mask, [&](uint32_t l) {
                // broadcasts, half-warp broadcasts, strided rows, random words in a small window, random
                // words within 32 consecutive words or just beyond (33-35), and bytes inside a word
                const uint64_t w = shape == 2   ? word
                                   : shape == 3 ? word + (l % 16) * stride
                                   : shape == 5 ? word + next() % 32
                                   : shape == 6 ? word + next() % (33 + stride)
                                                : (next() % 256) * (shape == 4 ? 1 : stride + 1);
                const uint64_t byte = width < 4 && next() % 2 == 0 ? next() % (4 / width) * width : 0;
                return w * 4 / width * width + byte;
            });
        const uint32_t bytes = next() % 4 == 0 ? 16u : width;  // sometimes counted as a merged LDS.128
        if (bytes != width)
            for (uint32_t l = 0; l < 32; ++l) a.addr[l] = a.addr[l] / 16 * 16;
        const SharedCost want = reference_cost(a, rules, bytes);
        const SharedCost got = shared_wavefronts(a, rules, bytes);
        INFO("trial " << trial << " width " << width << " bytes " << bytes << " mask " << mask);
        REQUIRE(got.wavefronts == want.wavefronts);
        REQUIRE(got.ideal == want.ideal);
        REQUIRE(got.max_way == want.max_way);
    }
}

// A memo must hand back a cost only for the same pattern moved by a multiple of 4 bytes. The pattern, 2-byte
// loads: lanes 0 and 1 at bytes 0 and 2 (one word), lane 2 at byte 132 (word 33, bank 1), lane l >= 3 at
// byte 4l (bank l): one wavefront. Moved by 4 (words 1, 1, 34, l + 1: banks 1, 1, 2, and 4..31 then 0):
// still one. Moved by 2 instead: lane 1 moves to word 1 (bank 1), where lane 2's word 33 is: two wavefronts.
// Moved by 4 more from there: two again.
TEST_CASE("shared cost memo: a shift by whole words keeps the cost, one inside a word does not",
          "[counts][shared]") {
    const auto pattern = [](uint64_t shift) {
        return shared_load(2, kAll, [shift](uint32_t i) {
            const uint64_t at = i == 0 ? 0 : i == 1 ? 2 : i == 2 ? 132 : 4ull * i;
            return 1024 + at + shift;
        });
    };
    SharedCostMemo memo;
    const SharedBankRules rules = SharedBankRules::h200();
    check_cost(memo.cost(pattern(0), rules, 2), 1, 1, 1);
    check_cost(memo.cost(pattern(4), rules, 2), 1, 1, 1);
    check_cost(memo.cost(pattern(2), rules, 2), 2, 1, 2);
    check_cost(memo.cost(pattern(6), rules, 2), 2, 1, 2);
    check_cost(memo.cost(pattern(256), rules, 2), 1, 1, 1);
}

// The memo compares only the active lanes (inactive ones hold stale addresses), and a different set of
// active lanes is a different pattern: the 32-bank column read tile[32][32] costs 32 wavefronts with every
// lane and 16 with the even lanes; after it, the odd lanes of a row read cost one.
TEST_CASE("shared cost memo: active lanes are part of the pattern", "[counts][shared]") {
    SharedCostMemo memo;
    const SharedBankRules rules = SharedBankRules::h200();
    const auto column = [](uint32_t i) { return 4 * (32ull * i + 3); };
    check_cost(memo.cost(shared_load(4, kAll, column), rules, 4), 32, 1, 32);
    check_cost(memo.cost(shared_load(4, 0x55555555u, column), rules, 4), 16, 1, 16);
    WarpAccess moved = shared_load(4, 0x55555555u, [&](uint32_t i) { return column(i) + 8; });
    moved.addr[1] = 12345;  // an inactive lane's stale address
    check_cost(memo.cost(moved, rules, 4), 16, 1, 16);
    check_cost(memo.cost(shared_load(4, 0xaaaaaaaau, [](uint32_t i) { return 4ull * i; }), rules, 4), 1, 1,
               1);
}
