// sim/engine/reconverge.hpp — per-instruction immediate post-dominators: where divergent lanes meet again.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels_ir/ir.hpp"

namespace warpsim::engine {

// ipdom[pc] for every pc of fn.body; the virtual exit is body.size(). Branch targets come from label
// operands (imm = pc); brx.idx uses the function's branch tables.
std::vector<uint32_t> immediate_post_dominators(const ir::Function& fn);

}  // namespace warpsim::engine
