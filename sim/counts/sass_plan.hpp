// sim/counts/sass_plan.hpp — what ptxas made of a kernel's memory accesses, so that the counters count per
// SASS instruction (the unit the SM issues) while the PTX still gives every lane's address: neighbouring PTX
// shared accesses merged into one wider LDS/STS, and branches over shared and global accesses that ptxas
// if-converted into predicated instructions, which a warp issues even when none of its lanes takes them.
// sim/sass/mapping.hpp builds it from the decoded SASS; without one the counters count the PTX as it is.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/counts/unrolled_loop.hpp"

namespace warpsim::counts {

struct SassPlan {
    enum class Role : uint8_t {
        plain,     // one SASS instruction of the same width
        leader,    // the first PTX access of a merged group: counted as one access of `bytes` per lane
        follower,  // another member of a merged group: counted in its leader
        // a generic ld/st/atom/red (SASS LD/ST/ATOM/RED): its shared-memory wavefronts count, but it is no
        // shared instruction
        generic,
    };
    struct Shared {
        Role role = Role::plain;
        uint8_t bytes = 0;  // leader: bytes per lane of the merged SASS instruction
        uint16_t note = 0;  // 1 + index into `notes` of the decision that made this role; 0: none
    };
    // An if-converted branch: the PTX branch at head_pc jumps over the straight-line region that starts at
    // first_pc (`@p bra END; region; END:`), or into it (`@p bra A; bra.uni END; A: region; END:`); ptxas
    // made the region predicated instructions, so each warp that reaches the branch issues them, also when
    // no lane enters the region. Warps that skip it = executions(head_pc) - executions(first_pc).
    struct Region {
        uint32_t function = 0, head_pc = 0, first_pc = 0;
        uint32_t shared_loads = 0, shared_stores = 0;  // the region's SASS LDS / STS instructions
        uint32_t global_loads = 0, global_stores = 0;  // its SASS LDG / STG instructions
    };
    // A basic block of the kernel's SASS (sim/sass/block_counts.hpp): a warp runs it once each time it runs
    // the PTX instruction at (function, anchor_pc), with the same active lanes. Warp-level instruction totals
    // are then sum(instructions * executions(anchor)), thread-level ones sum(instructions * lanes(anchor)).
    // A block ptxas put on one edge of a guarded PTX branch (a loop's preheader, say) runs as often as warps
    // leave the branch on that edge: anchor_pc is then the branch.
    // A block holding the CALL of an f32 division's or reciprocal's slow-path subroutine runs only in warps
    // where some lane's operands need it (on_slow_path, anchor_pc: that div/rcp): the counts are per SASS
    // instruction while no warp does, since the subroutine's own path is not followed.
    // A block of a loop ptxas unrolled further than the PTX (in_unrolled_loop: node `node` of loops[loop])
    // runs as often as the walk through the loop's SASS blocks says for each entry's trip count
    // (KernelCounters follows every warp's trips, and every lane's where they leave after different ones:
    // counts::walk_lane_groups).
    enum class Runs : uint8_t { with_block, on_taken, on_fallthrough, on_slow_path, in_unrolled_loop };
    struct Block {
        uint32_t function = 0, anchor_pc = 0;
        uint32_t instructions = 0;
        Runs runs = Runs::with_block;
        uint32_t loop = 0, node = 0;  // in_unrolled_loop only
    };
    // A SASS instruction of blocks[block] that carries the PTX line of (function, pc): per-line reports. Its
    // lanes with a true guard (smsp__thread_inst_executed_pred_on) are those of the PTX instruction at
    // lanes_pc: `lanes` says which of its counts.
    enum class Lanes : uint8_t {
        issued,     // unpredicated: the anchor's active lanes
        entered,    // an if-converted instruction: the lanes that ran the PTX instruction at lanes_pc
        guard_on,   // the guard of the PTX instruction at lanes_pc: its guard-true lanes
        guard_off,  // the inverted guard of a PTX branch at lanes_pc: its active lanes less the guard-true
                    // ones
        leader,  // a warp-aggregated atomic (VOTEU.ANY, UFLO, then the atomic guarded by "lane is the lowest
                 // active one"): one lane each time the block runs
        scaled,  // the range scaling around an f32 .approx MUFU: the lanes of the instruction at lanes_pc
                 // whose operands it scales (KernelCounters::on_scaled)
        selected,     // computes the first operand of the selp at lanes_pc over the second one's register
                      // (if-converted): the selp's lanes with a true predicate (KernelCounters::on_select)
        rejected,     // the same for the selp's second operand: its lanes with a false predicate
        unknown,      // a predicate ptxas made: pred_on stays PTX-level
        loop_branch,  // the branch ending a block of an unrolled loop: its lanes each time it is taken
        loop_entry,   // the branch into unrolled loop `loop` before it: its lanes in entries that take it
    };
    struct LineShare {
        uint32_t block = 0, pc = 0;
        Lanes lanes = Lanes::issued;
        uint32_t lanes_pc = 0;
        uint32_t loop = 0;  // loop_entry only
    };
    // A reconvergence point (BSYNC) that a warp issues once per group of lanes arriving at it: one more time
    // for each warp that diverged at the PTX branch at (function, branch_pc) inside its BSSY region.
    struct Rejoin {
        uint32_t function = 0, branch_pc = 0;
        uint32_t bsync_pc = 0;  // the PTX pc the BSYNC is counted on in per-line reports
    };
    // The same for a branch of an unrolled loop (node `node` of loops[loop], or the branch into it:
    // node == nodes.size()): once more each time it split the lanes of a warp entry
    // (KernelCounters::LoopNodeCounts::divergent).
    struct LoopRejoin {
        uint32_t loop = 0, node = 0;
        uint32_t bsync_pc = 0;
    };
    std::vector<Block> blocks;
    std::vector<LineShare> line_shares;
    std::vector<Rejoin> rejoins;
    std::vector<LoopRejoin> loop_rejoins;
    std::vector<UnrolledLoop> loops;
    bool instructions_mapped = false;         // false: instruction totals stay PTX-level
    bool pred_on_mapped = false;              // false: smsp__thread_inst_executed_pred_on stays PTX-level
    std::string instruction_counting;         // "per SASS instruction (...)" or "PTX-level counts (why)"
    std::vector<std::vector<Shared>> shared;  // [function][pc]; missing entries are plain
    std::vector<Region> regions;
    // For reports, one line per decision: "ptxas merged PTX lines 514-523 into one 16-byte LDS.128 ...".
    std::vector<std::string> notes;

    const Shared* role(uint32_t function, uint32_t pc) const {
        if (function >= shared.size() || pc >= shared[function].size()) return nullptr;
        return &shared[function][pc];
    }
};

}  // namespace warpsim::counts
