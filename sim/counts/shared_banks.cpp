// sim/counts/shared_banks.cpp — per-pass bank occupancy for warp-level shared-memory accesses.
#include "sim/counts/shared_banks.hpp"

#include <algorithm>
#include <bit>

namespace warpsim::counts {

namespace {

// One pass: the active lanes `pass_mask` (bits relative to lane `base`) of a warp access of `width` bytes.
struct Pass {
    const WarpAccess& access;
    uint32_t base, pass_mask, width;

    template <typename F>
    void for_each_word(F&& f) const {
        for (uint32_t m = pass_mask; m != 0; m &= m - 1) {
            const uint64_t addr = access.addr[base + static_cast<uint32_t>(std::countr_zero(m))];
            const uint64_t last = (addr + width - 1) / kBankWordBytes;
            for (uint64_t w = addr / kBankWordBytes; w <= last; ++w) f(static_cast<uint32_t>(w));
        }
    }
};

struct PassCost {
    uint32_t way = 0;             // worst bank's deliveries
    uint32_t distinct_words = 0;  // for the ideal: ceil(distinct / 32)
};

// True if no bank is asked for two distinct words (or, without word sharing, for two lane-words): the
// conflict-free and broadcast cases, which are most accesses, decided without sorting.
bool pass_is_single_wavefront(const Pass& p, bool shared, uint32_t& distinct_words) {
    std::array<uint32_t, kNumBanks> first;  // first[b] is read only once bit b of `seen` is set
    uint32_t seen = 0;
    bool simple = true;
    p.for_each_word([&](uint32_t w) {
        const uint32_t bank = w % kNumBanks;
        if ((seen >> bank & 1u) == 0) {
            seen |= 1u << bank;
            first[bank] = w;
            ++distinct_words;
        } else if (!shared || first[bank] != w) {
            simple = false;
        }
    });
    return simple;
}

// The same test for a pass with word sharing whose lanes each touch `Words` whole words (1, 2 or 4 bytes
// within a word for Words = 1; 8 or 16 bytes at a word boundary for 2 and 4: every ld/st the engine lets
// through is aligned to its width), in two branch-free sweeps: remember one word per bank, then check that
// every lane's word is its bank's word. `narrow` is false (and the result meaningless) when some lane
// crosses a word boundary (Words = 1) or starts inside a word (Words > 1).
template <uint32_t Words>
bool narrow_pass_is_single_wavefront(const Pass& p, uint32_t& distinct_words, bool& narrow) {
    const auto each_lane = [&p](auto&& f) {
        if (p.pass_mask == 0xffffffffu) {
            for (uint32_t l = 0; l < 32; ++l) f(p.access.addr[l]);
        } else {
            for (uint32_t m = p.pass_mask; m != 0; m &= m - 1)
                f(p.access.addr[p.base + static_cast<uint32_t>(std::countr_zero(m))]);
        }
    };
    std::array<uint32_t, kNumBanks> word_of_bank;  // read only for banks some lane wrote
    uint32_t seen = 0;
    bool crosses = false;
    each_lane([&](uint64_t addr) {
        if constexpr (Words == 1)
            crosses |= (addr & (kBankWordBytes - 1)) + p.width > kBankWordBytes;
        else
            crosses |= (addr & (kBankWordBytes - 1)) != 0;
        const auto w0 = static_cast<uint32_t>(addr / kBankWordBytes);
        for (uint32_t j = 0; j < Words; ++j) {
            const uint32_t w = w0 + j;
            word_of_bank[w % kNumBanks] = w;
            seen |= 1u << (w % kNumBanks);
        }
    });
    narrow = !crosses;
    if (crosses) return false;
    bool simple = true;
    each_lane([&](uint64_t addr) {
        const auto w0 = static_cast<uint32_t>(addr / kBankWordBytes);
        for (uint32_t j = 0; j < Words; ++j) simple &= word_of_bank[(w0 + j) % kNumBanks] == w0 + j;
    });
    distinct_words = static_cast<uint32_t>(std::popcount(seen));
    return simple;
}

// A pass whose active lanes all read one address (a broadcast), with word sharing: the lanes' words are
// consecutive, so while there are at most 32 of them each is in a bank of its own and the pass is one
// wavefront. Returns the number of words, or 0 when the lanes differ or span more than 32 words.
uint32_t uniform_pass_words(const Pass& p) {
    const uint64_t first = p.access.addr[p.base + static_cast<uint32_t>(std::countr_zero(p.pass_mask))];
    bool same = true;
    if (p.pass_mask == 0xffffffffu) {
        for (uint32_t l = 0; l < 32; ++l) same &= p.access.addr[l] == first;
    } else {
        for (uint32_t m = p.pass_mask; m != 0; m &= m - 1)
            same &= p.access.addr[p.base + static_cast<uint32_t>(std::countr_zero(m))] == first;
    }
    if (!same) return 0;
    const uint64_t words = (first + p.width - 1) / kBankWordBytes - first / kBankWordBytes + 1;
    return words <= kNumBanks ? static_cast<uint32_t>(words) : 0;
}

// A pass with word sharing whose words all lie within 32 consecutive words (a row, a broadcast, a half-warp
// row read twice, any mix of them): distinct words then fall in distinct banks, so the pass is one wavefront.
// One branch-free sweep marks each lane's words in a 64-bit set whose bit 63 is the first lane's word + 31
// (e = the lane's last word - (that word - 32), which must lie in [0, 64)), and the marked bits must span at
// most 32. Each lane touches `Words` whole words, as in narrow_pass_is_single_wavefront, and must be aligned
// to its width (1, 2, 4, or 4 for Words > 1), which the engine's ld/st are. Returns the number of distinct
// words, or 0 when undecided (a misaligned lane, or words spanning more than 32).
template <uint32_t Words>
uint32_t window_pass_words(const Pass& p) {
    const uint64_t first = p.access.addr[p.base + static_cast<uint32_t>(std::countr_zero(p.pass_mask))];
    const uint64_t origin = first / kBankWordBytes - kNumBanks - (Words - 1);
    constexpr uint64_t kLaneBits = ((uint64_t{1} << Words) - 1) << (64 - Words);
    uint64_t bits = 0, outside = 0, address_bits = 0;
    const auto lane = [&](uint64_t addr) {
        const uint64_t e = addr / kBankWordBytes - origin;
        address_bits |= addr;
        outside |= e;
        bits |= kLaneBits >> (63 - (e & 63));
    };
    if (p.pass_mask == 0xffffffffu) {
        for (uint32_t l = 0; l < 32; ++l) lane(p.access.addr[l]);
    } else {
        for (uint32_t m = p.pass_mask; m != 0; m &= m - 1)
            lane(p.access.addr[p.base + static_cast<uint32_t>(std::countr_zero(m))]);
    }
    const uint64_t align = Words == 1 ? std::min<uint32_t>(p.width, kBankWordBytes) : kBankWordBytes;
    if ((outside >> 6) != 0 || (address_bits & (align - 1)) != 0) return 0;
    const auto span = static_cast<uint32_t>(64 - std::countl_zero(bits) - std::countr_zero(bits));
    return span <= kNumBanks ? static_cast<uint32_t>(std::popcount(bits)) : 0;
}

// The worst bank's number of distinct words (or lane-words without sharing) in the pass.
PassCost worst_bank(const Pass& p, bool shared) {
    // 32 lanes x 8 words covers every width up to 32 bytes per lane; wider lanes are clipped, never overrun.
    std::array<uint32_t, 256> words;
    uint32_t n = 0;
    p.for_each_word([&](uint32_t w) {
        if (n < words.size()) words[n++] = w;
    });
    auto* begin = words.begin();
    auto* end = begin + n;
    std::sort(begin, end);
    auto* unique_end = std::unique(begin, end);
    PassCost cost;
    cost.distinct_words = static_cast<uint32_t>(unique_end - begin);
    if (shared) {
        end = unique_end;
    } else {
        // std::unique moved the duplicates past unique_end in unspecified order; recollect all lane-words.
        n = 0;
        p.for_each_word([&](uint32_t w) {
            if (n < words.size()) words[n++] = w;
        });
        end = begin + n;
    }
    std::array<uint32_t, kNumBanks> per_bank{};
    for (auto* w = begin; w != end; ++w) cost.way = std::max(cost.way, ++per_bank[*w % kNumBanks]);
    return cost;
}

}  // namespace

SharedWidth shared_width_class(uint32_t bytes_per_lane) {
    if (bytes_per_lane <= 1) return SharedWidth::b1;
    if (bytes_per_lane <= 2) return SharedWidth::b2;
    if (bytes_per_lane <= 4) return SharedWidth::b4;
    if (bytes_per_lane <= 8) return SharedWidth::b8;
    if (bytes_per_lane <= 16) return SharedWidth::b16;
    return SharedWidth::b32;
}

SharedBankRules SharedBankRules::h200() {
    // Lanes per pass by width class b1, b2, b4, b8, b16, b32 (see the header for the measurements).
    constexpr std::array<uint8_t, kSharedWidthCount> load = {32, 32, 32, 32, 16, 4};
    constexpr std::array<uint8_t, kSharedWidthCount> store = {32, 32, 32, 16, 8, 4};
    SharedBankRules r;
    for (std::size_t w = 0; w < kSharedWidthCount; ++w) {
        r.rule[static_cast<std::size_t>(AccessKind::load)][w] = {load[w], true};
        r.rule[static_cast<std::size_t>(AccessKind::store)][w] = {store[w], true};
        r.rule[static_cast<std::size_t>(AccessKind::atomic)][w] = {store[w], false};
        r.rule[static_cast<std::size_t>(AccessKind::reduction)][w] = {store[w], false};
    }
    return r;
}

SharedCost shared_wavefronts(const WarpAccess& access, const SharedBankRules& rules) {
    return shared_wavefronts(access, rules, access.bytes_per_lane);
}

SharedCost shared_wavefronts(const WarpAccess& access, const SharedBankRules& rules,
                             uint32_t bytes_per_lane) {
    const SharedAccessRule& rule = rules.for_access(access.kind, bytes_per_lane);
    const uint32_t lanes = std::clamp<uint32_t>(rule.lanes_per_pass, 1, 32);
    const uint32_t width = std::max<uint32_t>(bytes_per_lane, 1);
    SharedCost cost;
    for (uint32_t base = 0; base < 32; base += lanes) {
        const uint32_t pass_mask =
            lanes == 32 ? access.active_mask : (access.active_mask >> base) & ((1u << lanes) - 1);
        if (pass_mask == 0) continue;  // a pass with no active lanes is skipped by the hardware
        const Pass pass{access, base, pass_mask, width};
        uint32_t distinct = 0;
        PassCost pc{1, 0};
        bool narrow = false, single = false;
        if (rule.same_word_shared) {
            if (width <= kBankWordBytes)
                distinct = window_pass_words<1>(pass);
            else if (width == 2 * kBankWordBytes)
                distinct = window_pass_words<2>(pass);
            else if (width == 4 * kBankWordBytes)
                distinct = window_pass_words<4>(pass);
            else
                distinct = uniform_pass_words(pass);
            narrow = single = distinct != 0;
            if (!narrow && width <= kBankWordBytes)
                single = narrow_pass_is_single_wavefront<1>(pass, distinct, narrow);
            else if (!narrow && width == 2 * kBankWordBytes)
                single = narrow_pass_is_single_wavefront<2>(pass, distinct, narrow);
            else if (!narrow && width == 4 * kBankWordBytes)
                single = narrow_pass_is_single_wavefront<4>(pass, distinct, narrow);
        }
        if (!narrow) {
            distinct = 0;
            single = pass_is_single_wavefront(pass, rule.same_word_shared, distinct);
        }
        if (single)
            pc.distinct_words = distinct;
        else
            pc = worst_bank(pass, rule.same_word_shared);
        cost.wavefronts += pc.way;
        cost.ideal += std::max<uint32_t>(1, (pc.distinct_words + kNumBanks - 1) / kNumBanks);
        cost.max_way = std::max(cost.max_way, pc.way);
    }
    return cost;
}

SharedCost shared_wavefronts(const WarpAccess& access) {
    return shared_wavefronts(access, SharedBankRules::h200());
}

SharedCost SharedCostMemo::cost(const WarpAccess& access, const SharedBankRules& rules,
                                uint32_t bytes_per_lane) {
    if (access.active_mask == 0) return shared_wavefronts(access, rules, bytes_per_lane);
    if (entries_.empty()) entries_.resize(kEntries);
    Entry& e = entries_[(access.pc * 31u + access.function) % kEntries];
    if (e.function == access.function && e.pc == access.pc && e.active_mask == access.active_mask &&
        e.bytes_per_lane == bytes_per_lane && e.kind == access.kind) {
        const uint32_t first = static_cast<uint32_t>(std::countr_zero(access.active_mask));
        const uint64_t shift = access.addr[first] - e.addr[first];
        uint64_t differ = shift & (kBankWordBytes - 1);
        if (access.active_mask == 0xffffffffu) {
            for (uint32_t l = 0; l < 32; ++l) differ |= access.addr[l] - e.addr[l] - shift;
        } else {
            for (uint32_t l = 0; l < 32; ++l)
                differ |= (access.addr[l] - e.addr[l] - shift) & (0 - uint64_t{access.active_mask >> l & 1u});
        }
        if (differ == 0) return e.cost;
    }
    e.function = access.function;
    e.pc = access.pc;
    e.active_mask = access.active_mask;
    e.bytes_per_lane = bytes_per_lane;
    e.kind = access.kind;
    e.addr = access.addr;
    e.cost = shared_wavefronts(access, rules, bytes_per_lane);
    return e.cost;
}

}  // namespace warpsim::counts
