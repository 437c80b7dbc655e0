// tests/engine/test_clusters.cpp — thread-block clusters: the %cluster* registers with and without a cluster
// shape, distributed shared memory (mapa, ld/st/atom.shared::cluster, map_shared_rank), barrier.cluster over
// several phases with early exits, launch-shape errors, bad ranks and a cluster barrier deadlock. Expected
// values are worked out here from the kernels' definitions (tests/ptx/clusters.cu).
#include <catch2/catch.hpp>

#include "tests/engine/engine_harness.hpp"

using namespace warpsim;

namespace {

std::string details(const engine::LaunchResult& r) {
    return r.error ? r.error->message + "\n" + r.error->details : "";
}

const test::Kernel& cluster_kernels() {
    static const test::Kernel k = test::parse(
        test::read_text(std::string(WARPSIM_SOURCE_DIR) + "/tests/ptx/clusters.sm_90.lineinfo.ptx"));
    return k;
}

struct IdsRun {
    engine::LaunchResult result;
    std::vector<uint32_t> out;
};

IdsRun run_ids(std::array<uint32_t, 3> grid, std::array<uint32_t, 3> cluster) {
    const auto& k = cluster_kernels();
    const ir::Function* fn = test::kernel_named(k, "cluster_ids");
    REQUIRE(fn);
    engine::Simulator sim;
    const std::size_t n = std::size_t{grid[0]} * grid[1] * 11;
    const uint64_t out = test::upload(sim, std::vector<uint32_t>(n, 0xdeadbeef));
    test::Params p;
    p.add(out);
    auto cfg = test::config(grid, {32, 1, 1});
    cfg.cluster = cluster;
    IdsRun r{sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr), {}};
    r.out = test::download<uint32_t>(sim, out, n);
    return r;
}

}  // namespace

TEST_CASE("cluster special registers: a 2x2 cluster given at launch, and no cluster") {
    REQUIRE(cluster_kernels().parsed.ok());
    auto with = run_ids({4, 4, 1}, {2, 2, 1});
    INFO(details(with.result));
    REQUIRE(with.result.ok());
    auto none = run_ids({4, 4, 1}, {0, 0, 0});
    REQUIRE(none.result.ok());
    for (uint32_t by = 0; by < 4; ++by)
        for (uint32_t bx = 0; bx < 4; ++bx) {
            const uint32_t b = bx + 4 * by;
            INFO("block " << bx << "," << by);
            // clusterid.xy, nclusterid.xy, cluster_ctaid.xy, cluster_nctaid.xy, ctarank, nctarank, explicit
            const std::vector<uint32_t> clustered{
                bx / 2, by / 2, 2, 2, bx % 2, by % 2, 2, 2, bx % 2 + 2 * (by % 2), 4, 1};
            const std::vector<uint32_t> implicit{bx, by, 4, 4, 0, 0, 1, 1, 0, 1, 0};
            CHECK(std::vector<uint32_t>(with.out.begin() + b * 11, with.out.begin() + b * 11 + 11) ==
                  clustered);
            CHECK(std::vector<uint32_t>(none.out.begin() + b * 11, none.out.begin() + b * 11 + 11) ==
                  implicit);
        }
}

