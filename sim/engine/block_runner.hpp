// sim/engine/block_runner.hpp — runs one thread block: its warps round-robin until all finish, with
// barrier bookkeeping, deadlock detection and the instruction budget.
#pragma once

#include "sim/engine/exec_state.hpp"

namespace warpsim::engine {

// Runs the block to completion or to its first error (left in block.error).
void run_block(BlockContext& block);

}  // namespace warpsim::engine
