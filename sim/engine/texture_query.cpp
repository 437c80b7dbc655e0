// sim/engine/texture_query.cpp — what txq and suq return for a texture or surface object, and the
// conversions of sust.p (formatted surface stores): pure functions over the descriptors of texture.hpp.
#include "sim/engine/texture.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace warpsim::engine {

namespace {

struct QueryName {
    std::string_view name;
    TextureQuery query;
    bool txq, suq;
};

constexpr QueryName kQueries[] = {
    {"width", TextureQuery::width, true, true},
    {"height", TextureQuery::height, true, true},
    {"depth", TextureQuery::depth, true, true},
    {"normalized_coords", TextureQuery::normalized_coords, true, false},
    {"array_size", TextureQuery::array_size, true, true},
    {"num_mipmap_levels", TextureQuery::num_mipmap_levels, true, false},
    {"num_samples", TextureQuery::num_samples, true, false},
    {"filter_mode", TextureQuery::filter_mode, true, false},
    {"addr_mode_0", TextureQuery::addr_mode_0, true, false},
    {"addr_mode_1", TextureQuery::addr_mode_1, true, false},
    {"addr_mode_2", TextureQuery::addr_mode_2, true, false},
    {"memory_layout", TextureQuery::memory_layout, false, true},
};

// The PTX ISA's address-mode enumeration { wrap, mirror, clamp_ogl, clamp_to_edge, clamp_to_border }.
uint32_t address_mode_number(TextureAddressMode m) {
    switch (m) {
        case TextureAddressMode::wrap:
            return 0;
        case TextureAddressMode::mirror:
            return 1;
        case TextureAddressMode::clamp:
            return 3;
        case TextureAddressMode::border:
            return 4;
    }
    return 0;
}

// Extent queries, shared by txq and suq.
uint32_t extent_query(const TextureResource& r, TextureQuery q) {
    switch (q) {
        case TextureQuery::width:
            return static_cast<uint32_t>(r.width);
        case TextureQuery::height:
            return static_cast<uint32_t>(r.height);
        case TextureQuery::depth:
            return static_cast<uint32_t>(r.depth);
        case TextureQuery::array_size:
            return static_cast<uint32_t>(r.layers);
        default:
            return 0;
    }
}

}  // namespace

std::optional<TextureQuery> texture_query_named(std::string_view name, bool texture) {
    for (const QueryName& q : kQueries)
        if (q.name == name && (texture ? q.txq : q.suq)) return q.query;
    return std::nullopt;
}

uint32_t texture_query(const TextureObject& t, TextureQuery q) {
    const TextureSampler& s = t.sampler;
    switch (q) {
        case TextureQuery::normalized_coords:
            return s.normalized_coords ? 1 : 0;
        case TextureQuery::filter_mode:
            return s.filter == TextureFilter::linear ? 1 : 0;
        case TextureQuery::addr_mode_0:
            return address_mode_number(s.address[0]);
        case TextureQuery::addr_mode_1:
            return address_mode_number(s.address[1]);
        case TextureQuery::addr_mode_2:
            return address_mode_number(s.address[2]);
        case TextureQuery::num_mipmap_levels:
        case TextureQuery::num_samples:
            return 0;
        default:
            return extent_query(t.resource, q);
    }
}

uint32_t surface_query(const TextureResource& r, TextureQuery q) {
    if (q == TextureQuery::memory_layout) return r.kind == TextureResource::Kind::array ? 0 : 1;
    return extent_query(r, q);
}

namespace {

// f32 to f16 rounded toward zero, as the H200's sust.p did (0.999 -> 0x3bfd, -0.3 -> 0xb4cc, 1e-5 -> 0x00a7,
// 100000 -> 0x7bff): finite values beyond the range give the largest half, infinities stay, NaN is 0x7e00.
uint16_t float_to_half_toward_zero(float f) {
    const uint32_t u = std::bit_cast<uint32_t>(f);
    const auto sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
    const uint32_t exp = (u >> 23) & 0xff, man = u & 0x7fffffu;
    if (exp == 0xff) return man ? uint16_t{0x7e00} : static_cast<uint16_t>(sign | 0x7c00u);
    const int e = static_cast<int>(exp) - 127 + 15;  // the half's biased exponent
    if (e >= 31) return static_cast<uint16_t>(sign | 0x7bffu);
    if (e > 0) return static_cast<uint16_t>(sign | (static_cast<uint32_t>(e) << 10) | (man >> 13));
    const int shift = 14 - e;  // subnormal half: the significand with its implicit bit, shifted
    if (exp == 0 || shift > 24) return sign;
    return static_cast<uint16_t>(sign | ((man | 0x800000u) >> shift));
}

}  // namespace

void store_formatted(const TexelFormat& f, const std::array<uint32_t, 4>& values, uint32_t count,
                     uint8_t* dst) {
    const uint32_t bytes = f.bits[0] / 8;
    const uint32_t n = std::min(count, f.channels());
    for (uint32_t c = 0; c < n; ++c) {
        const uint32_t v = values[c];
        uint8_t* p = dst + c * bytes;
        if (f.kind == ChannelKind::float_) {
            if (bytes == 4) {
                std::memcpy(p, &v, 4);
            } else {
                const uint16_t h = float_to_half_toward_zero(std::bit_cast<float>(v));
                std::memcpy(p, &h, 2);
            }
            continue;
        }
        // Integers saturate to the channel's range (300 -> 255 in an unsigned 8-bit channel, 0x80000000 ->
        // -128 in a signed one: sust.p.uchar4 and sust.p.char2 on the H200).
        uint32_t stored = v;
        if (f.kind == ChannelKind::unsigned_int && bytes < 4)
            stored = std::min<uint32_t>(v, (1u << (8 * bytes)) - 1);
        if (f.kind == ChannelKind::signed_int && bytes < 4) {
            const int32_t hi = (1 << (8 * bytes - 1)) - 1;
            stored = static_cast<uint32_t>(std::clamp(static_cast<int32_t>(v), -hi - 1, hi));
        }
        std::memcpy(p, &stored, bytes);  // little-endian
    }
}

}  // namespace warpsim::engine
