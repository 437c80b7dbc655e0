// sim/sass/block_counts.hpp — how often each SASS basic block of a kernel runs, in terms of the PTX the
// engine executes: the SASS control-flow graph (blocks split at branch targets, after BRA and EXIT), each
// block tied to the one PTX basic block whose executions it follows (counts::SassPlan::Block), so that
// instruction totals count what the SM issues. Only where the correspondence is structural; elsewhere the
// plan says why the totals stay PTX-level.
#pragma once

#include <cstdint>

#include "kernels_ir/ir.hpp"
#include "sim/counts/sass_plan.hpp"
#include "sim/sass/decode.hpp"

namespace warpsim::sass {

// Fills plan.blocks, plan.line_shares, plan.instructions_mapped and plan.instruction_counting for the PTX
// function `function` of `module`, compiled by ptxas into `code` (with its PTX line table). The anchor of a
// SASS block is chosen among the PTX blocks of its unpredicated instructions (predicated ones may be an
// if-converted branch, which every arriving warp issues): those of the shallowest PTX loop depth (ptxas
// hoists invariant code out of loops), and of them the one all others dominate (it sinks code into
// conditional blocks). The mapping is refused (PTX-level totals) when the SASS has calls, returns or indirect
// branches, a block has no PTX line to go by, its PTX blocks are no chain of dominators, a PTX block is split
// over SASS blocks that do not run one after the other, or a PTX memory instruction appears twice in the SASS
// (a loop ptxas unrolled: its copies run a number of times the PTX counts do not give) outside a one-block
// PTX loop that ptxas unrolled into a main loop and remainder blocks: those blocks (plan.loops) are counted
// from each warp entry's trip count (counts::walk_unrolled_loop).
void plan_instruction_counts(const ir::Module& module, uint32_t function, const Function& code,
                             counts::SassPlan& plan);

}  // namespace warpsim::sass
