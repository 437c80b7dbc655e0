// sim/engine/decode.cpp — pre-decoding: frame layouts (.local depots, .param areas, shared variables),
// operand slots (constants and special registers as pseudo registers), handlers from the dispatch table.
#include "sim/engine/decode.hpp"

#include <fmt/format.h>
#include <algorithm>

#include "kernels_ir/cfg.hpp"
#include "kernels_ir/dataflow.hpp"
#include "kernels_ir/forms/form.hpp"
#include "kernels_ir/layout.hpp"
#include "kernels_ir/operand_roles.hpp"

#include "sim/engine/contract.hpp"
#include "sim/engine/dispatch.hpp"
#include "sim/engine/live_in.hpp"
#include "sim/engine/memory_access.hpp"
#include "sim/memory/address_map.hpp"

namespace warpsim::engine {

using ir::Operand;

uint64_t width_mask(ir::Type t) {
    uint32_t b = ir::type_bytes(t);
    if (t == ir::Type::pred) return 1;
    return b == 0 || b >= 8 ? ~0ull : (1ull << (8 * b)) - 1;
}

namespace {

struct SymbolInfo {
    bool found = false;
    AddrSpace space = AddrSpace::global;
    int64_t offset = 0;
    bool frame_relative = false;  // local depot or frame param: add the frame's base at run time
};

// Pass 1: the per-frame .param area and .local depot of every function (kernels_ir/layout).
void layout_frame(const ir::Function& fn, DecodedFunction& df) {
    ir::FrameLayout F = ir::frame_layout(fn);
    df.formal_offsets = std::move(F.formal_offsets);
    df.return_offsets = std::move(F.return_offsets);
    for (const auto& [name, slot] : F.symbols)
        df.frame_symbols[name] = {slot.space == ir::Space::param ? AddrSpace::frame_param : AddrSpace::local,
                                  slot.offset};
    df.param_bytes = F.param_bytes;
    df.local_bytes = F.local_bytes;
}

class FunctionDecoder {
  public:
    FunctionDecoder(const ir::Module& m, const ModuleLayout& ml, Program& prog, uint32_t f)
        : m_(m),
          ml_(ml),
          sl_(prog.shared),
          prog_(prog),
          fidx_(f),
          fn_(m.functions[f]),
          df_(prog.functions[f]),
          kernel_params_(ir::param_layout(m.functions[f].params)) {}

    void run() {
        df_.num_regs = static_cast<uint32_t>(fn_.regs.size());
        for (const auto& r : fn_.regs) df_.reg_width_mask.push_back(width_mask(r.type));
        scratch_ = new_reg(0, false);
        zero_ = constant(0);
        // Reconvergence points: the immediate post-dominator of each branch, from kernels_ir's CFG (the one
        // implementation; tests/engine/test_reconverge.cpp checks every corpus branch against it).
        const ir::Cfg cfg = ir::build_cfg(fn_);
        df_.code.resize(fn_.body.size());
        SelectContext ctx{&m_, &fn_};
        for (uint32_t pc = 0; pc < fn_.body.size(); ++pc) decode(pc, cfg.reconverge_pc[pc], ctx);
        contract_mul_add(fn_, cfg, df_);
        if (auto zeroed = registers_read_before_written(fn_, cfg, df_, scratch_)) {
            df_.zero_every_register = false;
            df_.zeroed_registers = std::move(*zeroed);
            know_shfl_lanes();
        }
    }

  private:
    // shfl whose b and c are known at decode (nvcc moves its constant lane offset and clamp into registers
    // first) runs shfl_with_known_lanes' handler, with their bits in the DInst.
    void know_shfl_lanes() {
        const auto known = known_constant_registers(fn_, df_, df_.zeroed_registers);
        for (uint32_t pc = 0; pc < df_.code.size(); ++pc) {
            DInst& in = df_.code[pc];
            const ir::Instruction& inst = fn_.body[pc];
            if (inst.op != ir::Opcode::shfl || in.nsrc < 3 || in.fn == &exec_unsupported ||
                in.fn == &exec_ill_formed)
                continue;
            if (in.src[1] >= known.size() || in.src[2] >= known.size() || !known[in.src[1]] ||
                !known[in.src[2]])
                continue;
            Handler h = shfl_with_known_lanes(inst);
            if (!h) continue;
            const uint64_t b = *known[in.src[1]], c = *known[in.src[2]];
            in.fn = h;
            in.shfl_lanes = static_cast<uint16_t>((b & 31) | (c & 31) << 5 | ((c >> 8) & 31) << 10);
        }
    }

