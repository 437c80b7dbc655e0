// sim/arith/approx.cpp — the .approx models: exact function in double, one software rounding, PTX edge rules.
#include "sim/arith/approx.hpp"

#include <bit>
#include <cmath>
#include <numbers>

#include "sim/arith/convert.hpp"
#include "sim/arith/float_ops.hpp"

namespace warpsim::arith {
namespace {

double to_double(uint64_t bits, Format f, bool ftz) {
    return std::bit_cast<double>(float_to_float(bits, f, kF64, Round::rn, ftz, false, false, false));
}

// Round a double result to `f` (round-to-nearest-even, in software); NaN becomes f's canonical NaN.
uint64_t from_double(double v, Format f, bool ftz_out, Round r = Round::rn) {
    if (std::isnan(v)) return canonical_nan(f);
    return float_to_float(std::bit_cast<uint64_t>(v), kF64, f, r, false, ftz_out, false, false);
}

uint32_t f32_unary(uint32_t a, bool ftz, double (*fn)(double)) {
    return uint32_t(from_double(fn(to_double(a, kF32, ftz)), kF32, ftz));
}

double exp2_d(double x) {
    return std::exp2(x);
}
double log2_d(double x) {
    return std::log2(x);
}  // log2(+-0) = -inf, log2(-x) = NaN, as 9.7.3.20
double tanh_d(double x) {
    return std::tanh(x);
}
double rsqrt_d(double x) {
    if (x == 0) return std::signbit(x) ? -INFINITY : INFINITY;  // rsqrt(-0) = -inf (9.7.3.16 table)
    return 1.0 / std::sqrt(x);                                  // negative -> NaN, +inf -> +0
}

// 1/(2*pi) rounded to f32: the constant the compiler multiplies by before MUFU.SIN/COS.
constexpr uint32_t kInv2PiF32 = 0x3e22f983u;

// sin/cos of 2*pi*t for the f32 value t = a * (1/(2*pi)) (rounded to nearest in f32). Reducing t by its
// nearest integer is exact in double, so only the final evaluation carries rounding error.
// MUFU.SIN/COS flush subnormal arguments and results whether or not .ftz is given: the H200's outputs of
// sin.approx.f32 and sin.approx.ftz.f32 are identical over 2^24 inputs (same for cos).
uint32_t sincos_approx(uint32_t a, bool want_cos) {
    const uint32_t t_bits = f32_mul(a, kInv2PiF32, Round::rn, true);
    const double t = to_double(t_bits, kF32, false);
    if (!std::isfinite(t)) return kF32CanonicalNaN;  // sin/cos(+-inf) = NaN (9.7.3.18/19 tables)
    double frac = t - std::nearbyint(t);
    if (frac == 0) frac = std::copysign(0.0, t);  // sin(-huge integer multiple) is -0 on the GPU
    const double angle = 2.0 * std::numbers::pi * frac;
    const double v = want_cos ? std::cos(angle) : std::sin(angle);
    const uint32_t r = uint32_t(from_double(v, kF32, true));
    // sin(-0) = -0: keep the sign of a zero argument (the multiply already did for t).
    if (!want_cos && (t_bits & 0x7fffffffu) == 0) return t_bits;
    return r;
}

}  // namespace

uint32_t f32_rcp_approx(uint32_t a, bool ftz) {
    return f32_rcp(a, Round::rn, ftz);
}
uint32_t f32_sqrt_approx(uint32_t a, bool ftz) {
    return f32_sqrt(a, Round::rn, ftz);
}
uint32_t f32_rsqrt_approx(uint32_t a, bool ftz) {
    return f32_unary(a, ftz, rsqrt_d);
}
uint32_t f32_ex2_approx(uint32_t a, bool ftz) {
    return f32_unary(a, ftz, exp2_d);
}
uint32_t f32_lg2_approx(uint32_t a, bool ftz) {
    return f32_unary(a, ftz, log2_d);
}
uint32_t f32_sin_approx(uint32_t a, bool /*ftz*/) {
    return sincos_approx(a, false);
}
uint32_t f32_cos_approx(uint32_t a, bool /*ftz*/) {
    return sincos_approx(a, true);
}
uint32_t f32_tanh_approx(uint32_t a) {
    return f32_unary(a, false, tanh_d);
}

uint32_t f32_div_approx(uint32_t a, uint32_t b, bool ftz) {
    // The reciprocal is flushed: 1/b for |b| > 2^126 is subnormal and the documented result is zero.
    const uint32_t r = f32_rcp(b, Round::rn, true);
    return f32_mul(a, r, Round::rn, ftz);
}

uint32_t f32_div_full(uint32_t a, uint32_t b, bool ftz) {
    return f32_div(a, b, Round::rn, ftz);
}

uint16_t f16_tanh_approx(uint16_t a) {
    return uint16_t(from_double(std::tanh(to_double(a, kF16, false)), kF16, false));
}
uint16_t f16_ex2_approx(uint16_t a) {
    return uint16_t(from_double(std::exp2(to_double(a, kF16, false)), kF16, false));
}
uint16_t bf16_tanh_approx(uint16_t a) {
    return uint16_t(from_double(std::tanh(to_double(a, kBF16, false)), kBF16, false));
}
uint16_t bf16_ex2_approx_ftz(uint16_t a) {
    return uint16_t(from_double(std::exp2(to_double(a, kBF16, true)), kBF16, true));
}

namespace {
// The 1.11.20 format of rcp/rsqrt.approx.ftz.f64: an f64 with only the upper word significant.
constexpr Format kF64Hi{20, 11};

uint64_t f64_hi_approx(uint64_t a, double (*fn)(double)) {
    const uint64_t hi = a >> 32;
    const Unpacked u = unpack(hi, kF64Hi, true);
    if (u.kind == Kind::nan) return 0x7fffffff00000000ull;  // canonical NaN (9.7.3.14)
    const double x = std::bit_cast<double>(u.kind == Kind::zero ? (hi & 0x80000000ull) << 32 : hi << 32);
    // The H200 truncates to the 20-bit fraction (1/2.5 -> 0x3fd99999, not ...9a): round toward zero.
    return from_double(fn(x), kF64Hi, true, Round::rz) << 32;
}
double rcp_d(double x) {
    return 1.0 / x;
}
}  // namespace

uint64_t f64_rcp_approx_ftz(uint64_t a) {
    return f64_hi_approx(a, rcp_d);
}
uint64_t f64_rsqrt_approx_ftz(uint64_t a) {
    return f64_hi_approx(a, rsqrt_d);
}

uint64_t f64_rsqrt_approx(uint64_t a) {
    if (is_nan_bits(a, kF64)) return a | (uint64_t{1} << 51);
    return std::bit_cast<uint64_t>(rsqrt_d(std::bit_cast<double>(a)));
}

}  // namespace warpsim::arith
