// sim/counts/shared_banks.hpp — the shared-memory bank model: wavefronts and bank conflicts per warp access.
#pragma once

#include <array>
#include <cstdint>

#include "sim/counts/access.hpp"

namespace warpsim::counts {

inline constexpr uint32_t kNumBanks = 32;
inline constexpr uint32_t kBankWordBytes = 4;

// How one kind and width of shared access is served. The warp is split into passes of `lanes_per_pass`
// consecutive lanes (32: one pass; 16: two half-warp passes; 8: four quarter-warp passes); each pass with at
// least one active lane costs one ideal wavefront, and the wavefronts it really costs are the largest number
// of 4-byte words any single bank must deliver. `same_word_shared`: lanes addressing the same 4-byte word
// share one delivery (the broadcast / multicast rule); false would make every lane's word a separate access.
struct SharedAccessRule {
    uint8_t lanes_per_pass = 32;
    bool same_word_shared = true;
};

// Width classes that index a rule table: 1, 2, 4, 8, 16 and 32 bytes per lane.
enum class SharedWidth : uint8_t { b1, b2, b4, b8, b16, b32 };
inline constexpr std::size_t kSharedWidthCount = 6;
inline constexpr std::size_t kSharedKindCount = 4;  // AccessKind: load, store, atomic, reduction

SharedWidth shared_width_class(uint32_t bytes_per_lane);

// The rule table, [AccessKind][SharedWidth]. The default is the rule the project read off an H200 for
// 4-, 8- and 16-byte loads (DESIGN.md, "Counting rules"), applied to every kind and to 1- and 2-byte
// widths as well; measured rules for stores, atomics and narrow widths replace single entries here.
struct SharedBankRules {
    std::array<std::array<SharedAccessRule, kSharedWidthCount>, kSharedKindCount> rule{};

    const SharedAccessRule& for_access(AccessKind kind, uint32_t bytes_per_lane) const {
        return rule[static_cast<std::size_t>(kind)][static_cast<std::size_t>(shared_width_class(bytes_per_lane))];
    }
    static SharedBankRules h200();
};

// Cost of one warp-level shared access.
struct SharedCost {
    uint32_t wavefronts = 0;  // l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*
    uint32_t ideal = 0;       // passes with at least one active lane
    uint32_t max_way = 0;     // the worst bank's distinct-word count in any pass ("N-way bank conflict")
    uint32_t conflicts() const { return wavefronts - ideal; }
};

// Wavefronts of a warp access to shared memory under the given rules (addresses are byte offsets in the
// block's shared window; bank = (addr / 4) % 32; a lane of W > 4 bytes touches W / 4 consecutive words).
SharedCost shared_wavefronts(const WarpAccess& access, const SharedBankRules& rules);
// Same, under SharedBankRules::h200().
SharedCost shared_wavefronts(const WarpAccess& access);

}  // namespace warpsim::counts
