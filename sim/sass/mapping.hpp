// sim/sass/mapping.hpp — which PTX instructions each SASS instruction of a kernel stands for, as far as the
// counters need it: neighbouring ld.shared/st.shared that ptxas merged into one LDS.64/.128 (STS), and
// branches over shared and global accesses that it if-converted into predicated LDS/STS/LDG/STG
// (counts::SassPlan).
#pragma once

#include <cstdint>
#include <memory>

#include "kernels_ir/ir.hpp"
#include "sim/counts/sass_plan.hpp"
#include "sim/sass/decode.hpp"

namespace warpsim::sass {

// The plan for the PTX function `function` of `module`, compiled by ptxas into `code` (the SASS function
// of the same name, with its PTX lines). Decisions are made only where the PTX shows them unambiguously:
// - merge: a SASS LDS/STS of width W carries the PTX line of a shared access of width w < W; the group is
//   the W/w accesses of the same basic block, direction, width, guard and base register (not written
//   between them) at offsets o, o+w, ... with o a multiple of W (else the first complete run) holding it;
// - if-conversion: a guarded PTX branch over a straight-line region (no label inside, no branch, barrier or
//   call), or `@p bra A; bra.uni END` into one that starts at A (which no other branch targets), every SASS
//   LDS/STS/LDG/STG of whose lines is predicated, and no SASS branch from the branches' lines.
counts::SassPlan plan_shared_accesses(const ir::Module& module, uint32_t function, const Function& code);

}  // namespace warpsim::sass
