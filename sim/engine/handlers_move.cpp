// sim/engine/handlers_move.cpp — mov (plain, packing/unpacking vectors, special registers, symbol
// addresses), cvta/isspacep over the generic windows, and cvt between integer and float types.
#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/engine/decode.hpp"
#include "sim/engine/dispatch.hpp"
#include "sim/engine/float_adapter.hpp"
#include "sim/engine/handler_util.hpp"
#include "sim/memory/address_map.hpp"

namespace warpsim::engine {

namespace {

void mov_plain(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t* a = lanes_of(x, in.src[0]);
    const uint64_t mask = width_mask(in.type);
    for_lanes(e, [&](uint32_t l) { d[l] = a[l] & mask; });
}

// mov.b64 %rd, {%r1, %r2}: element 0 in the low bits.
void mov_pack(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint32_t n = in.nsrc, w = 8 * ir::type_bytes(in.type) / n;
    const uint64_t em = w >= 64 ? ~0ull : (1ull << w) - 1;
    for_lanes(e, [&](uint32_t l) {
        uint64_t v = 0;
        for (uint32_t i = 0; i < n; ++i) v |= (x.R[in.src[i] * 32 + l] & em) << (w * i);
        d[l] = v;
    });
}
// mov.b64 {%r1, %r2}, %rd1
void mov_unpack(Exec& x, const DInst& in, uint32_t e) {
    const uint64_t* a = lanes_of(x, in.src[0]);
    const uint32_t n = in.ndst, w = 8 * ir::type_bytes(in.type) / n;
    const uint64_t em = w >= 64 ? ~0ull : (1ull << w) - 1;
    for_lanes(e, [&](uint32_t l) {
        const uint64_t v = a[l];
        for (uint32_t i = 0; i < n; ++i) x.R[in.dst[i] * 32 + l] = (v >> (w * i)) & em;
    });
}

// Address of a .local depot variable or a frame .param variable: frame-relative at decode time.
void mov_frame_symbol(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t base = in.space == AddrSpace::local ? x.frame->local_base : x.frame->param_base;
    for_lanes(e, [&](uint32_t l) { d[l] = base + static_cast<uint64_t>(in.offset); });
}

// %clock/%clock64 advance with the block's executed warp instructions (a per-SM counter that only this
// block drives: deterministic); %globaltimer is nanoseconds from the launch's base.
void mov_dynamic_sreg(Exec& x, const DInst& in, uint32_t e) {
    using S = ir::SpecialReg;
    const auto s = static_cast<S>(in.aux & 0xff);
    const uint64_t clock = x.block->clock + x.block->warp_insts * 4;
    const uint64_t timer = x.launch->timer_base + x.block->warp_insts * 2;
    uint64_t v = 0;
    switch (s) {
    case S::clock: v = static_cast<uint32_t>(clock); break;
    case S::clock_hi: v = static_cast<uint32_t>(clock >> 32); break;
    case S::clock64: v = clock; break;
    case S::globaltimer: v = timer; break;
    case S::globaltimer_lo: v = static_cast<uint32_t>(timer); break;
    case S::globaltimer_hi: v = static_cast<uint32_t>(timer >> 32); break;
    default: break;
    }
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t mask = width_mask(in.type);
    for_lanes(e, [&](uint32_t l) { d[l] = v & mask; });
}

// cvta.space: space address -> generic; cvta.to.space: generic -> space address.
template <bool To, int Space>  // Space: 0 global/const/param (identity), 1 shared, 2 local
void cvta(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t* a = lanes_of(x, in.src[0]);
    const bool frame_sym = (in.aux & 0x200u) != 0;
    const uint64_t base = Space == 1 ? memory::kSharedWindow : Space == 2 ? memory::kLocalWindow : 0;
    const uint64_t mask = in.type == ir::Type::u32 ? 0xffffffffull : ~0ull;
    for_lanes(e, [&](uint32_t l) {
        uint64_t v = frame_sym ? x.frame->local_base + static_cast<uint64_t>(in.offset) : a[l];
        d[l] = (To ? v - base : v + base) & mask;
    });
}

template <int Space>  // 0 global, 1 shared, 2 local, 3 const/param (never, in our windows)
void isspacep(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t* a = lanes_of(x, in.src[0]);
    for_lanes(e, [&](uint32_t l) {
        const auto g = memory::classify_generic(a[l]);
        d[l] = Space == 0 ? g == memory::GenericSpace::global
             : Space == 1 ? g == memory::GenericSpace::shared
             : Space == 2 ? g == memory::GenericSpace::local : false;
    });
}

// ---- cvt -------------------------------------------------------------------------------------------
double read_float(ir::Type t, uint64_t b) {
    switch (t) {
    case ir::Type::f32: return fp::f32(b);
    case ir::Type::f64: return fp::f64(b);
    case ir::Type::f16: return fp::half_to_f32(static_cast<uint16_t>(b));
    case ir::Type::bf16: return fp::bf16_to_f32(static_cast<uint16_t>(b));
    default: return 0;
    }
}
bool read_int(ir::Type t, uint64_t b, int64_t& s, uint64_t& u) {
    const uint32_t bytes = ir::type_bytes(t);
    const uint64_t m = width_mask(t);
    u = b & m;
    s = static_cast<int64_t>(u);
    if (ir::is_signed_int(t) && bytes < 8 && ((u >> (8 * bytes - 1)) & 1)) s = static_cast<int64_t>(u | ~m);
    return ir::is_signed_int(t);
}
double round_integral(double v, ir::Rounding r) {
    switch (r) {
    case ir::Rounding::rzi: return std::trunc(v);
    case ir::Rounding::rmi: return std::floor(v);
    case ir::Rounding::rpi: return std::ceil(v);
    case ir::Rounding::rni: return std::nearbyint(v);
    default: return v;
    }
}
uint64_t write_float(ir::Type t, double v, bool ftz, bool sat) {
    if (sat) v = std::isnan(v) ? 0.0 : std::clamp(v, 0.0, 1.0);
    switch (t) {
    case ir::Type::f32: return fp::out32(static_cast<float>(v), ftz);
    case ir::Type::f64: return fp::out64(v);
    case ir::Type::f16: return fp::f32_to_half(static_cast<float>(v));
    case ir::Type::bf16: return fp::f32_to_bf16(static_cast<float>(v));
    default: return 0;
    }
}
// Float -> integer conversions saturate to the destination range; NaN becomes 0.
uint64_t float_to_int(ir::Type t, double v) {
    if (std::isnan(v)) return 0;
    const uint32_t bits = 8 * ir::type_bytes(t);
    if (ir::is_signed_int(t)) {
        const double lo = -std::ldexp(1.0, static_cast<int>(bits) - 1), hi = std::ldexp(1.0, static_cast<int>(bits) - 1);
        int64_t r = v <= lo ? static_cast<int64_t>(lo) : v >= hi ? (bits == 64 ? INT64_MAX : static_cast<int64_t>(hi) - 1)
                                                                  : static_cast<int64_t>(v);
        return static_cast<uint64_t>(r) & width_mask(t);
    }
    const double hi = std::ldexp(1.0, static_cast<int>(bits));
    uint64_t r = v <= 0 ? 0 : v >= hi ? (bits == 64 ? UINT64_MAX : static_cast<uint64_t>(hi) - 1) : static_cast<uint64_t>(v);
    return r & width_mask(t);
}
uint64_t int_to_int(ir::Type dt, int64_t s, uint64_t u, bool src_signed, bool sat) {
    if (sat) {
        const uint32_t bits = 8 * ir::type_bytes(dt);
        if (ir::is_signed_int(dt)) {
            const int64_t hi = bits == 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1, lo = -hi - 1;
            if (src_signed) s = std::clamp(s, lo, hi);
            else s = u > static_cast<uint64_t>(hi) ? hi : static_cast<int64_t>(u);
            return static_cast<uint64_t>(s) & width_mask(dt);
        }
        const uint64_t hi = width_mask(dt);
        if (src_signed) return s < 0 ? 0 : std::min(static_cast<uint64_t>(s), hi);
        return std::min(u, hi);
    }
    return (src_signed ? static_cast<uint64_t>(s) : u) & width_mask(dt);
}

void cvt(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t* a = lanes_of(x, in.src[0]);
    const ir::Type dt = in.type, st = in.type2;
    const auto& det = in.ir->d;
    const bool dfl = ir::is_float(dt), sfl = ir::is_float(st);
    for_lanes(e, [&](uint32_t l) {
        if (!dfl && !sfl) {
            int64_t s; uint64_t u;
            bool sg = read_int(st, a[l], s, u);
            d[l] = int_to_int(dt, s, u, sg, det.sat);
        } else if (dfl && sfl) {
            double v = read_float(st, a[l]);
            if (det.ftz && st == ir::Type::f32) v = fp::flush(static_cast<float>(v), true);
            d[l] = write_float(dt, round_integral(v, det.rnd), det.ftz, det.sat);
        } else if (dfl) {
            int64_t s; uint64_t u;
            bool sg = read_int(st, a[l], s, u);
            // int64 -> double -> float could double-round; go straight to the destination width.
            if (dt == ir::Type::f32) d[l] = fp::out32(sg ? static_cast<float>(s) : static_cast<float>(u), det.ftz);
            else d[l] = write_float(dt, sg ? static_cast<double>(s) : static_cast<double>(u), det.ftz, det.sat);
        } else {
            double v = read_float(st, a[l]);
            if (det.ftz && st == ir::Type::f32) v = fp::flush(static_cast<float>(v), true);
            d[l] = float_to_int(dt, round_integral(v, det.rnd == ir::Rounding::none ? ir::Rounding::rzi : det.rnd));
        }
    });
}

}  // namespace

Handler select_move(const ir::Instruction& inst, DInst& in, const SelectContext&) {
    using O = ir::Opcode;
    const auto sp = inst.d.space;
    switch (inst.op) {
    case O::mov:
        if (in.aux & 0x100u) return &mov_dynamic_sreg;
        if (in.aux & 0x200u) return &mov_frame_symbol;
        if (in.nsrc > 1) return &mov_pack;
        if (in.ndst > 1) return &mov_unpack;
        return &mov_plain;
    case O::cvta: {
        const int s = sp == ir::Space::shared || sp == ir::Space::shared_cta ? 1 : sp == ir::Space::local ? 2 : 0;
        if (inst.d.to) return s == 1 ? &cvta<true, 1> : s == 2 ? &cvta<true, 2> : &cvta<true, 0>;
        return s == 1 ? &cvta<false, 1> : s == 2 ? &cvta<false, 2> : &cvta<false, 0>;
    }
    case O::isspacep:
        switch (sp) {
        case ir::Space::global: return &isspacep<0>;
        case ir::Space::shared: case ir::Space::shared_cta: return &isspacep<1>;
        case ir::Space::local: return &isspacep<2>;
        default: return &isspacep<3>;
        }
    default: return nullptr;
    }
}

Handler select_cvt(const ir::Instruction& inst, DInst& in, const SelectContext&) {
    if (in.aux & 0x100u) return &mov_dynamic_sreg;
    auto ok = [](ir::Type t) {
        return ir::is_signed_int(t) || ir::is_unsigned_int(t) || ir::is_bits(t) || t == ir::Type::f32 ||
               t == ir::Type::f64 || t == ir::Type::f16 || t == ir::Type::bf16;
    };
    if (!ok(inst.d.type) || !ok(inst.d.type2)) return nullptr;
    return &cvt;
}

}  // namespace warpsim::engine
