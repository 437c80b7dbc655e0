// sim/engine/texture_sample.cpp — texel fetching and filtering for tex, and surface addressing for suld/sust:
// pure functions over a texture's descriptor and its bytes (texture.hpp says what the H200 showed).
#include "sim/engine/texture.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace warpsim::engine {

uint32_t TexelFormat::channels() const {
    uint32_t n = 0;
    while (n < 4 && bits[n] != 0) ++n;
    return n;
}

uint32_t TexelFormat::bytes() const {
    return channels() * bits[0] / 8;
}

bool TexelFormat::valid() const {
    const uint32_t n = channels();
    if (n == 0) return false;
    for (uint32_t c = 0; c < 4; ++c)
        if ((c < n) != (bits[c] != 0) || (c < n && bits[c] != bits[0])) return false;
    if (kind == ChannelKind::float_) return bits[0] == 16 || bits[0] == 32;
    return bits[0] == 8 || bits[0] == 16 || bits[0] == 32;
}

namespace {

constexpr int64_t kCoordLimit = int64_t{1} << 40;  // texel positions beyond this all address alike

int64_t floor_div(int64_t num, int64_t den) {
    int64_t q = num / den;
    if ((num % den != 0) && ((num < 0) != (den < 0))) --q;
    return q;
}

float half_to_float(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (man << 13));
    if (exp != 0) return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
    const float v = std::ldexp(static_cast<float>(man), -24);
    return sign ? -v : v;
}

// The raw bits of channel c of the texel at p, sign-extended for signed integers.
int64_t raw_channel(const TexelFormat& f, const uint8_t* p, uint32_t c) {
    const uint32_t bytes = f.bits[0] / 8;
    uint32_t u = 0;
    std::memcpy(&u, p + c * bytes, bytes);  // little-endian, like the GPU
    if (f.kind == ChannelKind::signed_int && bytes < 4) {
        const uint32_t shift = 32 - 8 * bytes;
        return static_cast<int32_t>(u << shift) >> shift;
    }
    return f.kind == ChannelKind::signed_int ? int64_t{static_cast<int32_t>(u)} : int64_t{u};
}

// Whether a fetch returns floats: float formats, and 8/16-bit integers read as normalized floats.
bool reads_float(const TextureObject& t) {
    const TexelFormat& f = t.resource.format;
    return f.kind == ChannelKind::float_ || (t.sampler.normalized_float && f.bits[0] <= 16);
}

// One texel channel in the filter's domain: float formats as their value; normalized 8-bit integers widened
// to 16 bits (unsigned: k * 257; signed: the magnitude m as (m << 8) + (m << 1) + (m >> 6), which is
// round(m * 32767 / 127)) and 16-bit ones as they are, later divided by 65535 (signed: by 32767); integers
// read as elements as their value.
struct Tap {
    double value = 0;   // float formats
    int64_t fixed = 0;  // normalized 8/16-bit integers (16-bit scale), element reads
};

enum class Domain : uint8_t { f32_value, f16_value, unorm16, snorm16, element };

Domain domain_of(const TextureObject& t) {
    const TexelFormat& f = t.resource.format;
    if (f.kind == ChannelKind::float_) return f.bits[0] == 32 ? Domain::f32_value : Domain::f16_value;
    if (!reads_float(t)) return Domain::element;
    return f.kind == ChannelKind::unsigned_int ? Domain::unorm16 : Domain::snorm16;
}

int64_t widen_snorm8(int64_t k) {
    const int64_t m = std::min<int64_t>(k < 0 ? -k : k, 127);  // -128 reads as -1, like -127
    const int64_t w = (m << 8) + (m << 1) + (m >> 6);
    return k < 0 ? -w : w;
}

Tap tap_of(const TextureObject& t, Domain d, const uint8_t* p, uint32_t c) {
    const TexelFormat& f = t.resource.format;
    Tap tap;
    if (d == Domain::f32_value) {
        float v;
        std::memcpy(&v, p + 4 * c, 4);
        tap.value = v;
        return tap;
    }
    if (d == Domain::f16_value) {
        uint16_t h;
        std::memcpy(&h, p + 2 * c, 2);
        tap.value = half_to_float(h);
        return tap;
    }
    const int64_t k = raw_channel(f, p, c);
    if (d == Domain::unorm16) tap.fixed = f.bits[0] == 8 ? k * 257 : k;
    if (d == Domain::snorm16) tap.fixed = f.bits[0] == 8 ? widen_snorm8(k) : std::max<int64_t>(k, -32767);
    if (d == Domain::element) tap.fixed = k;
    return tap;
}

