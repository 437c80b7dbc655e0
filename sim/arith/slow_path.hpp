// sim/arith/slow_path.hpp — which operands make the SASS of an IEEE f32 division (div.rn.f32) or reciprocal
// (rcp.rn.f32) leave its fast sequence (MUFU.RCP and a few FFMAs) for the slow-path subroutine ptxas calls,
// and which operands of the f32 .approx functions ptxas scales around the MUFU (at the end).
// The result is the same either way; what differs is what the SM issues: the CALL's block and the
// subroutine's instructions. The counters use this to know whether the instruction totals they count per SASS
// instruction hold (sim/counts/sass_plan.hpp, Runs::on_slow_path).
//
// Both rules were measured on the H200 (tests/hardware/slowpath: every pair of biased exponents, six mantissa
// pairs, for the division; every exponent, four mantissas, for the reciprocal) and agree with it on every
// operand measured.
#pragma once

#include <cstdint>

namespace warpsim::arith {

namespace slow_path_detail {
constexpr uint32_t biased_exponent(uint32_t v) {
    return (v >> 23) & 0xffu;
}
}  // namespace slow_path_detail

// div.rn.f32 a / b (without .ftz): FCHK's test, which the SASS does not spell out. Measured: the slow path
// for a dividend with a biased exponent of at most 24 (|a| < 2^-102: zeros and subnormals too) or an infinite
// or NaN one; a divisor with a biased exponent of at most 1 or at least 252; and a quotient whose exponent
// leaves the range (ea - eb >= 127 or <= -125). The mantissas and signs do not matter.
constexpr bool f32_div_rn_slow_path(uint32_t a, uint32_t b) {
    using slow_path_detail::biased_exponent;
    const int ea = static_cast<int>(biased_exponent(a)), eb = static_cast<int>(biased_exponent(b));
    if (ea <= 24 || ea == 255 || eb <= 1 || eb >= 252) return true;
    return ea - eb >= 127 || ea - eb <= -125;
}

// rcp.rn.f32 1 / x (without .ftz). ptxas 13 tests the operand's bits itself before MUFU.RCP:
// `VIADD R, x, 0x1800000; LOP3 R, R, 0x7f800000; ISETP.GT.U32 P0, R, 0x1ffffff; @P0 BRA fast` — the fast
// sequence for biased exponents 1-252, the call for zeros, subnormals, |x| >= 2^126, infinities and NaNs.
constexpr bool f32_rcp_rn_slow_path(uint32_t x) {
    return ((x + 0x1800000u) & 0x7f800000u) <= 0x1ffffffu;
}

// The f32 .approx functions without .ftz: the MUFU flushes subnormal inputs, so ptxas 13 scales the operands
// it would lose into its range first and the result back afterwards, two instructions guarded by the negation
// of an FSETP (sm_90 SASS of ptxas 13.0, tests/sass/cases/approx_scaling.ptx):
//   rsqrt, sqrt, lg2  FSETP.GEU P0, |x|, 2^-126: x * 2^24, then the result * 2^12 (rsqrt), * 2^-12 (sqrt),
//                     - 24 (lg2)
//   ex2               FSETP.GEU P0, x, -126: x * 0.5, then the result squared
//   div a / b         FSETP.GEU P0, |b|, 2^-126: a * 2^24 and b * 2^24
// The lanes below run those two; a NaN compares unordered (GEU true) and is not scaled.
// |x| < 2^-126: zeros and subnormals of either sign.
constexpr bool f32_below_min_normal(uint32_t x) {
    return (x & 0x7fffffffu) < 0x00800000u;
}
// x < -126 (-126.0f is 0xc2fc0000): negative, larger in magnitude, not NaN; -inf included.
constexpr bool f32_below_minus_126(uint32_t x) {
    const uint32_t m = x & 0x7fffffffu;
    return (x >> 31) != 0 && m > 0x42fc0000u && m <= 0x7f800000u;
}

}  // namespace warpsim::arith
