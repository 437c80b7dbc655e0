// tests/arith/float_ops_test.cpp — hand-computed cases for rounding, fma, ftz, sat, NaN and min/max rules.
#include <catch2/catch.hpp>

#include "sim/arith/float_ops.hpp"

using namespace warpsim::arith;
using warpsim::ir::CmpOp;
using warpsim::ir::Type;

namespace {
constexpr uint32_t kOne = 0x3f800000u, kMinusOne = 0xbf800000u;
constexpr uint32_t kTwoPowM30 = 0x30800000u;  // 2^-30: exponent field 127 - 30 = 97 = 0x61
constexpr uint32_t kInf = 0x7f800000u, kNegInf = 0xff800000u, kMax = 0x7f7fffffu;
}  // namespace

TEST_CASE("1 + 2^-30 in every rounding direction", "[arith][rounding]") {
    // Exact 1 + 2^-30 lies strictly between 1 and 1 + 2^-23 (the next f32), far below the midpoint.
    CHECK(f32_add(kOne, kTwoPowM30, Round::rn, false) == kOne);
    CHECK(f32_add(kOne, kTwoPowM30, Round::rz, false) == kOne);
    CHECK(f32_add(kOne, kTwoPowM30, Round::rm, false) == kOne);
    CHECK(f32_add(kOne, kTwoPowM30, Round::rp, false) == 0x3f800001u);
    // -1 - 2^-30: rm moves away from zero, rp toward it.
    const uint32_t neg = kTwoPowM30 | 0x80000000u;
    CHECK(f32_add(kMinusOne, neg, Round::rn, false) == kMinusOne);
    CHECK(f32_add(kMinusOne, neg, Round::rz, false) == kMinusOne);
    CHECK(f32_add(kMinusOne, neg, Round::rm, false) == 0xbf800001u);
    CHECK(f32_add(kMinusOne, neg, Round::rp, false) == kMinusOne);
    // f64: 1 + 2^-60 (2^-60 = exponent 1023 - 60 = 963 = 0x3c3).
    CHECK(f64_add(0x3ff0000000000000ull, 0x3c30000000000000ull, Round::rn) == 0x3ff0000000000000ull);
    CHECK(f64_add(0x3ff0000000000000ull, 0x3c30000000000000ull, Round::rp) == 0x3ff0000000000001ull);
}

TEST_CASE("0.1f * 3 rounds differently under rn and rz", "[arith][rounding]") {
    // 0.1f = 13421773 * 2^-27; times 3 = 40265319 * 2^-27, 26 bits: drop 2 bits, 10066329.75 * 2^-25.
    // rn rounds up to 10066330 -> 0x3e99999a; rz truncates to 10066329 -> 0x3e999999.
    CHECK(f32_mul(0x3dcccccdu, 0x40400000u, Round::rn, false) == 0x3e99999au);
    CHECK(f32_mul(0x3dcccccdu, 0x40400000u, Round::rz, false) == 0x3e999999u);
    CHECK(f32_mul(0x3dcccccdu, 0x40400000u, Round::rm, false) == 0x3e999999u);
    CHECK(f32_mul(0x3dcccccdu, 0x40400000u, Round::rp, false) == 0x3e99999au);
}

TEST_CASE("fma rounds once; mul then add rounds twice", "[arith][fma]") {
    // a = 1 + 2^-12: a*a = 1 + 2^-11 + 2^-24. mul.rn: the 2^-24 is a tie at an even LSB -> 1 + 2^-11; minus 1
    // -> 2^-11 (0x3a000000). fma keeps it: 2^-11 + 2^-24 = 2^-11 * (1 + 2^-13) -> 0x3a000400.
    const uint32_t a = 0x3f800800u;
    const uint32_t separate = f32_add(f32_mul(a, a, Round::rn, false), kMinusOne, Round::rn, false);
    CHECK(separate == 0x3a000000u);
    CHECK(f32_fma(a, a, kMinusOne, Round::rn, false) == 0x3a000400u);
    // The error term of the product: fma(a, a, -rn(a*a)) = 2^-24.
    CHECK(f32_fma(a, a, 0xbf801000u, Round::rn, false) == 0x33800000u);
    // f64: (1 + 2^-30)^2 - 1 = 2^-29 + 2^-60 exactly under fma; 2^-29 when the product is rounded first.
    const uint64_t b = 0x3ff0000000400000ull;
    CHECK(f64_fma(b, b, 0xbff0000000000000ull, Round::rn) == 0x3e20000000200000ull);
    CHECK(f64_add(f64_mul(b, b, Round::rn), 0xbff0000000000000ull, Round::rn) == 0x3e20000000000000ull);
}

