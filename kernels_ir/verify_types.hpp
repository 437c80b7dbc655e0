// kernels_ir/verify_types.hpp — operand types against the instruction type, undeclared symbols and duplicate
// names: the verifier's checks that need the register and symbol tables (verifier.cpp calls them).
#pragma once

#include <string_view>
#include <vector>

#include "kernels_ir/ir.hpp"
#include "kernels_ir/parser.hpp"

namespace warpsim::ir {

// Appends an error for each operand whose register type ptxas rejects for the instruction ("Arguments
// mismatch"), each symbol declared nowhere, and each module-scope variable or parameter declared twice.
void verify_operand_types(const Module& module, std::string_view file_name, std::vector<Diagnostic>& out);

}  // namespace warpsim::ir
