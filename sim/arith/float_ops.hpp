// sim/arith/float_ops.hpp — bit-exact PTX floating-point arithmetic on raw bits (f64, f32, f16, bf16).
//
// All functions are pure: bits in, bits out, no host floating-point environment. The rules, with the PTX ISA
// section that states them:
//  * 9.7.3 / 9.7.4 rounding modifiers: .rn ties-to-even, .rz, .rm, .rp; results rounded once (fma has no
//    intermediate rounding: 9.7.3.6 "computes a*b+c in infinite precision and then rounds").
//  * .ftz (9.7.3): subnormal inputs and results become sign-preserving zero (f32 and f16 only).
//  * .sat (9.7.3, 9.7.4): result clamped to [0.0, 1.0]; NaN results become +0.0.
//  * NaN results (CUDA Programming Guide "Floating-Point Standard"): f32 arithmetic returns 0x7fffffff.
//    f64 (9.7.3: "NaN payloads are supported for double-precision instructions") propagates the last NaN
//    operand, quieted (min/max.f64 with two NaNs too); a NaN created from non-NaN inputs is
//    0xfff8000000000000 (measured on the H200). f16/bf16 return 0x7fff.
//  * .ftz tininess is decided before rounding: an exact result below the smallest normal is flushed even
//    if it would round up to it (measured, tests/hardware/sfu mul.rn.ftz.f32).
//  * min/max (9.7.3.11/12, 9.7.4.7/8): a NaN operand is ignored, both NaN -> canonical NaN; .NaN returns the
//    canonical NaN if either is NaN; -0.0 < +0.0.
#pragma once

#include <cstdint>

#include "kernels_ir/ir.hpp"
#include "sim/arith/softfloat.hpp"

