// sim/engine/handlers_memory.cpp — ld/ldu/st (all widths, .v2/.v4) in every state space, and the memory
// hints that need no modelling (prefetch, fence, membar, discard, applypriority).
#include <algorithm>
#include <array>
#include <cstring>
#include <string_view>

#include "sim/engine/dispatch.hpp"
#include "sim/engine/handler_util.hpp"
#include "sim/engine/memory_access.hpp"

namespace warpsim::engine {

namespace {

uint64_t load_bits(const uint8_t* p, uint32_t width) {
    uint64_t v = 0;
    std::memcpy(&v, p, width);  // little-endian host, like the GPU
    return v;
}

template <uint32_t W, bool Signed>
uint64_t load_lane(const uint8_t* p, uint64_t mask) {
    uint64_t v = load_bits(p, W);
    if (Signed && W < 8 && ((v >> (8 * W - 1)) & 1)) v |= ~0ull << (8 * W);
    return v & mask;
}

template <uint32_t W, bool Signed>
void ld(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    const uint32_t n = in.vec, total = W * n;
    AccessRecorder rec(x, in, counts::AccessKind::load, total);
    const auto& masks = x.frame->code->reg_width_mask;
    WarpTarget wt;
    if (resolve_warp(x, in, e, total, counts::AccessKind::load, wt)) {
        // Every address was read above, so a destination that is also the address register is safe. The
        // target's fields are copied out: stores to the register file could alias them for the compiler.
        const uint8_t* data = wt.data;
        const uint64_t origin = wt.origin;
        const uint64_t* addr = wt.addr;
        for (uint32_t i = 0; i < n; ++i) {
            uint64_t* d = lanes_of(x, in.dst[i]);
            const uint64_t mask = masks[in.dst[i]];
            for_lanes(
                e, [&](uint32_t l) { d[l] = load_lane<W, Signed>(data + (addr[l] - origin) + i * W, mask); });
        }
        rec.add_warp(e, wt);
        rec.flush(x);
        return;
    }
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        LaneTarget t;
        if (!resolve_lane(x, in, l, total, counts::AccessKind::load, t)) return;
        rec.add(l, t);
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t d = in.dst[i];
            x.R[d * 32 + l] = load_lane<W, Signed>(t.ptr + i * W, masks[d]);
        }
    }
    rec.flush(x);
}

template <uint32_t W>
void st(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    const uint32_t n = in.vec, total = W * n;
    AccessRecorder rec(x, in, counts::AccessKind::store, total);
    WarpTarget wt;
    if (resolve_warp(x, in, e, total, counts::AccessKind::store, wt)) {
        for_lanes(
            e, [&](uint32_t l) {  // lane order, as below: the highest lane's value wins on a shared address
                for (uint32_t i = 0; i < n; ++i) std::memcpy(wt.ptr(l) + i * W, &x.R[in.src[i] * 32 + l], W);
            });
        rec.add_warp(e, wt);
        rec.flush(x);
        return;
    }
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        LaneTarget t;
        if (!resolve_lane(x, in, l, total, counts::AccessKind::store, t)) return;
        rec.add(l, t);
        for (uint32_t i = 0; i < n; ++i) {
            const uint64_t v = x.R[in.src[i] * 32 + l];
            std::memcpy(t.ptr + i * W, &v, W);
        }
    }
    rec.flush(x);
}

void nop(Exec&, const DInst&, uint32_t) {}

// membar / fence: every access already completes in program order here; only the observer needs them.
void fence(Exec& x, const DInst& in, uint32_t e) {
    if (!x.launch->observer || !e) return;
    FenceEvent ev;
    ev.site = event_site(x, in);
    ev.executing_mask = e;
    const auto& d = in.ir->d;
    const auto has = [&](std::string_view m) {
        return std::find(in.ir->mods.begin(), in.ir->mods.end(), m) != in.ir->mods.end();
    };
    if (in.ir->op == ir::Opcode::membar) {
        ev.kind = FenceKind::membar;
        ev.sem = ir::MemSem::sc;
        ev.scope = has("cta") ? ir::Scope::cta : has("sys") ? ir::Scope::sys : ir::Scope::gpu;
    } else {
        ev.kind = has("proxy")           ? FenceKind::fence_proxy
                  : has("mbarrier_init") ? FenceKind::fence_mbarrier_init
                                         : FenceKind::fence;
        ev.sem = d.sem == ir::MemSem::none ? ir::MemSem::acq_rel : d.sem;
        ev.scope = d.scope;
    }
    x.launch->observer->on_fence(ev);
}

Handler pick_ld(ir::Type t) {
    const uint32_t w = ir::type_bytes(t);
    const bool s = ir::is_signed_int(t);
    switch (w) {
        case 1:
            return s ? &ld<1, true> : &ld<1, false>;
        case 2:
            return s ? &ld<2, true> : &ld<2, false>;
        case 4:
            return s ? &ld<4, true> : &ld<4, false>;
        case 8:
            return &ld<8, false>;
        default:
            return nullptr;
    }
}
Handler pick_st(ir::Type t) {
    switch (ir::type_bytes(t)) {
        case 1:
            return &st<1>;
        case 2:
            return &st<2>;
        case 4:
            return &st<4>;
        case 8:
            return &st<8>;
        default:
            return nullptr;
    }
}

}  // namespace

Handler select_memory(const ir::Instruction& inst, DInst& in, const SelectContext&) {
    using O = ir::Opcode;
    if (in.vec > 8 || (in.vec == 8 && ir::type_bytes(inst.d.type) != 4)) return nullptr;
    switch (inst.op) {
        case O::ld:
        case O::ldu:
            if (in.ndst != in.vec) return nullptr;
            return pick_ld(inst.d.type);
        case O::st:
            if (in.nsrc != in.vec) return nullptr;
            return pick_st(inst.d.type);
        case O::membar:
        case O::fence:
            return &fence;
        case O::prefetch:
        case O::prefetchu:
        case O::discard:
        case O::applypriority:
        case O::nanosleep:
        case O::pmevent:
            return &nop;
        default:
            return nullptr;
    }
}

}  // namespace warpsim::engine
