// sim/engine/block_runner.hpp — runs one thread block: its warps round-robin until all finish, with
// barrier bookkeeping, deadlock detection and the instruction budget.
#pragma once

#include <string>

#include "sim/engine/exec_state.hpp"

namespace warpsim::engine {

// Runs the block to completion or to its first error (left in block.error).
void run_block(BlockContext& block);

// Fills block.error with the report of a deadlock: every unfinished warp waits at a barrier that cannot
// complete (a CTA barrier, or barrier.cluster: cluster.hpp).
void report_deadlock(BlockContext& block);
// "; the hottest loop starts at FILE:LINE ..." for the instruction-budget message; empty without loops.
std::string hottest_loop(const BlockContext& block);

}  // namespace warpsim::engine
