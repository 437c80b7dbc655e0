// tests/engine/test_texture_geometry.cpp — 3D and layered textures and surfaces, tld4 (gather), txq/suq,
// sust.p and sured: texture_sample.cpp and texture_query.cpp against values worked out by hand from the
// Programming Guide's formulas and the rules texture.hpp states, and the instructions run by the engine.
#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <vector>

#include "sim/engine/texture.hpp"
#include "tests/engine/engine_harness.hpp"

using namespace warpsim;
using engine::TextureAddressMode;

namespace {

engine::TextureObject float_volume(uint64_t w, uint64_t h, uint64_t d, bool linear) {
    engine::TextureObject t;
    t.resource.format.bits = {32, 0, 0, 0};
    t.resource.format.kind = engine::ChannelKind::float_;
    t.resource.width = w;
    t.resource.height = h;
    t.resource.depth = d;
    t.resource.dimensions = 3;
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

engine::TexCoords at3(float x, float y, float z) {
    engine::TexCoords c;
    c.dims = 3;
    c.at = {x, y, z};
    return c;
}

// A 2 x 2 x 2 volume of value(x, y, z), x fastest.
template <class Value>
std::vector<float> volume(Value value) {
    std::vector<float> v;
    for (int z = 0; z < 2; ++z)
        for (int y = 0; y < 2; ++y)
            for (int x = 0; x < 2; ++x) v.push_back(value(x, y, z));
    return v;
}

}  // namespace

TEST_CASE("3D textures: point sampling picks the texel, trilinear weighs two bilinear slices", "[texture]") {
    const auto linear_values = volume([](int x, int y, int z) { return float(x + 2 * y + 4 * z); });
    auto point = float_volume(2, 2, 2, false);
    CHECK(f(engine::sample(point, bytes_of(linear_values), at3(1.5f, 0.5f, 1.5f))[0]) == 5.0f);  // (1, 0, 1)
    CHECK(f(engine::sample(point, bytes_of(linear_values), at3(0.2f, 1.9f, 7.0f))[0]) == 6.0f);  // clamp z
    auto tri = float_volume(2, 2, 2, true);
    // The centre: every weight 1/8, the mean of 0..7.
    CHECK(f(engine::sample(tri, bytes_of(linear_values), at3(1.0f, 1.0f, 1.0f))[0]) == 3.5f);
    // a = 144, b = 8, c = 64 (z = 0.75). Over x and z: the corner round(144 * 64 / 256 = 36) = 36, then 108,
    // 28 and 256 - 144 - 64 + 36 = 84; split along y by round(w * 8 / 256): 84 -> 81 + 3, 108 -> 105 + 3,
    // 28 -> 27 + 1, 36 -> 35 + 1. Texels 8xy + 4z: 3 * 8 (x 1, y 1, z 0) + (27 + 35 + 1) * 4 + 1 * 12 = 288,
    // / 256 = 1.125, where exact weights give 8 * 0.5625 * 0.03125 + 1 = 1.140625.
    const auto corner = volume([](int x, int y, int z) { return float(8 * x * y + 4 * z); });
    CHECK(f(engine::sample(tri, bytes_of(corner), at3(1.0625f, 0.53125f, 0.75f))[0]) == 1.125f);
    // Border in z: below slice 0 the border colour (0) takes weight 256 - c.
    tri.sampler.address = {TextureAddressMode::border, TextureAddressMode::border,
                           TextureAddressMode::border};
    // z = 0.25: position -64, k = -1, c = 192: over x and z the weights 32, 32 (slice -1, the border colour
    // 0) and 96, 96 (slice 0), each halved along y: slice 0's texels 0..3 weigh 48 each: 48 * 6 / 256
    // = 1.125.
    CHECK(f(engine::sample(tri, bytes_of(linear_values), at3(1.0f, 1.0f, 0.25f))[0]) == 1.125f);
}

TEST_CASE("layered textures sample one layer, the index clamped to the last", "[texture]") {
    // Two layers of 2 x 1 texels: layer 0 holds 1, 2 and layer 1 holds 10, 20.
    const std::vector<float> texels{1, 2, 10, 20};
    engine::TextureObject t = float_volume(2, 1, 1, true);
    t.resource.depth = 1;
    t.resource.layers = 2;
    t.resource.dimensions = 1;
    engine::TexCoords c;
    c.dims = 2;
    c.at = {1.0f, 0.5f, 0.5f};
    c.layer = 1;
    CHECK(f(engine::sample(t, bytes_of(texels), c)[0]) == 15.0f);  // halfway between 10 and 20
    c.layer = 0;
    CHECK(f(engine::sample(t, bytes_of(texels), c)[0]) == 1.5f);
    c.layer = 7;
    CHECK(f(engine::sample(t, bytes_of(texels), c)[0]) == 15.0f);
    CHECK(engine::layer_slice(t.resource, 0xffffffffu) == 1);
    CHECK(t.resource.bytes() == 16);
}

TEST_CASE("tld4 gathers one channel of the bilinear footprint counter-clockwise from the lower left",
          "[texture]") {
    // 3 x 3 texels 10y + x. At (1.25, 1.75): x - 0.5 = 0.75, y - 0.5 = 1.25: i = 0, j = 1, the texels
    // (0, 2), (1, 2), (1, 1), (0, 1).
    std::vector<float> texels;
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 3; ++x) texels.push_back(float(10 * y + x));
    engine::TextureObject t = float_volume(3, 3, 1, true);  // the filter mode plays no part
    t.resource.dimensions = 2;
    engine::TexCoords c;
    c.at = {1.25f, 1.75f, 0.5f};
    auto w = engine::gather(t, bytes_of(texels), c, 0);
    CHECK(f(w[0]) == 20.0f);
    CHECK(f(w[1]) == 21.0f);
    CHECK(f(w[2]) == 11.0f);
    CHECK(f(w[3]) == 10.0f);
    // At (2.9, 0.2): i = 2, j = -1, the taps (2, 0), (3, 0), (3, -1), (2, -1); clamp makes each (2, 0),
    // border gives the border colour for the three outside.
    c.at = {2.9f, 0.2f, 0.5f};
    w = engine::gather(t, bytes_of(texels), c, 0);
    CHECK(w == engine::TexelWords{std::bit_cast<uint32_t>(2.0f), std::bit_cast<uint32_t>(2.0f),
                                  std::bit_cast<uint32_t>(2.0f), std::bit_cast<uint32_t>(2.0f)});
    t.sampler.address = {TextureAddressMode::border, TextureAddressMode::border, TextureAddressMode::border};
    t.sampler.border = {7, 0, 0, 0};
    w = engine::gather(t, bytes_of(texels), c, 0);
    CHECK(f(w[0]) == 2.0f);  // (2, 0)
    CHECK(f(w[1]) == 7.0f);  // (3, 0): border
    CHECK(f(w[2]) == 7.0f);  // (3, -1)
    CHECK(f(w[3]) == 7.0f);  // (2, -1)
    // A channel the format lacks gathers 0.
    CHECK(engine::gather(t, bytes_of(texels), c, 1) == engine::TexelWords{0, 0, 0, 0});
}

