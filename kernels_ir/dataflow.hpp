// kernels_ir/dataflow.hpp — register-use questions several layers ask of a function (the engine's schedule,
// its atomics, explain): whether a register is ever read, whether an atom's old value is.
#pragma once

#include <cstdint>

#include "kernels_ir/ir.hpp"

namespace warpsim::ir {

// Whether register `reg` is read anywhere in fn: a source operand (vector and pair elements, call argument
// lists, address bases included) or a guard predicate. A register written again before a read counts as read
// (no data flow): conservative.
bool register_read(const Function& fn, uint32_t reg);

// Whether no instruction of fn reads the old value an atom returns (its destination is `_` or a register
// register_read says is never read). ptxas emits RED for such an atom.
bool atom_result_unused(const Function& fn, const Instruction& atom);

}  // namespace warpsim::ir
