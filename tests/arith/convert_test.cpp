// tests/arith/convert_test.cpp — hand-computed cvt cases: integer rounding, saturation, f16/bf16/fp8
// rounding.
#include <catch2/catch.hpp>

#include "sim/arith/convert.hpp"

using namespace warpsim::arith;
using warpsim::ir::Rounding;
using warpsim::ir::Type;

namespace {
uint64_t f2s32(uint32_t f, Rounding r) {
    return convert(f, Type::f32, Type::s32, r, false, false) & 0xffffffffu;
}
constexpr uint32_t k2p5 = 0x40200000u, kM2p5 = 0xc0200000u, kHalf = 0x3f000000u, kMHalf = 0xbf000000u;
}  // namespace

TEST_CASE("cvt.{rzi,rni,rmi,rpi}.s32.f32 of +-2.5 and +-0.5", "[arith][cvt]") {
    CHECK(f2s32(k2p5, Rounding::rzi) == 2);
    CHECK(f2s32(k2p5, Rounding::rni) == 2);  // tie -> even
    CHECK(f2s32(k2p5, Rounding::rmi) == 2);
    CHECK(f2s32(k2p5, Rounding::rpi) == 3);
    CHECK(f2s32(kM2p5, Rounding::rzi) == 0xfffffffeu);  // -2
    CHECK(f2s32(kM2p5, Rounding::rni) == 0xfffffffeu);  // -2
    CHECK(f2s32(kM2p5, Rounding::rmi) == 0xfffffffdu);  // -3
    CHECK(f2s32(kM2p5, Rounding::rpi) == 0xfffffffeu);  // -2
    CHECK(f2s32(kHalf, Rounding::rzi) == 0);
    CHECK(f2s32(kHalf, Rounding::rni) == 0);
    CHECK(f2s32(kHalf, Rounding::rmi) == 0);
    CHECK(f2s32(kHalf, Rounding::rpi) == 1);
    CHECK(f2s32(kMHalf, Rounding::rzi) == 0);
    CHECK(f2s32(kMHalf, Rounding::rni) == 0);
    CHECK(f2s32(kMHalf, Rounding::rmi) == 0xffffffffu);  // -1
    CHECK(f2s32(kMHalf, Rounding::rpi) == 0);
    CHECK(f2s32(0x40600000u, Rounding::rni) == 4);  // 3.5 -> 4 (even)
    // Same-size float -> float integer rounding keeps the sign of zero: rpi(-0.5) = -0.0.
    CHECK(convert(kMHalf, Type::f32, Type::f32, Rounding::rpi, false, false) == 0x80000000u);
    CHECK(convert(k2p5, Type::f32, Type::f32, Rounding::rni, false, false) == 0x40000000u);
    CHECK(convert(0xc0200000u, Type::f32, Type::f32, Rounding::rmi, false, false) == 0xc0400000u);  // -3
}

TEST_CASE("float -> int saturates; NaN gives 0 or 1 << (bits - 1)", "[arith][cvt]") {
    CHECK(f2s32(0x501502f9u, Rounding::rzi) == 0x7fffffffu);  // 1e10 -> INT_MAX
    CHECK(f2s32(0xd01502f9u, Rounding::rzi) == 0x80000000u);  // -1e10 -> INT_MIN
    CHECK(f2s32(0x7fc00000u, Rounding::rzi) == 0);            // NaN -> 0
    CHECK(f2s32(0x7f800000u, Rounding::rzi) == 0x7fffffffu);  // +inf -> INT_MAX
    CHECK(convert(0xbf800000u, Type::f32, Type::u32, Rounding::rzi, false, false) ==
          0);  // -1.0 -> 0 unsigned
    CHECK(convert(0x4f800000u, Type::f32, Type::u32, Rounding::rzi, false, false) == 0xffffffffu);  // 2^32
    CHECK(convert(0x47800000u, Type::f32, Type::u16, Rounding::rni, false, false) == 0xffff);       // 65536
    CHECK(convert(0x43000000u, Type::f32, Type::s8, Rounding::rni, false, false) == 0x7f);  // 128 -> 127
    // PTX ISA "Integer Notes": with an f64 source or a 64-bit destination, NaN -> 1 << (bits - 1).
    CHECK((convert(0x7ff8000000000000ull, Type::f64, Type::s32, Rounding::rzi, false, false) & 0xffffffffu) ==
          0x80000000u);
    CHECK(convert(0x7fc00000u, Type::f32, Type::u64, Rounding::rzi, false, false) == 0x8000000000000000ull);
    // Signed results are sign-extended to 64 bits.
    CHECK(convert(kM2p5, Type::f32, Type::s16, Rounding::rzi, false, false) == 0xfffffffffffffffeull);
}