TEST_CASE("tld4 of normalized 8-bit texels reads each as a point sample would", "[texture]") {
    // 2 x 2 uchar4 texels, channel 2 holds 0, 51, 102, 255: read as k / 255.
    const std::vector<uint8_t> texels{0, 0, 0, 0, 0, 0, 51, 0, 0, 0, 102, 0, 0, 0, 255, 0};
    engine::TextureObject t;
    t.resource.format.bits = {8, 8, 8, 8};
    t.resource.format.kind = engine::ChannelKind::unsigned_int;
    t.resource.width = 2;
    t.resource.height = 2;
    t.resource.pitch = 8;
    t.sampler.normalized_float = true;
    engine::TexCoords c;
    c.at = {1.0f, 1.0f, 0.5f};
    const auto w = engine::gather(t, texels.data(), c, 2);
    CHECK(f(w[0]) == 102.0f / 255.0f);  // (0, 1)
    CHECK(f(w[1]) == 1.0f);             // (1, 1)
    CHECK(f(w[2]) == 51.0f / 255.0f);   // (1, 0)
    CHECK(f(w[3]) == 0.0f);             // (0, 0)
}

TEST_CASE("surface offsets in 3D and layered surfaces", "[texture]") {
    engine::TextureResource r;
    r.format.bits = {32, 0, 0, 0};
    r.width = 5;
    r.height = 4;
    r.depth = 3;
    r.pitch = 20;
    using engine::SurfaceBoundary;
    CHECK(engine::surface_offset(r, 8, 1, 2, 4, SurfaceBoundary::trap) == 2 * 80 + 20 + 8);
    CHECK(engine::surface_offset(r, 8, 1, 5, 4, SurfaceBoundary::clamp) == 2 * 80 + 20 + 8);
    CHECK(engine::surface_offset(r, -4, 9, -1, 4, SurfaceBoundary::clamp) == 3 * 20);
    CHECK(engine::surface_offset(r, 8, 1, -1, 4, SurfaceBoundary::zero) == -1);
    CHECK(engine::surface_offset(r, 8, 1, 3, 4, SurfaceBoundary::trap) == -1);
    r.depth = 1;
    r.layers = 6;
    CHECK(engine::surface_offset(r, 0, 0, 5, 4, SurfaceBoundary::trap) == 5 * 80);
    CHECK(engine::surface_offset(r, 0, 0, 6, 4, SurfaceBoundary::zero) == -1);
    CHECK(r.bytes() == 6 * 80);
}

