// sim/engine/live_in.cpp — registers read before written (live at the entry), by backward data flow over the
// basic blocks: a frame zeroes only those (warp_runner.cpp's init_frame) instead of its whole register file.
#include "sim/engine/live_in.hpp"

#include <algorithm>

#include "kernels_ir/operand_roles.hpp"
#include "sim/engine/decode.hpp"

namespace warpsim::engine {

namespace {

using ir::Opcode;

// Opcodes whose handlers read only the registers in their DInst slots (sources, guard, address registers)
// and, executed without a guard, write each destination slot whole in every executing lane.
bool writes_whole_destinations(Opcode op) {
    switch (op) {
        case Opcode::add:
        case Opcode::sub:
        case Opcode::mul:
        case Opcode::mad:
        case Opcode::mul24:
        case Opcode::mad24:
        case Opcode::sad:
        case Opcode::div:
        case Opcode::rem:
        case Opcode::abs:
        case Opcode::neg:
        case Opcode::min:
        case Opcode::max:
        case Opcode::popc:
        case Opcode::clz:
        case Opcode::bfind:
        case Opcode::brev:
        case Opcode::bfe:
        case Opcode::bfi:
        case Opcode::fma:
        case Opcode::rcp:
        case Opcode::sqrt:
        case Opcode::rsqrt:
        case Opcode::sin:
        case Opcode::cos:
        case Opcode::lg2:
        case Opcode::ex2:
        case Opcode::tanh:
        case Opcode::setp:
        case Opcode::set:
        case Opcode::selp:
        case Opcode::slct:
        case Opcode::and_:
        case Opcode::or_:
        case Opcode::xor_:
        case Opcode::not_:
        case Opcode::cnot:
        case Opcode::lop3:
        case Opcode::shf:
        case Opcode::shl:
        case Opcode::shr:
        case Opcode::prmt:
        case Opcode::mov:
        case Opcode::ld:
        case Opcode::ldu:
        case Opcode::cvta:
        case Opcode::cvt:
        case Opcode::activemask:
            return true;
        default:
            return false;
    }
}

// Opcodes that read only the registers in their slots but do not count as writing their destinations
// (control flow, stores, barriers, atomics, warp collectives).
bool reads_only_slots(Opcode op) {
    switch (op) {
        case Opcode::st:
        case Opcode::bra:
        case Opcode::ret:
        case Opcode::exit:
        case Opcode::bar:
        case Opcode::barrier:
        case Opcode::membar:
        case Opcode::fence:
        case Opcode::atom:
        case Opcode::red:
        case Opcode::shfl:
        case Opcode::vote:
            return true;
        default:
            return false;
    }
}

struct Bits {
    std::vector<uint64_t> w;
    explicit Bits(uint32_t n) : w((n + 63) / 64, 0) {}
    void set(uint32_t r) { w[r / 64] |= uint64_t{1} << (r % 64); }
    bool test(uint32_t r) const { return (w[r / 64] >> (r % 64) & 1u) != 0; }
};

}  // namespace

std::optional<std::vector<uint32_t>> registers_read_before_written(const ir::Function& fn, const ir::Cfg& cfg,
                                                                   const DecodedFunction& df,
                                                                   uint32_t scratch) {
    const uint32_t n = df.num_regs;
    const std::size_t nblocks = cfg.blocks.size();
    if (df.code.size() != fn.body.size() || nblocks == 0) return std::nullopt;
    std::vector<Bits> use(nblocks, Bits(n)), def(nblocks, Bits(n));
    Bits always(n);  // zeroed whatever the flow: shfl sources, the scratch sink
    always.set(scratch);
    for (std::size_t b = 0; b < nblocks; ++b) {
        for (uint32_t pc = cfg.blocks[b].begin; pc < cfg.blocks[b].end; ++pc) {
            const DInst& in = df.code[pc];
            const ir::Instruction& inst = fn.body[pc];
            const bool kills = writes_whole_destinations(inst.op);
            if (!kills && !reads_only_slots(inst.op)) return std::nullopt;
            const auto read = [&](uint32_t r) {
                if (r < n && !def[b].test(r)) use[b].set(r);
            };
            for (uint32_t r : in.src) read(r);
            read(in.guard);
            read(in.addr_reg);
            for (uint32_t i = 0; i + 1 < in.naddr && i < in.more_addr.size(); ++i) read(in.more_addr[i].reg);
            const bool only_written = ir::operand_roles(inst).only_written();
            for (uint32_t i = 0; i < in.ndst; ++i) {
                if (!only_written) read(in.dst[i]);
                if (kills && only_written && in.guard == kNone && in.dst[i] < n) def[b].set(in.dst[i]);
            }
            if (inst.op == Opcode::shfl && in.src[0] < n) always.set(in.src[0]);
        }
    }
    // live_in = use | (live_out & ~def), live_out = the successors' live_in, to a fixed point.
    std::vector<Bits> live_in(nblocks, Bits(n));
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t b = nblocks; b-- > 0;) {
            Bits out(n);
            for (uint32_t s : cfg.blocks[b].succs)
                if (s < nblocks)
                    for (std::size_t i = 0; i < out.w.size(); ++i) out.w[i] |= live_in[s].w[i];
            for (std::size_t i = 0; i < out.w.size(); ++i) {
                const uint64_t v = use[b].w[i] | (out.w[i] & ~def[b].w[i]);
                if (v != live_in[b].w[i]) {
                    live_in[b].w[i] = v;
                    changed = true;
                }
            }
        }
    }
    Bits filled(n);
    for (uint32_t r : df.const_regs) filled.set(r);
    for (const SregSlot& s : df.sregs) filled.set(s.reg);
    const Bits& entry = live_in[cfg.block_of_pc.empty() ? 0 : cfg.block_of_pc[0]];
    std::vector<uint32_t> zeroed;
    for (uint32_t r = 0; r < n; ++r)
        if ((entry.test(r) || always.test(r)) && !filled.test(r)) zeroed.push_back(r);
    return zeroed;
}

