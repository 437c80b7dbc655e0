// kernels_ir/operand_roles.cpp — operand roles from the opcode table's signature column and the form.
#include "kernels_ir/operand_roles.hpp"

namespace warpsim::ir {

OperandRoles::OperandRoles(const Instruction& inst) : inst_(&inst) {
    if (inst.args.empty() || inst.args[0].kind == Operand::Kind::address) return;
    switch (operand_signature(inst.op)) {
        case OperandSig::def:
            first_ = Role::written;
            break;
        case OperandSig::use:
            first_ = Role::read;
            break;
        case OperandSig::acc:
            first_ = Role::read_written;
            break;
        case OperandSig::form:
            if (inst.op == Opcode::bar || inst.op == Opcode::barrier) {
                // bar.red / barrier.red: d, a{, b}, {!}c; every other bar/barrier form reads
                first_ = inst.d.bar == BarMode::red ? Role::written : Role::read;
            } else {
                // mbarrier, wmma, multimem: the forms whose first operand is a register write it
                // (mbarrier.arrive state, [a]; wmma.load d, [a]; multimem.ld_reduce d, [a]); the others start
                // with an address (mbarrier.init [a], n; wmma.store [a], ...; multimem.st/red [a], b),
                // returned above
                first_ = Role::written;
            }
            break;
    }
}

Role OperandRoles::operator[](std::size_t i) const {
    if (i >= inst_->args.size()) return Role::read;
    if (inst_->args[i].kind == Operand::Kind::address) return Role::address;
    return i == 0 ? first_ : Role::read;
}

}  // namespace warpsim::ir
