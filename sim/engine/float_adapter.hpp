// sim/engine/float_adapter.hpp — the engine's only door to floating-point arithmetic on raw bits. Until
// sim/arith lands this uses host float/double in round-to-nearest (other rounding modes are treated as rn;
// ftz flushes subnormal inputs and outputs); switching to sim/arith is a change to this file alone.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels_ir/ir.hpp"

namespace warpsim::engine::fp {

inline float f32(uint64_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b)); }
inline double f64(uint64_t b) { return std::bit_cast<double>(b); }
inline uint64_t bits(float f) { return std::bit_cast<uint32_t>(f); }
inline uint64_t bits(double d) { return std::bit_cast<uint64_t>(d); }

inline constexpr uint32_t kCanonicalNaN32 = 0x7fffffffu;  // PTX's canonical NaN for f32 results
inline constexpr uint64_t kCanonicalNaN64 = 0x7fffffffffffffffull;

inline float flush(float v, bool ftz) {
    return ftz && std::fpclassify(v) == FP_SUBNORMAL ? std::copysign(0.0f, v) : v;
}
inline uint64_t out32(float v, bool ftz) {
    if (std::isnan(v)) return kCanonicalNaN32;
    return bits(flush(v, ftz));
}
inline uint64_t out64(double v) { return std::isnan(v) ? kCanonicalNaN64 : bits(v); }

// f32 ------------------------------------------------------------------------------------------------
inline uint64_t add32(uint64_t a, uint64_t b, bool ftz) { return out32(flush(f32(a), ftz) + flush(f32(b), ftz), ftz); }
inline uint64_t sub32(uint64_t a, uint64_t b, bool ftz) { return out32(flush(f32(a), ftz) - flush(f32(b), ftz), ftz); }
inline uint64_t mul32(uint64_t a, uint64_t b, bool ftz) { return out32(flush(f32(a), ftz) * flush(f32(b), ftz), ftz); }
inline uint64_t fma32(uint64_t a, uint64_t b, uint64_t c, bool ftz) {
    return out32(std::fma(flush(f32(a), ftz), flush(f32(b), ftz), flush(f32(c), ftz)), ftz);
}
inline uint64_t div32(uint64_t a, uint64_t b, bool ftz) { return out32(flush(f32(a), ftz) / flush(f32(b), ftz), ftz); }
inline uint64_t sqrt32(uint64_t a, bool ftz) { return out32(std::sqrt(flush(f32(a), ftz)), ftz); }
inline uint64_t rcp32(uint64_t a, bool ftz) { return out32(1.0f / flush(f32(a), ftz), ftz); }
inline uint64_t rsqrt32(uint64_t a, bool ftz) { return out32(1.0f / std::sqrt(flush(f32(a), ftz)), ftz); }
inline uint64_t min32(uint64_t a, uint64_t b, bool ftz) {
    float x = flush(f32(a), ftz), y = flush(f32(b), ftz);
    if (std::isnan(x) && std::isnan(y)) return kCanonicalNaN32;
    if (std::isnan(x)) return bits(y);
    if (std::isnan(y)) return bits(x);
    if (x == y) return bits(std::signbit(x) ? x : y);  // min(-0, +0) = -0
    return bits(x < y ? x : y);
}
inline uint64_t max32(uint64_t a, uint64_t b, bool ftz) {
    float x = flush(f32(a), ftz), y = flush(f32(b), ftz);
    if (std::isnan(x) && std::isnan(y)) return kCanonicalNaN32;
    if (std::isnan(x)) return bits(y);
    if (std::isnan(y)) return bits(x);
    if (x == y) return bits(std::signbit(x) ? y : x);
    return bits(x > y ? x : y);
}
inline uint64_t sin32(uint64_t a, bool ftz) { return out32(std::sin(flush(f32(a), ftz)), ftz); }
inline uint64_t cos32(uint64_t a, bool ftz) { return out32(std::cos(flush(f32(a), ftz)), ftz); }
inline uint64_t lg2_32(uint64_t a, bool ftz) { return out32(std::log2(flush(f32(a), ftz)), ftz); }
inline uint64_t ex2_32(uint64_t a, bool ftz) { return out32(std::exp2(flush(f32(a), ftz)), ftz); }
inline uint64_t tanh32(uint64_t a, bool ftz) { return out32(std::tanh(flush(f32(a), ftz)), ftz); }

