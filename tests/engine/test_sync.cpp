// tests/engine/test_sync.cpp — barriers (reverse within a block, bar.red.popc), warp shuffles and
// votes, global and shared atomics with the documented deterministic schedule.
#include <catch2/catch.hpp>

#include "tests/engine/engine_harness.hpp"

using namespace warpsim;

namespace {
std::string details(const engine::LaunchResult& r) {
    return r.error ? r.error->message + "\n" + r.error->details : "";
}
}  // namespace

TEST_CASE("reverse within a block through shared memory and bar.sync") {
    auto k = test::parse(test::read_text(std::string(WARPSIM_SOURCE_DIR) + "/examples/reverse_blocks.ptx"));
    REQUIRE(k.parsed.ok());
    const ir::Function* fn = test::kernel_named(k, "reverse_blocks");
    REQUIRE(fn);
    engine::Simulator sim;
    std::vector<float> in(512);
    for (int i = 0; i < 512; ++i) in[i] = static_cast<float>(i);
    const uint64_t din = test::upload(sim, in), dout = test::upload(sim, std::vector<float>(512, 0));
    test::Params p;
    p.add(din).add(dout).add(int32_t{512});
    auto cfg = test::config({2, 1, 1}, {256, 1, 1});
    cfg.dynamic_shared_bytes = 256 * 4;
    auto r = sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto out = test::download<float>(sim, dout, 512);
    for (int b = 0; b < 2; ++b)
        for (int t = 0; t < 256; ++t) REQUIRE(out[b * 256 + t] == static_cast<float>(b * 256 + 255 - t));
}

