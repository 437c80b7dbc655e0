// launch/elem_type.cpp — element type table and exact number-to-bits conversion.
#include "launch/elem_type.hpp"

#include <bit>
#include <cstring>

namespace warpsim::launch {
namespace {

struct ElemInfo {
    ElemType type;
    std::string_view name;
    ElemType scalar;
    uint32_t components;
    uint32_t scalar_bytes;
    bool is_float;
    bool is_signed;
};

constexpr ElemInfo kElems[] = {
    {ElemType::i8, "i8", ElemType::i8, 1, 1, false, true},
    {ElemType::u8, "u8", ElemType::u8, 1, 1, false, false},
    {ElemType::i16, "i16", ElemType::i16, 1, 2, false, true},
    {ElemType::u16, "u16", ElemType::u16, 1, 2, false, false},
    {ElemType::i32, "i32", ElemType::i32, 1, 4, false, true},
    {ElemType::u32, "u32", ElemType::u32, 1, 4, false, false},
    {ElemType::i64, "i64", ElemType::i64, 1, 8, false, true},
    {ElemType::u64, "u64", ElemType::u64, 1, 8, false, false},
    {ElemType::f16, "f16", ElemType::f16, 1, 2, true, true},
    {ElemType::bf16, "bf16", ElemType::bf16, 1, 2, true, true},
    {ElemType::f32, "f32", ElemType::f32, 1, 4, true, true},
    {ElemType::f64, "f64", ElemType::f64, 1, 8, true, true},
    {ElemType::f32x2, "f32x2", ElemType::f32, 2, 4, true, true},
    {ElemType::f32x4, "f32x4", ElemType::f32, 4, 4, true, true},
    {ElemType::i32x2, "i32x2", ElemType::i32, 2, 4, false, true},
    {ElemType::i32x4, "i32x4", ElemType::i32, 4, 4, false, true},
    {ElemType::u32x4, "u32x4", ElemType::u32, 4, 4, false, false},
    {ElemType::f64x2, "f64x2", ElemType::f64, 2, 8, true, true},
};

const ElemInfo& info(ElemType t) {
    return kElems[static_cast<size_t>(t)];
}

struct FloatFormat {
    int exp_bits, mant_bits;
};

FloatFormat float_format(ElemType scalar) {
    switch (scalar) {
        case ElemType::f16:
            return {5, 10};
        case ElemType::bf16:
            return {8, 7};
        case ElemType::f32:
            return {8, 23};
        default:
            return {11, 52};
    }
}

uint64_t low_mask(uint32_t bytes) {
    return bytes >= 8 ? ~0ull : (1ull << (bytes * 8)) - 1;
}

// Drops `shift` low bits of sig with round-to-nearest-even; shift may exceed 63.
uint64_t shift_round(uint64_t sig, int shift, int msb) {
    if (shift <= 0) return sig << -shift;
    if (shift > msb + 1) return 0;  // below half of the last kept unit
    if (shift == 64) return sig > (1ull << 63) ? 1 : 0;
    uint64_t q = sig >> shift;
    uint64_t rem = sig & ((1ull << shift) - 1);
    uint64_t half = 1ull << (shift - 1);
    bool up = rem > half || (rem == half && (q & 1));
    return q + (up ? 1 : 0);
}

}  // namespace

std::string_view elem_name(ElemType t) {
    return info(t).name;
}

std::optional<ElemType> elem_from_name(std::string_view name) {
    for (const auto& e : kElems)
        if (e.name == name) return e.type;
    return std::nullopt;
}

std::string elem_names_list() {
    std::string out;
    for (const auto& e : kElems) {
        if (!out.empty()) out += ' ';
        out += e.name;
    }
    return out;
}

ElemType elem_scalar(ElemType t) {
    return info(t).scalar;
}
uint32_t elem_components(ElemType t) {
    return info(t).components;
}
uint32_t elem_bytes(ElemType t) {
    return info(t).components * info(t).scalar_bytes;
}
uint32_t scalar_bytes(ElemType t) {
    return info(t).scalar_bytes;
}
bool elem_is_float(ElemType t) {
    return info(t).is_float;
}
bool elem_is_signed(ElemType t) {
    return info(t).is_signed && !info(t).is_float;
}
bool elem_is_vector(ElemType t) {
    return info(t).components > 1;
}

uint64_t round_to_ieee(bool negative, uint64_t sig, int exp2, int exp_bits, int mant_bits) {
    const uint64_t sign = negative ? 1ull << (exp_bits + mant_bits) : 0;
    if (sig == 0) return sign;
    const int msb = 63 - std::countl_zero(sig);
    const int bias = (1 << (exp_bits - 1)) - 1;
    const int max_field = (1 << exp_bits) - 1;  // the all-ones exponent: infinity and NaN
    const uint64_t inf = uint64_t(max_field) << mant_bits;
    const int64_t te = int64_t(msb) + exp2 + bias;  // biased exponent of the leading one
    if (te >= max_field) return sign | inf;
    // A normal result keeps mant_bits bits below the leading one; a subnormal keeps fewer, as many as
    // its fixed exponent (1 - bias) allows. A carry out of the mantissa moves into the exponent field,
    // which is exactly how the encoding rounds up to the next binade (or to infinity).
    int64_t shift = int64_t(msb) - mant_bits + (te >= 1 ? 0 : 1 - te);
    if (shift > 65) shift = 65;
    uint64_t q = shift_round(sig, int(shift), msb);
    uint64_t bits = te >= 1 ? ((uint64_t(te) << mant_bits) + (q - (1ull << mant_bits))) : q;
    if (bits >= inf) return sign | inf;
    return sign | bits;
}

uint64_t bits_from_uint(ElemType t, uint64_t value) {
    if (!elem_is_float(t)) return value & low_mask(scalar_bytes(t));
    auto f = float_format(elem_scalar(t));
    return round_to_ieee(false, value, 0, f.exp_bits, f.mant_bits);
}

uint64_t bits_from_int(ElemType t, int64_t value) {
    if (!elem_is_float(t)) return uint64_t(value) & low_mask(scalar_bytes(t));
    auto f = float_format(elem_scalar(t));
    uint64_t magnitude = value < 0 ? 0 - uint64_t(value) : uint64_t(value);
    return round_to_ieee(value < 0, magnitude, 0, f.exp_bits, f.mant_bits);
}

uint64_t bits_from_double(ElemType t, double value) {
    uint64_t d;
    std::memcpy(&d, &value, 8);
    if (!elem_is_float(t)) {
        if (elem_is_signed(t)) return bits_from_int(t, static_cast<int64_t>(value));
        return bits_from_uint(t, static_cast<uint64_t>(value));
    }
    ElemType s = elem_scalar(t);
    if (s == ElemType::f64) return d;
    auto f = float_format(s);
    const bool neg = d >> 63;
    const uint64_t field = (d >> 52) & 0x7ff, frac = d & ((1ull << 52) - 1);
    const uint64_t sign = neg ? 1ull << (f.exp_bits + f.mant_bits) : 0;
    const uint64_t all_ones = uint64_t((1 << f.exp_bits) - 1) << f.mant_bits;
    if (field == 0x7ff) {
        if (frac == 0) return sign | all_ones;
        return sign | all_ones | (1ull << (f.mant_bits - 1));  // canonical quiet NaN
    }
    if (field == 0) return round_to_ieee(neg, frac, -1074, f.exp_bits, f.mant_bits);
    return round_to_ieee(neg, frac | (1ull << 52), int(field) - 1075, f.exp_bits, f.mant_bits);
}

}  // namespace warpsim::launch