// The border colour as a tap: converted to the texel format (normalized formats round to the nearest
// representable value and saturate, as the H200 did for uchar4), integers read as elements truncated.
Tap border_tap(const TextureObject& t, Domain d, uint32_t c) {
    const float b = t.sampler.border[c];
    const double v = std::isnan(b) ? 0.0 : static_cast<double>(b);
    const bool eight = t.resource.format.bits[0] == 8;
    Tap tap;
    switch (d) {
        case Domain::f32_value:
        case Domain::f16_value:
            tap.value = static_cast<double>(b);
            break;
        case Domain::unorm16: {
            const int64_t k = std::llround(std::clamp(v, 0.0, 1.0) * (eight ? 255.0 : 65535.0));
            tap.fixed = eight ? k * 257 : k;
            break;
        }
        case Domain::snorm16: {
            const int64_t k = std::llround(std::clamp(v, -1.0, 1.0) * (eight ? 127.0 : 32767.0));
            tap.fixed = eight ? widen_snorm8(k) : k;
            break;
        }
        case Domain::element:
            tap.fixed = static_cast<int64_t>(std::clamp(v, -2147483648.0, 4294967295.0));
            break;
    }
    return tap;
}

uint32_t float_word(float f) {
    return std::bit_cast<uint32_t>(f);
}

// v rounded to the nearest half-precision value (ties to even), as a float: what a half texture's filter
// returns on the H200 (half.linear.clamp).
float round_to_half(double v) {
    if (!std::isfinite(v) || v == 0) return static_cast<float>(v);
    const double a = std::fabs(v);
    int e = 0;
    std::frexp(a, &e);                          // a = f * 2^e, f in [0.5, 1)
    const int quantum = std::max(e - 11, -24);  // 11 significant bits; subnormal step 2^-24
    const double n = std::ldexp(a, -quantum);   // exact
    double whole = std::floor(n);
    const double rest = n - whole;
    if (rest > 0.5 || (rest == 0.5 && std::fmod(whole, 2.0) != 0)) whole += 1;
    double r = std::ldexp(whole, quantum);
    if (r > 65504.0) r = std::numeric_limits<double>::infinity();
    return static_cast<float>(v < 0 ? -r : r);
}

// v rounded to the nearest f32, halfway cases away from zero: the H200 filtered 0.37f weighed 144/256
// (halfway between two floats) to the upper one (layered1d.float.linear.clamp, and one layered2d fetch).
float round_half_away(double v) {
    const float f = static_cast<float>(v);  // nearest, ties to even
    if (!std::isfinite(f) || static_cast<double>(f) == v) return f;
    const float away = std::nextafter(
        f, v > 0 ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity());
    const bool tie = std::fabs(static_cast<double>(away) - v) == std::fabs(v - static_cast<double>(f));
    return tie && std::fabs(away) > std::fabs(f) ? away : f;
}

// The word a tap (or a filtered sum of taps in 1/256 units, `scale` 256) reads as.
uint32_t word_of(Domain d, const Tap& tap, int64_t scale) {
    switch (d) {
        case Domain::f32_value:
            return float_word(round_half_away(tap.value / static_cast<double>(scale)));
        case Domain::f16_value:
            return float_word(scale == 1 ? static_cast<float>(tap.value)
                                         : round_to_half(tap.value / static_cast<double>(scale)));
        case Domain::unorm16: {
            const int64_t u = floor_div(2 * tap.fixed + scale, 2 * scale);  // nearest, ties up
            return float_word(static_cast<float>(u) / 65535.0f);
        }
        case Domain::snorm16: {
            const int64_t s = floor_div(2 * tap.fixed + scale, 2 * scale);
            return float_word(std::max(static_cast<float>(s) / 32767.0f, -1.0f));
        }
        case Domain::element:
            return static_cast<uint32_t>(tap.fixed / scale);
    }
    return 0;
}

const uint8_t* texel_at(const TextureResource& r, const uint8_t* texels, int64_t x, int64_t y) {
    return texels + static_cast<uint64_t>(y) * r.pitch + static_cast<uint64_t>(x) * r.format.bytes();
}

}  // namespace

int64_t address_texel(int64_t i, uint64_t n, TextureAddressMode mode, bool normalized_coords) {
    const auto N = static_cast<int64_t>(n);
    if (N <= 0) return -1;
    if (!normalized_coords && (mode == TextureAddressMode::wrap || mode == TextureAddressMode::mirror))
        mode = TextureAddressMode::clamp;
    switch (mode) {
        case TextureAddressMode::wrap:
            return ((i % N) + N) % N;
        case TextureAddressMode::mirror: {
            const int64_t p = ((i % (2 * N)) + 2 * N) % (2 * N);
            return p < N ? p : 2 * N - 1 - p;
        }
        case TextureAddressMode::border:
            return i < 0 || i >= N ? -1 : i;
        case TextureAddressMode::clamp:
            break;
    }
    return std::clamp<int64_t>(i, 0, N - 1);
}

