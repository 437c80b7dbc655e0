// tests/engine/test_texture.cpp — texture fetching, filtering and addressing (texture_sample.cpp) against
// values worked out by hand from the rules texture.hpp states, and tex/suld/sust run by the engine. The
// rules themselves were read off the H200 (tests/programs/textures.cu, tests/hardware/programs/h200); where a
// case below repeats one of the H200's fetches, the comment gives the bits it returned.
#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <vector>

#include "sim/engine/texture.hpp"
#include "tests/engine/engine_harness.hpp"

using namespace warpsim;
using engine::TextureAddressMode;

namespace {

engine::TextureObject float_texture(uint64_t w, uint64_t h, bool linear) {
    engine::TextureObject t;
    t.resource.format.bits = {32, 0, 0, 0};
    t.resource.format.kind = engine::ChannelKind::float_;
    t.resource.width = w;
    t.resource.height = h;
    t.resource.pitch = w * 4;
    t.sampler.filter = linear ? engine::TextureFilter::linear : engine::TextureFilter::point;
    return t;
}

float f(uint32_t w) {
    return std::bit_cast<float>(w);
}

const uint8_t* bytes_of(const std::vector<float>& v) {
    return reinterpret_cast<const uint8_t*>(v.data());
}

}  // namespace

TEST_CASE("texel addressing in each mode", "[texture]") {
    using engine::address_texel;
    CHECK(address_texel(-1, 5, TextureAddressMode::clamp, true) == 0);
    CHECK(address_texel(7, 5, TextureAddressMode::clamp, true) == 4);
    CHECK(address_texel(-1, 5, TextureAddressMode::wrap, true) == 4);
    CHECK(address_texel(12, 5, TextureAddressMode::wrap, true) == 2);
    CHECK(address_texel(5, 5, TextureAddressMode::mirror, true) == 4);   // 2n-1-i
    CHECK(address_texel(-1, 5, TextureAddressMode::mirror, true) == 0);  // -1 -> 9 -> 0
    CHECK(address_texel(11, 5, TextureAddressMode::mirror, true) == 1);  // 11 mod 10 = 1
    CHECK(address_texel(-1, 5, TextureAddressMode::border, true) == -1);
    CHECK(address_texel(5, 5, TextureAddressMode::border, false) == -1);
    CHECK(address_texel(4, 5, TextureAddressMode::border, false) == 4);
    // Unnormalized coordinates: wrap and mirror act as clamp (the H200's wrap_unnormalized run equals clamp).
    CHECK(address_texel(-1, 5, TextureAddressMode::wrap, false) == 0);
    CHECK(address_texel(9, 5, TextureAddressMode::mirror, false) == 4);
}

TEST_CASE("positions in 1/256 texel units", "[texture]") {
    using engine::fixed_position;
    CHECK(fixed_position(2.6f, 5, false, false) == 2 * 256);
    CHECK(fixed_position(-0.7f, 5, false, false) == -256);
    // Linear: (2.6f - 0.5f) = 2.0999999 in f32, * 256 = 537.59998, to nearest: 538 (texel 2, a = 26).
    CHECK(fixed_position(2.6f, 5, false, true) == 538);
    CHECK(fixed_position(0.5f, 5, false, true) == 0);
    CHECK(fixed_position(0.0f, 5, false, true) == -128);
    // Normalized: 0.5 of 4 texels is 2.0, less 0.5 for linear: 1.5 -> 384.
    CHECK(fixed_position(0.5f, 4, true, true) == 384);
    // 0.2f = 0x3e4ccccd = 13421773 * 2^-26; truncated to 21 bits: 419430 * 2^-21; * 5 = 2097150 * 2^-21,
    // just below 1: texel 0 (the H200 picked texel 0 at u = 0.2f on 5 texels).
    CHECK(fixed_position(0.2f, 5, true, false) == 0);
    CHECK(fixed_position(0.25f, 4, true, false) == 256);
    CHECK(fixed_position(std::bit_cast<float>(0x7fc00000u), 5, false, false) == 0);  // NaN: as 0
}