    uint32_t new_reg(uint64_t init, bool is_const) {
        uint32_t r = df_.num_regs++;
        df_.reg_width_mask.push_back(~0ull);
        if (is_const) {
            df_.const_regs.push_back(r);
            df_.reg_init.push_back(init);
        }
        return r;
    }
    uint32_t constant(uint64_t v) {
        auto it = consts_.find(v);
        if (it != consts_.end()) return it->second;
        return consts_[v] = new_reg(v, true);
    }
    uint32_t sreg_slot(ir::SpecialReg s, uint8_t comp) {
        for (const auto& slot : df_.sregs)
            if (slot.sreg == s && slot.component == comp) return slot.reg;
        uint32_t r = new_reg(0, false);
        df_.sregs.push_back({s, comp, r});
        return r;
    }

    SymbolInfo resolve(std::string_view name) const {
        SymbolInfo s;
        if (auto it = df_.frame_symbols.find(name); it != df_.frame_symbols.end())
            return {true, it->second.first, it->second.second, true};
        for (const auto& v : fn_.locals)
            if (v.name == name && (v.space == ir::Space::shared || v.space == ir::Space::shared_cta))
                return shared(fidx_, v);
        for (std::size_t i = 0; i < fn_.params.size(); ++i)
            if (fn_.params[i].name == name)
                return fn_.is_entry
                           ? SymbolInfo{true, AddrSpace::kernel_param, kernel_params_.offsets[i], false}
                           : SymbolInfo{true, AddrSpace::frame_param, df_.formal_offsets[i], true};
        for (std::size_t i = 0; i < fn_.returns.size() && !fn_.is_entry; ++i)
            if (fn_.returns[i].name == name)
                return {true, AddrSpace::frame_param, df_.return_offsets[i], true};
        for (const auto& v : m_.globals) {
            if (v.name != name) continue;
            if (v.space == ir::Space::shared || v.space == ir::Space::shared_cta) return shared(-1, v);
            auto it = ml_.global_addr.find(name);
            if (it != ml_.global_addr.end())
                return {true, v.space == ir::Space::const_ ? AddrSpace::const_ : AddrSpace::global,
                        static_cast<int64_t>(it->second), false};
        }
        return s;
    }
    SymbolInfo shared(int64_t owner, const ir::Variable& v) const {
        if (ir::is_dynamic_shared(v)) return {true, AddrSpace::shared, sl_.dynamic_base[fidx_], false};
        return {true, AddrSpace::shared, std::max<int64_t>(0, sl_.offset_of(owner, v.name)), false};
    }

    uint32_t src_slot(const Operand& o, DInst& in) {
        switch (o.kind) {
            case Operand::Kind::reg:
                return o.reg;
            case Operand::Kind::imm_int:
            case Operand::Kind::imm_f32:
            case Operand::Kind::imm_f64:
                return constant(static_cast<uint64_t>(o.imm));
            case Operand::Kind::special: {
                using S = ir::SpecialReg;
                if (o.sreg == S::clock || o.sreg == S::clock_hi || o.sreg == S::clock64 ||
                    o.sreg == S::globaltimer || o.sreg == S::globaltimer_lo || o.sreg == S::globaltimer_hi) {
                    in.dynamic_sreg = o.sreg;  // only mov/cvt read these
                    return zero_;
                }
                return sreg_slot(o.sreg, o.component);
            }
            case Operand::Kind::symbol: {
                if (o.name == "WARP_SZ") return constant(32);  // PTX's run-time constant warp size
                SymbolInfo s = resolve(o.name);
                if (!s.found) {
                    if (const ir::Function* f = m_.find_function(o.name))
                        return constant(
                            memory::function_address(static_cast<uint64_t>(f - m_.functions.data())));
                    prog_.problems.push_back(fmt::format("{}: unknown symbol `{}` at PTX line {}", fn_.name,
                                                         o.name, in.ir ? in.ir->loc.ptx_line : 0));
                }
                if (s.frame_relative) {
                    in.frame_relative = true;
                    in.space = s.space;
                    in.offset = s.offset;
                    return zero_;
                }
                return constant(static_cast<uint64_t>(s.offset));
            }
            default:
                return zero_;
        }
    }