// f64 ------------------------------------------------------------------------------------------------
inline uint64_t add64(uint64_t a, uint64_t b) { return out64(f64(a) + f64(b)); }
inline uint64_t sub64(uint64_t a, uint64_t b) { return out64(f64(a) - f64(b)); }
inline uint64_t mul64(uint64_t a, uint64_t b) { return out64(f64(a) * f64(b)); }
inline uint64_t fma64(uint64_t a, uint64_t b, uint64_t c) { return out64(std::fma(f64(a), f64(b), f64(c))); }
inline uint64_t div64(uint64_t a, uint64_t b) { return out64(f64(a) / f64(b)); }
inline uint64_t sqrt64(uint64_t a) { return out64(std::sqrt(f64(a))); }
inline uint64_t rcp64(uint64_t a) { return out64(1.0 / f64(a)); }
inline uint64_t rsqrt64(uint64_t a) { return out64(1.0 / std::sqrt(f64(a))); }
inline uint64_t min64(uint64_t a, uint64_t b) {
    double x = f64(a), y = f64(b);
    if (std::isnan(x) && std::isnan(y)) return kCanonicalNaN64;
    if (std::isnan(x)) return b;
    if (std::isnan(y)) return a;
    if (x == y) return std::signbit(x) ? a : b;
    return x < y ? a : b;
}
inline uint64_t max64(uint64_t a, uint64_t b) {
    double x = f64(a), y = f64(b);
    if (std::isnan(x) && std::isnan(y)) return kCanonicalNaN64;
    if (std::isnan(x)) return b;
    if (std::isnan(y)) return a;
    if (x == y) return std::signbit(x) ? b : a;
    return x > y ? a : b;
}

// f16/bf16 <-> f32 (exact widening; narrowing rounds to nearest even) -----------------------------------
inline float half_to_f32(uint16_t h) {
    uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    float v;
    if (exp == 0) v = std::ldexp(static_cast<float>(man), -24);
    else if (exp == 31) v = man ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
    else v = std::ldexp(static_cast<float>(man | 0x400), static_cast<int>(exp) - 25);
    return sign ? -v : v;
}
inline uint16_t f32_to_half(float f) {
    uint32_t x = std::bit_cast<uint32_t>(f);
    uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
    if (std::isnan(f)) return 0x7fff;
    float a = std::fabs(f);
    if (a >= 65520.0f) return sign | 0x7c00;
    if (a < std::ldexp(1.0f, -14)) {  // subnormal half: units of 2^-24, round to nearest even
        float q = std::nearbyint(a * std::ldexp(1.0f, 24));
        return sign | static_cast<uint16_t>(q);
    }
    int e;
    float m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
    float scaled = std::nearbyint(m * 2048.0f);  // 11 significant bits
    if (scaled >= 2048.0f) { scaled /= 2; ++e; }
    uint16_t exp = static_cast<uint16_t>(e - 1 + 15);
    if (exp >= 31) return sign | 0x7c00;
    return sign | static_cast<uint16_t>(exp << 10) | (static_cast<uint16_t>(scaled) & 0x3ff);
}
inline float bf16_to_f32(uint16_t h) { return std::bit_cast<float>(static_cast<uint32_t>(h) << 16); }
inline uint16_t f32_to_bf16(float f) {
    uint32_t x = std::bit_cast<uint32_t>(f);
    if (std::isnan(f)) return 0x7fff;
    uint32_t lsb = (x >> 16) & 1;
    return static_cast<uint16_t>((x + 0x7fff + lsb) >> 16);
}

}  // namespace warpsim::engine::fp
