// kernels_ir/details.hpp — decodes an instruction's dotted modifiers into ir::Details.
#pragma once

#include <string>
#include <vector>

#include "kernels_ir/ir.hpp"

namespace warpsim::ir {

// A pure function of (opcode, mods): every field of Details that a modifier names is set; modifiers that
// mean nothing for the opcode stay only in mods (the verifier judges them). The first type modifier goes
// to d.type, the second to d.type2 (cvt: destination, source; set/slct: destination, compare/selector);
// the first state space goes to d.space (cp.async.shared.global: the destination's).
Details decode_details(Opcode op, const std::vector<std::string>& mods);

// The execution class refined by type: fp32-class opcodes on f64 are fp64, on f16/bf16 fp16; integer
// add/mul/... on f32 are fp32, and so on. Falls back to exec_class(op).
ExecClass exec_class_of(const Instruction& inst);

}  // namespace warpsim::ir
