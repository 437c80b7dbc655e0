// sim/engine/handlers_move.cpp — mov (plain, packing/unpacking vectors, special registers, symbol
// addresses), cvta/isspacep over the generic windows, and cvt between integer and float types.
#include <algorithm>

#include "sim/arith/convert.hpp"
#include "sim/arith/float_ops.hpp"
#include "sim/engine/decode.hpp"
#include "sim/engine/dispatch.hpp"
#include "sim/engine/handler_util.hpp"
#include "sim/memory/address_map.hpp"

namespace warpsim::engine {

namespace {

// The type's width mask (width_mask) fixed when the handler is chosen: a mov is too short a loop to spend a
// call on its type.
template <uint64_t Mask>
void mov_plain(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t* a = lanes_of(x, in.src[0]);
    for_lanes(e, [&](uint32_t l) { d[l] = a[l] & Mask; });
}

void mov_plain_any(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t* a = lanes_of(x, in.src[0]);
    const uint64_t mask = width_mask(in.type);
    for_lanes(e, [&](uint32_t l) { d[l] = a[l] & mask; });
}

Handler mov_plain_for(ir::Type t) {
    switch (width_mask(t)) {
        case 1:
            return &mov_plain<1>;
        case 0xff:
            return &mov_plain<0xff>;
        case 0xffff:
            return &mov_plain<0xffff>;
        case 0xffffffffu:
            return &mov_plain<0xffffffffu>;
        case ~0ull:
            return &mov_plain<~0ull>;
        default:
            return &mov_plain_any;
    }
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
    const S s = in.dynamic_sreg.value_or(S::tid);
    const uint64_t clock = x.block->clock + x.block->warp_insts * 4;
    const uint64_t timer = x.launch->timer_base + x.block->warp_insts * 2;
    uint64_t v = 0;
    switch (s) {
        case S::clock:
            v = static_cast<uint32_t>(clock);
            break;
        case S::clock_hi:
            v = static_cast<uint32_t>(clock >> 32);
            break;
        case S::clock64:
            v = clock;
            break;
        case S::globaltimer:
            v = timer;
            break;
        case S::globaltimer_lo:
            v = static_cast<uint32_t>(timer);
            break;
        case S::globaltimer_hi:
            v = static_cast<uint32_t>(timer >> 32);
            break;
        default:
            break;
    }
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t mask = width_mask(in.type);
    for_lanes(e, [&](uint32_t l) { d[l] = v & mask; });
}

// cvta.space: space address -> generic; cvta.to.space: generic -> space address.
template <bool To, int Space>  // Space: 0 global/const (identity), 1 shared, 2 local, 3 kernel param
void cvta(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t* a = lanes_of(x, in.src[0]);
    const bool frame_sym = in.frame_relative;
    const uint64_t base = Space == 1   ? memory::kSharedWindow
                          : Space == 2 ? memory::kLocalWindow
                          : Space == 3 ? memory::kParamWindow
                                       : 0;
    const uint64_t mask = in.type == ir::Type::u32 ? 0xffffffffull : ~0ull;
    for_lanes(e, [&](uint32_t l) {
        uint64_t v = frame_sym ? x.frame->local_base + static_cast<uint64_t>(in.offset) : a[l];
        d[l] = (To ? v - base : v + base) & mask;
    });
}

template <int Space>  // 0 global, 1 shared, 2 local, 3 param, 4 const (never: const is not in a window)
void isspacep(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t* a = lanes_of(x, in.src[0]);
    for_lanes(e, [&](uint32_t l) {
        const auto g = memory::classify_generic(a[l]);
        d[l] = Space == 0   ? g == memory::GenericSpace::global
               : Space == 1 ? g == memory::GenericSpace::shared
               : Space == 2 ? g == memory::GenericSpace::local
               : Space == 3 ? g == memory::GenericSpace::param
                            : false;
    });
}

// ---- cvt (all conversions through sim/arith/convert.hpp) ---------------------------------------------
arith::CvtMode cvt_mode(const ir::Instruction& inst) {
    const auto& d = inst.d;
    const bool satfinite = inst.has_mod("satfinite");
    return arith::CvtMode{d.rnd, d.ftz, d.sat, d.relu, satfinite};
}

// Scalar cvt.dtype.stype d, a. Signed results come back sign-extended: the register's width decides.
void cvt(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t* a = lanes_of(x, in.src[0]);
    const arith::CvtMode mode = cvt_mode(*in.ir);
    const uint64_t dmask = x.frame->code->reg_width_mask[in.dst[0]];
    const uint64_t smask = width_mask(in.type2);
    for_lanes(e, [&](uint32_t l) { d[l] = arith::convert(a[l] & smask, in.type2, in.type, mode) & dmask; });
}

// cvt.frnd{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: a to the upper half, b to the lower half.
template <bool Bf>
void cvt_pack_x2(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]);
    const arith::CvtMode m = cvt_mode(*in.ir);
    const arith::Round r = arith::to_round(m.rnd);
    for_lanes(e, [&](uint32_t l) {
        d[l] = Bf ? arith::cvt_bf16x2_f32(uint32_t(a[l]), uint32_t(b[l]), r, m.relu, m.satfinite)
                  : arith::cvt_f16x2_f32(uint32_t(a[l]), uint32_t(b[l]), r, m.relu, m.satfinite);
    });
}

// cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b and .f16x2 d, a; cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2}.
void cvt_f8x2(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]);
    const bool relu = in.ir->d.relu;
    for_lanes(e, [&](uint32_t l) {
        if (in.type == ir::Type::f16x2)
            d[l] = arith::cvt_f16x2_f8x2(uint16_t(a[l]), in.type2, relu);
        else if (in.type2 == ir::Type::f16x2)
            d[l] = arith::cvt_f8x2_f16x2(uint32_t(a[l]), in.type, relu);
        else
            d[l] = arith::cvt_f8x2_f32(uint32_t(a[l]), uint32_t(b[l]), in.type, relu);
    });
}

}  // namespace

Handler select_move(const ir::Instruction& inst, DInst& in, const SelectContext&) {
    using O = ir::Opcode;
    const auto sp = inst.d.space;
    switch (inst.op) {
        case O::mov:
            if (in.dynamic_sreg) return &mov_dynamic_sreg;
            if (in.frame_relative) return &mov_frame_symbol;
            if (in.nsrc > 1) return &mov_pack;
            if (in.ndst > 1) return &mov_unpack;
            return mov_plain_for(in.type);
        case O::cvta: {
            const int s = sp == ir::Space::shared || sp == ir::Space::shared_cta ? 1
                          : sp == ir::Space::local                               ? 2
                          : sp == ir::Space::param                               ? 3
                                                                                 : 0;
            if (inst.d.to)
                return s == 1   ? &cvta<true, 1>
                       : s == 2 ? &cvta<true, 2>
                       : s == 3 ? &cvta<true, 3>
                                : &cvta<true, 0>;
            return s == 1   ? &cvta<false, 1>
                   : s == 2 ? &cvta<false, 2>
                   : s == 3 ? &cvta<false, 3>
                            : &cvta<false, 0>;
        }
        case O::isspacep:
            switch (sp) {
                case ir::Space::global:
                    return &isspacep<0>;
                case ir::Space::shared:
                case ir::Space::shared_cta:
                    return &isspacep<1>;
                case ir::Space::local:
                    return &isspacep<2>;
                case ir::Space::param:
                    return &isspacep<3>;
                default:
                    return &isspacep<4>;
            }
        default:
            return nullptr;
    }
}

Handler select_cvt(const ir::Instruction& inst, DInst& in, const SelectContext&) {
    using T = ir::Type;
    if (in.dynamic_sreg) return &mov_dynamic_sreg;
    const T dt = inst.d.type, st = inst.d.type2;
    const bool f8x2 = dt == T::e4m3x2 || dt == T::e5m2x2, src_f8x2 = st == T::e4m3x2 || st == T::e5m2x2;
    if (dt == T::f16x2 && st == T::f32) return in.nsrc == 2 ? &cvt_pack_x2<false> : nullptr;
    if (dt == T::bf16x2 && st == T::f32) return in.nsrc == 2 ? &cvt_pack_x2<true> : nullptr;
    if (f8x2 && (st == T::f32 ? in.nsrc == 2 : st == T::f16x2)) return &cvt_f8x2;
    if (dt == T::f16x2 && src_f8x2) return &cvt_f8x2;
    auto ok = [](T t) {
        return ir::is_signed_int(t) || ir::is_unsigned_int(t) || ir::is_bits(t) || t == T::f32 ||
               t == T::f64 || t == T::f16 || t == T::bf16 || t == T::tf32 || t == T::e4m3 || t == T::e5m2;
    };
    if (!ok(dt) || !ok(st) || in.nsrc != 1) return nullptr;
    return &cvt;
}

}  // namespace warpsim::engine
