// kernels_ir/dataflow.cpp — register_read and atom_result_unused over a function's instructions.
#include "kernels_ir/dataflow.hpp"

#include <algorithm>

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

namespace {

bool special_uniform(SpecialReg r) {
    switch (r) {
        case SpecialReg::ntid:
        case SpecialReg::ctaid:
        case SpecialReg::nctaid:
        case SpecialReg::nwarpid:
        case SpecialReg::smid:
        case SpecialReg::nsmid:
        case SpecialReg::gridid:
        case SpecialReg::dynamic_smem_size:
        case SpecialReg::total_smem_size:
        case SpecialReg::aggr_smem_size:
        case SpecialReg::clusterid:
        case SpecialReg::nclusterid:
        case SpecialReg::cluster_ctaid:
        case SpecialReg::cluster_nctaid:
        case SpecialReg::cluster_ctarank:
        case SpecialReg::cluster_nctarank:
        case SpecialReg::is_explicit_cluster:
            return true;
        default:
            return false;
    }
}

// Whether an instruction can produce a lane-dependent value from uniform sources.
bool lane_dependent_op(const Instruction& inst) {
    switch (inst.op) {
        case Opcode::ld:
        case Opcode::ldu:
            return inst.d.space != Space::param && inst.d.space != Space::const_;
        case Opcode::atom:
        case Opcode::red:
        case Opcode::shfl:
        case Opcode::vote:
        case Opcode::match:
        case Opcode::activemask:
        case Opcode::redux:
        case Opcode::call:
            return true;
        default:
            return inst.op != Opcode::mov && inst.op != Opcode::cvta && inst.op != Opcode::cvt &&
                   ir::family(inst.op) != Family::arithmetic && ir::family(inst.op) != Family::logic &&
                   ir::family(inst.op) != Family::compare;
    }
}

bool operand_uniform(const Operand& o, const std::vector<bool>& uniform) {
    switch (o.kind) {
        case Operand::Kind::reg:
        case Operand::Kind::address:
            return o.reg == kNoReg || (o.reg < uniform.size() && uniform[o.reg]);
        case Operand::Kind::special:
            return special_uniform(o.sreg);
        case Operand::Kind::vector:
        case Operand::Kind::list:
        case Operand::Kind::pair:
            for (const auto& e : o.elems)
                if (!operand_uniform(e, uniform)) return false;
            return true;
        default:
            return true;  // immediates, symbols, sinks
    }
}

void collect_written(const Operand& o, std::vector<uint32_t>& out) {
    if (o.kind == Operand::Kind::reg) out.push_back(o.reg);
    for (const auto& e : o.elems) collect_written(e, out);
}

}  // namespace

std::vector<bool> warp_uniform_registers(const Function& fn) {
    uint32_t nregs = 0;
    auto grow = [&](uint32_t r) {
        if (r != kNoReg) nregs = std::max(nregs, r + 1);
    };
    std::vector<std::vector<uint32_t>> writes(fn.body.size());
    for (std::size_t i = 0; i < fn.body.size(); ++i) {
        const Instruction& inst = fn.body[i];
        grow(inst.pred.reg);
        const OperandRoles roles(inst);
        for (std::size_t a = 0; a < inst.args.size(); ++a) {
            grow(inst.args[a].reg);
            for (const auto& e : inst.args[a].elems) grow(e.reg);
            if (roles[a] == Role::written || roles[a] == Role::read_written)
                collect_written(inst.args[a], writes[i]);
        }
    }
    std::vector<uint32_t> defs(nregs, 0);
    for (const auto& w : writes)
        for (uint32_t r : w)
            if (r < nregs) ++defs[r];
    std::vector<bool> uniform(nregs, false);
    // Pessimistic: a register becomes uniform once every source of its one definition is. A register written
    // once is in no cycle, so passes until nothing changes find them all.
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t i = 0; i < fn.body.size(); ++i) {
            const Instruction& inst = fn.body[i];
            if (writes[i].empty() || lane_dependent_op(inst)) continue;
            if (inst.pred.reg != kNoReg && !(inst.pred.reg < nregs && uniform[inst.pred.reg])) continue;
            const OperandRoles roles(inst);
            bool ok = true;
            for (std::size_t a = 0; a < inst.args.size() && ok; ++a)
                if (roles[a] != Role::written) ok = operand_uniform(inst.args[a], uniform);
            if (!ok) continue;
            for (uint32_t r : writes[i]) {
                if (r < nregs && defs[r] == 1 && !uniform[r]) {
                    uniform[r] = true;
                    changed = true;
                }
            }
        }
    }
    return uniform;
}

bool address_warp_uniform(const Instruction& inst, const std::vector<bool>& uniform) {
    for (const auto& a : inst.args)
        if (a.kind == Operand::Kind::address) return operand_uniform(a, uniform);
    return false;
}

}  // namespace warpsim::ir
