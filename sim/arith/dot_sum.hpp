// sim/arith/dot_sum.hpp — the floating-point arithmetic of mma.sync and wmma.mma: c + sum(a_k * b_k) over the
// small formats (f16, bf16, tf32) with an f32 or f16 addend and an f32 or f16 result, as the H200's tensor
// cores compute it.
//
// The model, read off the H200 (3072 results of tests/specs/mma_{f16,bf16,tf32}_random.json, every one
// bit-exact; rounding the exact sum once to nearest was 1 ulp high in 1,430 of them, 47 %):
//  1. every product a_k * b_k is exact;
//  2. each term (the products and c) has an alignment exponent: for c the exponent of its leading bit, for a
//     product the sum of its factors' leading-bit exponents (the product's significand lies in [1, 4));
//     E is the largest alignment exponent of the non-zero terms;
//  3. every term is truncated toward zero to a multiple of 2^(E - 25) (the adder's 25-bit window below the
//     largest term), and the truncated terms are added exactly, all K products at once (no chunks);
//  4. the sum is truncated (rounded toward zero) to f32; for an f16 result it is rounded to nearest (ties to
//     even) to f16 instead, overflow giving infinity (8192 results of
//     tests/specs/mma_f16acc_k{16,8}_train.json, f16 C and D, every one bit-exact; a 24- or 26-bit window
//     fits them as well, 23 misses one).
// Not covered by the measurement (all inputs were positive normals): negative terms (modelled as
// sign-magnitude truncation toward zero), subnormal inputs, overflow (modelled as infinity). NaN inputs,
// inf * 0 and inf - inf give the canonical NaN 0x7fffffff; otherwise an infinite term gives that infinity.
#pragma once

#include <cstdint>
#include <span>

namespace warpsim::arith {

enum class DotFormat : uint8_t { f16, bf16, tf32 };
enum class DotAcc : uint8_t { f32, f16 };  // the type of the addend C and of the result D

// c + sum(a[k] * b[k]) as f32 bits; a and b hold raw bits of `in` (16-bit formats in the low half; tf32 in
// f32 layout, its low 13 bits ignored), c is f32 bits.
uint32_t dot_f32(std::span<const uint32_t> a, std::span<const uint32_t> b, DotFormat in, uint32_t c);
// The same with c of type c_type (f16 bits in the low half) and the result of type d_type (f16 bits in the
// low half; an f16 NaN result is 0x7fff).
uint32_t dot_acc(std::span<const uint32_t> a, std::span<const uint32_t> b, DotFormat in, uint32_t c,
                 DotAcc c_type, DotAcc d_type);

}  // namespace warpsim::arith
