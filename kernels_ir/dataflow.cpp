// kernels_ir/dataflow.cpp — register_read and atom_result_unused over a function's instructions.
#include "kernels_ir/dataflow.hpp"

#include "kernels_ir/operand_roles.hpp"

namespace warpsim::ir {
namespace {

bool operand_reads(const Operand& o, uint32_t r) {
    if ((o.kind == Operand::Kind::reg || o.kind == Operand::Kind::address) && o.reg == r) return true;
    for (const auto& e : o.elems)
        if (operand_reads(e, r)) return true;
    return false;
}

}  // namespace

bool register_read(const Function& fn, uint32_t reg) {
    for (const auto& inst : fn.body) {
        if (inst.pred.reg == reg) return true;
        const OperandRoles roles(inst);  // call's return list and wgmma's accumulators count as read
        for (std::size_t i = 0; i < inst.args.size(); ++i)
            if (roles[i] != Role::written && operand_reads(inst.args[i], reg)) return true;
    }
    return false;
}

bool atom_result_unused(const Function& fn, const Instruction& atom) {
    if (atom.args.empty()) return false;
    const Operand& d = atom.args[0];
    return d.kind == Operand::Kind::sink || (d.kind == Operand::Kind::reg && !register_read(fn, d.reg));
}

}  // namespace warpsim::ir