TEST_CASE("txq and suq report extents, layers, sampler state and layout", "[texture]") {
    using Q = engine::TextureQuery;
    REQUIRE(engine::texture_query_named("width", true) == Q::width);
    CHECK(engine::texture_query_named("addr_mode_2", true) == Q::addr_mode_2);
    CHECK_FALSE(engine::texture_query_named("memory_layout", true));
    CHECK(engine::texture_query_named("memory_layout", false) == Q::memory_layout);
    CHECK_FALSE(engine::texture_query_named("filter_mode", false));
    CHECK_FALSE(engine::texture_query_named("bogus", true));
    engine::TextureObject t = float_volume(5, 4, 3, true);
    t.sampler.normalized_coords = true;
    t.sampler.address = {TextureAddressMode::wrap, TextureAddressMode::mirror, TextureAddressMode::border};
    CHECK(engine::texture_query(t, Q::width) == 5);
    CHECK(engine::texture_query(t, Q::height) == 4);
    CHECK(engine::texture_query(t, Q::depth) == 3);
    CHECK(engine::texture_query(t, Q::array_size) == 0);
    CHECK(engine::texture_query(t, Q::normalized_coords) == 1);
    CHECK(engine::texture_query(t, Q::filter_mode) == 1);
    // The PTX ISA's enumeration { wrap, mirror, clamp_ogl, clamp_to_edge, clamp_to_border }.
    CHECK(engine::texture_query(t, Q::addr_mode_0) == 0);
    CHECK(engine::texture_query(t, Q::addr_mode_1) == 1);
    CHECK(engine::texture_query(t, Q::addr_mode_2) == 4);
    CHECK(engine::texture_query(t, Q::num_mipmap_levels) == 0);
    CHECK(engine::texture_query(t, Q::num_samples) == 0);
    t.resource.depth = 1;
    t.resource.layers = 6;
    CHECK(engine::surface_query(t.resource, Q::array_size) == 6);
    CHECK(engine::surface_query(t.resource, Q::memory_layout) == 0);  // an array: not linear
}

