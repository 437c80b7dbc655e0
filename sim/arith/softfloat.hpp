// sim/arith/softfloat.hpp — integer-significand IEEE-754 core: unpack, exact add, round-and-pack for any
// format.
//
// Every floating-point result in warpsim goes through round_pack(): the exact value (sign, significand,
// binary exponent) is rounded once, in software, in the requested mode. The host's floating-point
// environment is never consulted, so results do not depend on MXCSR, fesetround or the compiler's
// contraction choices. Formats are described by a small value (Format) so one code path serves f64, f32,
// tf32, f16, bf16 and the 8/6/4-bit formats of cvt.
#pragma once

#include <bit>
#include <cstdint>

namespace warpsim::arith {

__extension__ typedef unsigned __int128 u128;

// IEEE rounding directions (PTX ISA 9.7.3 "Rounding modifiers": .rn ties-to-even, .rz, .rm toward -inf,
// .rp toward +inf) plus .rna (ties away from zero), which cvt uses for .tf32.
enum class Round : uint8_t { rn, rz, rm, rp, rna };

// How a format encodes its extremes. ieee: all-ones exponent holds inf (fraction 0) and NaN.
// nan_only_all_ones: no infinity; only the all-ones code (S.1111.111) is NaN (e4m3, PTX ISA 5.2.5.x).
// finite_only: every code is a finite number (e2m1, e2m3, e3m2, PTX ISA "Alternate floating-point formats").
enum class FormatKind : uint8_t { ieee, nan_only_all_ones, finite_only };

struct Format {
    int mant_bits;  // stored fraction bits
    int exp_bits;
    FormatKind kind = FormatKind::ieee;

