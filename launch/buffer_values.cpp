// launch/buffer_values.cpp — component decoding and printing.
#include "launch/buffer_values.hpp"

#include <bit>
#include <cmath>

#include <fmt/format.h>

namespace warpsim::launch {
namespace {

// An IEEE binary format with `exp_bits` exponent and `mant_bits` stored mantissa bits, decoded exactly.
long double decode_ieee(uint64_t bits, int exp_bits, int mant_bits) {
    const bool negative = (bits >> (exp_bits + mant_bits)) & 1;
    const uint64_t exp = (bits >> mant_bits) & ((1ull << exp_bits) - 1);
    const uint64_t mant = bits & ((1ull << mant_bits) - 1);
    const int bias = (1 << (exp_bits - 1)) - 1;
    long double v = 0;
    if (exp == (1ull << exp_bits) - 1) {
        v = mant ? std::numeric_limits<long double>::quiet_NaN()
                 : std::numeric_limits<long double>::infinity();
    } else if (exp == 0) {
        v = std::ldexp(static_cast<long double>(mant), 1 - bias - mant_bits);
    } else {
        v = std::ldexp(static_cast<long double>(mant | (1ull << mant_bits)),
                       static_cast<int>(exp) - bias - mant_bits);
    }
    return negative ? -v : v;
}

int64_t sign_extend(uint64_t bits, uint32_t bytes) {
    if (bytes >= 8) return static_cast<int64_t>(bits);
    const uint32_t shift = 64 - bytes * 8;
    return static_cast<int64_t>(bits << shift) >> shift;
}

}  // namespace

uint64_t component_bits_at(std::span<const uint8_t> bytes, ElemType t, uint64_t k) {
    const uint32_t sb = scalar_bytes(t);
    uint64_t v = 0;
    for (uint32_t i = 0; i < sb; ++i) v |= uint64_t(bytes[k * sb + i]) << (8 * i);
    return v;
}

long double component_value(ElemType t, uint64_t bits) {
    const ElemType s = elem_scalar(t);
    switch (s) {
        case ElemType::f16:
            return decode_ieee(bits, 5, 10);
        case ElemType::bf16:
            return decode_ieee(bits, 8, 7);
        case ElemType::f32:
            return decode_ieee(bits, 8, 23);
        case ElemType::f64:
            return decode_ieee(bits, 11, 52);
        default:
            break;
    }
    if (elem_is_signed(s)) return static_cast<long double>(sign_extend(bits, scalar_bytes(s)));
    return static_cast<long double>(bits);
}

std::string format_component(ElemType t, uint64_t bits) {
    const ElemType s = elem_scalar(t);
    if (!elem_is_float(s)) {
        if (elem_is_signed(s)) return std::to_string(sign_extend(bits, scalar_bytes(s)));
        return std::to_string(bits);
    }
    const long double v = component_value(s, bits);
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    // Shortest round-trip text of the value in its own precision (f16/bf16 values are exact as floats).
    if (s == ElemType::f64) return fmt::format("{}", std::bit_cast<double>(bits));
    return fmt::format("{}", static_cast<float>(v));
}

nlohmann::ordered_json component_json(ElemType t, uint64_t bits) {
    const ElemType s = elem_scalar(t);
    if (!elem_is_float(s)) {
        if (elem_is_signed(s)) return sign_extend(bits, scalar_bytes(s));
        return bits;
    }
    const long double v = component_value(s, bits);
    if (std::isnan(v) || std::isinf(v)) return format_component(s, bits);
    if (s == ElemType::f64) return std::bit_cast<double>(bits);
    return static_cast<double>(v);
}

}  // namespace warpsim::launch
