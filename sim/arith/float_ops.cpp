// sim/arith/float_ops.cpp — the generic soft-float kernels behind float_ops.hpp (add, mul, fma, div,
// sqrt...).
#include "sim/arith/float_ops.hpp"

#include <cmath>

namespace warpsim::arith {
namespace {

constexpr uint64_t signed_zero(Format f, bool sign) {
    return sign ? sign_bit(f) : 0;
}
constexpr uint64_t signed_inf(Format f, bool sign) {
    return signed_zero(f, sign) | f.inf_code();
}

constexpr bool is_f64(Format f) {
    return f.mant_bits == kF64.mant_bits && f.exp_bits == kF64.exp_bits;
}

// A NaN produced from non-NaN operands (inf-inf, 0*inf, sqrt(-x)...).
constexpr uint64_t generated_nan(Format f) {
    return is_f64(f) ? kF64DefaultNaN : canonical_nan(f);
}

// NaN result when at least one operand is NaN. f64 returns the LAST NaN operand (b over a; c over b over a
// for fma) with the quiet bit set, sign and payload kept (PTX ISA 9.7.3: "NaN payloads are supported for
// double-precision instructions"; the operand order was measured on the H200, tests/hardware/sfu). Every
// other format returns its canonical NaN (f32: CUDA Programming Guide "Floating-Point Standard"; f16/bf16:
// 9.7.4 "unspecified NaN", 0x7fff on the H200).
constexpr uint64_t propagate_nan(Format f, uint64_t a, uint64_t b = 0, uint64_t c = 0, int n = 1) {
    if (!is_f64(f)) return canonical_nan(f);
    const uint64_t quiet = uint64_t{1} << (f.mant_bits - 1);
    const uint64_t ops[3] = {a, b, c};
    for (int i = n - 1; i >= 0; --i)
        if (is_nan_bits(ops[i], f)) return ops[i] | quiet;
    return canonical_nan(f);
}

constexpr Exact to_exact(const Unpacked& u) {
    return Exact{u.sign, u.exp, u128{u.sig}};
}

// floor(sqrt(n)) for n < 2^120: a double estimate refined by one Newton step, then corrected by +-1.
u128 isqrt(u128 n) {
    auto r = static_cast<u128>(std::sqrt(static_cast<double>(n)));
    if (r == 0) r = 1;
    r = (r + n / r) >> 1;
    while (r * r > n) --r;
    while ((r + 1) * (r + 1) <= n) ++r;
    return r;
}

// Sortable key: numeric order with -0 < +0 (min/max, PTX ISA 9.7.3.11 "-0.0 < +0.0 here").
constexpr int64_t order_key(uint64_t bits, Format f) {
    const auto mag = static_cast<int64_t>(bits & f.mag_mask());
    return ((bits >> f.sign_shift()) & 1) ? -mag - 1 : mag;
}

// Numeric key for comparisons, where -0 == +0 (IEEE 754 5.11).
constexpr int64_t compare_key(uint64_t bits, Format f) {
    const auto mag = static_cast<int64_t>(bits & f.mag_mask());
    return ((bits >> f.sign_shift()) & 1) ? -mag : mag;
}

constexpr uint64_t flush_if(uint64_t bits, Format f, bool ftz) {
    return ftz && is_subnormal_bits(bits, f) ? (bits & sign_bit(f)) : bits;
}

uint64_t min_max(uint64_t a, uint64_t b, Format f, bool ftz, bool nan_propagate, bool want_max) {
    a = flush_if(a, f, ftz);
    b = flush_if(b, f, ftz);
    const bool an = is_nan_bits(a, f), bn = is_nan_bits(b, f);
    // Both NaN: f32/f16/bf16 give the canonical NaN; f64 gives b, quieted (measured on the H200).
    if (an && bn && is_f64(f) && !nan_propagate) return b | (uint64_t{1} << (f.mant_bits - 1));
    if ((an && bn) || (nan_propagate && (an || bn))) return canonical_nan(f);
    if (an) return b;
    if (bn) return a;
    const bool a_less = order_key(a, f) < order_key(b, f);
    return (a_less != want_max) ? a : b;
}

}  // namespace

uint64_t fp_add(uint64_t a, uint64_t b, Format f, Round r, bool ftz) {
    const Unpacked x = unpack(a, f, ftz), y = unpack(b, f, ftz);
    if (x.kind == Kind::nan || y.kind == Kind::nan) return propagate_nan(f, a, b, 0, 2);
    if (x.kind == Kind::inf) {
        if (y.kind == Kind::inf && x.sign != y.sign) return generated_nan(f);
        return signed_inf(f, x.sign);
    }
    if (y.kind == Kind::inf) return signed_inf(f, y.sign);
    // IEEE 754 6.3: an exact zero sum is +0 except in roundTowardNegative; x + x keeps x's sign.
    if (x.kind == Kind::zero && y.kind == Kind::zero)
        return signed_zero(f, x.sign == y.sign ? x.sign : r == Round::rm);
    const Exact s = exact_add(to_exact(x), to_exact(y));
    if (s.sig == 0) return signed_zero(f, r == Round::rm);
    return round_pack(s.sign, s.exp, s.sig, f, r, ftz);
}

uint64_t fp_sub(uint64_t a, uint64_t b, Format f, Round r, bool ftz) {
    // a - b == a + (-b) including NaN handling (the sign of a NaN operand is irrelevant for f32/f16; f64
    // propagates b's payload with its own sign, so flip only non-NaN b).
    const uint64_t nb = is_nan_bits(b, f) ? b : b ^ sign_bit(f);
    return fp_add(a, nb, f, r, ftz);
}

uint64_t fp_mul(uint64_t a, uint64_t b, Format f, Round r, bool ftz) {
    const Unpacked x = unpack(a, f, ftz), y = unpack(b, f, ftz);
    if (x.kind == Kind::nan || y.kind == Kind::nan) return propagate_nan(f, a, b, 0, 2);
    const bool sign = x.sign != y.sign;
    if (x.kind == Kind::inf || y.kind == Kind::inf) {
        if (x.kind == Kind::zero || y.kind == Kind::zero) return generated_nan(f);
        return signed_inf(f, sign);
    }
    if (x.kind == Kind::zero || y.kind == Kind::zero) return signed_zero(f, sign);
    return round_pack(sign, x.exp + y.exp, u128{x.sig} * y.sig, f, r, ftz);
}

uint64_t fp_fma(uint64_t a, uint64_t b, uint64_t c, Format f, Round r, bool ftz) {
    const Unpacked x = unpack(a, f, ftz), y = unpack(b, f, ftz), z = unpack(c, f, ftz);
    if (x.kind == Kind::nan || y.kind == Kind::nan || z.kind == Kind::nan)
        return propagate_nan(f, a, b, c, 3);
    const bool ps = x.sign != y.sign;
    const bool p_inf = x.kind == Kind::inf || y.kind == Kind::inf;
    const bool p_zero = x.kind == Kind::zero || y.kind == Kind::zero;
    if (p_inf) {
        if (p_zero) return generated_nan(f);
        if (z.kind == Kind::inf && z.sign != ps) return generated_nan(f);
        return signed_inf(f, ps);
    }
    if (z.kind == Kind::inf) return signed_inf(f, z.sign);
    if (p_zero) {
        if (z.kind == Kind::zero) return signed_zero(f, ps == z.sign ? ps : r == Round::rm);
        return round_pack(z.sign, z.exp, z.sig, f, r, ftz);
    }
    const Exact prod{ps, x.exp + y.exp, u128{x.sig} * y.sig};
    const Exact s = exact_add(prod, to_exact(z));
    if (s.sig == 0) return signed_zero(f, r == Round::rm);
    return round_pack(s.sign, s.exp, s.sig, f, r, ftz);
}

uint64_t fp_div(uint64_t a, uint64_t b, Format f, Round r, bool ftz) {
    const Unpacked x = unpack(a, f, ftz), y = unpack(b, f, ftz);
    // div.rn.f64 is a software sequence on the GPU and returns the FIRST NaN operand (measured), unlike
    // the single f64 instructions: list the operands in reverse so propagate_nan's "last" picks a.
    if (x.kind == Kind::nan || y.kind == Kind::nan) return propagate_nan(f, b, a, 0, 2);
    const bool sign = x.sign != y.sign;
    if (x.kind == Kind::inf) return y.kind == Kind::inf ? generated_nan(f) : signed_inf(f, sign);
    if (y.kind == Kind::inf) return signed_zero(f, sign);
    if (y.kind == Kind::zero) return x.kind == Kind::zero ? generated_nan(f) : signed_inf(f, sign);
    if (x.kind == Kind::zero) return signed_zero(f, sign);
    // Quotient of >= 63 bits plus a sticky bit from the remainder: one correct rounding for any format
    // up to f64 (the same parity argument as exact_add: the jammed quotient is odd).
    const int sa = 126 - msb_index(u128{x.sig}), sb = 63 - msb_index(u128{y.sig});
    const u128 num = u128{x.sig} << sa;
    const uint64_t den = y.sig << sb;
    u128 q = num / den;
    const bool inexact = (num % den) != 0;
    q = (q << 1) | (inexact ? 1 : 0);
    const int32_t exp = (x.exp - sa) - (y.exp - sb) - 1;
    return round_pack(sign, exp, q, f, r, ftz);
}

uint64_t fp_sqrt(uint64_t a, Format f, Round r, bool ftz) {
    const Unpacked x = unpack(a, f, ftz);
    if (x.kind == Kind::nan) return propagate_nan(f, a);
    if (x.kind == Kind::zero) return signed_zero(f, x.sign);  // sqrt(-0) = -0 (9.7.3.15 table)
    if (x.sign) return generated_nan(f);
    if (x.kind == Kind::inf) return signed_inf(f, false);
    int shift = 116 - msb_index(u128{x.sig});
    if (((x.exp - shift) & 1) != 0) ++shift;
    const u128 n = u128{x.sig} << shift;
    const u128 root = isqrt(n);
    const u128 jammed = (root << 1) | ((root * root != n) ? 1 : 0);
    const int32_t exp = (x.exp - shift) / 2 - 1;
    return round_pack(false, exp, jammed, f, r, ftz);
}

uint64_t fp_min(uint64_t a, uint64_t b, Format f, bool ftz, bool nan_propagate) {
    return min_max(a, b, f, ftz, nan_propagate, false);
}

uint64_t fp_max(uint64_t a, uint64_t b, Format f, bool ftz, bool nan_propagate) {
    return min_max(a, b, f, ftz, nan_propagate, true);
}

uint64_t fp_sat(uint64_t a, Format f) {
    // PTX ISA 9.7.3 (add/sub/mul/mad .sat) and 9.7.10.24 (cvt .sat): clamp to [0.0, 1.0], NaN -> +0.0.
    // -0.0 is clamped to +0.0 as well (the lower bound is +0.0).
    const uint64_t one = uint64_t(f.bias()) << f.mant_bits;
    if (is_nan_bits(a, f) || ((a >> f.sign_shift()) & 1)) return 0;
    return (a & f.mag_mask()) > one ? one : a;
}

uint64_t fp_round_integral(uint64_t a, Format f, Round r, bool ftz) {
    const Unpacked x = unpack(a, f, ftz);
    if (x.kind == Kind::nan) return propagate_nan(f, a);
    if (x.kind != Kind::finite) return x.kind == Kind::zero ? signed_zero(f, x.sign) : a;
    if (x.exp >= 0) return a;  // already an integer
    const int shift = -x.exp;
    const uint64_t kept = shift >= 64 ? 0 : x.sig >> shift;
    const bool half = shift <= 64 && ((x.sig >> (shift - 1)) & 1);
    const bool sticky = shift - 1 >= 64 ? x.sig != 0 : (x.sig & ((uint64_t{1} << (shift - 1)) - 1)) != 0;
    const uint64_t q = kept + (round_up(r, x.sign, kept & 1, half, sticky) ? 1 : 0);
    return round_pack(x.sign, 0, u128{q}, f, Round::rn, ftz);
}

// ---- f16 / bf16 ------------------------------------------------------------------------------------------
namespace {
uint16_t half_result(uint64_t bits, Format f, bool sat) {
    return uint16_t(sat ? fp_sat(bits, f) : bits);
}
// .relu (9.7.4.4): negative results become +0; NaN results become the canonical NaN.
uint16_t relu(uint64_t bits, Format f) {
    if (is_nan_bits(bits, f)) return uint16_t(canonical_nan(f));
    return uint16_t(((bits >> f.sign_shift()) & 1) ? 0 : bits);
}
}  // namespace

uint16_t f16_add(uint16_t a, uint16_t b, bool ftz, bool sat) {
    return half_result(fp_add(a, b, kF16, Round::rn, ftz), kF16, sat);
}
uint16_t f16_sub(uint16_t a, uint16_t b, bool ftz, bool sat) {
    return half_result(fp_sub(a, b, kF16, Round::rn, ftz), kF16, sat);
}
uint16_t f16_mul(uint16_t a, uint16_t b, bool ftz, bool sat) {
    return half_result(fp_mul(a, b, kF16, Round::rn, ftz), kF16, sat);
}
uint16_t f16_fma(uint16_t a, uint16_t b, uint16_t c, bool ftz, bool sat, bool relu_mode) {
    const uint64_t d = fp_fma(a, b, c, kF16, Round::rn, ftz);
    return relu_mode ? relu(d, kF16) : half_result(d, kF16, sat);
}
uint16_t f16_min(uint16_t a, uint16_t b, bool ftz, bool nan_propagate) {
    return uint16_t(fp_min(a, b, kF16, ftz, nan_propagate));
}
uint16_t f16_max(uint16_t a, uint16_t b, bool ftz, bool nan_propagate) {
    return uint16_t(fp_max(a, b, kF16, ftz, nan_propagate));
}
uint16_t bf16_add(uint16_t a, uint16_t b) {
    return uint16_t(fp_add(a, b, kBF16, Round::rn, false));
}
uint16_t bf16_sub(uint16_t a, uint16_t b) {
    return uint16_t(fp_sub(a, b, kBF16, Round::rn, false));
}
uint16_t bf16_mul(uint16_t a, uint16_t b) {
    return uint16_t(fp_mul(a, b, kBF16, Round::rn, false));
}
uint16_t bf16_fma(uint16_t a, uint16_t b, uint16_t c, bool relu_mode) {
    const uint64_t d = fp_fma(a, b, c, kBF16, Round::rn, false);
    return relu_mode ? relu(d, kBF16) : uint16_t(d);
}
uint16_t bf16_min(uint16_t a, uint16_t b, bool nan_propagate) {
    return uint16_t(fp_min(a, b, kBF16, false, nan_propagate));
}
uint16_t bf16_max(uint16_t a, uint16_t b, bool nan_propagate) {
    return uint16_t(fp_max(a, b, kBF16, false, nan_propagate));
}

// ---- comparisons -----------------------------------------------------------------------------------------
namespace {
bool float_format(ir::Type t, Format& f) {
    switch (t) {
        case ir::Type::f16:
            f = kF16;
            return true;
        case ir::Type::bf16:
            f = kBF16;
            return true;
        case ir::Type::f32:
            f = kF32;
            return true;
        case ir::Type::f64:
            f = kF64;
            return true;
        default:
            return false;
    }
}

int int_bits(ir::Type t) {
    switch (t) {
        case ir::Type::b8:
        case ir::Type::u8:
        case ir::Type::s8:
            return 8;
        case ir::Type::b16:
        case ir::Type::u16:
        case ir::Type::s16:
            return 16;
        case ir::Type::b32:
        case ir::Type::u32:
        case ir::Type::s32:
            return 32;
        default:
            return 64;
    }
}

template <class T>
bool compare_ordered(T a, T b, ir::CmpOp op) {
    switch (op) {
        case ir::CmpOp::eq:
        case ir::CmpOp::equ:
            return a == b;
        case ir::CmpOp::ne:
        case ir::CmpOp::neu:
            return a != b;
        case ir::CmpOp::lt:
        case ir::CmpOp::ltu:
        case ir::CmpOp::lo:
            return a < b;
        case ir::CmpOp::le:
        case ir::CmpOp::leu:
        case ir::CmpOp::ls:
            return a <= b;
        case ir::CmpOp::gt:
        case ir::CmpOp::gtu:
        case ir::CmpOp::hi:
            return a > b;
        case ir::CmpOp::ge:
        case ir::CmpOp::geu:
        case ir::CmpOp::hs:
            return a >= b;
        case ir::CmpOp::num:
            return true;
        default:  // nan: no operand is NaN on this path
            return false;
    }
}

bool is_unordered_op(ir::CmpOp op) {
    switch (op) {
        case ir::CmpOp::equ:
        case ir::CmpOp::neu:
        case ir::CmpOp::ltu:
        case ir::CmpOp::leu:
        case ir::CmpOp::gtu:
        case ir::CmpOp::geu:
        case ir::CmpOp::nan:
            return true;
        default:
            return false;
    }
}
}  // namespace

bool compare(uint64_t a, uint64_t b, ir::Type type, ir::CmpOp op, bool ftz) {
    Format f{};
    if (float_format(type, f)) {
        const bool flush = ftz && (type == ir::Type::f32 || type == ir::Type::f16);
        a = flush_if(a & (sign_bit(f) | f.mag_mask()), f, flush);
        b = flush_if(b & (sign_bit(f) | f.mag_mask()), f, flush);
        if (is_nan_bits(a, f) || is_nan_bits(b, f)) return is_unordered_op(op);
        return compare_ordered(compare_key(a, f), compare_key(b, f), op);
    }
    const int bits = int_bits(type);
    const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    a &= mask;
    b &= mask;
    if (type == ir::Type::s8 || type == ir::Type::s16 || type == ir::Type::s32 || type == ir::Type::s64) {
        const int sh = 64 - bits;
        const auto sa = static_cast<int64_t>(a << sh) >> sh, sb = static_cast<int64_t>(b << sh) >> sh;
        return compare_ordered(sa, sb, op);
    }
    return compare_ordered(a, b, op);
}

bool testp(uint64_t a, ir::Type type, TestOp op) {
    Format f{};
    if (!float_format(type, f)) return false;
    const Unpacked u = unpack(a, f, false);
    switch (op) {
        case TestOp::finite:
            return u.kind == Kind::zero || u.kind == Kind::finite;
        case TestOp::infinite:
            return u.kind == Kind::inf;
        case TestOp::number:
            return u.kind != Kind::nan;
        case TestOp::notanumber:
            return u.kind == Kind::nan;
        case TestOp::normal:
            return u.kind == Kind::zero || (u.kind == Kind::finite && !is_subnormal_bits(a, f));
        case TestOp::subnormal:
            return is_subnormal_bits(a, f);
    }
    return false;
}

}  // namespace warpsim::arith