TEST_CASE("distributed shared memory around a ring of 4 CTAs (__cluster_dims__), with any worker count") {
    const auto& k = cluster_kernels();
    const ir::Function* fn = test::kernel_named(k, "cluster_ring");
    REQUIRE(fn);
    std::vector<int32_t> in(1024);
    for (int i = 0; i < 1024; ++i) in[i] = i;
    std::vector<std::vector<int32_t>> runs;
    for (uint32_t workers : {1u, 2u}) {
        engine::Simulator sim;
        const uint64_t din = test::upload(sim, in), dout = test::upload(sim, std::vector<int32_t>(1064, 0));
        test::Params p;
        p.add(din).add(dout);
        auto cfg = test::config({8, 1, 1}, {128, 1, 1});
        cfg.host_workers = workers;
        auto r = sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr);
        INFO(details(r));
        REQUIRE(r.ok());
        runs.push_back(test::download<int32_t>(sim, dout, 1064));
    }
    CHECK(runs[0] == runs[1]);
    const auto& out = runs[0];
    // data of block b, element j: in[b * 128 + j] * 3 + rank(b)
    auto data = [](int b, int j) { return (b * 128 + j) * 3 + b % 4; };
    for (int b = 0; b < 8; ++b) {
        const int r = b % 4, base = b - r;
        for (int t = 0; t < 128; ++t) {
            const int v = data(base + (r + 1) % 4, (t * 5) % 128), peer = data(base + (r + 2) % 4, t);
            REQUIRE(out[b * 128 + t] == v + peer);
        }
        for (int i = 0; i < 4; ++i) CHECK(out[1024 + b * 4 + i] == (i == (r + 1) % 4 ? i * 11 + 7 : -1));
        CHECK(out[1024 + 32 + b] == (r == 0 ? 512 : 1));  // rank 0's counter: 4 CTAs x 128 atomic adds of 1
    }
}

TEST_CASE("the DSMEM ring gives the same result under seeded warp orders") {
    const auto& k = cluster_kernels();
    const ir::Function* fn = test::kernel_named(k, "cluster_ring");
    REQUIRE(fn);
    std::vector<int32_t> in(1024);
    for (int i = 0; i < 1024; ++i) in[i] = i;
    std::vector<std::vector<int32_t>> runs;
    for (uint64_t seed : {0u, 1u, 2u, 3u, 4u, 5u}) {
        engine::Simulator sim;
        const uint64_t din = test::upload(sim, in), dout = test::upload(sim, std::vector<int32_t>(1064, 0));
        test::Params p;
        p.add(din).add(dout);
        auto cfg = test::config({8, 1, 1}, {128, 1, 1});
        cfg.schedule_seed = seed;
        auto r = sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr);
        INFO("seed " << seed << ": " << details(r));
        REQUIRE(r.ok());
        runs.push_back(test::download<int32_t>(sim, dout, 1064));
        CHECK(runs.back() == runs.front());  // the kernel is race-free: every legal order gives one result
    }
}

TEST_CASE("barrier.cluster phases between CTA pairs; exited threads do not hold the barrier up") {
    const auto& k = cluster_kernels();
    const ir::Function* fn = test::kernel_named(k, "cluster_phases");
    REQUIRE(fn);
    engine::Simulator sim;
    const uint64_t dout = test::upload(sim, std::vector<int32_t>(384, 0));
    test::Params p;
    p.add(dout);
    auto cfg = test::config({4, 2, 1}, {64, 1, 1});
    cfg.cluster = {2, 1, 1};
    auto r = sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto out = test::download<int32_t>(sim, dout, 384);
    for (uint32_t by = 0; by < 2; ++by)
        for (uint32_t pair = 0; pair < 2; ++pair) {
            std::array<std::array<uint32_t, 48>, 2> acc{};
            for (uint32_t s = 0; s < 2; ++s)
                for (uint32_t t = 0; t < 48; ++t) acc[s][t] = t + 100 * (2 * pair + s) + 1000 * by;
            for (uint32_t round = 0; round < 4; ++round) {
                auto next = acc;
                for (uint32_t s = 0; s < 2; ++s)
                    for (uint32_t t = 0; t < 48; ++t)
                        next[s][t] = acc[s][t] * 3 + acc[s ^ 1][(t + round) % 48];
                acc = next;
            }
            for (uint32_t s = 0; s < 2; ++s)
                for (uint32_t t = 0; t < 48; ++t)
                    REQUIRE(static_cast<uint32_t>(out[((2 * pair + s) + by * 4) * 48 + t]) == acc[s][t]);
        }
}

