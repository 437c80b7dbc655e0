// sim/arith/convert.hpp — PTX cvt between integer and floating-point types, bit-exact (PTX ISA 9.7.10.24).
//
// Rules implemented (all from PTX ISA 9.7.10.24 "cvt" unless noted):
//  * float -> float narrowing and int -> float round with .rn/.rz/.rm/.rp (.rna for tf32); widening is exact.
//  * same-size float -> float with .rni/.rzi/.rmi/.rpi rounds to an integral value in that format.
//  * float -> int rounds with .rni/.rzi/.rmi/.rpi and always saturates to the destination range ("the result
//    is clamped to the destination range by default"); NaN -> 0, except that a .f64 source or a 64-bit
//    destination gives 1 << (bits - 1) ("Integer Notes").
//  * int -> int: without .sat the value is truncated to the destination width; with .sat it is clamped to
//    MININT..MAXINT of the destination.
//  * .ftz applies only to .f32 inputs and results: subnormal f32 inputs read as signed zero and subnormal
//    f32 results are flushed to signed zero.
//  * .sat with a float destination clamps to [0.0, 1.0], NaN -> +0.0.
//  * .relu (f16/bf16/tf32/fp8 destinations) clamps negative results to +0 and makes NaN canonical;
//    .satfinite turns overflow (and infinity) into the sign-preserving largest finite value, NaN stays NaN
//    (for formats without NaN it becomes +MAX_NORM).
//  * NaN through float -> float: f32/f16 -> f64 and f64 -> narrower keep the sign and leading payload bits
//    and set the quiet bit; bf16 -> f32 is a plain shift; f32 -> tf32 truncates the low 13 bits; the others
//    give the destination's canonical NaN (all measured on the H200, tests/hardware/sfu).
// Result bits: zero-extended for unsigned, bit and float destinations; sign-extended to 64 bits for
// signed integer destinations (so the caller can mask to any register width, 9.4.1).
#pragma once

#include <cstdint>

#include "kernels_ir/ir.hpp"
#include "sim/arith/softfloat.hpp"

namespace warpsim::arith {

struct CvtMode {
    ir::Rounding rnd = ir::Rounding::none;
    bool ftz = false;
    bool sat = false;
    bool relu = false;
    bool satfinite = false;
};

// Scalar cvt: from/to are u8..u64, s8..s64, b8..b64 (as unsigned), f16, bf16, f32, f64, tf32 (the 32-bit
// container of cvt.tf32.f32), e4m3/e5m2 (one 8-bit value). Unknown pairs return 0.
uint64_t convert(uint64_t src_bits, ir::Type from, ir::Type to, const CvtMode& mode);
inline uint64_t convert(uint64_t src_bits, ir::Type from, ir::Type to, ir::Rounding rnd, bool ftz, bool sat) {
    return convert(src_bits, from, to, CvtMode{rnd, ftz, sat, false, false});
}

// Generic float -> float rounding between two formats (used by convert and by the approx functions).
uint64_t float_to_float(uint64_t bits, Format from, Format to, Round r, bool ftz_in, bool ftz_out, bool relu,
                        bool satfinite);

// Common helpers for the engine and the approx functions.
inline uint16_t f32_to_f16(uint32_t a, Round r, bool ftz = false) {
    return uint16_t(float_to_float(a, kF32, kF16, r, ftz, false, false, false));
}
inline uint32_t f16_to_f32(uint16_t a, bool ftz = false) {
    return uint32_t(float_to_float(a, kF16, kF32, Round::rn, false, ftz, false, false));
}
inline uint16_t f32_to_bf16(uint32_t a, Round r, bool ftz = false) {
    return uint16_t(float_to_float(a, kF32, kBF16, r, ftz, false, false, false));
}
inline uint32_t bf16_to_f32(uint16_t a, bool ftz = false) {
    return uint32_t(float_to_float(a, kBF16, kF32, Round::rn, false, ftz, false, false));
}
inline uint32_t f64_to_f32(uint64_t a, Round r, bool ftz = false) {
    return uint32_t(float_to_float(a, kF64, kF32, r, false, ftz, false, false));
}
inline uint64_t f32_to_f64(uint32_t a, bool ftz = false) {
    return float_to_float(a, kF32, kF64, Round::rn, ftz, false, false, false);
}

// cvt.frnd{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: a goes to the upper half, b to the lower half.
uint32_t cvt_f16x2_f32(uint32_t a, uint32_t b, Round r, bool relu, bool satfinite);
uint32_t cvt_bf16x2_f32(uint32_t a, uint32_t b, Round r, bool relu, bool satfinite);
// cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b (a -> bits 15:8, b -> bits 7:0); `to` is e4m3x2 or
// e5m2x2.
uint16_t cvt_f8x2_f32(uint32_t a, uint32_t b, ir::Type to, bool relu);
// cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2 d, a.
uint16_t cvt_f8x2_f16x2(uint32_t a, ir::Type to, bool relu);
// cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a (exact widening; upper byte -> upper half).
uint32_t cvt_f16x2_f8x2(uint16_t a, ir::Type from, bool relu);

}  // namespace warpsim::arith