TEST_CASE("division and square root in every direction", "[arith][rounding]") {
    // 1/3 = 0.0101..., f32 significand 0xaaaaaa|aa...: rn rounds up (0x3eaaaaab), rz/rm truncate.
    CHECK(f32_div(kOne, 0x40400000u, Round::rn, false) == 0x3eaaaaabu);
    CHECK(f32_div(kOne, 0x40400000u, Round::rz, false) == 0x3eaaaaaau);
    CHECK(f32_div(kOne, 0x40400000u, Round::rm, false) == 0x3eaaaaaau);
    CHECK(f32_div(kOne, 0x40400000u, Round::rp, false) == 0x3eaaaaabu);
    CHECK(f64_div(0x3ff0000000000000ull, 0x4008000000000000ull, Round::rn) == 0x3fd5555555555555ull);
    CHECK(f64_div(0x3ff0000000000000ull, 0x4008000000000000ull, Round::rp) == 0x3fd5555555555556ull);
    // sqrt(2) = 1.41421356...: 0x3fb504f3 = 1.41421353816986 (below), 0x3fb504f4 = 1.41421365737915 (above).
    CHECK(f32_sqrt(0x40000000u, Round::rn, false) == 0x3fb504f3u);
    CHECK(f32_sqrt(0x40000000u, Round::rz, false) == 0x3fb504f3u);
    CHECK(f32_sqrt(0x40000000u, Round::rp, false) == 0x3fb504f4u);
    CHECK(f32_sqrt(0x40800000u, Round::rn, false) == 0x40000000u);  // sqrt(4) = 2 exactly
    CHECK(f32_sqrt(0x80000000u, Round::rn, false) == 0x80000000u);  // sqrt(-0) = -0 (9.7.3.15)
    CHECK(f32_rcp(0x40000000u, Round::rn, false) == 0x3f000000u);
}

TEST_CASE("overflow and underflow follow the rounding direction", "[arith][rounding]") {
    CHECK(f32_mul(kMax, 0x40000000u, Round::rn, false) == kInf);
    CHECK(f32_mul(kMax, 0x40000000u, Round::rz, false) == kMax);
    CHECK(f32_mul(kMax, 0x40000000u, Round::rm, false) == kMax);
    CHECK(f32_mul(kMax, 0x40000000u, Round::rp, false) == kInf);
    CHECK(f32_mul(kMax | 0x80000000u, 0x40000000u, Round::rm, false) == kNegInf);
    CHECK(f32_mul(kMax | 0x80000000u, 0x40000000u, Round::rp, false) == (kMax | 0x80000000u));
    // 2^-149 * 0.5 = 2^-150: a tie between 0 and the smallest subnormal -> even (0); rp -> 2^-149.
    CHECK(f32_mul(0x00000001u, 0x3f000000u, Round::rn, false) == 0u);
    CHECK(f32_mul(0x00000001u, 0x3f000000u, Round::rp, false) == 1u);
    CHECK(f32_mul(0x00000001u, 0x3f400000u, Round::rn, false) == 1u);  // 0.75 * 2^-149 rounds up
}

TEST_CASE("signed zero results", "[arith][zero]") {
    CHECK(f32_add(kOne, kMinusOne, Round::rn, false) == 0u);           // x - x = +0
    CHECK(f32_add(kOne, kMinusOne, Round::rm, false) == 0x80000000u);  // ... except toward -inf
    CHECK(f32_add(0x80000000u, 0x80000000u, Round::rn, false) == 0x80000000u);
    CHECK(f32_add(0x80000000u, 0u, Round::rn, false) == 0u);
    CHECK(f32_add(0x80000000u, 0u, Round::rm, false) == 0x80000000u);
    CHECK(f32_mul(0x80000000u, kOne, Round::rn, false) == 0x80000000u);
}