TEST_CASE("cluster launch shapes are checked as cuLaunchKernelEx checks them") {
    auto bad_grid = run_ids({3, 1, 1}, {2, 1, 1});
    REQUIRE(bad_grid.result.error);
    CHECK(bad_grid.result.error->name == "cudaErrorInvalidClusterSize");
    CHECK(bad_grid.result.error->message ==
          "a kernel launch error has occurred due to cluster misconfiguration");
    CHECK_THAT(bad_grid.result.error->details,
               Catch::Contains("gridDim.x = 3 is not a multiple of the cluster's 2"));
    CHECK(bad_grid.out[0] == 0xdeadbeef);  // nothing ran
    auto too_big = run_ids({16, 1, 1}, {16, 1, 1});
    REQUIRE(too_big.result.error);
    CHECK_THAT(too_big.result.error->details, Catch::Contains("portable maximum of 8"));
    auto zero = run_ids({4, 1, 1}, {2, 0, 1});
    REQUIRE(zero.result.error);
    CHECK_THAT(zero.result.error->details, Catch::Contains("cluster dimension y is 0"));

    // cluster_ring was compiled for clusters of 4: another shape at launch is refused.
    const auto& k = cluster_kernels();
    const ir::Function* fn = test::kernel_named(k, "cluster_ring");
    engine::Simulator sim;
    const uint64_t d = test::upload(sim, std::vector<int32_t>(1064, 0));
    test::Params p;
    p.add(d).add(d);
    auto cfg = test::config({8, 1, 1}, {128, 1, 1});
    cfg.cluster = {2, 1, 1};
    auto r = sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr);
    REQUIRE(r.error);
    CHECK_THAT(r.error->details, Catch::Contains("compiled for clusters of 4x1x1"));
}

TEST_CASE("mapa to a rank outside the cluster is reported with the line and what to do") {
    const auto& k = cluster_kernels();
    const ir::Function* fn = test::kernel_named(k, "cluster_bad_rank");
    REQUIRE(fn);
    for (uint32_t rank : {1u, 2u}) {
        engine::Simulator sim;
        const uint64_t d = test::upload(sim, std::vector<int32_t>(64, -1));
        test::Params p;
        p.add(d).add(rank);
        auto r = sim.launch(k.parsed.module, *fn, test::config({2, 1, 1}, {32, 1, 1}), p.span(), nullptr);
        if (rank == 1) {
            INFO(details(r));
            REQUIRE(r.ok());
            auto out = test::download<int32_t>(sim, d, 64);
            for (int i = 0; i < 64; ++i) CHECK(out[i] == i % 32);  // the partner's data[t] = t
            continue;
        }
        REQUIRE(r.error);
        CHECK(r.error->name == "cudaErrorLaunchFailure");
        CHECK(r.error->message == "unspecified launch failure");  // the H200's answer
        CHECK_THAT(r.error->details,
                   Catch::Contains("mapa to CTA rank 2, but the cluster has 2 CTAs (ranks 0..1)"));
        CHECK_THAT(r.error->details, Catch::Contains("clusters.cu:"));
        CHECK_THAT(r.error->details, Catch::Contains("test.ptx:"));
    }
}

