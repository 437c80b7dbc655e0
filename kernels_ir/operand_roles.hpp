// kernels_ir/operand_roles.hpp — which operands of an instruction are read, written, both, or addresses: the
// one answer the engine's decoder, the register-use analyses, the timing model and the verifier share.
#pragma once

#include <cstddef>

#include "kernels_ir/ir.hpp"

namespace warpsim::ir {

enum class Role : uint8_t { read, written, read_written, address };

// The roles of one instruction's operands, from its opcode's signature (opcodes.def) and, for the opcodes
// whose roles depend on the form, the instruction itself. Vector and pair operands (`{%r1, %r2}`, `%p|%q`)
// have one role for all their elements.
class OperandRoles {
  public:
    explicit OperandRoles(const Instruction& inst);
    Role operator[](std::size_t i) const;  // role of args[i] (read past the end)
    bool writes() const { return first_ == Role::written || first_ == Role::read_written; }  // args[0]
    bool only_written() const { return first_ == Role::written; }

  private:
    const Instruction* inst_;
    Role first_ = Role::read;
};

inline OperandRoles operand_roles(const Instruction& inst) {
    return OperandRoles(inst);
}

}  // namespace warpsim::ir