TEST_CASE("int -> int truncates, or clamps with .sat", "[arith][cvt]") {
    CHECK(convert(0x12345u, Type::u32, Type::u16, Rounding::none, false, false) == 0x2345u);
    CHECK(convert(0x12345u, Type::u32, Type::u16, Rounding::none, false, true) == 0xffffu);
    CHECK(convert(0xffffff80u, Type::s32, Type::s8, Rounding::none, false, true) ==
          0xffffffffffffff80ull);  // -128
    CHECK(convert(0xffffff7fu, Type::s32, Type::s8, Rounding::none, false, true) ==
          0xffffffffffffff80ull);                                                         // -129
    CHECK(convert(0xffffffffu, Type::s32, Type::u32, Rounding::none, false, true) == 0);  // -1 -> 0
    CHECK(convert(0xffu, Type::s8, Type::s32, Rounding::none, false, false) ==
          0xffffffffffffffffull);  // sign-ext
    CHECK(convert(0xffu, Type::u8, Type::s32, Rounding::none, false, false) == 0xffu);
}

TEST_CASE("int -> float of 2^24 + 1 in each rounding direction", "[arith][cvt]") {
    const uint64_t v = 16777217;  // 2^24 + 1: halfway between 2^24 and 2^24 + 2
    CHECK(convert(v, Type::u32, Type::f32, Rounding::rn, false, false) == 0x4b800000u);  // tie -> even
    CHECK(convert(v, Type::u32, Type::f32, Rounding::rz, false, false) == 0x4b800000u);
    CHECK(convert(v, Type::u32, Type::f32, Rounding::rm, false, false) == 0x4b800000u);
    CHECK(convert(v, Type::u32, Type::f32, Rounding::rp, false, false) == 0x4b800001u);
    const uint64_t neg = uint32_t(-16777217);
    CHECK(convert(neg, Type::s32, Type::f32, Rounding::rn, false, false) == 0xcb800000u);
    CHECK(convert(neg, Type::s32, Type::f32, Rounding::rm, false, false) == 0xcb800001u);
    CHECK(convert(neg, Type::s32, Type::f32, Rounding::rp, false, false) == 0xcb800000u);
    CHECK(convert(16777219, Type::u32, Type::f32, Rounding::rn, false, false) ==
          0x4b800002u);                                                                 // tie -> 2^24+4
    CHECK(convert(70000, Type::u32, Type::f16, Rounding::rn, false, false) == 0x7c00);  // > 65520 -> inf
    CHECK(convert(70000, Type::u32, Type::f16, Rounding::rz, false, false) == 0x7bff);
}

TEST_CASE("cvt.rn.f16.f32 overflow, ties and subnormals", "[arith][cvt][half]") {
    CHECK(f32_to_f16(0x477ff000u, Round::rn) == 0x7c00);  // 65520: tie between 65504 (odd) and 2^16 -> inf
    CHECK(f32_to_f16(0x477fef00u, Round::rn) == 0x7bff);  // 65519 -> 65504
    CHECK(f32_to_f16(0x477ff000u, Round::rz) == 0x7bff);  // rz never overflows to inf
    CHECK(f32_to_f16(0x3f800000u, Round::rn) == 0x3c00);
    CHECK(f32_to_f16(0x33800000u, Round::rn) == 0x0001);  // 2^-24, the smallest f16 subnormal
    CHECK(f32_to_f16(0x33000000u, Round::rn) == 0x0000);  // 2^-25: tie -> even (0)
    CHECK(f32_to_f16(0x33000001u, Round::rn) == 0x0001);  // just above the tie
    CHECK(f32_to_f16(0x33c00000u, Round::rn) == 0x0002);  // 3 * 2^-25: tie between 1 and 2 -> 2
    CHECK(f32_to_f16(0xb3800000u, Round::rn) == 0x8001);
    CHECK(f32_to_f16(0x7fc00000u, Round::rn) == 0x7fff);  // NaN -> canonical
    CHECK(f16_to_f32(0x0001) == 0x33800000u);
    CHECK(f16_to_f32(0x03ff) == 0x387fc000u);  // 1023 * 2^-24 = 1.998046875 * 2^-15
    CHECK(f16_to_f32(0x7c00) == 0x7f800000u);
    CHECK(f16_to_f32(0x8000) == 0x80000000u);
}

