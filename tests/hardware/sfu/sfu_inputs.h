// tests/hardware/sfu/sfu_inputs.h — the deterministic inputs of the SFU/arithmetic sweep, shared by
// sfu_sweep.cu (which runs them on the GPU) and tests/arith (which runs the model on the same inputs).
// Plain C++17, host only: the sweep program generates inputs on the host and copies them to the GPU.
// The formula is documented in README.md next to this file; change it only together with a new data file.
#pragma once

#include <cstdint>

namespace sfu {

// Input kinds: how operand k of sample i is produced.
enum InputKind : uint32_t {
    kF32 = 0,         // one f32, specials then all exponents (see f32_input)
    kF32x2 = 1,       // two f32: every pair of specials for i < 4096, then streams 0 and 1
    kF32x3 = 2,       // three f32: special pairs times a rotating special for i < 4096, then streams 0..2
                      // where, for odd i, the addend's exponent is close to the product's (cancellation)
    kB16 = 3,         // one 16-bit pattern: the sample index itself (exhaustive over 65536)
    kF64 = 4,         // one f64, specials then all exponents
    kF64x2 = 5,       // two f64: special pairs for i < 4096, then streams 0 and 1
    kF64x3 = 6,       // three f64: as kF32x3 without the cancellation tweak
    kF16x3 = 7,       // three f16 patterns from the hash
    kF32MulFtz = 8,   // two f32 whose product lies near 2^-126 (the ftz boundary)
    kF32Int = 9,      // one f32 with exponent field 96..191 (|x| in [2^-31, 2^65)) for float->int rounding
};

inline constexpr uint32_t kSampleCount = 65536;      // samples stored per function
inline constexpr uint32_t kLargeLog2 = 24;           // the fingerprint sweep covers 2^24 indices
inline constexpr uint32_t kSpecialCount = 64;
inline constexpr uint32_t kSpecialPairs = kSpecialCount * kSpecialCount;  // 4096

// splitmix64 finaliser: a fixed bijective mix of 64-bit integers.
inline uint64_t mix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

inline uint64_t hash(uint32_t i, uint32_t stream) { return mix64((uint64_t(stream) << 32) | i); }

inline constexpr uint32_t kF32Specials[kSpecialCount] = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x7fffffff,
    0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff,
    0x3f800000, 0xbf800000, 0x3f000000, 0xbf000000, 0x40200000, 0xc0200000, 0x3fc00000, 0xbfc00000,
    0x40000000, 0x477fe000, 0x477ff000, 0x477fef00, 0x4b800000, 0x4f000000, 0xcf000000, 0x4f800000,
    0x5f000000, 0x501502f9, 0x3dcccccd, 0x40490fdb, 0xc0490fdb, 0x40c90fdb, 0x42fe0000, 0x43000000,
    0xc3150000, 0xc3160000, 0xc2fc0000, 0x3f7fffff, 0x3f800001, 0x33800000, 0x38800000, 0x33000000,
    0x337fffff, 0x3f808000, 0x3f818000, 0x7f7f8000, 0x42c80000, 0xc2c80000, 0x3e800000, 0x41200000,
    0x3a83126f, 0x00000002, 0x3effffff, 0xbeffffff, 0x4b000001, 0xcb7fffff, 0x43b40000, 0x447a0000,
};