    void fill_address(const Operand& o, DInst& in, ir::Space space) {
        in.offset = o.imm;
        if (o.reg != ir::kNoReg) in.addr_reg = o.reg;
        SymbolInfo s;
        if (!o.name.empty()) {
            s = resolve(o.name);
            if (!s.found)
                prog_.problems.push_back(fmt::format("{}: unknown symbol `{}` at PTX line {}", fn_.name,
                                                     o.name, in.ir->loc.ptx_line));
            in.offset += s.offset;
            if (s.frame_relative) in.frame_relative = true;
        }
        using S = ir::Space;
        switch (space) {
            case S::global:
                in.space = AddrSpace::global;
                break;
            // shared::cluster: a launch without clusters is a cluster of one CTA, whose window is its own.
            case S::shared:
            case S::shared_cta:
            case S::shared_cluster:
                in.space = AddrSpace::shared;
                break;
            case S::local:
                in.space = AddrSpace::local;
                break;
            case S::const_:
                in.space = AddrSpace::const_;
                break;
            case S::param:
                in.space = (o.name.empty() && fn_.is_entry) || s.space == AddrSpace::kernel_param
                               ? AddrSpace::kernel_param
                               : AddrSpace::frame_param;
                break;
            default:
                in.space = AddrSpace::generic;
        }
    }

    // The n-th memory operand (n >= 1) takes the n-th state space written in the modifiers
    // (cp.async.ca.shared.global [dst], [src]: global); cp.async.bulk's mbarrier operand is in shared memory.
    void fill_extra_address(const Operand& o, const DInst& in, ExtraAddr& a, uint32_t n) {
        DInst tmp;
        tmp.ir = in.ir;
        std::vector<ir::Space> spaces;
        if (const ir::CpForm* cp = ir::form_as<ir::CpForm>(*in.ir)) {
            spaces = {cp->dst, cp->src};  // the copy's spaces as its form read them
        } else {
            for (const auto& m : in.ir->mods) {
                if (m == "global")
                    spaces.push_back(ir::Space::global);
                else if (m == "shared" || m == "shared::cta" || m == "shared::cluster")
                    spaces.push_back(ir::Space::shared);
                else if (m == "local")
                    spaces.push_back(ir::Space::local);
                else if (m == "const")
                    spaces.push_back(ir::Space::const_);
                else if (m == "param")
                    spaces.push_back(ir::Space::param);
            }
        }
        fill_address(o, tmp, n < spaces.size() ? spaces[n] : ir::Space::shared);
        a.reg = tmp.addr_reg;
        a.offset = tmp.offset;
        a.space = tmp.space;
        a.frame_relative = tmp.frame_relative;
    }

    void decode(uint32_t pc, uint32_t rpc, const SelectContext& ctx) {
        const ir::Instruction& inst = fn_.body[pc];
        DInst& in = df_.code[pc];
        in.ir = &inst;
        in.pc = pc;
        in.rpc = rpc;
        in.type = inst.d.type;
        in.type2 = inst.d.type2;
        in.vec = inst.d.vec;
        if (inst.pred.reg != ir::kNoReg) {
            in.guard = inst.pred.reg;
            in.guard_neg = inst.pred.negated;
        }
        bool ok = true;
        const bool dest = ir::operand_roles(inst).writes();
        for (std::size_t i = 0; i < inst.args.size(); ++i) {
            const Operand& o = inst.args[i];
            if (o.kind == Operand::Kind::address) {
                if (in.naddr == 0)
                    fill_address(o, in, inst.d.space);
                else if (in.naddr <= in.more_addr.size())
                    fill_extra_address(o, in, in.more_addr[in.naddr - 1], in.naddr);
                ++in.naddr;
                continue;
            }
            if (o.kind == Operand::Kind::list || (o.kind == Operand::Kind::symbol && is_label_or_call(inst)))
                continue;
            const bool multi = o.kind == Operand::Kind::vector || o.kind == Operand::Kind::pair;
            std::vector<Operand> one{o};
            const auto& elems = multi ? o.elems : one;
            for (const Operand& e : elems) {
                if (dest && i == 0) {
                    if (in.ndst == in.dst.size()) {
                        ok = ok && inst.op == ir::Opcode::wgmma;
                        break;
                    }
                    in.dst[in.ndst++] = e.kind == Operand::Kind::reg ? e.reg : scratch_;
                } else {
                    // mma's and wmma's fragments (up to 8 + 8 + 8 registers) and wgmma's accumulators (up to
                    // 128) outgrow the slots: their handlers read them from the IR operands.
                    if (in.nsrc == in.src.size()) {
                        ok = ok && (inst.op == ir::Opcode::mma || inst.op == ir::Opcode::wmma ||
                                    inst.op == ir::Opcode::wgmma);
                        break;
                    }
                    if (e.negated) in.neg_mask |= static_cast<uint8_t>(1u << in.nsrc);
                    in.src[in.nsrc++] = src_slot(e, in);
                }
            }
        }
        for (uint32_t i = in.nsrc; i < in.src.size(); ++i) in.src[i] = zero_;
        if (in.ndst == 0) in.dst[0] = scratch_;
        for (uint32_t i = in.ndst; i < in.dst.size(); ++i) in.dst[i] = scratch_;
        if (inst.op == ir::Opcode::bra && !inst.args.empty())
            in.target = static_cast<uint32_t>(inst.args[0].imm);
        if (inst.op == ir::Opcode::call) decode_call(inst, in);
        Selector sel = dispatch_table()[static_cast<std::size_t>(inst.op)];
        Handler h = ok && sel ? sel(inst, in, ctx) : nullptr;
        in.fn = h ? h : ir::form_error(inst) ? &exec_ill_formed : &exec_unsupported;
        in.access = access_flags(inst);
    }

