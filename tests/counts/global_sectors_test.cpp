// tests/counts/global_sectors_test.cpp — sector and ideal-sector counts of warp accesses, by hand.
#include <catch2/catch.hpp>

#include "sim/counts/global_sectors.hpp"
#include "tests/counts/access_builders.hpp"

using namespace warpsim::counts;
using namespace warpsim::counts::test;

namespace {
constexpr uint32_t kAll = 0xffffffffu;
}

TEST_CASE("float stride 1, aligned: 128 contiguous bytes are 4 sectors", "[counts][sectors]") {
    const auto a = global_load(4, kAll, [](uint32_t i) { return kBase + 4ull * i; });
    CHECK(count_sectors(a) == 4);
    CHECK(ideal_sectors(a) == 4);
}

TEST_CASE("float stride 1, misaligned by one float: bytes 4..131 touch 5 sectors", "[counts][sectors]") {
    const auto a = global_load(4, kAll, [](uint32_t i) { return kBase + 4 + 4ull * i; });
    CHECK(count_sectors(a) == 5);
    CHECK(ideal_sectors(a) == 4);
}

TEST_CASE("float stride 2: 256 bytes spanned, 8 sectors for 4 ideal", "[counts][sectors]") {
    const auto a = global_load(4, kAll, [](uint32_t i) { return kBase + 8ull * i; });
    CHECK(count_sectors(a) == 8);
    CHECK(ideal_sectors(a) == 4);
}

TEST_CASE("float stride 8 and 32: one sector per lane", "[counts][sectors]") {
    CHECK(count_sectors(global_load(4, kAll, [](uint32_t i) { return kBase + 32ull * i; })) == 32);
    CHECK(count_sectors(global_load(4, kAll, [](uint32_t i) { return kBase + 128ull * i; })) == 32);
}

TEST_CASE("float stride 31, 32, 33 elements: every lane in its own sector", "[counts][sectors]") {
    // 124*i/32 = 3.875 i, 132*i/32 = 4.125 i: consecutive lanes are at least 3 sectors apart.
    for (uint64_t stride : {31ull, 32ull, 33ull})
        CHECK(count_sectors(global_load(4, kAll, [stride](uint32_t i) { return kBase + 4 * stride * i; })) ==
              32);
}

TEST_CASE("u8 with byte strides 31, 32, 33: 31, 32, 32 sectors", "[counts][sectors]") {
    // floor(31 i / 32) = i - 1 for 1 <= i <= 31, and 0 for i = 0: lanes 0 and 1 share sector 0 -> 31.
    CHECK(count_sectors(global_load(1, kAll, [](uint32_t i) { return kBase + 31ull * i; })) == 31);
    CHECK(count_sectors(global_load(1, kAll, [](uint32_t i) { return kBase + 32ull * i; })) == 32);
    // floor(33 i / 32) = i for i < 32.
    CHECK(count_sectors(global_load(1, kAll, [](uint32_t i) { return kBase + 33ull * i; })) == 32);
}

TEST_CASE("float4 per lane: 512 bytes, 16 sectors per request", "[counts][sectors]") {
    const auto a = global_load(16, kAll, [](uint32_t i) { return kBase + 16ull * i; });
    CHECK(count_sectors(a) == 16);
    CHECK(ideal_sectors(a) == 16);
}

TEST_CASE("8 active lanes of a partial warp: 32 bytes, 1 sector", "[counts][sectors]") {
    const auto a = global_load(4, 0xffu, [](uint32_t i) { return kBase + 4ull * i; });
    CHECK(count_sectors(a) == 1);
    CHECK(ideal_sectors(a) == 1);
}

TEST_CASE("u8 and u16 lanes", "[counts][sectors]") {
    const auto u8 = global_load(1, kAll, [](uint32_t i) { return kBase + i; });
    CHECK(count_sectors(u8) == 1);
    CHECK(ideal_sectors(u8) == 1);
    // Bytes 16..47 straddle the boundary at 32.
    CHECK(count_sectors(global_load(1, kAll, [](uint32_t i) { return kBase + 16 + i; })) == 2);
    const auto u16 = global_load(2, kAll, [](uint32_t i) { return kBase + 2ull * i; });
    CHECK(count_sectors(u16) == 2);
    CHECK(ideal_sectors(u16) == 2);
    // 3 lanes of u8: 3 bytes round up to one ideal sector.
    CHECK(ideal_sectors(global_load(1, 0x7u, [](uint32_t i) { return kBase + 64ull * i; })) == 1);
    CHECK(count_sectors(global_load(1, 0x7u, [](uint32_t i) { return kBase + 64ull * i; })) == 3);
}