TEST_CASE("linear filtering weights in 1/256 with a rounded corner", "[texture]") {
    // 2x2 texels; a = 0.5625 (144/256), b = 0.03125 (8/256) at x = 1.0625, y = 0.53125. Corner weight
    // w11 = round(144 * 8 / 256 = 4.5) = 5, w10 = 144 - 5 = 139, w01 = 8 - 5 = 3, w00 = 256 - 144 - 8 + 5 =
    // 109.
    auto t = float_texture(2, 2, true);
    auto sample = [&](std::vector<float> texels) {
        return f(engine::sample_2d(t, bytes_of(texels), 1.0625f, 0.53125f)[0]);
    };
    CHECK(sample({256, 0, 0, 0}) == 109.0f);
    CHECK(sample({0, 256, 0, 0}) == 139.0f);
    CHECK(sample({0, 0, 256, 0}) == 3.0f);
    CHECK(sample({0, 0, 0, 256}) == 5.0f);
    // Centre of four texels: each weight 64.
    const std::vector<float> quad{0, 1, 2, 3};
    CHECK(f(engine::sample_2d(t, bytes_of(quad), 1.0f, 1.0f)[0]) == 1.5f);
    // A texel centre reads the texel; the channels a one-channel format lacks read 0 (w too).
    const auto words = engine::sample_2d(t, bytes_of(quad), 1.5f, 0.5f);
    CHECK(f(words[0]) == 1.0f);
    CHECK(words[1] == 0);
    CHECK(words[3] == 0);
}

TEST_CASE("border colour and clamp around a float texture", "[texture]") {
    auto t = float_texture(2, 2, true);
    t.sampler.address = {TextureAddressMode::border, TextureAddressMode::border, TextureAddressMode::border};
    t.sampler.border = {8.0f, 0, 0, 0};
    const std::vector<float> texels{16, 16, 16, 16};
    // x = 0.25: xb = -0.25 -> -64: texel -1 (border) with weight 1 - 0.75 = 64/256, texel 0 with 192/256.
    CHECK(f(engine::sample_2d(t, bytes_of(texels), 0.25f, 1.0f)[0]) == 8.0f * 0.25f + 16.0f * 0.75f);
    t.sampler.address = {TextureAddressMode::clamp, TextureAddressMode::clamp, TextureAddressMode::clamp};
    CHECK(f(engine::sample_2d(t, bytes_of(texels), -3.0f, 9.0f)[0]) == 16.0f);
}

TEST_CASE("normalized 8-bit texels filter at 16 bits", "[texture]") {
    engine::TextureObject t;
    t.resource.format.bits = {8, 8, 8, 8};
    t.resource.format.kind = engine::ChannelKind::unsigned_int;
    t.resource.width = 2;
    t.resource.height = 2;
    t.resource.pitch = 8;
    t.sampler.filter = engine::TextureFilter::linear;
    t.sampler.normalized_float = true;
    // w channel 0, 0, 0, 23 at the centre: 23 * 257 * 64 / 256 = 1477.75 -> 1478; 1478 / 65535.
    // The H200 returned 0x3cb8c0b9 for this fetch (uchar4.linear.clamp at (1, 1)).
    const uint8_t texels[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 23};
    const auto w = engine::sample_2d(t, texels, 1.0f, 1.0f);
    CHECK(w[3] == std::bit_cast<uint32_t>(1478.0f / 65535.0f));
    CHECK(w[3] == 0x3cb8c0b9u);
    // Point sampling reads k / 255; a border colour becomes the nearest texel value, saturated
    // (the H200: {0.25, -2.5, 0.75, 1} read back as 64/255, 0, 191/255, 1).
    t.sampler.filter = engine::TextureFilter::point;
    t.sampler.address = {TextureAddressMode::border, TextureAddressMode::border, TextureAddressMode::border};
    t.sampler.border = {0.25f, -2.5f, 0.75f, 1.0f};
    const auto b = engine::sample_2d(t, texels, 5.5f, 1.0f);
    CHECK(b[0] == 0x3e808081u);
    CHECK(b[1] == 0u);
    CHECK(b[2] == 0x3f3fbfc0u);
    CHECK(b[3] == 0x3f800000u);
    // Element reads return the integers.
    t.sampler.normalized_float = false;
    CHECK(engine::sample_2d(t, texels, 1.5f, 1.5f)[3] == 23u);
}

