// kernels_ir/dataflow.hpp — register-use questions several layers ask of a function (the engine's schedule,
// its atomics, explain): whether a register is ever read, whether an atom's old value is.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels_ir/ir.hpp"

namespace warpsim::ir {

// Whether register `reg` is read anywhere in fn: a source operand (vector and pair elements, call argument
// lists, address bases included) or a guard predicate. A register written again before a read counts as read
// (no data flow): conservative.
bool register_read(const Function& fn, uint32_t reg);

// Whether no instruction of fn reads the old value an atom returns (its destination is `_` or a register
// register_read says is never read). ptxas emits RED for such an atom.
bool atom_result_unused(const Function& fn, const Instruction& atom);

// Registers of fn whose value is the same in every lane of a warp, as far as the PTX shows without knowing
// the data (indexed by register number): written once, by an instruction whose sources are all uniform
// (immediates, symbols, kernel parameters, constant-bank loads at uniform addresses, %ctaid, %ntid, %nctaid
// and the other per-block or per-grid special registers), under no guard or a uniform one. Anything derived
// from %tid, %laneid, a global or shared load, an atomic, a shuffle or a vote is not, nor is a register
// written twice (a loop counter, a value merged from two paths). Conservative: ptxas's own analysis may find
// more.
std::vector<bool> warp_uniform_registers(const Function& fn);

// Whether the address of a memory instruction (its first [..] operand) is warp-uniform by that analysis: for
// a global atomic or reduction, ptxas then combines the warp's lanes into one update (REDUX / a leader lane).
bool address_warp_uniform(const Instruction& inst, const std::vector<bool>& uniform);

}  // namespace warpsim::ir