TEST_CASE("sust.p converts to the surface's format", "[texture]") {
    engine::TexelFormat half4;
    half4.bits = {16, 16, 16, 16};
    half4.kind = engine::ChannelKind::float_;
    std::array<uint16_t, 4> h{0xaaaa, 0xaaaa, 0xaaaa, 0xaaaa};
    // Toward zero, as the H200 stored them: 1, 65504 (the largest half), 65520 and 100000 (beyond it: the
    // largest half), 1e-5 (subnormal: 1e-5 / 2^-24 = 167.77 -> 167), 0.999 (0x3bfd; to nearest 0x3bfe).
    engine::store_formatted(half4,
                            {std::bit_cast<uint32_t>(1.0f), std::bit_cast<uint32_t>(65504.0f),
                             std::bit_cast<uint32_t>(65520.0f), std::bit_cast<uint32_t>(1e-5f)},
                            4, reinterpret_cast<uint8_t*>(h.data()));
    CHECK(h == std::array<uint16_t, 4>{0x3c00, 0x7bff, 0x7bff, 0x00a7});
    engine::store_formatted(half4,
                            {std::bit_cast<uint32_t>(100000.0f), std::bit_cast<uint32_t>(0.999f),
                             std::bit_cast<uint32_t>(-0.3f), 0x7fc00000u},
                            4, reinterpret_cast<uint8_t*>(h.data()));
    CHECK(h == std::array<uint16_t, 4>{0x7bff, 0x3bfd, 0xb4cc, 0x7e00});
    // Two values into four channels: the other two keep their bytes.
    h = {0xaaaa, 0xaaaa, 0xaaaa, 0xaaaa};
    engine::store_formatted(half4, {std::bit_cast<uint32_t>(-2.0f), std::bit_cast<uint32_t>(0.5f), 0, 0}, 2,
                            reinterpret_cast<uint8_t*>(h.data()));
    CHECK(h == std::array<uint16_t, 4>{0xc000, 0x3800, 0xaaaa, 0xaaaa});
    engine::TexelFormat f1;
    f1.bits = {32, 0, 0, 0};
    uint32_t word = 0;
    engine::store_formatted(f1, {0x40490fdbu, 1, 2, 3}, 4, reinterpret_cast<uint8_t*>(&word));
    CHECK(word == 0x40490fdbu);  // one channel: only R is stored
    // Integers saturate: 300 and 2^32 - 1 in unsigned 8-bit channels read 255, -200 in a signed one -128.
    engine::TexelFormat u8x2;
    u8x2.bits = {8, 8, 0, 0};
    u8x2.kind = engine::ChannelKind::unsigned_int;
    std::array<uint8_t, 2> b{0, 0};
    engine::store_formatted(u8x2, {300, 0xffffffffu, 0, 0}, 4, b.data());
    CHECK(b == std::array<uint8_t, 2>{255, 255});
    u8x2.kind = engine::ChannelKind::signed_int;
    engine::store_formatted(u8x2, {static_cast<uint32_t>(-200), 5, 0, 0}, 2, b.data());
    CHECK(b == std::array<uint8_t, 2>{0x80, 5});
}

TEST_CASE("filtered f32 results round halfway cases away from zero", "[texture]") {
    // 0.37f (0x3ebd70a4) weighed 144/256 is 13967032.5 * 2^-26, halfway between two floats: the H200 read
    // 0x3e551eb9 (layered1d.float.linear.clamp), the upper one, where ties to even give 0x3e551eb8.
    const std::vector<float> texels{0.0f, 0.37f};
    engine::TextureObject t = float_volume(2, 1, 1, true);
    t.resource.dimensions = 1;
    CHECK(engine::sample_2d(t, bytes_of(texels), 1.0625f, 0.5f)[0] == 0x3e551eb9u);
    const std::vector<float> negative{0.0f, -0.37f};
    CHECK(engine::sample_2d(t, bytes_of(negative), 1.0625f, 0.5f)[0] == 0xbe551eb9u);
}

namespace {

constexpr const char* kGeometryPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry geometry(.param .u64 tex3, .param .u64 texl, .param .u64 surf3, .param .u64 out)
{
    .reg .b64 %rd<6>;
    .reg .f32 %f<12>;
    .reg .b32 %r<12>;
    ld.param.u64 %rd1, [tex3];
    ld.param.u64 %rd2, [texl];
    ld.param.u64 %rd3, [surf3];
    ld.param.u64 %rd4, [out];
    cvta.to.global.u64 %rd5, %rd4;
    mov.f32 %f1, 0f3F800000;
    tex.3d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd1, {%f1, %f1, %f1, %f1}];
    st.global.f32 [%rd5], %f2;
    txq.depth.b32 %r1, [%rd1];
    st.global.u32 [%rd5+4], %r1;
    txq.addr_mode_0.b32 %r1, [%rd1];
    st.global.u32 [%rd5+8], %r1;
    mov.b32 %r2, 1;
    tex.a2d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd2, {%r2, %f1, %f1, %f1}];
    st.global.f32 [%rd5+12], %f2;
    tld4.r.a2d.v4.f32.f32 {%f6, %f7, %f8, %f9}, [%rd2, {%r2, %f1, %f1, %f1}];
    st.global.v4.f32 [%rd5+16], {%f6, %f7, %f8, %f9};
    txq.array_size.b32 %r1, [%rd2];
    st.global.u32 [%rd5+32], %r1;
    mov.b32 %r3, 0x1234;
    sust.b.3d.b32.trap [%rd3, {4, 1, 1, 0}], {%r3};
    suld.b.3d.b32.clamp {%r4}, [%rd3, {4, 1, 9, 0}];
    st.global.u32 [%rd5+36], %r4;
    sured.b.add.3d.u32.trap [%rd3, {0, 0, 0, 0}], 5;
    suq.depth.b32 %r1, [%rd3];
    st.global.u32 [%rd5+40], %r1;
    suq.memory_layout.b32 %r1, [%rd3];
    st.global.u32 [%rd5+44], %r1;
    mov.b32 %r5, 300;
    sust.p.3d.b32.trap [%rd3, {1, 0, 0, 0}], {%r5};
    ret;
}
.visible .entry layer_trap(.param .u64 surf)
{
    .reg .b64 %rd<2>;
    .reg .b32 %r<2>;
    ld.param.u64 %rd1, [surf];
    mov.b32 %r1, 7;
    sust.b.a2d.b32.trap [%rd1, {%r1, 0, 0, 0}], {%r1};
    ret;
}
)";

}  // namespace

