// tests/arith/dot_sum_test.cpp — the mma.sync floating-point model (sim/arith/dot_sum.hpp): exact products,
// every term truncated to the 25-bit window below the largest, an exact sum, truncation to f32. Each case is
// worked out by hand; several tell the model apart from one rounding of the exact sum and from adding the
// products one by one in f32.
#include <catch2/catch.hpp>

#include <vector>

#include "sim/arith/dot_sum.hpp"

using namespace warpsim::arith;

namespace {
constexpr uint32_t kOneF16 = 0x3c00, kTwoM12F16 = 0x0c00, kTwoM13F16 = 0x0800;  // 1.0, 2^-12, 2^-13 in f16
}  // namespace

TEST_CASE("dot_f32: plain sums of f16 products", "[arith][mma]") {
    const std::vector<uint32_t> ones(16, kOneF16);
    CHECK(dot_f32(ones, ones, DotFormat::f16, 0) == 0x41800000u);            // 16 * 1 * 1 = 16
    CHECK(dot_f32(ones, ones, DotFormat::f16, 0x3f800000u) == 0x41880000u);  // + 1 = 17
    const std::vector<uint32_t> three{0x4200}, minus_half{0xb800};           // 3 * -0.5 = -1.5
    CHECK(dot_f32(three, minus_half, DotFormat::f16, 0) == 0xbfc00000u);
}

TEST_CASE("dot_f32: one sum of all terms, truncated (not rounded) to f32", "[arith][mma]") {
    // 1 + 2^-24 + 2^-24 = 1 + 2^-23 (0x3f800001): both products lie inside the window below 1 (down to
    // 2^-25); adding them one at a time in f32 (round to nearest) would give 1.0 twice.
    const std::vector<uint32_t> tiny{kTwoM12F16, kTwoM12F16};
    CHECK(dot_f32(tiny, tiny, DotFormat::f16, 0x3f800000u) == 0x3f800001u);
    // 1 + 3 * 2^-24 = 1 + 1.5 * 2^-23: truncated to 1 + 2^-23 (round to nearest would give 1 + 2^-22).
    const std::vector<uint32_t> three_tiny{kTwoM12F16, kTwoM12F16, kTwoM12F16};
    CHECK(dot_f32(three_tiny, three_tiny, DotFormat::f16, 0x3f800000u) == 0x3f800001u);
}

TEST_CASE("dot_f32: terms below the 25-bit window of the largest term are dropped", "[arith][mma]") {
    // Eight products of 2^-26 below c = 1 sum to 2^-23 exactly, but each is truncated to a multiple of
    // 2^-25 first: they vanish and the result is 1.0 (an exact sum would give 0x3f800001).
    const std::vector<uint32_t> small(8, kTwoM13F16);
    CHECK(dot_f32(small, small, DotFormat::f16, 0x3f800000u) == 0x3f800000u);
    // 2^30 - 2^15 * 2^15 + 2^-24: the largest alignment exponent is 30, so 2^-24 falls out of the window and
    // the cancellation leaves +0.
    const std::vector<uint32_t> a{0x7800, kTwoM12F16}, b{0xf800, kTwoM12F16};
    CHECK(dot_f32(a, b, DotFormat::f16, 0x4e800000u) == 0x00000000u);
    // A product's alignment exponent is the sum of its factors' (1.5 * 1.5 = 2.25 aligns at 2^0, not 2^1):
    // the window reaches down to 2^-25, so eight products of 2^-25 add 2^-22 (2.25's last bit).
    std::vector<uint32_t> x(9, kTwoM12F16), y(9, kTwoM13F16);
    x[0] = y[0] = 0x3e00;  // 1.5
    CHECK(dot_f32(x, y, DotFormat::f16, 0) == 0x40100001u);
}

TEST_CASE("dot_f32: bf16 and tf32 ranges, tiny and overflowing results", "[arith][mma]") {
    // bf16 2^-70 * 2^-79 = 2^-149, the smallest f32 subnormal; 2^-70 * 2^-84 = 2^-154 truncates to +0.
    const std::vector<uint32_t> a{0x1c80}, b{0x1800};
    CHECK(dot_f32(a, b, DotFormat::bf16, 0) == 0x00000001u);
    CHECK(dot_f32(a, std::vector<uint32_t>{0x1580}, DotFormat::bf16, 0) == 0x00000000u);
    // bf16 2^127 * 2^2 = 2^129 overflows f32: +inf.
    CHECK(dot_f32(std::vector<uint32_t>{0x7f00}, std::vector<uint32_t>{0x4080}, DotFormat::bf16, 0) ==
          0x7f800000u);
    // tf32 ignores the low 13 bits of its f32 layout: 1.0 + 2^-23 reads as 1.0.
    CHECK(dot_f32(std::vector<uint32_t>{0x3f800001u}, std::vector<uint32_t>{0x40000000u}, DotFormat::tf32,
                  0) == 0x40000000u);
}