inline constexpr uint64_t kF64Specials[kSpecialCount] = {
    0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000,
    0x7ff8000000000000, 0xfff8000000001234, 0x7ff0000000000123, 0x7fffffffffffffff,
    0x0000000000000001, 0x8000000000000001, 0x000fffffffffffff, 0x0010000000000000,
    0x7fefffffffffffff, 0xffefffffffffffff, 0x3ff0000000000000, 0xbff0000000000000,
    0x3fe0000000000000, 0x4004000000000000, 0xc004000000000000, 0x4202a05f20000000,
    0x41e0000000000000, 0xc1e0000000000000, 0xc1e0000000200000, 0x43e0000000000000,
    0x43f0000000000000, 0x400921fb54442d18, 0x3fb999999999999a, 0x47efffffe0000000,
    0x47effffff0000000, 0x36a0000000000000, 0x3690000000000000, 0x3690000000000001,
    0x3ff0000010000000, 0x3ff0000030000000, 0x3ff0000008000000, 0x3ff0000008000001,
    0x380fffffe0000000, 0x3810000000000000, 0x41dfffffffc00000, 0x41efffffffe00000,
    0xc3e0000000000000, 0xc3e0000000000001, 0x4330000000000001, 0x4340000000000001,
    0x3fefffffffffffff, 0x3ff0000000000001, 0x7fe0000000000000, 0x0008000000000000,
    0x40f0000000000000, 0x40effc0000000000, 0x40effe0000000000, 0x40effe0000000001,
    0x3e70000000000000, 0x3e6ff00000000000, 0x3f1a36e2eb1c432d, 0xbf1a36e2eb1c432d,
    0x4059000000000000, 0xc059000000000000, 0x3fd0000000000000, 0x4024000000000000,
    0x3fe0000000000001, 0xbfe0000000000001, 0x4000000000000000, 0xc000000000000000,
};

// f32 operand `stream` of sample i: the 64 specials (rotated per stream) for i < 64, otherwise sign from
// the hash, exponent field (i + 97*stream) mod 256 (so every exponent, subnormals, inf and NaN appear
// equally often) and a hashed fraction.
inline uint32_t f32_input(uint32_t i, uint32_t stream) {
    if (i < kSpecialCount) return kF32Specials[(i + 7 * stream) % kSpecialCount];
    const uint64_t h = hash(i, stream);
    const uint32_t exp_field = (i + 97 * stream) & 0xff;
    return uint32_t(h >> 63) << 31 | exp_field << 23 | uint32_t(h & 0x7fffff);
}

inline uint64_t f64_input(uint32_t i, uint32_t stream) {
    if (i < kSpecialCount) return kF64Specials[(i + 7 * stream) % kSpecialCount];
    const uint64_t h = hash(i, stream);
    const uint64_t exp_field = (i + 97 * stream) & 0x7ff;
    return (h >> 63) << 63 | exp_field << 52 | (mix64(h) & 0xfffffffffffffull);
}

inline uint32_t f32_int_input(uint32_t i) {
    if (i < kSpecialCount) return kF32Specials[i];
    const uint64_t h = hash(i, 5);
    const uint32_t exp_field = 96 + (i % 96);
    // A quarter of the samples are exact half-integers (fraction bits below the .5 position zero).
    uint32_t frac = uint32_t(h & 0x7fffff);
    const int32_t half_pos = 23 - (int32_t(exp_field) - 127) - 1;  // bit index of the 0.5 position
    if ((i & 3) == 0 && half_pos > 0 && half_pos < 23) frac &= ~((1u << half_pos) - 1);
    return uint32_t(h >> 63) << 31 | exp_field << 23 | frac;
}

// Every ordered pair of specials (a = specials[i / 64], b = specials[i % 64]), c = specials[(i * 7) % 64].
template <class T>
inline void special_pairs(const T* specials, uint32_t i, uint64_t out[3]) {
    out[0] = specials[i / kSpecialCount];
    out[1] = specials[i % kSpecialCount];
    out[2] = specials[(i * 7) % kSpecialCount];
}

