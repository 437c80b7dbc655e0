// tests/arith/approx_test.cpp — documented special cases of the .approx instructions (PTX ISA 9.7.3.13-22).
#include <catch2/catch.hpp>

#include "sim/arith/approx.hpp"

using namespace warpsim::arith;

TEST_CASE("ex2.approx special values, overflow and subnormal results", "[arith][approx]") {
    CHECK(f32_ex2_approx(0x00000000u, false) == 0x3f800000u);  // 2^0
    CHECK(f32_ex2_approx(0x80000000u, false) == 0x3f800000u);
    CHECK(f32_ex2_approx(0xff800000u, false) == 0x00000000u);  // 2^-inf = +0
    CHECK(f32_ex2_approx(0x7f800000u, false) == 0x7f800000u);
    CHECK(f32_ex2_approx(0x43000000u, false) == 0x7f800000u);  // 2^128 overflows
    CHECK(f32_ex2_approx(0x41200000u, false) == 0x44800000u);  // 2^10 = 1024
    CHECK(f32_ex2_approx(0xc2fc0000u, false) == 0x00800000u);  // 2^-126
    CHECK(f32_ex2_approx(0xc3150000u, false) == 0x00000001u);  // 2^-149 (subnormal) without .ftz
    CHECK(f32_ex2_approx(0xc3150000u, true) == 0x00000000u);   // flushed with .ftz
    CHECK(f32_ex2_approx(0x7fc00000u, false) == 0x7fffffffu);
    CHECK(f32_ex2_approx(0x00000001u, true) == 0x3f800000u);  // subnormal input reads as 0
}

TEST_CASE("lg2, rsqrt, sqrt and rcp approx domains", "[arith][approx]") {
    CHECK(f32_lg2_approx(0x00000000u, false) == 0xff800000u);  // lg2(+0) = -inf
    CHECK(f32_lg2_approx(0x80000000u, false) == 0xff800000u);  // lg2(-0) = -inf
    CHECK(f32_lg2_approx(0xbf800000u, false) == 0x7fffffffu);  // lg2(-1) = NaN
    CHECK(f32_lg2_approx(0x3f800000u, false) == 0x00000000u);
    CHECK(f32_lg2_approx(0x41000000u, false) == 0x40400000u);  // lg2(8) = 3
    CHECK(f32_lg2_approx(0x7f800000u, false) == 0x7f800000u);
    CHECK(f32_lg2_approx(0x00000001u, false) == 0xc3150000u);  // lg2(2^-149) = -149
    CHECK(f32_lg2_approx(0x00000001u, true) == 0xff800000u);   // .ftz: lg2(0) = -inf
    CHECK(f32_rsqrt_approx(0xbf800000u, false) == 0x7fffffffu);
    CHECK(f32_rsqrt_approx(0x80000000u, false) == 0xff800000u);  // rsqrt(-0) = -inf
    CHECK(f32_rsqrt_approx(0x00000000u, false) == 0x7f800000u);
    CHECK(f32_rsqrt_approx(0x40800000u, false) == 0x3f000000u);  // rsqrt(4) = 0.5
    CHECK(f32_rsqrt_approx(0x7f800000u, false) == 0x00000000u);
    CHECK(f32_sqrt_approx(0x80000000u, false) == 0x80000000u);
    CHECK(f32_sqrt_approx(0xbf800000u, false) == 0x7fffffffu);
    CHECK(f32_rcp_approx(0x00000000u, false) == 0x7f800000u);
    CHECK(f32_rcp_approx(0xff800000u, false) == 0x80000000u);
    CHECK(f32_rcp_approx(0x40000000u, false) == 0x3f000000u);
}

TEST_CASE("sin, cos and tanh approx special values", "[arith][approx]") {
    CHECK(f32_sin_approx(0x80000000u, false) == 0x80000000u);
    CHECK(f32_sin_approx(0x00000000u, false) == 0x00000000u);
    CHECK(f32_cos_approx(0x00000000u, false) == 0x3f800000u);
    CHECK(f32_sin_approx(0x7f800000u, false) == 0x7fffffffu);
    CHECK(f32_cos_approx(0xff800000u, false) == 0x7fffffffu);
    CHECK(f32_tanh_approx(0x7f800000u) == 0x3f800000u);
    CHECK(f32_tanh_approx(0xff800000u) == 0xbf800000u);
    CHECK(f32_tanh_approx(0x80000000u) == 0x80000000u);
    CHECK(f16_tanh_approx(0x7c00) == 0x3c00);
    CHECK(f16_ex2_approx(0x0000) == 0x3c00);
    CHECK(f16_ex2_approx(0xfc00) == 0x0000);
}

TEST_CASE("div.approx and the f64 reciprocal approximation", "[arith][approx]") {
    // 9.7.3.8: for 2^126 < |b| < 2^128, div.approx returns a signed zero, or NaN when a is infinite.
    CHECK(f32_div_approx(0x3f800000u, 0x7f000000u, false) == 0x00000000u);
    CHECK(f32_div_approx(0xbf800000u, 0x7f000000u, false) == 0x80000000u);
    CHECK(f32_div_approx(0x7f800000u, 0x7f000000u, false) == 0x7fffffffu);
    CHECK(f32_div_approx(0x40c00000u, 0x40000000u, false) == 0x40400000u);  // 6 / 2 = 3
    // rcp.approx.ftz.f64 (9.7.3.14): only the upper word matters; NaN -> 0x7fffffff00000000.
    CHECK(f64_rcp_approx_ftz(0x4000000000000000ull) == 0x3fe0000000000000ull);
    CHECK(f64_rcp_approx_ftz(0x40000000ffffffffull) == 0x3fe0000000000000ull);
    CHECK(f64_rcp_approx_ftz(0x7ff8000000000000ull) == 0x7fffffff00000000ull);
    CHECK(f64_rcp_approx_ftz(0x0000000000000000ull) == 0x7ff0000000000000ull);
    CHECK(f64_rcp_approx_ftz(0x800fffff00000000ull) == 0xfff0000000000000ull);  // -subnormal -> -inf
    CHECK(f64_rcp_approx_ftz(0xfff0000000000000ull) == 0x8000000000000000ull);
}