TEST_CASE("8-byte lanes: 256 bytes, 8 sectors", "[counts][sectors]") {
    const auto a = global_load(8, kAll, [](uint32_t i) { return kBase + 8ull * i; });
    CHECK(count_sectors(a) == 8);
    CHECK(ideal_sectors(a) == 8);
}

TEST_CASE("broadcast: every lane on one word is 1 sector, and 1 is the ideal (4 distinct bytes)",
          "[counts][sectors]") {
    const auto a = global_load(4, kAll, [](uint32_t) { return kBase + 100; });
    CHECK(count_sectors(a) == 1);
    CHECK(ideal_sectors(a) == 1);
    // Local memory is private per lane: the same offset is 32 different words.
    CHECK(ideal_sectors(a, true) == 4);
}

TEST_CASE("duplicate addresses count once in the ideal", "[counts][sectors]") {
    // Lanes 2k and 2k+1 on float k: 16 distinct floats, 64 bytes -> 2 sectors, 2 ideal.
    const auto pairs = global_load(4, kAll, [](uint32_t i) { return kBase + 4ull * (i / 2); });
    CHECK(count_sectors(pairs) == 2);
    CHECK(ideal_sectors(pairs) == 2);
    // Lanes 0-15 on one float, 16-31 on one 4096 bytes further: 8 distinct bytes -> 1 ideal, 2 touched.
    const auto rows = global_load(4, kAll, [](uint32_t i) { return kBase + 4096ull * (i / 16); });
    CHECK(count_sectors(rows) == 2);
    CHECK(ideal_sectors(rows) == 1);
    // Overlapping 8-byte lanes 4 bytes apart: bytes 0..131 -> 132 distinct bytes, 5 ideal sectors.
    const auto overlap = global_load(8, kAll, [](uint32_t i) { return kBase + 4ull * i; });
    CHECK(ideal_sectors(overlap) == 5);
    // The same in falling and scrambled lane order.
    CHECK(ideal_sectors(global_load(8, kAll, [](uint32_t i) { return kBase + 4ull * (31 - i); })) == 5);
    CHECK(ideal_sectors(global_load(4, kAll, [](uint32_t i) { return kBase + 4ull * ((i * 7) % 16); })) == 2);
}

TEST_CASE("distinct_bytes: union of the lanes' byte ranges", "[counts][sectors]") {
    const uint64_t a[] = {100, 100, 104, 96, 200};
    CHECK(distinct_bytes(a, 5, 4) == 16);  // 96..107 and 200..203
    CHECK(distinct_bytes(a, 5, 8) == 24);  // 96..111 and 200..207
    CHECK(distinct_bytes(a, 0, 4) == 0);
    CHECK(distinct_bytes(a, 1, 4) == 4);
}

TEST_CASE("a misaligned 8-byte lane straddling a sector boundary counts both sectors", "[counts][sectors]") {
    CHECK(count_sectors(global_load(8, 0x1u, [](uint32_t) { return kBase + 28; })) == 2);
    CHECK(count_sectors(global_load(16, 0x1u, [](uint32_t) { return kBase + 24; })) == 2);
}

TEST_CASE("scattered lane order takes the sorted path and still counts distinct sectors",
          "[counts][sectors]") {
    // Reversed stride-1: the same 4 sectors in descending order.
    CHECK(count_sectors(global_load(4, kAll, [](uint32_t i) { return kBase + 4ull * (31 - i); })) == 4);
    // Two interleaved sectors: even lanes in sector 0, odd lanes in sector 5.
    CHECK(count_sectors(global_load(
              4, kAll, [](uint32_t i) { return kBase + (i % 2 ? 160 : 0) + 4 * (i / 2 % 8); })) == 2);
    // Reversed one-sector-per-lane: 32.
    CHECK(count_sectors(global_load(4, kAll, [](uint32_t i) { return kBase + 32ull * (31 - i); })) == 32);
}