TEST_CASE("8-bit signed normalized texels widen to 16 bits, half texels filter to half", "[texture]") {
    engine::TextureObject t;
    t.resource.format.bits = {8, 0, 0, 0};
    t.resource.format.kind = engine::ChannelKind::signed_int;
    t.resource.width = 2;
    t.resource.height = 1;
    t.resource.pitch = 2;
    t.sampler.filter = engine::TextureFilter::linear;
    t.sampler.normalized_float = true;
    // -100: magnitude (100 << 8) + (100 << 1) + (100 >> 6) = 25801; -25801 / 32767. The H200 returned
    // 0xbf499393 for this texel (char.linear.clamp at (0.5, 0.5)).
    const uint8_t s8[2] = {static_cast<uint8_t>(-100), 127};
    CHECK(engine::sample_2d(t, s8, 0.5f, 0.5f)[0] == std::bit_cast<uint32_t>(-25801.0f / 32767.0f));
    CHECK(engine::sample_2d(t, s8, 0.5f, 0.5f)[0] == 0xbf499393u);
    CHECK(engine::sample_2d(t, s8, 1.5f, 0.5f)[0] == 0x3f800000u);  // 127: 32767 / 32767
    // Half texels 1 and 1 + 2^-10 (neighbouring halves): halfway (a = 128) is a tie, to even: 1;
    // a = 192 gives 1 + 0.75 * 2^-10, nearest half 1 + 2^-10.
    engine::TextureObject h;
    h.resource.format.bits = {16, 0, 0, 0};
    h.resource.format.kind = engine::ChannelKind::float_;
    h.resource.width = 2;
    h.resource.height = 1;
    h.resource.pitch = 4;
    h.sampler.filter = engine::TextureFilter::linear;
    const uint16_t halves[2] = {0x3c00, 0x3c01};
    const auto* hb = reinterpret_cast<const uint8_t*>(halves);
    CHECK(f(engine::sample_2d(h, hb, 1.0f, 0.5f)[0]) == 1.0f);
    CHECK(f(engine::sample_2d(h, hb, 1.25f, 0.5f)[0]) == 1.0f + 1.0f / 1024);
    CHECK(f(engine::sample_2d(h, hb, 1.5f, 0.5f)[0]) == 1.0f + 1.0f / 1024);  // the texel itself
}

TEST_CASE("tex1Dfetch reads 0 outside the buffer", "[texture]") {
    auto t = float_texture(3, 1, false);
    const std::vector<float> texels{1.5f, 2.5f, 3.5f};
    CHECK(f(engine::fetch_1d(t, bytes_of(texels), 2)[0]) == 3.5f);
    CHECK(engine::fetch_1d(t, bytes_of(texels), 3)[0] == 0u);
    CHECK(engine::fetch_1d(t, bytes_of(texels), -1)[0] == 0u);
}

TEST_CASE("surface boundaries: clamp to the nearest element, zero and trap give no offset", "[texture]") {
    engine::TextureResource r;
    r.format.bits = {32, 0, 0, 0};
    r.width = 5;
    r.height = 4;
    r.pitch = 20;
    using engine::SurfaceBoundary;
    CHECK(engine::surface_offset(r, 8, 1, 4, SurfaceBoundary::trap) == 28);
    CHECK(engine::surface_offset(r, -8, -1, 4, SurfaceBoundary::clamp) == 0);
    CHECK(engine::surface_offset(r, 24, 5, 4, SurfaceBoundary::clamp) == 3 * 20 + 16);
    CHECK(engine::surface_offset(r, 20, 0, 4, SurfaceBoundary::zero) == -1);
    CHECK(engine::surface_offset(r, 18, 0, 4, SurfaceBoundary::trap) == -1);  // crosses the row's end
}