    constexpr int bias() const { return (1 << (exp_bits - 1)) - 1; }
    constexpr int emin() const { return 1 - bias(); }
    constexpr int sign_shift() const { return mant_bits + exp_bits; }
    constexpr uint64_t exp_mask() const { return (uint64_t{1} << exp_bits) - 1; }
    constexpr uint64_t frac_mask() const { return (uint64_t{1} << mant_bits) - 1; }
    constexpr uint64_t mag_mask() const { return (uint64_t{1} << sign_shift()) - 1; }
    // Largest finite magnitude code ((biased exponent << mant_bits) | fraction).
    constexpr uint64_t max_finite_code() const {
        switch (kind) {
            case FormatKind::ieee:
                return ((exp_mask() - 1) << mant_bits) | frac_mask();
            case FormatKind::nan_only_all_ones:
                return mag_mask() - 1;
            case FormatKind::finite_only:
                return mag_mask();
        }
        return 0;
    }
    constexpr uint64_t inf_code() const { return exp_mask() << mant_bits; }  // ieee only
};

inline constexpr Format kF64{52, 11};
inline constexpr Format kF32{23, 8};
inline constexpr Format kTF32{10, 8};  // tf32 keeps f32's layout; see convert.cpp for the 32-bit container
inline constexpr Format kF16{10, 5};
inline constexpr Format kBF16{7, 8};
inline constexpr Format kE4M3{3, 4, FormatKind::nan_only_all_ones};
inline constexpr Format kE5M2{2, 5};
inline constexpr Format kE2M3{3, 2, FormatKind::finite_only};
inline constexpr Format kE3M2{2, 3, FormatKind::finite_only};
inline constexpr Format kE2M1{1, 2, FormatKind::finite_only};

// Canonical NaNs. f32: 0x7fffffff (CUDA Programming Guide, "Floating-Point Standard": every single-precision
// operation with a NaN result returns 0x7fffffff). f16 and bf16 results use 0x7fff (measured on the H200).
// f64 instructions propagate NaN operands (quieted); a NaN they create from numbers (sqrt(-1), inf-inf)
// is 0xfff8000000000000 (measured: sqrt.rn.f64, rsqrt.approx.f64 in tests/hardware/sfu); the PTX .NaN
// min/max and "both operands NaN" results use kF64CanonicalNaN.
inline constexpr uint32_t kF32CanonicalNaN = 0x7fffffffu;
inline constexpr uint64_t kF64CanonicalNaN = 0x7fffffffffffffffull;
inline constexpr uint64_t kF64DefaultNaN = 0xfff8000000000000ull;
inline constexpr uint16_t kF16CanonicalNaN = 0x7fff;
inline constexpr uint16_t kBF16CanonicalNaN = 0x7fff;

constexpr uint64_t canonical_nan(Format f) {
    if (f.kind == FormatKind::ieee) return f.mag_mask();  // exponent all ones, fraction all ones, sign 0
    if (f.kind == FormatKind::nan_only_all_ones) return f.mag_mask();
    return f.max_finite_code();  // finite-only formats have no NaN: PTX .satfinite maps NaN to +MAX_NORM
}

enum class Kind : uint8_t { zero, finite, inf, nan };

// value = (-1)^sign * sig * 2^exp for finite; sig is nonzero exactly when kind == finite.
struct Unpacked {
    Kind kind = Kind::zero;
    bool sign = false;
    int32_t exp = 0;
    uint64_t sig = 0;
};

// Decode `bits` of format `f`. With `ftz`, subnormal inputs read as sign-preserving zero (PTX ISA 9.7.3:
// ".ftz flushes subnormal inputs and results to sign-preserving zero").
constexpr Unpacked unpack(uint64_t bits, Format f, bool ftz) {
    Unpacked u;
    u.sign = (bits >> f.sign_shift()) & 1;
    const uint64_t e = (bits >> f.mant_bits) & f.exp_mask();
    const uint64_t frac = bits & f.frac_mask();
    if (f.kind == FormatKind::ieee && e == f.exp_mask()) {
        u.kind = frac ? Kind::nan : Kind::inf;
        return u;
    }
    if (f.kind == FormatKind::nan_only_all_ones && (bits & f.mag_mask()) == f.mag_mask()) {
        u.kind = Kind::nan;
        return u;
    }
    if (e == 0) {
        if (frac == 0 || ftz) return u;  // zero (kind already zero)
        u.kind = Kind::finite;
        u.sig = frac;
        u.exp = f.emin() - f.mant_bits;
        return u;
    }
    u.kind = Kind::finite;
    u.sig = frac | (uint64_t{1} << f.mant_bits);
    u.exp = static_cast<int32_t>(e) - f.bias() - f.mant_bits;
    return u;
}

constexpr bool is_nan_bits(uint64_t bits, Format f) {
    return unpack(bits, f, false).kind == Kind::nan;
}
constexpr bool is_subnormal_bits(uint64_t bits, Format f) {
    return ((bits >> f.mant_bits) & f.exp_mask()) == 0 && (bits & f.frac_mask()) != 0;
}
constexpr uint64_t sign_bit(Format f) {
    return uint64_t{1} << f.sign_shift();
}

constexpr int msb_index(u128 x) {
    const auto hi = static_cast<uint64_t>(x >> 64);
    if (hi) return 127 - std::countl_zero(hi);
    return 63 - std::countl_zero(static_cast<uint64_t>(x));
}

// Decide whether a truncated magnitude q (in units of the result's LSB) rounds up. `half` and `sticky`
// describe the discarded part: round bit and "anything below it is nonzero".
constexpr bool round_up(Round r, bool sign, bool lsb_odd, bool half, bool sticky) {
    switch (r) {
        case Round::rn:
            return half && (sticky || lsb_odd);
        case Round::rna:
            return half;
        case Round::rz:
            return false;
        case Round::rm:
            return sign && (half || sticky);
        case Round::rp:
            return !sign && (half || sticky);
    }
    return false;
}

// Result of a rounding that overflowed the format: infinity or the largest finite value, by direction
// (IEEE 754 7.4). Formats without infinity saturate (PTX .satfinite, mandatory for them).
constexpr uint64_t overflow_result(bool sign, Format f, Round r) {
    const uint64_t s = sign ? sign_bit(f) : 0;
    if (f.kind != FormatKind::ieee) return s | f.max_finite_code();
    const bool to_inf =
        r == Round::rn || r == Round::rna || (r == Round::rp && !sign) || (r == Round::rm && sign);
    return s | (to_inf ? f.inf_code() : f.max_finite_code());
}

// Round the exact nonzero value (-1)^sign * sig * 2^exp to format f. With `ftz`, a result whose exact value
// is below the smallest normal becomes a sign-preserving zero, even when rounding would carry it up to the
// smallest normal: the H200 detects tininess before rounding (mul.rn.ftz.f32 in tests/hardware/sfu).
constexpr uint64_t round_pack(bool sign, int32_t exp, u128 sig, Format f, Round r, bool ftz) {
    const uint64_t s = sign ? sign_bit(f) : 0;
    if (sig == 0) return s;
    const int m = msb_index(sig);
    const int32_t lead = exp + m;  // exponent of the leading bit
    const int32_t emax_plus2 = static_cast<int32_t>(f.exp_mask()) - f.bias() + 1;
    if (lead > emax_plus2) return overflow_result(sign, f, r);
    if (ftz && lead < f.emin()) return s;
    const int32_t lsb_exp = (lead > f.emin() ? lead : f.emin()) - f.mant_bits;
    const int32_t shift = lsb_exp - exp;
    uint64_t q;
    if (shift <= 0) {
        q = static_cast<uint64_t>(sig << -shift);  // exact: at most mant_bits + 1 bits
    } else {
        const u128 kept = shift >= 128 ? u128{0} : sig >> shift;
        const bool half = shift <= 128 && ((sig >> (shift - 1)) & 1);
        const u128 below_mask = shift - 1 >= 128 ? ~u128{0} : (u128{1} << (shift - 1)) - 1;
        const bool sticky = (sig & below_mask) != 0;
        q = static_cast<uint64_t>(kept);
        if (round_up(r, sign, q & 1, half, sticky)) ++q;
    }
    const int32_t biased_minus1 = (lead > f.emin() ? lead : f.emin()) + f.bias() - 1;
    const uint64_t code = (static_cast<uint64_t>(biased_minus1) << f.mant_bits) + q;
    if (code > f.max_finite_code()) return overflow_result(sign, f, r);
    return s | code;
}

// Exact sum of two values (-1)^s * sig * 2^exp whose significands use at most 106 bits.
struct Exact {
    bool sign = false;
    int32_t exp = 0;
    u128 sig = 0;
};

// Aligns both operands with their leading bit at bit 125 and shifts the smaller one right with a sticky
// ("jam") bit. Each operand has >= 19 zero low bits, so the sum is odd whenever a bit was lost and never
// lands on a rounding boundary it should not: one rounding of the result is exact (IEEE 754 fma/add).
constexpr Exact exact_add(Exact x, Exact y) {
    if (x.sig == 0) return y;
    if (y.sig == 0) return x;
    const int sx = 125 - msb_index(x.sig), sy = 125 - msb_index(y.sig);
    x.sig <<= sx;
    x.exp -= sx;
    y.sig <<= sy;
    y.exp -= sy;
    if (x.exp < y.exp) {
        const Exact t = x;
        x = y;
        y = t;
    }
    const int64_t d = int64_t{x.exp} - y.exp;
    if (d > 0) {
        const bool lost = d >= 126 || (y.sig & ((u128{1} << d) - 1)) != 0;
        y.sig = d >= 126 ? u128{0} : y.sig >> d;
        if (lost) y.sig |= 1;
    }
    Exact out;
    out.exp = x.exp;
    if (x.sign == y.sign) {
        out.sign = x.sign;
        out.sig = x.sig + y.sig;
    } else if (x.sig >= y.sig) {
        out.sign = x.sign;
        out.sig = x.sig - y.sig;
    } else {
        out.sign = y.sign;
        out.sig = y.sig - x.sig;
    }
    return out;
}

}  // namespace warpsim::arith