TEST_CASE("collect_sectors lists the sectors ascending and distinct", "[counts][sectors]") {
    SectorList list;
    collect_sectors(global_load(4, 0x3u, [](uint32_t i) { return kBase + (i == 0 ? 64 : 0); }), list);
    REQUIRE(list.size == 2);
    CHECK(list.sector[0] == kBase / 32);
    CHECK(list.sector[1] == kBase / 32 + 2);
}

TEST_CASE("a coalesced warp of 32-byte lanes 16 bytes into a sector: bytes 16..1039, 33 sectors",
          "[counts][sectors]") {
    const auto a = global_load(32, kAll, [](uint32_t i) { return kBase + 16 + 32ull * i; });
    SectorList list;
    collect_sectors(a, list);
    REQUIRE(list.size == 33);
    for (uint32_t i = 0; i < 33; ++i) CHECK(list.sector[i] == kBase / 32 + i);
    CHECK(ideal_sectors(a) == 32);  // 1024 distinct bytes
    // One lane out of order (lanes 3 and 4 swapped) is no longer the closed form, and counts the same.
    const auto swapped = global_load(32, kAll, [](uint32_t i) {
        const uint32_t j = i == 3 ? 4 : i == 4 ? 3 : i;
        return kBase + 16 + 32ull * j;
    });
    CHECK(count_sectors(swapped) == 33);
    CHECK(ideal_sectors(swapped) == 32);
}

// atom/red sectors (rmw_sectors): figures measured on the H200 (tests/hardware/h200/results.json).
TEST_CASE("rmw sectors: one per pass over the most lanes sharing an address", "[counts][sectors][atomics]") {
    using K = AccessKind;
    // atomic_float_one_block: red.add.f32 by 32 lanes at fsum[0] -> 32 sectors.
    CHECK(rmw_sectors(
              make_access(AccessSpace::global, K::reduction, 4, kAll, [](uint32_t) { return kBase; })) == 32);
    // ... and at fsum[1 + (i & 3)]: four addresses of one sector, 8 lanes each -> 8.
    CHECK(rmw_sectors(make_access(AccessSpace::global, K::reduction, 4, kAll,
                                  [](uint32_t i) { return kBase + 4 + 4ull * (i & 3); })) == 8);
    // atomic_int_global: atom.exch at slots[i] -> 4 sectors, like a store.
    CHECK(rmw_sectors(make_access(AccessSpace::global, K::atomic, 4, kAll,
                                  [](uint32_t i) { return kBase + 4ull * i; })) == 4);
    // Two sectors: 20 lanes at one address of the first, 12 spread over the second -> 20 + 1.
    CHECK(rmw_sectors(make_access(AccessSpace::global, K::atomic, 4, kAll, [](uint32_t i) {
              return i < 20 ? kBase : kBase + 32 + 4ull * (i % 8);
          })) == 22);
}

TEST_CASE("rmw sectors: a uniform 32-bit integer red is combined to one lane", "[counts][sectors][atomics]") {
    auto uniform = [](AccessKind k, uint8_t bytes, bool redux, uint32_t mask) {
        auto a = make_access(AccessSpace::global, k, bytes, mask, [](uint32_t) { return kBase + 8; });
        a.redux_op = redux;
        return rmw_sectors(a);
    };
    // atomic_int_global: add/min/max/and/or/xor at counters[k] 1 sector; inc/dec (not REDUX) 32, 64-bit 32.
    CHECK(uniform(AccessKind::reduction, 4, true, kAll) == 1);
    CHECK(uniform(AccessKind::reduction, 4, false, kAll) == 32);
    CHECK(uniform(AccessKind::reduction, 8, false, kAll) == 32);
    // atomic_int_global_block100: the last warp of a 100-thread block has 4 lanes: inc/dec count 4.
    CHECK(uniform(AccessKind::reduction, 4, false, 0xfu) == 4);
    CHECK(uniform(AccessKind::reduction, 4, true, 0xfu) == 1);
    // Not uniform: the REDUX combination does not apply (two addresses, 16 lanes each, one sector).
    auto split = make_access(AccessSpace::global, AccessKind::reduction, 4, kAll,
                             [](uint32_t i) { return kBase + 4ull * (i & 1); });
    split.redux_op = true;
    CHECK(rmw_sectors(split) == 16);
}