TEST_CASE(".ftz flushes subnormal inputs and results to sign-preserving zero", "[arith][ftz]") {
    CHECK(f32_add(0x00000001u, 0u, Round::rn, false) == 0x00000001u);
    CHECK(f32_add(0x00000001u, 0u, Round::rn, true) == 0u);
    CHECK(f32_add(0x80000001u, 0x80000000u, Round::rn, true) == 0x80000000u);
    // 2^-100 * 2^-30 = 2^-130 = 2^19 * 2^-149 -> subnormal 0x00080000, flushed under .ftz.
    CHECK(f32_mul(0x0d800000u, kTwoPowM30, Round::rn, false) == 0x00080000u);
    CHECK(f32_mul(0x0d800000u, kTwoPowM30, Round::rn, true) == 0u);
    CHECK(f32_mul(0x8d800000u, kTwoPowM30, Round::rn, true) == 0x80000000u);
    // (1 - 2^-24) * 2^-126 would round up to 2^-126, but the exact product is tiny: flushed (H200 behaviour).
    CHECK(f32_mul(0x3f7fffffu, 0x00800000u, Round::rn, false) == 0x00800000u);
    CHECK(f32_mul(0x3f7fffffu, 0x00800000u, Round::rn, true) == 0u);
    // A subnormal input is zero under ftz: 2^-149 * 2^100 is 2^-49 without ftz and 0 with it.
    CHECK(f32_mul(0x00000001u, 0x71800000u, Round::rn, false) == 0x27000000u);
    CHECK(f32_mul(0x00000001u, 0x71800000u, Round::rn, true) == 0u);
    CHECK(f32_abs(0x80000001u, true) == 0u);
    CHECK(f32_neg(0x00000001u, true) == 0x80000000u);
}

TEST_CASE(".sat clamps to [0, 1] and sends NaN to +0", "[arith][sat]") {
    CHECK(f32_sat(0x40000000u) == kOne);                                   // 2 -> 1
    CHECK(f32_sat(0xbf000000u) == 0u);                                     // -0.5 -> 0
    CHECK(f32_sat(0x3f000000u) == 0x3f000000u);                            // 0.5 stays
    CHECK(f32_sat(0x7fffffffu) == 0u);                                     // NaN -> +0
    CHECK(f32_sat(0x80000000u) == 0u);                                     // -0 -> +0
    CHECK(f16_add(0x3c00, 0x3c00, false, true) == 0x3c00);                 // 1 + 1 saturates to 1
    CHECK(f16_fma(0x7c00, 0x0000, 0x3c00, false, true, false) == 0x0000);  // inf * 0 = NaN -> +0
}

TEST_CASE("NaN results are canonical", "[arith][nan]") {
    CHECK(f32_add(0x7fc00001u, kOne, Round::rn, false) == kF32CanonicalNaN);
    CHECK(f32_mul(kInf, 0u, Round::rn, false) == kF32CanonicalNaN);
    CHECK(f32_sub(kInf, kInf, Round::rn, false) == kF32CanonicalNaN);
    CHECK(f32_sqrt(kMinusOne, Round::rn, false) == kF32CanonicalNaN);
    CHECK(f32_fma(kInf, 0u, 0x7f800001u, Round::rn, false) == kF32CanonicalNaN);
    CHECK(f32_abs(0xffc00000u, false) == kF32CanonicalNaN);
    CHECK(f16_add(0x7e01, 0x3c00, false, false) == 0x7fff);
    CHECK(bf16_mul(0x7f80, 0x0000) == 0x7fff);
    // f64: an input NaN is propagated, quieted; with two NaN operands the last one wins.
    CHECK(f64_add(0x7ff0000000000123ull, 0x3ff0000000000000ull, Round::rn) == 0x7ff8000000000123ull);
    CHECK(f64_add(0x7ff8000000000000ull, 0xfff8000000001234ull, Round::rn) == 0xfff8000000001234ull);
    CHECK(f64_sqrt(0xbff0000000000000ull, Round::rn) == 0xfff8000000000000ull);
    CHECK(f64_add(0x7ff0000000000000ull, 0xfff0000000000000ull, Round::rn) == 0xfff8000000000000ull);
}

TEST_CASE("min/max NaN and signed-zero rules", "[arith][minmax]") {
    const uint32_t nan = 0x7fc00000u;
    CHECK(f32_min(nan, kOne, false, false) == kOne);
    CHECK(f32_min(kOne, nan, false, false) == kOne);
    CHECK(f32_max(nan, kMinusOne, false, false) == kMinusOne);
    CHECK(f32_min(nan, 0xffc00000u, false, false) == kF32CanonicalNaN);
    CHECK(f32_min(kOne, nan, false, true) == kF32CanonicalNaN);  // .NaN propagates
    CHECK(f32_max(nan, kOne, false, true) == kF32CanonicalNaN);
    CHECK(f32_min(0x80000000u, 0u, false, false) == 0x80000000u);  // min(-0, +0) = -0
    CHECK(f32_min(0u, 0x80000000u, false, false) == 0x80000000u);
    CHECK(f32_max(0x80000000u, 0u, false, false) == 0u);
    CHECK(f32_max(0u, 0x80000000u, false, false) == 0u);
    CHECK(f32_min(0x00000001u, 0x80000000u, true, false) == 0x80000000u);  // ftz: +denormal -> +0 > -0
    CHECK(f32_max(0xbf800000u, 0x40000000u, false, false) == 0x40000000u);
    CHECK(f16_min(0x7e00, 0x3c00, false, false) == 0x3c00);
    CHECK(bf16_max(0x7fc0, 0x3f80, true) == 0x7fff);
    CHECK(f64_min(0x8000000000000000ull, 0ull, false) == 0x8000000000000000ull);
}

