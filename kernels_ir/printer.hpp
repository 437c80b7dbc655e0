// kernels_ir/printer.hpp — ir::Module -> PTX text that parses back to an equal Module.
#pragma once

#include <string>

#include "kernels_ir/ir.hpp"

namespace warpsim::ir {

// Layout: header, .file table, a declaration of every function (so that initialisers and calls may refer
// forward), the module variables, then every function body. Scoped blocks come out flattened (the parser
// already renamed their registers and locals), and .loc lines are emitted where the source position changes.
std::string print_module(const Module& module);

std::string print_instruction(const Function& fn, const Instruction& inst);  // "@%p1 bra $L__BB0_2;"
std::string print_operand(const Function& fn, const Operand& op);

// Module equality that ignores PTX line/column positions (which printing changes) but nothing else.
bool equal_ignoring_ptx_positions(const Module& a, const Module& b);

}  // namespace warpsim::ir