namespace {

constexpr const char* kTexturePtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry tex_and_surf(.param .u64 tex, .param .u64 surf, .param .u64 out, .param .u32 sx)
{
    .reg .b64 %rd<5>;
    .reg .f32 %f<8>;
    .reg .b32 %r<8>;
    ld.param.u64 %rd1, [tex];
    ld.param.u64 %rd2, [surf];
    ld.param.u64 %rd3, [out];
    ld.param.u32 %r5, [sx];
    cvta.to.global.u64 %rd4, %rd3;
    mov.f32 %f1, 0f3F800000;
    tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f1}];
    st.global.f32 [%rd4], %f3;
    mov.b32 %r1, 1;
    tex.1d.v4.f32.s32 {%f3, %f4, %f5, %f6}, [%rd1, {%r1}];
    st.global.f32 [%rd4+4], %f3;
    mov.b32 %r2, 0x12345678;
    sust.b.2d.b32.trap [%rd2, {%r5, %r1}], {%r2};
    suld.b.2d.b32.clamp {%r3}, [%rd2, {%r5, %r1}];
    st.global.u32 [%rd4+8], %r3;
    mov.b32 %r4, 400;
    suld.b.2d.b32.zero {%r3}, [%rd2, {%r4, %r1}];
    st.global.u32 [%rd4+12], %r3;
    ret;
}
)";

}  // namespace

TEST_CASE("tex, sust and suld in a kernel", "[texture]") {
    const auto k = test::parse(kTexturePtx);
    INFO(k.diagnostics);
    const ir::Function* fn = k.find("tex_and_surf");
    REQUIRE(fn);
    engine::Simulator sim;
    const std::vector<float> quad{0, 1, 2, 3};
    const uint64_t texels = test::upload(sim, quad);
    const uint64_t surface = test::upload(sim, std::vector<uint32_t>(8, 0));  // 4 x 2 elements
    const uint64_t out = test::upload(sim, std::vector<uint32_t>(4, 0xffffffffu));
    engine::TextureTable table;
    auto t = float_texture(2, 2, true);
    t.resource.base = texels;
    table.textures[1] = t;
    engine::TextureResource s;
    s.base = surface;
    s.format.bits = {32, 0, 0, 0};
    s.width = 4;
    s.height = 2;
    s.pitch = 16;
    table.surfaces[2] = s;
    auto cfg = test::config({1, 1, 1}, {1, 1, 1});
    cfg.textures = &table;
    auto run = [&](uint32_t sx) {
        test::Params p;
        p.add(uint64_t{1}).add(uint64_t{2}).add(out).add(sx);
        return sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr);
    };
    auto r = run(8);
    INFO((r.error ? r.error->details : std::string()));
    REQUIRE(r.ok());
    const auto got = test::download<uint32_t>(sim, out, 4);
    CHECK(f(got[0]) == 1.5f);  // the centre of the four texels
    CHECK(f(got[1]) == 1.0f);  // tex.1d with an integer coordinate: texel 1 of the first row
    CHECK(got[2] == 0x12345678u);
    CHECK(got[3] == 0u);                                                 // .zero outside the surface
    CHECK(test::download<uint32_t>(sim, surface, 8)[6] == 0x12345678u);  // row 1, byte 8
    // One element past the row in .trap mode: an illegal address, as on the H200 (textures_trap).
    auto bad = run(16);
    REQUIRE(bad.error);
    CHECK(bad.error->name == "cudaErrorIllegalAddress");
    CHECK(bad.error->details.find("Invalid surface write of size 4 bytes at byte x 16, row 1") !=
          std::string::npos);
    // A handle the table does not hold stops the launch with a message.
    cfg.textures = nullptr;
    auto none = run(8);
    REQUIRE(none.error);
    CHECK(none.error->details.find("no texture object of this launch") != std::string::npos);
}