int64_t fixed_position(float coord, uint64_t n, bool normalized_coords, bool linear) {
    const double c = std::isnan(coord) ? 0.0 : static_cast<double>(coord);
    if (!normalized_coords) {
        const double x = std::clamp(c, -static_cast<double>(kCoordLimit), static_cast<double>(kCoordLimit));
        if (!linear) return static_cast<int64_t>(std::floor(x)) * 256;
        const float shifted = static_cast<float>(x) - 0.5f;  // in f32, as the H200's results show
        return static_cast<int64_t>(std::floor(static_cast<double>(shifted) * 256.0 + 0.5));
    }
    // Far outside [0, 1) every address mode repeats with period 2 (wrap 1, mirror 2) or stays on its side
    // (clamp, border): c moves to 16 + (c mod 2) on its side, which keeps q * n in 64 bits below.
    double u = c;
    if (std::fabs(u) > 16.0) u = std::copysign(16.0, u) + std::fmod(u, 2.0);
    // u truncated to kNormalizedCoordBits fractional bits, then scaled by n exactly: q * n / 2^bits texels.
    constexpr int64_t one = int64_t{1} << kNormalizedCoordBits;
    const auto q = static_cast<int64_t>(std::floor(u * static_cast<double>(one)));
    const int64_t scaled = q * static_cast<int64_t>(std::min<uint64_t>(n, uint64_t{1} << 27));
    if (!linear) return floor_div(scaled, one) * 256;
    // round((q * n / 2^bits - 0.5) * 256) = floor((q * n - 2^(bits-1) + 2^(bits-9)) / 2^(bits-8))
    return floor_div(scaled - one / 2 + one / 512, one / 256);
}

uint64_t layer_slice(const TextureResource& r, uint32_t layer) {
    if (r.layers == 0) return 0;
    return std::min<uint64_t>(layer, r.layers - 1);
}

namespace {

// The taps of one fetch: texel (i, j, k) after the address modes (k: the slice of a 3D fetch, always 0
// otherwise) in the layer of a layered fetch, or the border colour.
struct Taps {
    const TextureObject& t;
    const uint8_t* texels;
    Domain d;
    uint64_t first_slice;  // the layer of a layered fetch, else 0
    Tap at(int64_t i, int64_t j, int64_t k, uint32_t c) const {
        const TextureResource& r = t.resource;
        const TextureSampler& s = t.sampler;
        const int64_t ax = address_texel(i, r.width, s.address[0], s.normalized_coords);
        const int64_t ay = address_texel(j, r.height, s.address[1], s.normalized_coords);
        const int64_t az = address_texel(k, r.depth, s.address[2], s.normalized_coords);
        if (ax < 0 || ay < 0 || az < 0) return border_tap(t, d, c);
        const uint64_t slice = first_slice + static_cast<uint64_t>(az);
        return tap_of(t, d, texel_at(r, texels + slice * r.slice_pitch(), ax, ay), c);
    }
};

}  // namespace

