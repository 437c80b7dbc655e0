// sim/arith/convert.cpp — cvt: integer/float conversions with every rounding, saturation and flush rule.
#include "sim/arith/convert.hpp"

#include "sim/arith/float_ops.hpp"

namespace warpsim::arith {
namespace {

enum class Cls : uint8_t { none, uint, sint, flt };

struct TypeInfo {
    Cls cls = Cls::none;
    int bits = 0;
    Format fmt{0, 0};
};

TypeInfo type_info(ir::Type t) {
    using T = ir::Type;
    switch (t) {
        case T::u8:
        case T::b8:
            return {Cls::uint, 8, {}};
        case T::u16:
        case T::b16:
            return {Cls::uint, 16, {}};
        case T::u32:
        case T::b32:
            return {Cls::uint, 32, {}};
        case T::u64:
        case T::b64:
            return {Cls::uint, 64, {}};
        case T::s8:
            return {Cls::sint, 8, {}};
        case T::s16:
            return {Cls::sint, 16, {}};
        case T::s32:
            return {Cls::sint, 32, {}};
        case T::s64:
            return {Cls::sint, 64, {}};
        case T::f16:
            return {Cls::flt, 16, kF16};
        case T::bf16:
            return {Cls::flt, 16, kBF16};
        case T::f32:
            return {Cls::flt, 32, kF32};
        case T::f64:
            return {Cls::flt, 64, kF64};
        case T::tf32:
            return {Cls::flt, 32, kTF32};
        case T::e4m3:
            return {Cls::flt, 8, kE4M3};
        case T::e5m2:
            return {Cls::flt, 8, kE5M2};
        default:
            return {};
    }
}

constexpr uint64_t low_mask(int bits) {
    return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

// Sign-extend `bits`-wide v to 64 bits.
constexpr uint64_t sext(uint64_t v, int bits) {
    const int sh = 64 - bits;
    return static_cast<uint64_t>(static_cast<int64_t>(v << sh) >> sh);
}

bool is_integer_rounding(ir::Rounding r) {
    return r == ir::Rounding::rni || r == ir::Rounding::rzi || r == ir::Rounding::rmi ||
           r == ir::Rounding::rpi;
}

// Signed integer value of `src` read as type `ti`, as sign + magnitude.
struct IntValue {
    bool neg = false;
    uint64_t mag = 0;
};
IntValue read_int(uint64_t src, const TypeInfo& ti) {
    const uint64_t v = src & low_mask(ti.bits);
    if (ti.cls == Cls::sint && ((v >> (ti.bits - 1)) & 1)) return {true, uint64_t(0) - sext(v, ti.bits)};
    return {false, v};
}

// Write a signed value (neg, mag) to an integer type: saturate or truncate, then extend.
uint64_t write_int(bool neg, u128 mag, const TypeInfo& to, bool saturate) {
    if (saturate) {
        const u128 max_pos = to.cls == Cls::sint ? (u128{1} << (to.bits - 1)) - 1 : (u128{1} << to.bits) - 1;
        const u128 max_neg = to.cls == Cls::sint ? (u128{1} << (to.bits - 1)) : 0;
        if (neg && mag > max_neg) mag = max_neg;
        if (!neg && mag > max_pos) mag = max_pos;
    }
    uint64_t v = static_cast<uint64_t>(mag);
    if (neg) v = uint64_t(0) - v;
    v &= low_mask(to.bits);
    return to.cls == Cls::sint ? sext(v, to.bits) : v;
}

// |x| rounded to an integer in direction r; values >= 2^100 are reported as 2^100 (beyond any range).
u128 round_magnitude(const Unpacked& x, Round r) {
    if (x.exp >= 0) return x.exp > 100 ? (u128{1} << 100) : u128{x.sig} << x.exp;
    const int shift = -x.exp;
    const uint64_t kept = shift >= 64 ? 0 : x.sig >> shift;
    const bool half = shift <= 64 && ((x.sig >> (shift - 1)) & 1);
    const bool sticky = shift - 1 >= 64 ? x.sig != 0 : (x.sig & ((uint64_t{1} << (shift - 1)) - 1)) != 0;
    return u128{kept} + (round_up(r, x.sign, kept & 1, half, sticky) ? 1 : 0);
}

uint64_t float_to_int(uint64_t src, ir::Type from, const TypeInfo& fi, const TypeInfo& to, const CvtMode& m) {
    const Unpacked x = unpack(src, fi.fmt, m.ftz && from == ir::Type::f32);
    if (x.kind == Kind::nan) {
        // "Integer Notes": NaN -> 0 unless the source is .f64 or the destination is 64-bit.
        if (from != ir::Type::f64 && to.bits != 64) return 0;
        const uint64_t v = uint64_t{1} << (to.bits - 1);
        return to.cls == Cls::sint ? sext(v, to.bits) : v;
    }
    if (x.kind == Kind::zero) return 0;
    const u128 mag = x.kind == Kind::inf ? (u128{1} << 100) : round_magnitude(x, to_round(m.rnd));
    // Float -> int always saturates (PTX: ".sat is redundant"); -0.4 rounded to -0 is 0.
    return write_int(x.sign && mag != 0, mag, to, true);
}

uint64_t int_to_float(uint64_t src, const TypeInfo& fi, const TypeInfo& to, ir::Type to_type,
                      const CvtMode& m) {
    const IntValue v = read_int(src, fi);
    if (v.mag == 0) return 0;
    const bool ftz_out = m.ftz && to_type == ir::Type::f32;
    uint64_t d = round_pack(v.neg, 0, u128{v.mag}, to.fmt, to_round(m.rnd), ftz_out);
    if (m.sat) d = fp_sat(d, to.fmt);
    return d;
}

// tf32 lives in a 32-bit register with f32's layout and the low 13 fraction bits zero.
uint64_t to_tf32_container(uint64_t tf32_bits) {
    const uint64_t sign = (tf32_bits >> kTF32.sign_shift()) & 1;
    return (sign << 31) | ((tf32_bits & kTF32.mag_mask()) << 13);
}

constexpr bool same_format(Format a, Format b) {
    return a.mant_bits == b.mant_bits && a.exp_bits == b.exp_bits && a.kind == b.kind;
}

// NaN through a float -> float conversion, as measured on the H200 (tests/hardware/sfu): f32/f16 -> f64 and
// f64 -> f32/f16/bf16 keep the sign and the leading payload bits and set the quiet bit; bf16 -> f32 is a
// plain shift (even a signalling NaN stays signalling); every other conversion gives the canonical NaN.
uint64_t convert_nan(uint64_t bits, Format from, Format to) {
    if (to.kind != FormatKind::ieee) return canonical_nan(to);
    if (same_format(from, kBF16) && same_format(to, kF32)) return bits << 16;
    const bool keep_payload = same_format(from, kF64) || same_format(to, kF64);
    if (!keep_payload) return canonical_nan(to);
    const uint64_t sign = (bits >> from.sign_shift()) & 1;
    const uint64_t frac = bits & from.frac_mask();
    const uint64_t payload = to.mant_bits >= from.mant_bits ? frac << (to.mant_bits - from.mant_bits)
                                                            : frac >> (from.mant_bits - to.mant_bits);
    return (sign << to.sign_shift()) | to.inf_code() | (uint64_t{1} << (to.mant_bits - 1)) | payload;
}

}  // namespace

uint64_t float_to_float(uint64_t bits, Format from, Format to, Round r, bool ftz_in, bool ftz_out, bool relu,
                        bool satfinite) {
    const Unpacked x = unpack(bits, from, ftz_in);
    const uint64_t s = x.sign ? sign_bit(to) : 0;
    uint64_t d = 0;
    switch (x.kind) {
        case Kind::nan:
            return relu ? canonical_nan(to) : convert_nan(bits, from, to);
        case Kind::zero:
            d = s;
            break;
        case Kind::inf:
            d = (to.kind == FormatKind::ieee && !satfinite) ? (s | to.inf_code())
                                                            : (s | to.max_finite_code());
            break;
        case Kind::finite:
            d = round_pack(x.sign, x.exp, u128{x.sig}, to, r, ftz_out);
            break;
    }
    if (satfinite && to.kind == FormatKind::ieee && (d & to.mag_mask()) == to.inf_code())
        d = (d & sign_bit(to)) | to.max_finite_code();
    if (relu && (d & sign_bit(to))) d = 0;
    return d;
}

uint64_t convert(uint64_t src, ir::Type from, ir::Type to, const CvtMode& m) {
    const TypeInfo fi = type_info(from), ti = type_info(to);
    if (fi.cls == Cls::none || ti.cls == Cls::none) return 0;
    if (fi.cls != Cls::flt && ti.cls != Cls::flt) {
        const IntValue v = read_int(src, fi);
        return write_int(v.neg, u128{v.mag}, ti, m.sat);
    }
    if (fi.cls != Cls::flt) return int_to_float(src, fi, ti, to, m);
    src &= low_mask(fi.bits);
    if (ti.cls != Cls::flt) return float_to_int(src, from, fi, ti, m);

    const bool ftz_in = m.ftz && from == ir::Type::f32;
    const bool ftz_out = m.ftz && to == ir::Type::f32;
    // cvt.rna.tf32.f32 of a NaN drops the low 13 bits and nothing else (measured: 0x7f800001 -> 0x7f800000).
    if (to == ir::Type::tf32 && from == ir::Type::f32 && is_nan_bits(src, kF32)) return src & 0xffffe000u;
    uint64_t d = 0;
    if (is_integer_rounding(m.rnd)) {
        // Same-size float -> float rounded to an integral value (cvt.rni.f32.f32 and friends).
        d = fp_round_integral(src, fi.fmt, to_round(m.rnd), ftz_in || ftz_out);
    } else {
        d = float_to_float(src, fi.fmt, ti.fmt, to_round(m.rnd), ftz_in, ftz_out, m.relu, m.satfinite);
    }
    if (to == ir::Type::tf32) d = to_tf32_container(d);
    if (m.sat && ti.fmt.kind == FormatKind::ieee && to != ir::Type::tf32) d = fp_sat(d, ti.fmt);
    return d;
}

uint32_t cvt_f16x2_f32(uint32_t a, uint32_t b, Round r, bool relu, bool satfinite) {
    const auto hi = float_to_float(a, kF32, kF16, r, false, false, relu, satfinite);
    const auto lo = float_to_float(b, kF32, kF16, r, false, false, relu, satfinite);
    return uint32_t(hi << 16 | lo);
}

uint32_t cvt_bf16x2_f32(uint32_t a, uint32_t b, Round r, bool relu, bool satfinite) {
    const auto hi = float_to_float(a, kF32, kBF16, r, false, false, relu, satfinite);
    const auto lo = float_to_float(b, kF32, kBF16, r, false, false, relu, satfinite);
    return uint32_t(hi << 16 | lo);
}

namespace {
Format f8_format(ir::Type t) {
    return (t == ir::Type::e5m2x2 || t == ir::Type::e5m2) ? kE5M2 : kE4M3;
}
}  // namespace

uint16_t cvt_f8x2_f32(uint32_t a, uint32_t b, ir::Type to, bool relu) {
    const Format f = f8_format(to);
    const auto hi = float_to_float(a, kF32, f, Round::rn, false, false, relu, true);
    const auto lo = float_to_float(b, kF32, f, Round::rn, false, false, relu, true);
    return uint16_t(hi << 8 | lo);
}

uint16_t cvt_f8x2_f16x2(uint32_t a, ir::Type to, bool relu) {
    const Format f = f8_format(to);
    const auto hi = float_to_float(a >> 16, kF16, f, Round::rn, false, false, relu, true);
    const auto lo = float_to_float(a & 0xffff, kF16, f, Round::rn, false, false, relu, true);
    return uint16_t(hi << 8 | lo);
}

uint32_t cvt_f16x2_f8x2(uint16_t a, ir::Type from, bool relu) {
    const Format f = f8_format(from);
    const auto hi = float_to_float(a >> 8, f, kF16, Round::rn, false, false, relu, false);
    const auto lo = float_to_float(a & 0xff, f, kF16, Round::rn, false, false, relu, false);
    return uint32_t(hi << 16 | lo);
}

}  // namespace warpsim::arith
