// kernels_ir/verifier.hpp — checks a parsed Module against the operand signatures and modifier rules of PTX.
#pragma once

#include <string_view>
#include <vector>

#include "kernels_ir/ir.hpp"
#include "kernels_ir/parser.hpp"

namespace warpsim::ir {

// Operand count and kinds per opcode (a table in verifier.cpp, every opcode outside the typed-form families
// and call), registers in range and predicate guards of type .pred, resolved labels, call targets and
// prototypes that exist, and the type/modifier combinations PTX forbids (.ftz on integers, rounding on
// integer add, setp without a compare, cvt without two types, ...), and the modifiers of the families with
// typed forms (kernels_ir/forms/: cp, cp.reduce, mbarrier, wgmma, ldmatrix, stmatrix, wmma, mma), each error
// at the modifier it is about. Diagnostics point at the instruction's PTX line and column.
std::vector<Diagnostic> verify(const Module& module, std::string_view file_name);

// Whether the verifier has a rule for `op`: an operand signature (verifier.cpp's table), the call checks, or
// a typed form (kernels_ir/forms/). True for every opcode of opcodes.def (tests/ir/verifier_test.cpp).
bool verifier_covers(Opcode op);

}  // namespace warpsim::ir
