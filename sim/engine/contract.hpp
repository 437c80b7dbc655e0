// sim/engine/contract.hpp — the decode-time pass that fuses mul + add/sub without rounding modifiers into an
// fma, as ptxas does (see contract.cpp for the rule and the evidence).
#pragma once

#include "kernels_ir/cfg.hpp"
#include "kernels_ir/ir.hpp"
#include "sim/engine/program.hpp"

namespace warpsim::engine {

// Rewrites the add/sub DInsts of `df` (already decoded) that consume a contractible mul.
void contract_mul_add(const ir::Function& fn, const ir::Cfg& cfg, DecodedFunction& df);

}  // namespace warpsim::engine