TEST_CASE("dot_f32: NaN and infinity rules", "[arith][mma]") {
    const std::vector<uint32_t> inf{0x7c00}, zero{0x0000}, one{kOneF16}, ninf{0xfc00}, nan{0x7e00};
    CHECK(dot_f32(inf, zero, DotFormat::f16, 0) == 0x7fffffffu);  // inf * 0
    CHECK(dot_f32(inf, one, DotFormat::f16, 0) == 0x7f800000u);
    CHECK(dot_f32(inf, one, DotFormat::f16, 0xff800000u) == 0x7fffffffu);  // inf - inf
    CHECK(dot_f32(ninf, one, DotFormat::f16, 0x3f800000u) == 0xff800000u);
    CHECK(dot_f32(nan, one, DotFormat::f16, 0) == 0x7fffffffu);
    CHECK(dot_f32(one, one, DotFormat::f16, 0x7fc00000u) == 0x7fffffffu);
}

TEST_CASE("dot_acc: f16 results round the windowed sum to nearest even, once", "[arith][mma]") {
    using A = DotAcc;
    const std::vector<uint32_t> ones{kOneF16, kOneF16, kOneF16};
    // 1 + 2^-11 (c = 0): exactly halfway between 1 and 1 + 2^-10, ties to even: 1.0.
    const std::vector<uint32_t> half_ulp{kOneF16, 0x1000};  // 1, 2^-11
    CHECK(dot_acc(half_ulp, std::vector<uint32_t>{kOneF16, kOneF16}, DotFormat::f16, 0, A::f16, A::f16) ==
          0x3c00u);
    // + 2^-24 (2^-12 * 2^-12, inside the window below 1): above halfway, 1 + 2^-10 (0x3c01). Truncating to
    // f32 first would drop the 2^-24 (f32's last bit at 1 is 2^-23) and give 1.0: the H200 does not (ties
    // spec).
    const std::vector<uint32_t> above{kOneF16, 0x1000, kTwoM12F16}, b3{kOneF16, kOneF16, kTwoM12F16};
    CHECK(dot_acc(above, b3, DotFormat::f16, 0, A::f16, A::f16) == 0x3c01u);
    // 1 + 3 * 2^-11 = 1 + 2^-10 + 2^-11: halfway between 0x3c01 and 0x3c02, to even: 0x3c02.
    const std::vector<uint32_t> three_half{kOneF16, 0x1000, 0x1000, 0x1000};
    CHECK(dot_acc(three_half, std::vector<uint32_t>(4, kOneF16), DotFormat::f16, 0, A::f16, A::f16) ==
          0x3c02u);
    // 65504 + 8 stays 65504 (0x7bff); 65504 + 16 = 65520 is halfway to 65536 and rounds (to even) to
    // infinity.
    const std::vector<uint32_t> big8{0x7bff, 0x4800}, big16{0x7bff, 0x4c00}, one2{kOneF16, kOneF16};
    CHECK(dot_acc(big8, one2, DotFormat::f16, 0, A::f16, A::f16) == 0x7bffu);
    CHECK(dot_acc(big16, one2, DotFormat::f16, 0, A::f16, A::f16) == 0x7c00u);
    // 1 - 1 = +0; inf - inf and NaN give 0x7fff; f16 c = 1 (0x3c00) with products 1 + 1 + 1: 4 (0x4400).
    CHECK(dot_acc(std::vector<uint32_t>{kOneF16, 0xbc00}, one2, DotFormat::f16, 0, A::f16, A::f16) ==
          0x0000u);
    CHECK(dot_acc(std::vector<uint32_t>{0x7c00, 0xfc00}, one2, DotFormat::f16, 0, A::f16, A::f16) == 0x7fffu);
    CHECK(dot_acc(ones, ones, DotFormat::f16, kOneF16, A::f16, A::f16) == 0x4400u);
    // Subnormal result: 2^-24 * 1 = the smallest f16 subnormal (0x0001).
    CHECK(dot_acc(std::vector<uint32_t>{0x0001}, std::vector<uint32_t>{kOneF16}, DotFormat::f16, 0, A::f16,
                  A::f16) == 0x0001u);
}

TEST_CASE("dot_acc: mixed accumulators take c in its own type", "[arith][mma]") {
    using A = DotAcc;
    const std::vector<uint32_t> tiny{kTwoM12F16}, one{kOneF16};
    // f16 c = 1 plus 2^-24, as f32: 1 + 2^-24 truncated to 1.0 (0x3f800000).
    CHECK(dot_acc(tiny, tiny, DotFormat::f16, kOneF16, A::f16, A::f32) == 0x3f800000u);
    // f32 c = 1 + 2^-11 + 2^-20 (0x3f801000 + 0x8 = 0x3f801008) plus 0 products, as f16: above halfway,
    // 0x3c01.
    CHECK(dot_acc(one, std::vector<uint32_t>{0}, DotFormat::f16, 0x3f801008u, A::f32, A::f16) == 0x3c01u);
    // dot_f32 is dot_acc with f32 c and d.
    CHECK(dot_acc(tiny, tiny, DotFormat::f16, 0x3f800000u, A::f32, A::f32) ==
          dot_f32(tiny, tiny, DotFormat::f16, 0x3f800000u));
}