TEST_CASE("cvt.rn.bf16.f32 rounds ties to even", "[arith][cvt][half]") {
    CHECK(f32_to_bf16(0x3f808000u, Round::rn) == 0x3f80);  // 1 + 2^-8: tie at even 0x3f80
    CHECK(f32_to_bf16(0x3f818000u, Round::rn) == 0x3f82);  // tie at odd 0x3f81 -> up
    CHECK(f32_to_bf16(0x3f808001u, Round::rn) == 0x3f81);  // above the tie
    CHECK(f32_to_bf16(0x3f80ffffu, Round::rz) == 0x3f80);
    CHECK(f32_to_bf16(0x7f7f8000u, Round::rn) == 0x7f80);  // tie above the largest bf16 -> inf
    CHECK(f32_to_bf16(0x00010000u, Round::rn) == 0x0001);  // bf16 subnormal
    CHECK(bf16_to_f32(0x3f80) == 0x3f800000u);
    CHECK(bf16_to_f32(0x7f81) == 0x7f810000u);  // NaN bits are shifted as they are (H200)
}

TEST_CASE("NaN through float -> float conversions", "[arith][cvt][nan]") {
    CHECK(f32_to_f64(0x7f800001u) == 0x7ff8000020000000ull);  // payload kept, quieted
    CHECK(f32_to_f64(0xffc00000u) == 0xfff8000000000000ull);
    CHECK(f64_to_f32(0x7ff0000000000123ull, Round::rn) == 0x7fc00000u);  // low payload bits drop out
    CHECK(f64_to_f32(0x7fffffffffffffffull, Round::rn) == 0x7fffffffu);
    CHECK(convert(0x7f800001u, Type::f32, Type::tf32, Rounding::rna, false, false) == 0x7f800000u);
}

TEST_CASE("f64 -> f32 rounding, ftz and sat", "[arith][cvt]") {
    CHECK(f64_to_f32(0x47effffff0000000ull, Round::rn) ==
          0x7f800000u);  // FLT_MAX + half ulp -> inf (tie, odd)
    CHECK(f64_to_f32(0x47effffff0000000ull, Round::rz) == 0x7f7fffffu);
    CHECK(f64_to_f32(0x3690000000000000ull, Round::rn) == 0u);  // 2^-150: tie -> 0
    CHECK(f64_to_f32(0x3690000000000001ull, Round::rn) == 1u);
    CHECK(f64_to_f32(0x36a0000000000000ull, Round::rn, true) == 0u);  // 2^-149 flushed by .ftz
    CHECK(convert(0x4000000000000000ull, Type::f64, Type::f32, Rounding::rn, false, true) == 0x3f800000u);
    CHECK(convert(0x7ff8000000000000ull, Type::f64, Type::f32, Rounding::rn, false, true) == 0u);  // .sat NaN
}

TEST_CASE("tf32 and fp8 conversions", "[arith][cvt]") {
    // tf32 keeps 10 fraction bits: 1 + 2^-11 is a tie; .rna rounds away from zero.
    CHECK(convert(0x3f801000u, Type::f32, Type::tf32, Rounding::rna, false, false) == 0x3f802000u);
    CHECK(convert(0x3f800fffu, Type::f32, Type::tf32, Rounding::rna, false, false) == 0x3f800000u);
    // e4m3: bias 7, max 448 (0x7e), no infinity; 1.0 = 0x38; 2^-9 = smallest subnormal 0x01.
    CHECK(cvt_f8x2_f32(0x3f800000u, 0x43e00000u, Type::e4m3x2, false) == 0x387e);  // {1.0, 448}
    CHECK(cvt_f8x2_f32(0x43f00000u, 0x7f800000u, Type::e4m3x2, false) == 0x7e7e);  // 480 and inf saturate
    CHECK(cvt_f8x2_f32(0x3b000000u, 0xbf800000u, Type::e4m3x2, false) == 0x01b8);  // {2^-9, -1.0}
    CHECK(cvt_f8x2_f32(0x7fc00000u, 0xbf800000u, Type::e4m3x2, true) == 0x7f00);   // NaN stays NaN; relu
    // e5m2: bias 15, max 57344 (0x7b); 1.0 = 0x3c; overflow saturates under .satfinite.
    CHECK(cvt_f8x2_f32(0x3f800000u, 0x7f800000u, Type::e5m2x2, false) == 0x3c7b);
    CHECK(cvt_f16x2_f8x2(0x387e, Type::e4m3x2, false) == 0x3c005f00u);  // {1.0, 448.0}
    CHECK(cvt_f16x2_f32(0x3f800000u, 0x40000000u, Round::rn, false, false) == 0x3c004000u);
}