TEST_CASE("tex.3d, tex.a2d, tld4, txq, suq, sust/suld .3d, sured and sust.p in a kernel", "[texture]") {
    const auto k = test::parse(kGeometryPtx);
    INFO(k.diagnostics);
    const ir::Function* fn = k.find("geometry");
    REQUIRE(fn);
    engine::Simulator sim;
    const auto values = volume([](int x, int y, int z) { return float(x + 2 * y + 4 * z); });
    const std::vector<float> layers{0, 1, 2, 3, 10, 11, 12, 13};  // two layers of 2 x 2
    std::vector<uint32_t> surface(8, 0);
    surface[0] = 100;
    engine::TextureTable table;
    auto t3 = float_volume(2, 2, 2, true);
    t3.resource.base = test::upload(sim, values);
    table.textures[1] = t3;
    auto tl = float_volume(2, 2, 1, true);
    tl.resource.layers = 2;
    tl.resource.dimensions = 2;
    tl.resource.base = test::upload(sim, layers);
    table.textures[2] = tl;
    engine::TextureResource s = float_volume(2, 2, 2, false).resource;
    s.format.kind = engine::ChannelKind::unsigned_int;
    s.base = test::upload(sim, surface);
    table.surfaces[3] = s;
    const uint64_t out = test::upload(sim, std::vector<uint32_t>(12, 0xffffffffu));
    auto cfg = test::config({1, 1, 1}, {4, 1, 1});  // four lanes: sured adds 5 four times
    cfg.textures = &table;
    test::Params p;
    p.add(uint64_t{1}).add(uint64_t{2}).add(uint64_t{3}).add(out);
    auto r = sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr);
    INFO((r.error ? r.error->details : std::string()));
    REQUIRE(r.ok());
    const auto got = test::download<uint32_t>(sim, out, 12);
    CHECK(f(got[0]) == 3.5f);   // the centre of the 2 x 2 x 2 texels 0..7
    CHECK(got[1] == 2);         // depth
    CHECK(got[2] == 3);         // clamp: clamp_to_edge in the PTX ISA's enumeration
    CHECK(f(got[3]) == 11.5f);  // layer 1's centre
    CHECK(f(got[4]) == 12.0f);  // tld4: (0, 1), (1, 1), (1, 0), (0, 0) of layer 1
    CHECK(f(got[5]) == 13.0f);
    CHECK(f(got[6]) == 11.0f);
    CHECK(f(got[7]) == 10.0f);
    CHECK(got[8] == 2);        // array_size
    CHECK(got[9] == 0x1234u);  // slice 9 clamped to slice 1
    CHECK(got[10] == 2);       // suq.depth
    CHECK(got[11] == 0);       // an array: not the linear layout
    const auto after = test::download<uint32_t>(sim, s.base, 8);
    CHECK(after[0] == 120u);     // 100 + 4 * 5
    CHECK(after[1] == 300u);     // sust.p: sample 1
    CHECK(after[7] == 0x1234u);  // (1, 1, 1): byte 4 + 8 + 16
    // A layer past the last in trap mode: the fault names the layer and the surface's layers.
    const ir::Function* trap = k.find("layer_trap");
    REQUIRE(trap);
    engine::TextureResource layered = s;
    layered.depth = 1;
    layered.layers = 2;
    table.surfaces[4] = layered;
    test::Params q;
    q.add(uint64_t{4});
    auto bad = sim.launch(k.parsed.module, *trap, cfg, q.span(), nullptr);
    REQUIRE(bad.error);
    CHECK(bad.error->name == "cudaErrorIllegalAddress");
    CHECK(bad.error->details.find("at byte x 0, row 0, layer 7 of a surface 8 bytes wide, 2 rows high and 2 "
                                  "layers") != std::string::npos);
}