    static bool is_label_or_call(const ir::Instruction& inst) {
        return inst.op == ir::Opcode::bra || inst.op == ir::Opcode::brx || inst.op == ir::Opcode::call;
    }

    // call{.uni} (rets)?, callee, (args)?{, prototype | targets}: lists before the callee are the return
    // slots, the list after it the arguments; the callee is a function symbol (direct) or a register holding
    // a function address (indirect: in.aux2 = the register, target = kNone).
    void decode_call(const ir::Instruction& inst, DInst& in) {
        CallSite cs;
        bool seen_callee = false;
        for (const Operand& o : inst.args) {
            if (!seen_callee && (o.kind == Operand::Kind::symbol || o.kind == Operand::Kind::reg)) {
                seen_callee = true;
                if (o.kind == Operand::Kind::symbol)
                    cs.callee = o.imm >= 0 ? static_cast<uint32_t>(o.imm) : kNone;
                else
                    cs.indirect_reg = o.reg;
                continue;
            }
            if (o.kind != Operand::Kind::list) continue;
            auto& slots = seen_callee ? cs.args : cs.rets;
            for (const Operand& e : o.elems) {
                CallSite::Slot s;
                if (e.kind == Operand::Kind::symbol) {
                    SymbolInfo si = resolve(e.name);
                    s.caller_off = static_cast<uint32_t>(si.offset);
                } else {
                    s.from_reg = true;
                    DInst tmp;
                    s.reg = e.kind == Operand::Kind::reg ? e.reg : src_slot(e, tmp);
                }
                slots.push_back(s);
            }
        }
        in.target = cs.callee;
        in.call_site = static_cast<uint32_t>(df_.calls.size());
        df_.calls.push_back(std::move(cs));
    }

    const ir::Module& m_;
    const ModuleLayout& ml_;
    const ir::SharedLayout& sl_;
    Program& prog_;
    uint32_t fidx_;
    const ir::Function& fn_;
    DecodedFunction& df_;
    const ir::ParamLayout kernel_params_;
    std::map<uint64_t, uint32_t> consts_;
    uint32_t scratch_ = 0, zero_ = 0;
};

// Global atomics whose outcome depends on the order of blocks: float ones (rounding), inc/dec (wrap), exch,
// cas, and any atom whose old value some instruction reads. An integer add/min/max/and/or/xor whose result
// is never read commutes (ptxas turns it into RED), so its blocks may run concurrently.
bool has_cross_block_atomics(const ir::Function& fn) {
    for (const auto& inst : fn.body) {
        if (inst.op != ir::Opcode::atom && inst.op != ir::Opcode::red) continue;
        if (inst.d.space == ir::Space::shared || inst.d.space == ir::Space::shared_cta) continue;
        const bool result_used = inst.op == ir::Opcode::atom && !ir::atom_result_unused(fn, inst);
        if (result_used || ir::is_float(inst.d.type) || inst.d.atom == ir::AtomOp::inc ||
            inst.d.atom == ir::AtomOp::dec || inst.d.atom == ir::AtomOp::exch ||
            inst.d.atom == ir::AtomOp::cas)
            return true;
    }
    return false;
}

}  // namespace

Program decode_module(const ir::Module& module, const ModuleLayout& layout) {
    Program prog;
    prog.module = &module;
    prog.functions.resize(module.functions.size());
    prog.shared = ir::shared_layout(module, layout.shared_base);
    for (uint32_t f = 0; f < module.functions.size(); ++f) {
        prog.functions[f].fn = &module.functions[f];
        prog.functions[f].index = f;
        prog.functions[f].static_shared = prog.shared.static_bytes[f] - layout.shared_base;  // user bytes
        layout_frame(module.functions[f], prog.functions[f]);
        prog.functions[f].uses_global_atomics = has_cross_block_atomics(module.functions[f]);
    }
    for (uint32_t f = 0; f < module.functions.size(); ++f)
        if (module.functions[f].has_body) FunctionDecoder(module, layout, prog, f).run();
    return prog;
}

}  // namespace warpsim::engine
