// kernels_ir/dataflow.cpp — register_read and atom_result_unused over a function's instructions.
#include "kernels_ir/dataflow.hpp"

namespace warpsim::ir {
namespace {

// Whether args[0] of `op` is only written: false for opcodes without a destination and for those whose first
// operand is read as well (wgmma's accumulators, call's return list, which stays conservative) or is a source
// (nanosleep, stackrestore, setmaxnreg, the address of st/cp/mbarrier/...; address operands are reads anyway).
bool first_arg_only_written(Opcode op) {
    using O = Opcode;
    switch (op) {
    case O::st: case O::red: case O::prefetch: case O::prefetchu: case O::applypriority: case O::discard:
    case O::bra: case O::brx: case O::call: case O::ret: case O::exit: case O::trap: case O::brkpt:
    case O::nanosleep: case O::pmevent: case O::bar: case O::barrier: case O::membar: case O::fence:
    case O::stackrestore: case O::mbarrier: case O::griddepcontrol: case O::cp: case O::stmatrix: case O::wmma:
    case O::wgmma: case O::tensormap: case O::setmaxnreg: case O::multimem: case O::sust: case O::sured:
        return false;
    default: return true;
    }
}

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
        for (std::size_t i = 0; i < inst.args.size(); ++i) {
            const Operand& o = inst.args[i];
            const bool written_only = i == 0 && o.kind != Operand::Kind::address && first_arg_only_written(inst.op);
            if (!written_only && operand_reads(o, reg)) return true;
        }
    }
    return false;
}

bool atom_result_unused(const Function& fn, const Instruction& atom) {
    if (atom.args.empty()) return false;
    const Operand& d = atom.args[0];
    return d.kind == Operand::Kind::sink || (d.kind == Operand::Kind::reg && !register_read(fn, d.reg));
}

}  // namespace warpsim::ir
