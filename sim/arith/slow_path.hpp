// sim/arith/slow_path.hpp — which operands make the SASS of an IEEE f32 division (div.rn.f32) or reciprocal
// (rcp.rn.f32) leave its fast sequence (MUFU.RCP and a few FFMAs) for the slow-path subroutine ptxas calls.
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

// div.rn.f32 a / b (without .ftz): FCHK's test, which the SASS does not spell out. Measured: the slow path for
// a dividend with a biased exponent of at most 24 (|a| < 2^-102: zeros and subnormals too) or an infinite or
// NaN one; a divisor with a biased exponent of at most 1 or at least 252; and a quotient whose exponent leaves
// the range (ea - eb >= 127 or <= -125). The mantissas and signs do not matter.
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

}  // namespace warpsim::arith
