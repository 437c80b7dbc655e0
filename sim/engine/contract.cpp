// sim/engine/contract.cpp — ptxas's floating-point contraction: a mul.f32/.f64 and an add/sub that consumes
// it, both written without a rounding modifier, run as one fused multiply-add.
//
// Why: PTX ISA 9.7.3.1/9.7.3.3 ("add/mul ... with no rounding modifier ... may be optimized aggressively by
// the code generator, e.g. mul/add sequences with no rounding modifiers may be optimized to use
// fused-multiply- add instructions") and the H200 does exactly that: f64_precision_mix's `d * d - (double)(f
// * f)`, written by nvcc as mul.f64 + sub.f64, gives the fma result on the GPU
// (tests/hardware/h200/results.json). The rule modelled: the product has exactly one use, the add/sub in the
// same basic block, its operands are not redefined in between, and both instructions agree on type and .ftz
// (no .sat on either).
#include "sim/engine/contract.hpp"

#include <vector>

#include "sim/engine/dispatch.hpp"

namespace warpsim::engine {

namespace {

bool plain_float(const ir::Instruction& in) {
    const auto& d = in.d;
    return (d.type == ir::Type::f32 || d.type == ir::Type::f64) && d.rnd == ir::Rounding::none && !d.sat &&
           in.pred.reg == ir::kNoReg && in.args.size() == 3 && in.args[0].kind == ir::Operand::Kind::reg;
}

// How often each register is read (sources, addresses, guards, vector elements) in the whole function.
std::vector<uint32_t> count_reads(const ir::Function& fn) {
    std::vector<uint32_t> reads(fn.regs.size(), 0);
    auto note = [&](const ir::Operand& o, auto& self) -> void {
        if (o.kind == ir::Operand::Kind::reg && o.reg < reads.size()) ++reads[o.reg];
        if (o.kind == ir::Operand::Kind::address && o.reg != ir::kNoReg && o.reg < reads.size())
            ++reads[o.reg];
        for (const auto& e : o.elems) self(e, self);
    };
    for (const auto& in : fn.body) {
        if (in.pred.reg != ir::kNoReg && in.pred.reg < reads.size()) ++reads[in.pred.reg];
        for (std::size_t i = 0; i < in.args.size(); ++i) {
            const bool dest = i == 0 && in.op != ir::Opcode::st && in.op != ir::Opcode::red &&
                              in.args[0].kind != ir::Operand::Kind::address;
            if (!dest) note(in.args[i], note);
        }
    }
    return reads;
}

uint32_t reads_in(const ir::Instruction& in, uint32_t reg) {
    uint32_t n = in.pred.reg == reg ? 1 : 0;
    auto note = [&](const ir::Operand& o, auto& self) -> void {
        if ((o.kind == ir::Operand::Kind::reg || o.kind == ir::Operand::Kind::address) && o.reg == reg) ++n;
        for (const auto& e : o.elems) self(e, self);
    };
    for (std::size_t i = 0; i < in.args.size(); ++i) {
        const bool dest = i == 0 && in.op != ir::Opcode::st && in.op != ir::Opcode::red &&
                          in.args[0].kind != ir::Operand::Kind::address;
        if (!dest) note(in.args[i], note);
    }
    return n;
}

bool writes(const ir::Instruction& in, uint32_t reg) {
    if (in.args.empty() || in.op == ir::Opcode::st || in.op == ir::Opcode::red) return false;
    const auto& d = in.args[0];
    if (d.kind == ir::Operand::Kind::reg) return d.reg == reg;
    for (const auto& e : d.elems)
        if (e.kind == ir::Operand::Kind::reg && e.reg == reg) return true;
    return false;
}

// Reads of the value `reg` gets at `def`: up to its next definition in the block; a value live past the
// block's end counts every read in the function (PTX from nvcc assigns most registers once).
uint32_t value_reads(const ir::Function& fn, const ir::Cfg& cfg, const std::vector<uint32_t>& reads,
                     uint32_t def, uint32_t reg) {
    const ir::BasicBlock& bb = cfg.blocks[cfg.block_of_pc[def]];
    uint32_t n = 0;
    for (uint32_t k = def + 1; k < bb.end; ++k) {
        n += reads_in(fn.body[k], reg);
        if (writes(fn.body[k], reg)) return n;
    }
    const bool ends_function = bb.succs.size() == 1 && bb.succs[0] == cfg.exit_block();
    return ends_function ? n : reads[reg];
}

}  // namespace

void contract_mul_add(const ir::Function& fn, const ir::Cfg& cfg, DecodedFunction& df) {
    const auto reads = count_reads(fn);
    for (uint32_t pc = 0; pc < fn.body.size(); ++pc) {
        const ir::Instruction& add = fn.body[pc];
        if ((add.op != ir::Opcode::add && add.op != ir::Opcode::sub) || !plain_float(add)) continue;
        // Find the mul that defines one of the sources, walking back inside the block.
        for (uint32_t which = 1; which <= 2; ++which) {
            const ir::Operand& src = add.args[which];
            if (src.kind != ir::Operand::Kind::reg) continue;
            uint32_t def = pc;
            bool found = false;
            while (def > cfg.blocks[cfg.block_of_pc[pc]].begin) {
                --def;
                if (writes(fn.body[def], src.reg)) {
                    found = true;
                    break;
                }
            }
            if (!found) continue;
            const ir::Instruction& mul = fn.body[def];
            if (mul.op != ir::Opcode::mul || !plain_float(mul) || mul.d.type != add.d.type ||
                mul.d.ftz != add.d.ftz)
                continue;
            if (value_reads(fn, cfg, reads, def, src.reg) != 1) continue;
            bool clobbered = false;
            for (uint32_t k = def + 1; k < pc && !clobbered; ++k)
                for (uint32_t s = 1; s <= 2; ++s)
                    if (mul.args[s].kind == ir::Operand::Kind::reg && writes(fn.body[k], mul.args[s].reg))
                        clobbered = true;
            if (clobbered) continue;
            DInst& in = df.code[pc];
            const DInst& m = df.code[def];
            const uint32_t other = in.src[which == 1 ? 1 : 0];
            // add: p + c; sub with the product first: p - c; product second: c - p = (-p) + c.
            const bool neg_product = add.op == ir::Opcode::sub && which == 2;
            const bool neg_addend = add.op == ir::Opcode::sub && which == 1;
            Handler h = contracted_fma(add.d.type, neg_product, neg_addend);
            if (!h) continue;
            in.src[0] = m.src[0];
            in.src[1] = m.src[1];
            in.src[2] = other;
            in.nsrc = 3;
            in.fn = h;
            break;
        }
    }
}

}  // namespace warpsim::engine