TEST_CASE("tree reduction with barriers in a loop, and __syncthreads_count") {
    const auto& k = test::engine_kernels();
    const ir::Function* fn = test::kernel_named(k, "block_reduce");
    REQUIRE(fn);
    engine::Simulator sim;
    std::vector<int32_t> in(512);
    for (int i = 0; i < 512; ++i) in[i] = i % 10;
    const uint64_t din = test::upload(sim, in), dout = test::upload(sim, std::vector<int32_t>(4, 0));
    test::Params p;
    p.add(din).add(dout);
    auto r = sim.launch(k.parsed.module, *fn, test::config({2, 1, 1}, {256, 1, 1}), p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto out = test::download<int32_t>(sim, dout, 4);
    CHECK(out[0] == 1140);  // 25 decades of 0..9 (1125) + 0..5 (15)
    CHECK(out[1] == 1156);  // 6..9 (30) + 25 decades (1125) + 0,1 (1)
    CHECK(out[2] == 100);   // values > 5: four per decade
    CHECK(out[3] == 104);
}

TEST_CASE("shfl.sync idx/up/bfly/down with a 16-lane width") {
    const auto& k = test::engine_kernels();
    const ir::Function* fn = test::kernel_named(k, "shuffles");
    REQUIRE(fn);
    engine::Simulator sim;
    const uint64_t out = test::upload(sim, std::vector<int32_t>(128, -7));
    test::Params p;
    p.add(out);
    auto r = sim.launch(k.parsed.module, *fn, test::config({1, 1, 1}, {32, 1, 1}), p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto o = test::download<int32_t>(sim, out, 128);
    for (int t = 0; t < 32; ++t) {
        CHECK(o[t * 4 + 0] == 30);
        CHECK(o[t * 4 + 1] == (t == 0 ? 0 : t - 1));
        CHECK(o[t * 4 + 2] == (t ^ 5));
        CHECK(o[t * 4 + 3] == (t % 16 < 12 ? t + 4 : t));
    }
}

TEST_CASE("vote.sync ballot/all/any and activemask inside a divergent branch") {
    const auto& k = test::engine_kernels();
    const ir::Function* fn = test::kernel_named(k, "votes");
    REQUIRE(fn);
    engine::Simulator sim;
    std::vector<int32_t> in(32);
    for (int t = 0; t < 32; ++t) in[t] = t % 3 == 0 ? 1 : 0;
    const uint64_t din = test::upload(sim, in), dout = test::upload(sim, std::vector<uint32_t>(5, 7));
    test::Params p;
    p.add(din).add(dout);
    auto r = sim.launch(k.parsed.module, *fn, test::config({1, 1, 1}, {32, 1, 1}), p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto o = test::download<uint32_t>(sim, dout, 5);
    CHECK(o[0] == 0x49249249u);  // lanes 0, 3, 6, ..., 30
    CHECK(o[1] == 0u);
    CHECK(o[2] == 1u);
    CHECK(o[3] == 0xffffffffu);
    CHECK(o[4] == 0x49249249u);
}

TEST_CASE("histogram with global atomics gives the same bins for 1 and 4 workers") {
    const auto& k = test::engine_kernels();
    for (const char* name : {"histogram", "shared_histogram"}) {
        const ir::Function* fn = test::kernel_named(k, name);
        REQUIRE(fn);
        for (uint32_t workers : {1u, 4u}) {
            engine::Simulator sim;
            std::vector<uint32_t> in(1000);
            for (uint32_t i = 0; i < 1000; ++i) in[i] = 7 * i;
            const uint64_t din = test::upload(sim, in),
                           bins = test::upload(sim, std::vector<uint32_t>(16, 0));
            test::Params p;
            p.add(din).add(bins).add(int32_t{1000});
            auto cfg = test::config({8, 1, 1}, {128, 1, 1});
            cfg.host_workers = workers;
            auto r = sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr);
            INFO(name << " workers=" << workers << " " << details(r));
            REQUIRE(r.ok());
            auto b = test::download<uint32_t>(sim, bins, 16);
            // 1000 = 62*16 + 8: residues i%16 in 0..7 occur 63 times; 7*r mod 16 for those r get 63.
            for (uint32_t bin = 0; bin < 16; ++bin) {
                bool extra = false;
                for (uint32_t r8 = 0; r8 < 8; ++r8) extra = extra || (7 * r8) % 16 == bin;
                REQUIRE(b[bin] == (extra ? 63u : 62u));
            }
        }
    }
}

TEST_CASE(
    "atomicAdd return values follow the documented order: blocks in order, warps in order, lanes in order") {
    const auto& k = test::engine_kernels();
    const ir::Function* fn = test::kernel_named(k, "atomic_slots");
    REQUIRE(fn);
    engine::Simulator sim;
    const uint64_t counter = test::upload(sim, std::vector<int32_t>{0});
    const uint64_t out = test::upload(sim, std::vector<int32_t>(300, -1));
    test::Params p;
    p.add(counter).add(out);
    auto cfg = test::config({3, 1, 1}, {100, 1, 1});
    cfg.host_workers = 4;  // ignored: returned old values make the order visible, so blocks run in order
    auto r = sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto o = test::download<int32_t>(sim, out, 300);
    for (int i = 0; i < 300; ++i) REQUIRE(o[i] == i);
}

TEST_CASE("float atomicAdd sums in linear thread order") {
    const auto& k = test::engine_kernels();
    const ir::Function* fn = test::kernel_named(k, "float_sum");
    REQUIRE(fn);
    engine::Simulator sim;
    std::vector<float> in(256);
    float expect = 0.0f;
    for (int i = 0; i < 256; ++i) {
        in[i] = 0.1f * static_cast<float>(i + 1);
        expect += in[i];  // the documented order: block 0 lanes 0..127, then block 1
    }
    const uint64_t din = test::upload(sim, in), sum = test::upload(sim, std::vector<float>{0.0f});
    test::Params p;
    p.add(din).add(sum);
    auto cfg = test::config({2, 1, 1}, {128, 1, 1});
    cfg.host_workers = 4;
    auto r = sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr);
    REQUIRE(r.ok());
    CHECK(test::download<float>(sim, sum, 1)[0] == expect);
}