TEST_CASE("f16 and bf16 arithmetic round to nearest even, with subnormals", "[arith][half]") {
    CHECK(f16_add(0x3c00, 0x1000, false, false) == 0x3c00);  // 1 + 2^-11: tie, even -> 1
    CHECK(f16_add(0x3c01, 0x1000, false, false) == 0x3c02);  // 1 + 2^-10 + 2^-11: tie, even -> +2 ulp
    CHECK(f16_add(0x7bff, 0x4c00, false, false) == 0x7c00);  // 65504 + 16 = 65520: tie, even -> inf
    CHECK(f16_add(0x0001, 0x0001, false, false) == 0x0002);  // subnormals add exactly
    CHECK(f16_add(0x0001, 0x0001, true, false) == 0x0000);   // ... and vanish under .ftz
    CHECK(f16_mul(0x0400, 0x3800, false, false) == 0x0200);  // 2^-14 * 0.5 = 2^-15 (subnormal)
    CHECK(f16_fma(0x3c00, 0x3c00, 0xbc00, false, false, false) == 0x0000);
    CHECK(f16_fma(0xbc00, 0x3c00, 0x0000, false, false, true) == 0x0000);  // relu: -1 -> +0
    CHECK(bf16_add(0x3f80, 0x3b80) == 0x3f80);                             // 1 + 2^-8: tie, even -> 1
    CHECK(bf16_add(0x3f81, 0x3b80) == 0x3f82);                             // tie at an odd LSB rounds up
    CHECK(x2(0x3c003c00u, 0x3c000000u, [](uint16_t p, uint16_t q) { return f16_add(p, q, false, false); }) ==
          0x40003c00u);
}

TEST_CASE("compare and testp", "[arith][compare]") {
    CHECK(compare(0u, 0x80000000u, Type::f32, CmpOp::eq, false));  // +0 == -0
    CHECK_FALSE(compare(0x7fc00000u, kOne, Type::f32, CmpOp::lt, false));
    CHECK(compare(0x7fc00000u, kOne, Type::f32, CmpOp::ltu, false));
    CHECK(compare(0x7fc00000u, kOne, Type::f32, CmpOp::nan, false));
    CHECK_FALSE(compare(0x7fc00000u, kOne, Type::f32, CmpOp::num, false));
    CHECK_FALSE(compare(0x7fc00000u, 0x7fc00000u, Type::f32, CmpOp::ne, false));
    CHECK(compare(0x7fc00000u, 0x7fc00000u, Type::f32, CmpOp::neu, false));
    CHECK_FALSE(compare(0x00000001u, 0u, Type::f32, CmpOp::eq, false));
    CHECK(compare(0x00000001u, 0u, Type::f32, CmpOp::eq, true));  // ftz: denormal == 0
    CHECK(compare(kMinusOne, kOne, Type::f32, CmpOp::lt, false));
    CHECK(compare(0xbc00, 0x3c00, Type::f16, CmpOp::lt, false));
    CHECK(compare(0xbff0000000000000ull, 0x3ff0000000000000ull, Type::f64, CmpOp::le, false));
    CHECK(compare(0xffffffffu, 1u, Type::s32, CmpOp::lt, false));  // -1 < 1
    CHECK_FALSE(compare(0xffffffffu, 1u, Type::u32, CmpOp::lo, false));
    CHECK(compare(0xffffffffu, 1u, Type::u32, CmpOp::hi, false));
    CHECK(testp(0x00000001u, Type::f32, TestOp::subnormal));
    CHECK(testp(0u, Type::f32, TestOp::normal));  // zero counts as normal
    CHECK_FALSE(testp(kInf, Type::f32, TestOp::finite));
    CHECK(testp(kInf, Type::f32, TestOp::infinite));
    CHECK(testp(0x7ff8000000000000ull, Type::f64, TestOp::notanumber));
    CHECK(f32_copysign(0x80000000u, kOne) == kMinusOne);
}
