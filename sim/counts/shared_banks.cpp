// sim/counts/shared_banks.cpp — per-pass bank occupancy for warp-level shared-memory accesses.
#include "sim/counts/shared_banks.hpp"

#include <algorithm>
#include <bit>

namespace warpsim::counts {

namespace {

// Words one pass asks the banks for. A pass has at most 32 lane-words under the default rules (32 x 1,
// 16 x 2, 8 x 4, 4 x 8); rules with more lanes per pass than that are clipped, never overrun.
struct PassWords {
    std::array<uint32_t, 64> word{};
    uint32_t size = 0;
};

// Distinct words per bank, worst bank. `shared`: lanes on the same word share it (sort + unique first).
uint32_t worst_bank(PassWords& p, bool shared) {
    // Fast path: every bank asked for at most one distinct word (conflict-free or broadcast).
    std::array<uint32_t, kNumBanks> first{};
    uint32_t seen = 0;
    bool simple = true;
    for (uint32_t i = 0; i < p.size && simple; ++i) {
        const uint32_t bank = p.word[i] % kNumBanks;
        if ((seen >> bank & 1u) == 0) {
            seen |= 1u << bank;
            first[bank] = p.word[i];
        } else if (!shared || first[bank] != p.word[i]) {
            simple = false;
        }
    }
    if (simple) return p.size == 0 ? 0 : 1;
    auto* begin = p.word.begin();
    auto* end = begin + p.size;
    if (shared) {
        std::sort(begin, end);
        end = std::unique(begin, end);
    }
    std::array<uint32_t, kNumBanks> per_bank{};
    uint32_t worst = 0;
    for (auto* w = begin; w != end; ++w) worst = std::max(worst, ++per_bank[*w % kNumBanks]);
    return worst;
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
    // Lanes per pass so that one pass asks for at most 128 bytes (32 banks x 4 B).
    constexpr std::array<uint8_t, kSharedWidthCount> lanes = {32, 32, 32, 16, 8, 4};
    SharedBankRules r;
    for (auto& kind : r.rule)
        for (std::size_t w = 0; w < kSharedWidthCount; ++w) kind[w] = SharedAccessRule{lanes[w], true};
    return r;
}

SharedCost shared_wavefronts(const WarpAccess& access, const SharedBankRules& rules) {
    const SharedAccessRule& rule = rules.for_access(access.kind, access.bytes_per_lane);
    const uint32_t lanes = std::clamp<uint32_t>(rule.lanes_per_pass, 1, 32);
    const uint32_t width = std::max<uint32_t>(access.bytes_per_lane, 1);
    SharedCost cost;
    for (uint32_t base = 0; base < 32; base += lanes) {
        const uint32_t pass_mask =
            lanes == 32 ? access.active_mask : (access.active_mask >> base) & ((1u << lanes) - 1);
        if (pass_mask == 0) continue;  // a pass with no active lanes is skipped by the hardware
        PassWords p;
        for (uint32_t m = pass_mask; m != 0; m &= m - 1) {
            const uint64_t addr = access.addr[base + static_cast<uint32_t>(std::countr_zero(m))];
            const uint64_t first = addr / kBankWordBytes;
            const uint64_t last = (addr + width - 1) / kBankWordBytes;
            for (uint64_t w = first; w <= last && p.size < p.word.size(); ++w)
                p.word[p.size++] = static_cast<uint32_t>(w);
        }
        const uint32_t way = worst_bank(p, rule.same_word_shared);
        cost.wavefronts += way;
        cost.ideal += 1;
        cost.max_way = std::max(cost.max_way, way);
    }
    return cost;
}

SharedCost shared_wavefronts(const WarpAccess& access) {
    return shared_wavefronts(access, SharedBankRules::h200());
}

}  // namespace warpsim::counts
