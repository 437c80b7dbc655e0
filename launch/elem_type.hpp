// launch/elem_type.hpp — the element types of launch-spec buffers and scalars, and exact conversion of
// numbers to their bit patterns (round to nearest even, written out in integer arithmetic).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace warpsim::launch {

enum class ElemType : uint8_t {
    i8,
    u8,
    i16,
    u16,
    i32,
    u32,
    i64,
    u64,
    f16,
    bf16,
    f32,
    f64,
    f32x2,
    f32x4,
    i32x2,
    i32x4,
    u32x4,
    f64x2,
};

std::string_view elem_name(ElemType t);  // "f32x4"
std::optional<ElemType> elem_from_name(std::string_view name);
std::string elem_names_list();         // "i8 u8 ... f64x2", for error messages
ElemType elem_scalar(ElemType t);      // f32x4 -> f32; scalars map to themselves
uint32_t elem_components(ElemType t);  // f32x4 -> 4; scalars -> 1
uint32_t elem_bytes(ElemType t);       // whole element: f32x4 -> 16
uint32_t scalar_bytes(ElemType t);     // one component: f32x4 -> 4
bool elem_is_float(ElemType t);        // of the component type
bool elem_is_signed(ElemType t);       // i8 .. i64 (and i32x2/i32x4)
bool elem_is_vector(ElemType t);

// Bit pattern of the component type of `t` (low scalar_bytes(t) bytes used) for a number given exactly:
// an integer converts to a float type with round-to-nearest-even; a float type's NaN is the canonical
// quiet NaN. For integer types the integer is taken modulo 2^bits (callers range-check first).
uint64_t bits_from_uint(ElemType t, uint64_t value);
uint64_t bits_from_int(ElemType t, int64_t value);
// A double to a float component type with round-to-nearest-even (f64: the bits themselves).
// Integer types: the caller must pass an integral value in range; it is truncated toward zero.
uint64_t bits_from_double(ElemType t, double value);

// Round (negative ? -1 : 1) * sig * 2^exp2 to an IEEE binary format with `exp_bits` exponent and
// `mant_bits` stored mantissa bits (f16: 5, 10; bf16: 8, 7; f32: 8, 23; f64: 11, 52), to nearest even,
// overflowing to infinity and underflowing through subnormals to signed zero. Returns the bits.
uint64_t round_to_ieee(bool negative, uint64_t sig, int exp2, int exp_bits, int mant_bits);

}  // namespace warpsim::launch