TexelWords sample(const TextureObject& t, const uint8_t* texels, const TexCoords& c) {
    const TextureResource& r = t.resource;
    const TextureSampler& s = t.sampler;
    const Domain d = domain_of(t);
    const uint32_t channels = r.format.channels();
    const bool linear = s.filter == TextureFilter::linear && reads_float(t);
    const std::array<uint64_t, 3> extent{r.width, r.height, r.depth};
    std::array<int64_t, 3> pos{0, 0, 0};  // 1/256 texel units; axes beyond dims stay on texel 0
    for (uint32_t a = 0; a < c.dims; ++a)
        pos[a] = fixed_position(c.at[a], extent[a], s.normalized_coords, linear);
    const Taps taps{t, texels, d, layer_slice(r, c.layer)};
    const int64_t i = pos[0] >> 8, j = pos[1] >> 8, k = pos[2] >> 8;  // arithmetic shifts: floor
    TexelWords out{0, 0, 0, 0};
    if (!linear) {
        for (uint32_t ch = 0; ch < channels; ++ch) out[ch] = word_of(d, taps.at(i, j, k, ch), 1);
        return out;
    }
    // Weights in 1/256 units, which always sum to 256. Two axes: the corner product rounded to nearest
    // (ties up), the others from it. Three: the same over x and z, then each of those four split along y,
    // the part of the far row rounded to nearest (ties up) and the near row taking the rest.
    const int64_t a = pos[0] & 255, b = pos[1] & 255, cz = pos[2] & 255;
    std::array<int64_t, 8> w{};  // index dx + 2 dy + 4 dz
    if (c.dims == 3) {
        const int64_t c11 = (a * cz + 128) >> 8;
        const std::array<int64_t, 4> xz{256 - a - cz + c11, a - c11, cz - c11, c11};  // dx + 2 dz
        for (int n = 0; n < 4; ++n) {
            const int64_t far = (xz[n] * b + 128) >> 8, dx = n & 1, dz = n >> 1;
            w[dx + 4 * dz] = xz[n] - far;
            w[dx + 2 + 4 * dz] = far;
        }
    } else {
        const int64_t w11 = (a * b + 128) >> 8;
        w = {256 - a - b + w11, a - w11, b - w11, w11, 0, 0, 0, 0};
    }
    const int64_t slices = c.dims == 3 ? 2 : 1;
    for (uint32_t ch = 0; ch < channels; ++ch) {
        Tap sum;
        for (int64_t n = 0; n < 4 * slices; ++n) {
            const Tap tn = taps.at(i + (n & 1), j + ((n >> 1) & 1), k + (n >> 2), ch);
            // Each product of a 9-bit weight and an f32 is exact in a double, and so is their sum for texels
            // of one texture (their exponents stay close); it is rounded once, in word_of.
            sum.value += static_cast<double>(w[n]) * tn.value;
            sum.fixed += w[n] * tn.fixed;
        }
        out[ch] = word_of(d, sum, 256);
    }
    return out;
}

TexelWords sample_2d(const TextureObject& t, const uint8_t* texels, float x, float y) {
    TexCoords c;
    c.at = {x, y, 0.5f};
    return sample(t, texels, c);
}

TexelWords gather(const TextureObject& t, const uint8_t* texels, const TexCoords& c, uint32_t comp) {
    const TextureResource& r = t.resource;
    const TextureSampler& s = t.sampler;
    const Domain d = domain_of(t);
    TexelWords out{0, 0, 0, 0};
    if (comp >= r.format.channels()) return out;
    const int64_t px = fixed_position(c.at[0], r.width, s.normalized_coords, true);
    const int64_t py = fixed_position(c.at[1], r.height, s.normalized_coords, true);
    const Taps taps{t, texels, d, layer_slice(r, c.layer)};
    const int64_t i = px >> 8, j = py >> 8;
    const int64_t xs[4] = {i, i + 1, i + 1, i}, ys[4] = {j + 1, j + 1, j, j};
    for (int n = 0; n < 4; ++n) out[n] = word_of(d, taps.at(xs[n], ys[n], 0, comp), 1);
    return out;
}

TexelWords fetch_1d(const TextureObject& t, const uint8_t* texels, int32_t index) {
    TexelWords out{0, 0, 0, 0};
    const TextureResource& r = t.resource;
    if (index < 0 || static_cast<uint64_t>(index) >= r.width) return out;
    const Domain d = domain_of(t);
    const uint8_t* p = texel_at(r, texels, index, 0);
    for (uint32_t c = 0; c < r.format.channels(); ++c) out[c] = word_of(d, tap_of(t, d, p, c), 1);
    return out;
}

int64_t surface_offset(const TextureResource& r, int64_t x_bytes, int64_t y, int64_t z, uint32_t bytes,
                       SurfaceBoundary mode) {
    const auto row_bytes = static_cast<int64_t>(r.width * r.format.bytes());
    const auto rows = static_cast<int64_t>(r.height);
    const auto slices = static_cast<int64_t>(r.slices());
    if (row_bytes < static_cast<int64_t>(bytes) || rows <= 0 || slices <= 0) return -1;
    const bool inside =
        x_bytes >= 0 && x_bytes + bytes <= row_bytes && y >= 0 && y < rows && z >= 0 && z < slices;
    if (!inside) {
        if (mode != SurfaceBoundary::clamp) return -1;
        x_bytes = std::clamp<int64_t>(x_bytes, 0, row_bytes - bytes);
        y = std::clamp<int64_t>(y, 0, rows - 1);
        z = std::clamp<int64_t>(z, 0, slices - 1);
    }
    return z * static_cast<int64_t>(r.slice_pitch()) + y * static_cast<int64_t>(r.pitch) + x_bytes;
}

}  // namespace warpsim::engine