// Operands of sample i for kind `kind`: out[0..2] (unused operands are 0).
inline void inputs(uint32_t kind, uint32_t i, uint64_t out[3]) {
    out[0] = out[1] = out[2] = 0;
    if ((kind == kF32x2 || kind == kF32x3) && i < kSpecialPairs) return special_pairs(kF32Specials, i, out);
    if ((kind == kF64x2 || kind == kF64x3) && i < kSpecialPairs) return special_pairs(kF64Specials, i, out);
    switch (kind) {
        case kF32: out[0] = f32_input(i, 0); break;
        case kF32x2: out[0] = f32_input(i, 0); out[1] = f32_input(i, 1); break;
        case kF32x3: {
            const uint32_t a = f32_input(i, 0), b = f32_input(i, 1);
            uint32_t c = f32_input(i, 2);
            const int32_t ea = int32_t(a >> 23 & 0xff), eb = int32_t(b >> 23 & 0xff);
            const int32_t ep = ea + eb - 127 + int32_t(hash(i, 3) % 3) - 1;
            if ((i & 1) && i >= kSpecialCount && ea && eb && ea < 255 && eb < 255 && ep > 0 && ep < 255)
                c = (((a ^ b) & 0x80000000u) ^ 0x80000000u) | uint32_t(ep) << 23 | uint32_t(hash(i, 4) & 0x7fffff);
            out[0] = a; out[1] = b; out[2] = c;
            break;
        }
        case kB16: out[0] = i & 0xffff; break;
        case kF64: out[0] = f64_input(i, 0); break;
        case kF64x2: out[0] = f64_input(i, 0); out[1] = f64_input(i, 1); break;
        case kF64x3: out[0] = f64_input(i, 0); out[1] = f64_input(i, 1); out[2] = f64_input(i, 2); break;
        case kF16x3:
            out[0] = hash(i, 0) & 0xffff; out[1] = hash(i, 1) & 0xffff; out[2] = hash(i, 2) & 0xffff;
            break;
        case kF32MulFtz: {
            const uint64_t h = hash(i, 6);
            const uint32_t ea = 1 + uint32_t(h % 127);                  // 1..127
            int32_t eb = 128 - int32_t(ea) - int32_t((h >> 8) % 3);     // product exponent near -126
            if (eb < 1) eb = 1;
            uint32_t fa = uint32_t(h >> 16) & 0x7fffff, fb = uint32_t(h >> 40) & 0x7fffff;
            if ((i & 3) == 1) { fa = 0x7fffff - (fa & 0xf); fb = 0; }   // just below a power of two
            out[0] = uint32_t(h >> 63) << 31 | ea << 23 | fa;
            out[1] = uint32_t(eb) << 23 | fb;
            break;
        }
        case kF32Int: out[0] = f32_int_input(i); break;
        default: break;
    }
}

// Number of indices the fingerprint covers for a kind: 2^24, except exhaustive 16-bit inputs (65536).
inline uint32_t large_count(uint32_t kind) { return kind == kB16 ? 65536u : (1u << kLargeLog2); }

// FNV-1a 64 over bytes (the hash DESIGN.md uses for buffers).
inline uint64_t fnv1a_update(uint64_t h, const void* data, uint64_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (uint64_t k = 0; k < n; ++k) h = (h ^ p[k]) * 0x100000001b3ull;
    return h;
}
inline constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ull;

// File layout of sfu_results.bin (little-endian), see README.md.
inline constexpr char kMagic[8] = {'W', 'S', 'S', 'F', 'U', '0', '1', '\0'};
struct FileHeader {
    char magic[8];
    uint32_t version;          // 1
    uint32_t function_count;
    uint32_t sample_count;     // kSampleCount
    uint32_t large_log2;       // kLargeLog2
    uint32_t compute_capability;  // major * 10 + minor
    uint32_t reserved;
    char device_name[64];
};
struct FunctionHeader {
    char name[48];             // the PTX instruction, e.g. "ex2.approx.ftz.f32"
    uint32_t kind;             // InputKind
    uint32_t out_bytes;        // 2, 4 or 8
    uint32_t count;            // samples stored (kSampleCount)
    uint32_t large_count;      // indices hashed
    uint64_t large_fnv1a;      // FNV-1a 64 of the outputs of indices 0 .. large_count-1, out_bytes each
};
static_assert(sizeof(FileHeader) == 96, "layout");
static_assert(sizeof(FunctionHeader) == 72, "layout");

}  // namespace sfu
