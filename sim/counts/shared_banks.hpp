// sim/counts/shared_banks.hpp — the shared-memory bank model: wavefronts and bank conflicts per warp access.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/counts/access.hpp"

namespace warpsim::counts {

inline constexpr uint32_t kNumBanks = 32;
inline constexpr uint32_t kBankWordBytes = 4;

// How one kind and width of shared access is served. The warp is split into passes of `lanes_per_pass`
// consecutive lanes (32: one pass; 16: two half-warp passes; 8: four quarter-warp passes). A pass with no
// active lane costs nothing; otherwise its wavefronts are the largest number of 4-byte words any single bank
// must deliver, and its ideal wavefronts are ceil(distinct words / 32) (a bank delivers one word per
// wavefront). `same_word_shared`: lanes addressing the same 4-byte word share one delivery (broadcast);
// false makes every lane's word a separate access (shared atomics: same-address atomics serialise).
struct SharedAccessRule {
    uint8_t lanes_per_pass = 32;
    bool same_word_shared = true;
};

// Width classes that index a rule table: 1, 2, 4, 8, 16 and 32 bytes per lane.
enum class SharedWidth : uint8_t { b1, b2, b4, b8, b16, b32 };
inline constexpr std::size_t kSharedWidthCount = 6;
inline constexpr std::size_t kSharedKindCount = 4;  // AccessKind: load, store, atomic, reduction

SharedWidth shared_width_class(uint32_t bytes_per_lane);

// The rule table, [AccessKind][SharedWidth]. h200() holds what ncu read on an H200 (tests/counts/h200/,
// probe_counts.cu): loads of 1-8 bytes in one full-warp pass and 16-byte loads in two half-warp passes;
// stores of 1-4 bytes in one pass, 8 bytes in two half-warp and 16 bytes in four quarter-warp passes;
// 4-byte atomics in one pass without word sharing. Widths not measured (8-byte atomics, 32-byte lanes)
// use 128 bytes per pass. This differs from DESIGN.md's rule for 8- and 16-byte loads, which the
// measurements contradict (an 8-byte broadcast load is 1 wavefront, a 16-byte one 2).
struct SharedBankRules {
    std::array<std::array<SharedAccessRule, kSharedWidthCount>, kSharedKindCount> rule{};

    const SharedAccessRule& for_access(AccessKind kind, uint32_t bytes_per_lane) const {
        return rule[static_cast<std::size_t>(kind)]
                   [static_cast<std::size_t>(shared_width_class(bytes_per_lane))];
    }
    static SharedBankRules h200();
};

// Cost of one warp-level shared access.
struct SharedCost {
    uint32_t wavefronts = 0;  // l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*
    uint32_t ideal = 0;       // per pass with active lanes, ceil(distinct words / 32)
    uint32_t max_way = 0;     // the worst bank's distinct-word count in any pass ("N-way bank conflict")
    uint32_t conflicts() const { return wavefronts - ideal; }
};

// Wavefronts of a warp access to shared memory under the given rules (addresses are byte offsets in the
// block's shared window; bank = (addr / 4) % 32; a lane of W > 4 bytes touches W / 4 consecutive words).
SharedCost shared_wavefronts(const WarpAccess& access, const SharedBankRules& rules);
// Same, as if each lane accessed `bytes_per_lane` bytes from its address (a merged LDS/STS counted from its
// first member's lanes) instead of access.bytes_per_lane.
SharedCost shared_wavefronts(const WarpAccess& access, const SharedBankRules& rules, uint32_t bytes_per_lane);
// Same, under SharedBankRules::h200().
SharedCost shared_wavefronts(const WarpAccess& access);

// shared_wavefronts with the last cost of each of a few instruction sites remembered (direct-mapped by
// function and pc). An access of the same site, kind, width and active lanes whose every active lane lies
// at the remembered lane's address plus one common shift that is a multiple of 4 bytes gets the remembered
// cost: such a shift moves every lane's words by the same count, so each lane keeps its offset within its
// word, the words keep their distinctness and differences, and the banks (word % 32) are permuted the same
// way for every lane; every pass then asks each bank for as many distinct words as before. (A tile loop
// reads the same pattern at each warp's and each turn's base: matmul's As[ty][k] and Bs[k][tx].)
class SharedCostMemo {
  public:
    SharedCost cost(const WarpAccess& access, const SharedBankRules& rules, uint32_t bytes_per_lane);

  private:
    static constexpr std::size_t kEntries = 64;
    struct Entry {
        uint32_t function = ~0u, pc = ~0u, active_mask = 0, bytes_per_lane = 0;
        AccessKind kind = AccessKind::load;
        SharedCost cost;
        std::array<uint64_t, 32> addr{};
    };
    std::vector<Entry> entries_;  // sized at the first access: a counter without shared accesses pays nothing
};

}  // namespace warpsim::counts