namespace warpsim::arith {

// ir::Rounding -> Round. Integer-rounding spellings (.rni ...) map to the same direction; none -> rn
// (the PTX default where a rounding modifier is optional).
constexpr Round to_round(ir::Rounding r) {
    switch (r) {
        case ir::Rounding::rz:
        case ir::Rounding::rzi:
            return Round::rz;
        case ir::Rounding::rm:
        case ir::Rounding::rmi:
            return Round::rm;
        case ir::Rounding::rp:
        case ir::Rounding::rpi:
            return Round::rp;
        case ir::Rounding::rna:
            return Round::rna;
        default:
            return Round::rn;
    }
}

// ---- generic kernels over a Format (float_ops.cpp) -----------------------------------------------------
uint64_t fp_add(uint64_t a, uint64_t b, Format f, Round r, bool ftz);
uint64_t fp_sub(uint64_t a, uint64_t b, Format f, Round r, bool ftz);
uint64_t fp_mul(uint64_t a, uint64_t b, Format f, Round r, bool ftz);
uint64_t fp_fma(uint64_t a, uint64_t b, uint64_t c, Format f, Round r, bool ftz);
uint64_t fp_div(uint64_t a, uint64_t b, Format f, Round r, bool ftz);
uint64_t fp_sqrt(uint64_t a, Format f, Round r, bool ftz);
uint64_t fp_min(uint64_t a, uint64_t b, Format f, bool ftz, bool nan_propagate);
uint64_t fp_max(uint64_t a, uint64_t b, Format f, bool ftz, bool nan_propagate);
uint64_t fp_sat(uint64_t a, Format f);  // clamp to [+0, 1]; NaN -> +0
// Round to an integral value in the same format (cvt.rni/rzi/rmi/rpi.fXX.fXX, PTX ISA 9.7.10.24).
uint64_t fp_round_integral(uint64_t a, Format f, Round r, bool ftz);

// ---- f32 ---------------------------------------------------------------------------------------------
inline uint32_t f32_add(uint32_t a, uint32_t b, Round r, bool ftz) {
    return uint32_t(fp_add(a, b, kF32, r, ftz));
}
inline uint32_t f32_sub(uint32_t a, uint32_t b, Round r, bool ftz) {
    return uint32_t(fp_sub(a, b, kF32, r, ftz));
}
inline uint32_t f32_mul(uint32_t a, uint32_t b, Round r, bool ftz) {
    return uint32_t(fp_mul(a, b, kF32, r, ftz));
}
inline uint32_t f32_fma(uint32_t a, uint32_t b, uint32_t c, Round r, bool ftz) {
    return uint32_t(fp_fma(a, b, c, kF32, r, ftz));
}
inline uint32_t f32_div(uint32_t a, uint32_t b, Round r, bool ftz) {
    return uint32_t(fp_div(a, b, kF32, r, ftz));
}
inline uint32_t f32_sqrt(uint32_t a, Round r, bool ftz) {
    return uint32_t(fp_sqrt(a, kF32, r, ftz));
}
inline uint32_t f32_rcp(uint32_t a, Round r, bool ftz) {
    return uint32_t(fp_div(0x3f800000u, a, kF32, r, ftz));
}
inline uint32_t f32_min(uint32_t a, uint32_t b, bool ftz, bool nan_propagate) {
    return uint32_t(fp_min(a, b, kF32, ftz, nan_propagate));
}
inline uint32_t f32_max(uint32_t a, uint32_t b, bool ftz, bool nan_propagate) {
    return uint32_t(fp_max(a, b, kF32, ftz, nan_propagate));
}
inline uint32_t f32_sat(uint32_t a) {
    return uint32_t(fp_sat(a, kF32));
}
// abs/neg (9.7.3.9/10): sign-bit operations; .ftz flushes a subnormal input first. A NaN input gives the
// canonical NaN (the ISA's "unspecified NaN"; the H200 returns 0x7fffffff, tests/hardware/sfu abs/neg.f32).
constexpr uint32_t f32_flush(uint32_t a) {
    return is_subnormal_bits(a, kF32) ? (a & 0x80000000u) : a;
}
constexpr uint32_t f32_abs(uint32_t a, bool ftz) {
    return is_nan_bits(a, kF32) ? kF32CanonicalNaN : (ftz ? f32_flush(a) : a) & 0x7fffffffu;
}
constexpr uint32_t f32_neg(uint32_t a, bool ftz) {
    return is_nan_bits(a, kF32) ? kF32CanonicalNaN : (ftz ? f32_flush(a) : a) ^ 0x80000000u;
}
// copysign (9.7.3.2): d = b with the sign of a.
constexpr uint32_t f32_copysign(uint32_t a, uint32_t b) {
    return (b & 0x7fffffffu) | (a & 0x80000000u);
}

// ---- f64 (no .ftz, no .sat) ----------------------------------------------------------------------------
inline uint64_t f64_add(uint64_t a, uint64_t b, Round r) {
    return fp_add(a, b, kF64, r, false);
}
inline uint64_t f64_sub(uint64_t a, uint64_t b, Round r) {
    return fp_sub(a, b, kF64, r, false);
}
inline uint64_t f64_mul(uint64_t a, uint64_t b, Round r) {
    return fp_mul(a, b, kF64, r, false);
}
inline uint64_t f64_fma(uint64_t a, uint64_t b, uint64_t c, Round r) {
    return fp_fma(a, b, c, kF64, r, false);
}
inline uint64_t f64_div(uint64_t a, uint64_t b, Round r) {
    return fp_div(a, b, kF64, r, false);
}
inline uint64_t f64_sqrt(uint64_t a, Round r) {
    return fp_sqrt(a, kF64, r, false);
}
inline uint64_t f64_rcp(uint64_t a, Round r) {
    return fp_div(0x3ff0000000000000ull, a, kF64, r, false);
}
inline uint64_t f64_min(uint64_t a, uint64_t b, bool nan_propagate) {
    return fp_min(a, b, kF64, false, nan_propagate);
}
inline uint64_t f64_max(uint64_t a, uint64_t b, bool nan_propagate) {
    return fp_max(a, b, kF64, false, nan_propagate);
}
// "Double-precision floating-point absolute value and negation ... NaNs are passed through unchanged"
// (CUDA Programming Guide, Floating-Point Standard; PTX ISA 9.7.3.9).
constexpr uint64_t f64_abs(uint64_t a) {
    return a & 0x7fffffffffffffffull;
}
constexpr uint64_t f64_neg(uint64_t a) {
    return a ^ 0x8000000000000000ull;
}
constexpr uint64_t f64_copysign(uint64_t a, uint64_t b) {
    return (b & 0x7fffffffffffffffull) | (a & 0x8000000000000000ull);
}

// ---- f16 / bf16 (PTX ISA 9.7.4: .rn only; .ftz and .sat for f16 only) -----------------------------------
uint16_t f16_add(uint16_t a, uint16_t b, bool ftz, bool sat);
uint16_t f16_sub(uint16_t a, uint16_t b, bool ftz, bool sat);
uint16_t f16_mul(uint16_t a, uint16_t b, bool ftz, bool sat);
uint16_t f16_fma(uint16_t a, uint16_t b, uint16_t c, bool ftz, bool sat, bool relu);
uint16_t f16_min(uint16_t a, uint16_t b, bool ftz, bool nan_propagate);
uint16_t f16_max(uint16_t a, uint16_t b, bool ftz, bool nan_propagate);
uint16_t bf16_add(uint16_t a, uint16_t b);
uint16_t bf16_sub(uint16_t a, uint16_t b);
uint16_t bf16_mul(uint16_t a, uint16_t b);
uint16_t bf16_fma(uint16_t a, uint16_t b, uint16_t c, bool relu);
uint16_t bf16_min(uint16_t a, uint16_t b, bool nan_propagate);
uint16_t bf16_max(uint16_t a, uint16_t b, bool nan_propagate);
// neg/abs (9.7.4.5/6): sign-bit flips; .ftz (f16 only) flushes a subnormal input first; a NaN input gives
// 0x7fff ("NaN inputs yield an unspecified NaN"; measured for neg.f16, assumed for abs and bf16).
constexpr uint16_t f16_flush(uint16_t a) {
    return is_subnormal_bits(a, kF16) ? uint16_t(a & 0x8000u) : a;
}
constexpr uint16_t f16_neg(uint16_t a, bool ftz) {
    return is_nan_bits(a, kF16) ? kF16CanonicalNaN : uint16_t((ftz ? f16_flush(a) : a) ^ 0x8000u);
}
constexpr uint16_t f16_abs(uint16_t a, bool ftz) {
    return is_nan_bits(a, kF16) ? kF16CanonicalNaN : uint16_t((ftz ? f16_flush(a) : a) & 0x7fffu);
}
constexpr uint16_t bf16_neg(uint16_t a) {
    return is_nan_bits(a, kBF16) ? kBF16CanonicalNaN : uint16_t(a ^ 0x8000u);
}
constexpr uint16_t bf16_abs(uint16_t a) {
    return is_nan_bits(a, kBF16) ? kBF16CanonicalNaN : uint16_t(a & 0x7fffu);
}

// Packed x2 forms: apply a 16-bit operation to both halves of 32-bit registers (9.7.4: "half-word operands
// are operated in parallel"). Usage: x2(a, b, [&](uint16_t x, uint16_t y) { return f16_add(x, y, ftz, sat);
// })
template <class Op>
constexpr uint32_t x2(uint32_t a, uint32_t b, Op op) {
    return uint32_t(op(uint16_t(a), uint16_t(b))) |
           (uint32_t(op(uint16_t(a >> 16), uint16_t(b >> 16))) << 16);
}
template <class Op>
constexpr uint32_t x2(uint32_t a, uint32_t b, uint32_t c, Op op) {
    return uint32_t(op(uint16_t(a), uint16_t(b), uint16_t(c))) |
           (uint32_t(op(uint16_t(a >> 16), uint16_t(b >> 16), uint16_t(c >> 16))) << 16);
}
template <class Op>
constexpr uint32_t x2(uint32_t a, Op op) {
    return uint32_t(op(uint16_t(a))) | (uint32_t(op(uint16_t(a >> 16))) << 16);
}

// ---- comparisons and classification ---------------------------------------------------------------------
// setp/set float comparison (PTX ISA 9.3.1.2): ordered ops are false with a NaN operand, the unordered
// ...u forms true; num / nan test for NaN. `type` is f16, bf16, f32 or f64; .ftz flushes f32/f16
// subnormal operands (so -denormal == +0). Integer and bit types compare as integers (9.3.1.1).
bool compare(uint64_t a, uint64_t b, ir::Type type, ir::CmpOp op, bool ftz);

enum class TestOp : uint8_t { finite, infinite, number, notanumber, normal, subnormal };
// testp (PTX ISA 9.7.3.1): zeros count as normal.
bool testp(uint64_t a, ir::Type type, TestOp op);

}  // namespace warpsim::arith