std::vector<std::optional<uint64_t>> known_constant_registers(
    const ir::Function& fn, const DecodedFunction& df, const std::vector<uint32_t>& read_before_written) {
    const uint32_t n = df.num_regs;
    std::vector<std::optional<uint64_t>> known(n);
    if (df.code.size() != fn.body.size()) return known;
    std::vector<uint32_t> writes(n, 0);
    std::vector<uint64_t> value(n, 0);
    for (uint32_t pc = 0; pc < df.code.size(); ++pc) {
        const DInst& in = df.code[pc];
        const ir::Instruction& inst = fn.body[pc];
        for (uint32_t r : in.dst) {
            if (r >= n) continue;
            ++writes[r];
            const bool mov_imm = inst.op == Opcode::mov && in.ndst == 1 && in.nsrc == 1 &&
                                 in.guard == kNone && !in.dynamic_sreg && !in.frame_relative &&
                                 inst.args.size() == 2 && inst.args[1].kind == ir::Operand::Kind::imm_int;
            // A second write, or a write that is not a plain constant, makes the count pass 1 or leaves the
            // value unset: a register needs exactly one write, and that one a mov of a constant.
            if (mov_imm && writes[r] == 1)
                value[r] = static_cast<uint64_t>(inst.args[1].imm) & width_mask(in.type);
            else
                writes[r] = 2;
        }
    }
    std::vector<bool> early(n, false);
    for (uint32_t r : read_before_written)
        if (r < n) early[r] = true;
    for (uint32_t r = 0; r < n; ++r)
        if (writes[r] == 1 && !early[r]) known[r] = value[r];
    for (std::size_t i = 0; i < df.const_regs.size(); ++i)
        if (df.const_regs[i] < n) known[df.const_regs[i]] = df.reg_init[i];
    return known;
}

}  // namespace warpsim::engine
