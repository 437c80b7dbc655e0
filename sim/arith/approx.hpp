// sim/arith/approx.hpp — models of the PTX .approx instructions (the GPU's special function unit, MUFU).
//
// The MUFU's exact bits are not documented, so each function is modelled as the correctly rounded value of
// the exact function (computed in double, rounded once to the destination format in software) with the
// documented special cases and subnormal rules. tests/hardware/sfu/ holds the GPU measurements and
// tests/arith/ reports how close the model is. PTX ISA sections:
//  rcp 9.7.3.13 (max 1 ulp), rcp.approx.ftz.f64 9.7.3.14, sqrt 9.7.3.15 (rel 2^-23), rsqrt 9.7.3.16
//  (rel 2^-22.9), rsqrt.approx.ftz.f64 9.7.3.17, sin/cos 9.7.3.18/19 (abs 2^-20.5 on [-2pi, 2pi]),
//  lg2 9.7.3.20 (abs 2^-22 on (0.5, 2), else rel 2^-22), ex2 9.7.3.21 (2 ulp), tanh 9.7.3.22 (rel 2^-11),
//  div.approx / div.full 9.7.3.8, half precision tanh/ex2 9.7.4.9/10.
#pragma once

#include <cstdint>

namespace warpsim::arith {

uint32_t f32_rcp_approx(uint32_t a, bool ftz);
uint32_t f32_sqrt_approx(uint32_t a, bool ftz);
uint32_t f32_rsqrt_approx(uint32_t a, bool ftz);
uint32_t f32_ex2_approx(uint32_t a, bool ftz);
uint32_t f32_lg2_approx(uint32_t a, bool ftz);
// sin/cos: the GPU scales the argument by 1/(2*pi) in f32 before the MUFU (so large arguments lose their
// fraction exactly as f32 arithmetic does); the model keeps that scaling and evaluates the rest exactly.
uint32_t f32_sin_approx(uint32_t a, bool ftz);
uint32_t f32_cos_approx(uint32_t a, bool ftz);
uint32_t f32_tanh_approx(uint32_t a);
// div.approx.f32: a * (1/b); for 2^126 < |b| < 2^128 the reciprocal underflows to zero (9.7.3.8), so the
// result is a signed zero, or NaN when a is infinite.
uint32_t f32_div_approx(uint32_t a, uint32_t b, bool ftz);
// div.full.f32: full-range, max 2 ulp (9.7.3.8); modelled as the correctly rounded quotient.
uint32_t f32_div_full(uint32_t a, uint32_t b, bool ftz);

uint16_t f16_tanh_approx(uint16_t a);
uint16_t f16_ex2_approx(uint16_t a);
uint16_t bf16_tanh_approx(uint16_t a);
uint16_t bf16_ex2_approx_ftz(uint16_t a);

// rcp.approx.ftz.f64 / rsqrt.approx.ftz.f64: only a[63:32] (1.11.20) is used, the result has the low 32 bits
// zero, subnormals are flushed, NaN -> 0x7fffffff00000000 (9.7.3.14, 9.7.3.17).
uint64_t f64_rcp_approx_ftz(uint64_t a);
uint64_t f64_rsqrt_approx_ftz(uint64_t a);
// rsqrt.approx.f64 (software emulated on the GPU): modelled as the correctly rounded f64 value of 1/sqrt(a).
uint64_t f64_rsqrt_approx(uint64_t a);

}  // namespace warpsim::arith
