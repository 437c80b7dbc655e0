// tests/engine/test_control.cpp — divergence and reconvergence, loops with divergent breaks, calls with
// recursion and local arrays, 3-D grids (nvcc-compiled kernels from tests/engine/data).
#include <catch2/catch.hpp>

#include "tests/engine/engine_harness.hpp"

using namespace warpsim;

namespace {

struct Run {
    engine::Simulator sim;
    engine::LaunchResult result;
};

// Launches `name` with one int buffer of `n` elements (filled with `fill`) plus extra int params.
std::vector<int32_t> run_int_kernel(const char* name, std::array<uint32_t, 3> grid,
                                    std::array<uint32_t, 3> block, std::size_t n,
                                    std::vector<int32_t> extra = {}, std::string* error = nullptr) {
    const auto& k = test::engine_kernels();
    REQUIRE(k.parsed.ok());
    const ir::Function* fn = test::kernel_named(k, name);
    REQUIRE(fn);
    engine::Simulator sim;
    const uint64_t buf = test::upload(sim, std::vector<int32_t>(n, 0x5a5a5a5a));
    test::Params p;
    p.add(buf);
    for (int32_t v : extra) p.add(v);
    auto r = sim.launch(k.parsed.module, *fn, test::config(grid, block), p.span(), nullptr);
    if (error) *error = r.error ? r.error->message + "\n" + r.error->details : "";
    INFO((r.error ? r.error->details : std::string()));
    REQUIRE(r.ok());
    return test::download<int32_t>(sim, buf, n);
}

}  // namespace

TEST_CASE("if / else if / else inside one warp reconverges") {
    auto out = run_int_kernel("if_else", {1, 1, 1}, {96, 1, 1}, 96);
    for (int t = 0; t < 96; ++t) {
        const int v = t % 3 == 0 ? t * 2 : t % 3 == 1 ? t + 100 : -t;
        REQUIRE(out[t] == v + 1);
    }
}

TEST_CASE("loop with a divergent break: each lane leaves at its own iteration") {
    auto out = run_int_kernel("divergent_loop", {1, 1, 1}, {128, 1, 1}, 128);
    for (int t = 0; t < 128; ++t) {
        int expect;
        if (t < 100)
            expect = (t & 1) ? t * (t - 1) / 2 : -t;
        else
            expect = (t & 1) ? 4950 : -100;
        REQUIRE(out[t] == expect);
    }
}

TEST_CASE("recursive .func calls with their own frames") {
    auto out = run_int_kernel("recursion", {1, 1, 1}, {64, 1, 1}, 64);
    const int fact[8] = {1, 1, 2, 6, 24, 120, 720, 5040};
    for (int t = 0; t < 64; ++t) REQUIRE(out[t] == fact[t % 8]);
}

TEST_CASE("local arrays in the kernel and in a called function") {
    auto out = run_int_kernel("local_array", {1, 1, 1}, {40, 1, 1}, 40, {3});
    for (int t = 0; t < 40; ++t) {
        const int a = (t * 3) % 32;
        REQUIRE(out[t] == a * a + ((t + 3) & 15) * t);
    }
}

TEST_CASE("3-D grid and block indexing") {
    auto out = run_int_kernel("grid3d", {2, 2, 2}, {4, 2, 2}, 8 * 16);
    for (int bz = 0; bz < 2; ++bz)
        for (int by = 0; by < 2; ++by)
            for (int bx = 0; bx < 2; ++bx)
                for (int tz = 0; tz < 2; ++tz)
                    for (int ty = 0; ty < 2; ++ty)
                        for (int tx = 0; tx < 4; ++tx) {
                            const int b = bx + 2 * (by + 2 * bz), t = tx + 4 * (ty + 2 * tz);
                            REQUIRE(out[b * 16 + t] ==
                                    ((bz << 24) | (by << 16) | (tz << 8) | (ty << 4) | tx));
                        }
}

TEST_CASE("integer and float arithmetic helpers") {
    const auto& k = test::engine_kernels();
    const ir::Function* fn = test::kernel_named(k, "arith");
    REQUIRE(fn);
    engine::Simulator sim;
    const uint64_t in = test::upload(sim, std::vector<int32_t>{-100, 7, 0x40200000});  // 2.5f
    const uint64_t out = test::upload(sim, std::vector<int32_t>(16, 0));
    test::Params p;
    p.add(in).add(out);
    auto r = sim.launch(k.parsed.module, *fn, test::config({1, 1, 1}, {1, 1, 1}), p.span(), nullptr);
    INFO((r.error ? r.error->details : std::string()));
    REQUIRE(r.ok());
    auto o = test::download<int32_t>(sim, out, 16);
    CHECK(o[0] == -14);
    CHECK(o[1] == -2);
    CHECK(o[2] == 28);  // popc(0xffffff9c)
    CHECK(o[3] == 0);
    CHECK(static_cast<uint32_t>(o[4]) == 0x39ffffffu);  // brev(0xffffff9c)
    CHECK(o[5] == -1);
    CHECK(o[6] == -100);
    CHECK(o[7] == 100);
    CHECK(o[8] == 0x00ff079c);  // byte_perm: a0 b0 a1 b1
    CHECK(o[9] == 0x7ff);       // funnel shift left of 7:0xffffff9c by 8
    CHECK(o[10] == 3);          // ffs: bit 2
    CHECK(o[11] == -1);
    CHECK(o[12] == 7);           // (int)(2.5f * 3)
    CHECK(o[13] == 0x3fca62c2);  // sqrtf(2.5f) = 1.58113885 (correctly rounded)
    CHECK(o[14] == 2);           // rintf(2.5): ties to even
    CHECK(o[15] == -3);          // floor(-2.5)
}
