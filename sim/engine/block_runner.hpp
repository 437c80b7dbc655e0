// sim/engine/block_runner.hpp — runs one thread block: its warps round-robin until all finish, with
// barrier bookkeeping, deadlock detection and the instruction budget.
#pragma once

#include <string>

#include "sim/engine/exec_state.hpp"
#include "sim/engine/schedule.hpp"

namespace warpsim::engine {

constexpr uint64_t kWarpQuantum = 1024;  // warp instructions a turn (unless a schedule seed draws others)
// Rounds in a row in which every warp that ran waited in vain on an mbarrier and no mbarrier changed, after
// which the wait is reported as a deadlock: nothing left in the block (or cluster) can complete the phase.
constexpr uint32_t kMbarrierStallRounds = 4096;

// One round of turns: every ready warp of the block runs up to its quantum, in `order`'s next round, and
// its thread-instructions are charged to the launch's budget. Sets any_ran when a warp ran and clears
// all_done when one has not finished. False on an error (in block.error), the budget's included.
bool run_warp_turns(BlockContext& block, WarpOrder& order, bool& any_ran, bool& all_done);

// Runs the block to completion or to its first error (left in block.error).
void run_block(BlockContext& block);

// Fills block.error with the report of a deadlock: every unfinished warp waits at a barrier that cannot
// complete (a CTA barrier, or barrier.cluster: cluster.hpp).
void report_deadlock(BlockContext& block);
// The same for mbarrier waits (BlockContext::stalled_rounds reached kMbarrierStallRounds).
void report_mbarrier_deadlock(BlockContext& block);
// "; the hottest loop starts at FILE:LINE ..." for the instruction-budget message; empty without loops.
std::string hottest_loop(const BlockContext& block);

}  // namespace warpsim::engine