TEST_CASE("a cluster barrier that some CTA never arrives at is reported as a deadlock") {
    // Rank 1 skips barrier.cluster.arrive and waits: no phase can complete.
    auto k = test::parse(R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry skip_arrive()
.reqnctapercluster 2, 1, 1
{
    .reg .b32 %r<3>;
    .reg .pred %p<2>;
    mov.u32 %r1, %cluster_ctarank;
    setp.eq.u32 %p1, %r1, 1;
    @%p1 bra WAIT;
    barrier.cluster.arrive;
WAIT:
    barrier.cluster.wait;
    ret;
}
.visible .entry solo_skip()
{
    .reg .b32 %r<3>;
    .reg .pred %p<2>;
    mov.u32 %r1, %tid.x;
    setp.ge.u32 %p1, %r1, 32;
    @%p1 bra WAIT;
    barrier.cluster.arrive.relaxed;
WAIT:
    barrier.cluster.wait;
    ret;
}
)");
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    auto r =
        sim.launch(k.parsed.module, *k.find("skip_arrive"), test::config({4, 1, 1}, {64, 1, 1}), {}, nullptr);
    REQUIRE(r.error);
    CHECK(r.error->name == "cudaErrorLaunchTimeout");
    CHECK(r.error->kind == engine::Fault::cluster_deadlock);
    CHECK_THAT(r.error->details, Catch::Contains("cluster barrier deadlock in cluster (0,0,0) of 2 CTAs"));
    CHECK_THAT(r.error->details, Catch::Contains("barrier.cluster.wait (test.ptx:15)"));
    CHECK_THAT(r.error->details,
               Catch::Contains("CTA rank 1 (block (1,0,0)): warps not arrived in this phase: 0,1; "
                               "warps waiting: 0,1"));
    CHECK_THAT(r.error->details,
               Catch::Contains("CTA rank 0 (block (0,0,0)): warps not arrived in this phase: none"));
    CHECK(r.error->where.ptx_line == 15);

    // Without clusters every block is a cluster of one: warp 1 (threads 32..63) never arrives.
    auto solo =
        sim.launch(k.parsed.module, *k.find("solo_skip"), test::config({1, 1, 1}, {64, 1, 1}), {}, nullptr);
    REQUIRE(solo.error);
    CHECK_THAT(solo.error->details, Catch::Contains("of 1 CTA:"));
    CHECK_THAT(solo.error->details, Catch::Contains("warps not arrived in this phase: 1;"));
}

TEST_CASE("the cluster_swap example: pairs of blocks read each other's shared memory") {
    auto k = test::parse(test::read_text(std::string(WARPSIM_SOURCE_DIR) + "/examples/cluster.ptx"));
    REQUIRE(k.parsed.ok());
    const ir::Function* fn = test::kernel_named(k, "cluster_swap");
    REQUIRE(fn);
    engine::Simulator sim;
    std::vector<float> in(2048);
    for (int i = 0; i < 2048; ++i) in[i] = static_cast<float>(i);
    const uint64_t din = test::upload(sim, in), dout = test::upload(sim, std::vector<float>(2048, 0));
    test::Params p;
    p.add(din).add(dout);
    auto cfg = test::config({8, 1, 1}, {256, 1, 1});
    cfg.dynamic_shared_bytes = 1024;
    auto r = sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto out = test::download<float>(sim, dout, 2048);
    for (int b = 0; b < 8; ++b)
        for (int t = 0; t < 256; ++t) REQUIRE(out[b * 256 + t] == static_cast<float>((b ^ 1) * 256 + t));
}

TEST_CASE("getctarank names the CTA of a shared::cluster or generic address; mapa round-trips") {
    auto k = test::parse(R"(
.version 8.0
.target sm_90
.address_size 64
.shared .align 4 .b32 cell[4];
.visible .entry ranks(.param .u64 out)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, cell;
    mapa.shared::cluster.u32 %r2, %r1, 1;
    getctarank.shared::cluster.u32 %r3, %r2;
    getctarank.shared::cluster.u32 %r4, %r1;
    cvta.shared.u64 %rd2, cell;
    mapa.u64 %rd3, %rd2, 0;
    getctarank.u64 %r5, %rd3;
    mov.u32 %r6, %cluster_ctarank;
    mul.wide.u32 %rd4, %r6, 12;
    add.u64 %rd5, %rd1, %rd4;
    st.global.u32 [%rd5], %r3;
    st.global.u32 [%rd5+4], %r4;
    st.global.u32 [%rd5+8], %r5;
    ret;
}
)");
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    const uint64_t d = test::upload(sim, std::vector<uint32_t>(6, 99));
    test::Params p;
    p.add(d);
    auto cfg = test::config({2, 1, 1}, {32, 1, 1});
    cfg.cluster = {2, 1, 1};
    auto r = sim.launch(k.parsed.module, *k.find("ranks"), cfg, p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    // Per CTA: the rank mapa named (1), its own rank for a plain shared address, 0 for the generic mapping.
    CHECK(test::download<uint32_t>(sim, d, 6) == std::vector<uint32_t>{1, 0, 0, 1, 1, 0});
}
