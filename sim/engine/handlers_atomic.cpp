// sim/engine/handlers_atomic.cpp — atom/red on global and shared (and generic resolving to them): lanes
// apply in increasing lane order; global memory uses host atomics when blocks run concurrently.
#include <array>
#include <atomic>
#include <cstring>

#include "kernels_ir/dataflow.hpp"
#include "sim/arith/float_ops.hpp"
#include "sim/engine/dispatch.hpp"
#include "sim/engine/handler_util.hpp"
#include "sim/engine/memory_access.hpp"

namespace warpsim::engine {

namespace {

using ir::AtomOp;
using ir::Type;

// atom.add.noftz.{f16,bf16}{x2}: round to nearest, subnormals kept (PTX ISA 9.7.13.5).
uint16_t half_add(uint16_t a, uint16_t b, bool bf) {
    return bf ? arith::bf16_add(a, b) : arith::f16_add(a, b, false, false);
}

// The new memory value for one lane's operation (old value, operand b, compare/operand c).
uint64_t apply(AtomOp op, Type t, uint64_t old, uint64_t b, uint64_t c) {
    const uint32_t w = ir::type_bytes(t);
    const uint64_t mask = w >= 8 ? ~0ull : (1ull << (8 * w)) - 1;
    old &= mask;
    b &= mask;
    const bool sgn = ir::is_signed_int(t);
    auto sext = [&](uint64_t v) {
        return w >= 8 ? static_cast<int64_t>(v) : static_cast<int64_t>(v << (64 - 8 * w)) >> (64 - 8 * w);
    };
    switch (op) {
        case AtomOp::add:
            switch (t) {
                // atom.add.f32 "rounds to nearest even and flushes subnormal inputs and results to
                // sign-preserving zero" (PTX ISA 9.7.13.5; the SASS is RED/ATOM.ADD.F32.FTZ.RN).
                case Type::f32:
                    return arith::f32_add(uint32_t(old), uint32_t(b), arith::Round::rn, true);
                case Type::f64:
                    return arith::f64_add(old, b, arith::Round::rn);
                case Type::f16:
                    return half_add(static_cast<uint16_t>(old), static_cast<uint16_t>(b), false);
                case Type::bf16:
                    return half_add(static_cast<uint16_t>(old), static_cast<uint16_t>(b), true);
                case Type::f16x2:
                case Type::bf16x2: {
                    const bool bf = t == Type::bf16x2;
                    return half_add(static_cast<uint16_t>(old), static_cast<uint16_t>(b), bf) |
                           (uint64_t{half_add(static_cast<uint16_t>(old >> 16),
                                              static_cast<uint16_t>(b >> 16), bf)}
                            << 16);
                }
                default:
                    return (old + b) & mask;
            }
        case AtomOp::min:
            if (t == Type::f32) return arith::f32_min(uint32_t(old), uint32_t(b), false, false);
            if (t == Type::f64) return arith::f64_min(old, b, false);
            return sgn ? (sext(old) < sext(b) ? old : b) : (old < b ? old : b);
        case AtomOp::max:
            if (t == Type::f32) return arith::f32_max(uint32_t(old), uint32_t(b), false, false);
            if (t == Type::f64) return arith::f64_max(old, b, false);
            return sgn ? (sext(old) > sext(b) ? old : b) : (old > b ? old : b);
        case AtomOp::inc:
            return old >= b ? 0 : (old + 1) & mask;
        case AtomOp::dec:
            return (old == 0 || old > b) ? b : old - 1;
        case AtomOp::cas:
            return old == b ? (c & mask) : old;
        case AtomOp::exch:
            return b;
        case AtomOp::and_:
            return old & b;
        case AtomOp::or_:
            return old | b;
        case AtomOp::xor_:
            return old ^ b;
        default:
            return old;
    }
}

template <uint32_t W>
uint64_t rmw(uint8_t* p, bool host_atomic, AtomOp op, Type t, uint64_t b, uint64_t c) {
    using U = std::conditional_t<W == 2, uint16_t, std::conditional_t<W == 4, uint32_t, uint64_t>>;
    if (!host_atomic) {
        U old;
        std::memcpy(&old, p, W);
        U nv = static_cast<U>(apply(op, t, old, b, c));
        std::memcpy(p, &nv, W);
        return old;
    }
    // Concurrent blocks: a compare-exchange loop makes every operation (float ones too) atomic on the host.
    std::atomic_ref<U> ref(*reinterpret_cast<U*>(p));
    U old = ref.load(std::memory_order_relaxed);
    while (
        !ref.compare_exchange_weak(old, static_cast<U>(apply(op, t, old, b, c)), std::memory_order_relaxed)) {
    }
    return old;
}

// Red: a PTX red, or an atom whose result no instruction reads (ptxas emits RED for both, and the H200
// counts them under op_red). Only a PTX atom writes its destination.
template <uint32_t W, bool Red, bool WritesDst>
void atom(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    const AtomOp op = in.ir->d.atom;
    const Type t = in.type;
    constexpr counts::AccessKind kind = Red ? counts::AccessKind::reduction : counts::AccessKind::atomic;
    AccessRecorder rec(x, in, kind, W);
    // atom: d, [a], b{, c}; red: [a], b
    const uint32_t bsrc = in.src[0], csrc = in.src[1];
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t dmask = x.frame->code->reg_width_mask[in.dst[0]];
    std::array<LaneTarget, 32> tg;
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        if (!resolve_lane(x, in, l, W, kind, tg[l])) return;
        const bool host = tg[l].global_memory && x.launch->atomics_on_host;
        uint64_t old = rmw<W>(tg[l].ptr, host, op, t, x.R[bsrc * 32 + l], x.R[csrc * 32 + l]);
        if (WritesDst) d[l] = old & dmask;
    }
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        rec.add(l, tg[l]);
    }
    rec.flush(x);
}

}  // namespace

Handler select_atomic(const ir::Instruction& inst, DInst& in, const SelectContext& ctx) {
    const bool red = inst.op == ir::Opcode::red;
    if (inst.d.atom == AtomOp::none || inst.d.atom == AtomOp::popc || in.vec != 1) return nullptr;
    if (inst.d.atom == AtomOp::cas && in.nsrc < 2) return nullptr;
    const bool unused = !red && ctx.function && ir::atom_result_unused(*ctx.function, inst);
    switch (ir::type_bytes(inst.d.type)) {
        case 2:
            return red ? &atom<2, true, false> : unused ? &atom<2, true, true> : &atom<2, false, true>;
        case 4:
            return red ? &atom<4, true, false> : unused ? &atom<4, true, true> : &atom<4, false, true>;
        case 8:
            return red ? &atom<8, true, false> : unused ? &atom<8, true, true> : &atom<8, false, true>;
        default:
            return nullptr;
    }
}

}  // namespace warpsim::engine
