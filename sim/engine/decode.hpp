// sim/engine/decode.hpp — turns a loaded Module into a Program of pre-decoded functions.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "kernels_ir/ir.hpp"
#include "sim/engine/program.hpp"

namespace warpsim::engine {

// Where module-scope variables live once the module is loaded.
struct ModuleLayout {
    std::map<std::string, uint64_t, std::less<>> global_addr;  // .global/.const variables: device address
};

Program decode_module(const ir::Module& module, const ModuleLayout& layout);

// Whether register `reg` is read anywhere in fn: a source operand (vector and pair elements, call argument
// lists, address bases included) or a guard predicate. A register written again before a read counts as read
// (no data flow): conservative.
bool register_read(const ir::Function& fn, uint32_t reg);

// Whether no instruction of fn reads the old value an atom returns (its destination is `_` or a register
// register_read says is never read). ptxas emits RED for such an atom.
bool atom_result_unused(const ir::Function& fn, const ir::Instruction& atom);

// The ir::Type's size in bytes as a register mask (all ones for 8-byte and larger types).
uint64_t width_mask(ir::Type t);

}  // namespace warpsim::engine
