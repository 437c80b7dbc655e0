// tests/timing/model_tests.cpp — the timing model on synthetic profiles, with hand-computed expectations.
#include <catch2/catch.hpp>

#include <limits>

#include "sim/timing/model.hpp"

using namespace warpsim::timing;

namespace {

// A model with simple numbers: 1000 MHz, no overhead, max() instead of a smooth max, issue at 1/cycle.
ModelParams simple_params() {
    ModelParams m;
    m.launch_overhead_us = 0;
    m.overlap_p = std::numeric_limits<double>::infinity();
    m.block_overhead_cycles = 0;
    m.issue_efficiency = 1.0;
    m.dram_efficiency = 1.0;
    return m;
}

// `n` fp32 instructions, each depending on the previous one, executed once by every warp.
ChainBlock dependent_fp32(std::size_t n, double warp_execs) {
    ChainBlock b;
    b.warp_execs = warp_execs;
    for (std::size_t i = 0; i < n; ++i) {
        ChainInst c;
        c.kind = LatKind::fp32;
        if (i > 0) c.deps[0] = static_cast<int16_t>(i - 1);
        b.insts.push_back(c);
    }
    return b;
}

LaunchProfile compute_profile(uint64_t blocks) {
    LaunchProfile p;
    p.blocks = blocks;
    p.threads_per_block = 256;
    p.warps_per_block = 8;
    p.blocks_per_sm = 8;
    p.sm_count = 132;
    p.clock_mhz = 1000;
    p.dram_peak_gbps = 1000;  // 1000 bytes per cycle at 1000 MHz
    double warps = double(blocks) * 8;
    p.warp_insts[static_cast<std::size_t>(Pipe::fp32)] = 100 * warps;
    p.chain.push_back(dependent_fp32(100, warps));
    return p;
}

}  // namespace

TEST_CASE("waves: full waves and a last partial wave", "[timing]") {
    auto m = simple_params();
    auto w1 = predict_profile(compute_profile(1056), m).waves;
    REQUIRE(w1.size() == 1);
    CHECK(w1[0].count == 1);
    CHECK(w1[0].blocks == 1056);
    CHECK(w1[0].max_blocks_per_sm == 8);
    auto w2 = predict_profile(compute_profile(2112), m).waves;
    REQUIRE(w2.size() == 1);
    CHECK(w2[0].count == 2);
    auto w3 = predict_profile(compute_profile(1057), m).waves;
    REQUIRE(w3.size() == 2);
    CHECK(w3[1].blocks == 1);
    CHECK(w3[1].max_blocks_per_sm == 1);
    CHECK(w3[1].sms_busy == 1);
    auto w4 = predict_profile(compute_profile(100), m).waves;  // less than one wave: one block per SM
    REQUIRE(w4.size() == 1);
    CHECK(w4[0].max_blocks_per_sm == 1);
    CHECK(w4[0].sms_busy == 100);
    auto w5 = predict_profile(compute_profile(1056 + 300), m).waves;  // 300 blocks: up to 3 per SM
    REQUIRE(w5.size() == 2);
    CHECK(w5[1].max_blocks_per_sm == 3);
    CHECK(w5[1].sms_busy == 132);
}

TEST_CASE("tail effect: 1057 blocks cost a whole extra (latency-bound) wave", "[timing]") {
    auto m = simple_params();
    // Full wave: 8 blocks x 8 warps x 100 instructions = 6400 per SM / 4 schedulers = 1600 cycles, more than
    // the 100 x 4 = 400-cycle chain. The last wave: 1 block, 800 / 4 = 200 issue cycles < 400 chain.
    auto full = predict_profile(compute_profile(1056), m);
    CHECK(full.cycles == Approx(1600));
    CHECK(full.bound == "issue");
    CHECK(full.bound_text == "issue: fp32");
    auto tail = predict_profile(compute_profile(1057), m);
    CHECK(tail.cycles == Approx(2000));
    CHECK(tail.time_us == Approx(2.0));
    CHECK(tail.bound == "tail");
    CHECK(tail.bound_text == "tail wave: 1 of 2 waves 0.1 % full");
}

TEST_CASE("divergence: both paths in every warp cost the sum, whole-warp split the longer", "[timing]") {
    auto m = simple_params();
    // 132 blocks (1 per SM, 8 warps): latency-bound. Path blocks of 50 dependent fp32 each (200 cycles).
    LaunchProfile lanes = compute_profile(132);
    lanes.chain.clear();
    double warps = 132 * 8;
    lanes.chain.push_back(dependent_fp32(50, warps));  // path a, all warps
    lanes.chain.push_back(dependent_fp32(50, warps));  // path b, all warps
    LaunchProfile split = lanes;
    split.chain[0].warp_execs = warps / 2;
    split.chain[1].warp_execs = warps / 2;
    split.warp_insts[static_cast<std::size_t>(Pipe::fp32)] = 50 * warps;
    CHECK(predict_profile(lanes, m).cycles == Approx(400));   // 200 + 200
    CHECK(predict_profile(split, m).cycles == Approx(200));   // one path per warp
}

TEST_CASE("monotonic: more sectors or DRAM bytes never make a launch faster", "[timing]") {
    ModelParams m;  // the shipped defaults, smooth max included
    LaunchProfile p = compute_profile(4096);
    double prev = 0;
    for (double k : {0.0, 1e5, 1e6, 1e7, 1e8, 1e9}) {
        p.dram_read_bytes = k;
        p.footprint_bytes = k;
        p.l2_sectors = k / 32;
        p.global_sectors = k / 32;
        double t = predict_profile(p, m).time_us;
        CHECK(t >= prev);
        prev = t;
    }
}

TEST_CASE("bound classification on synthetic profiles", "[timing]") {
    auto m = simple_params();
    SECTION("DRAM bandwidth") {
        LaunchProfile p = compute_profile(1056);
        p.dram_read_bytes = 1e8;  // 1e8 bytes / 1000 B per cycle = 1e5 cycles >> 1600 issue cycles
        p.footprint_bytes = 1e8;
        auto pr = predict_profile(p, m);
        CHECK(pr.bound == "dram");
        CHECK(pr.bound_text == "DRAM bandwidth");
        CHECK(pr.cycles == Approx(1e5));
        CHECK(pr.dram_gbps == Approx(1000));
    }
    SECTION("launch overhead") {
        LaunchProfile p = compute_profile(1);
        m.launch_overhead_us = 4;
        auto pr = predict_profile(p, m);  // 400 cycles = 0.4 us of kernel
        CHECK(pr.bound == "launch");
        CHECK(pr.bound_text == "launch overhead");
        CHECK(pr.time_us == Approx(4.4));
    }
    SECTION("memory latency with too few warps") {
        LaunchProfile p = compute_profile(1);
        ChainBlock b;  // a load from DRAM (cold L1 and L2), then an add on it
        b.warp_execs = 8 * 1000;
        ChainInst ld;
        ld.kind = LatKind::global;
        ld.is_load = true;
        ChainInst add;
        add.kind = LatKind::fp32;
        add.deps[0] = 0;
        b.insts = {ld, add};
        p.chain = {b};
        p.warp_insts = {};
        p.warp_insts[static_cast<std::size_t>(Pipe::lsu)] = 8000;
        p.warp_insts[static_cast<std::size_t>(Pipe::fp32)] = 8000;
        p.dram_read_bytes = 8000 * 128;
        auto pr = predict_profile(p, m);
        CHECK(pr.bound == "latency");
        CHECK(pr.bound_text == "memory latency: too few warps in flight");
        CHECK(pr.cycles == Approx(1000 * (m.dram_latency_cycles + 4)));
    }
    SECTION("shared-memory bank conflicts") {
        LaunchProfile p = compute_profile(1056);
        // 32-way conflicts: 8 blocks x 8 warps x 100 instructions x 32 wavefronts = 204800 cycles per SM
        p.shared_wavefronts = 1056.0 * 8 * 32 * 100;
        p.shared_ideal_wavefronts = 1056.0 * 8 * 100;
        auto pr = predict_profile(p, m);
        CHECK(pr.bound == "shared");
        CHECK(pr.bound_text == "shared-memory bank conflicts");
        CHECK(pr.cycles == Approx(204800));
    }
}

TEST_CASE("warm L2: a footprint within the resident share costs no DRAM time, a larger one all of it", "[timing]") {
    auto m = simple_params();
    m.l2_resident_fraction = 0.5;
    LaunchProfile p = compute_profile(1056);
    p.l2_capacity_bytes = 60e6;
    p.dram_read_bytes = 1e8;  // what a cold L2 reads
    p.footprint_write_bytes = 5e7;
    p.footprint_bytes = 30e6;  // fits in 0.5 x 60 MB
    auto fits = predict_profile(p, m);
    CHECK(fits.l2_resident);
    CHECK(fits.dram_bytes == 0);
    CHECK(fits.bound != "dram");
    p.footprint_bytes = 31e6;  // does not: reads plus every dirty byte written back, 1.5e8 B / 1000 B per cycle
    auto streams = predict_profile(p, m);
    CHECK_FALSE(streams.l2_resident);
    CHECK(streams.dram_bytes == Approx(1.5e8));
    CHECK(streams.bound == "dram");
    CHECK(streams.cycles == Approx(1.5e5));
}

TEST_CASE("partially written sectors cost the L2 extra transfers", "[timing]") {
    auto m = simple_params();
    m.partial_sector_cost = 3;
    m.l2_bytes_per_cycle = 32;  // one sector per cycle
    LaunchProfile p = compute_profile(1056);
    p.l2_sectors = 1e6;
    p.store_sectors = 8e5;        // a transpose's scattered 4-byte stores: 8 sectors per 32 bytes
    p.store_ideal_sectors = 1e5;
    auto pr = predict_profile(p, m);
    CHECK(pr.bound == "l2");
    CHECK(pr.cycles == Approx(1e6 + 3 * 7e5));
    p.store_ideal_sectors = 8e5;  // whole sectors: no extra
    CHECK(predict_profile(p, m).cycles == Approx(1e6));
}

TEST_CASE("register spills: ptxas's spill bytes become local traffic, scaled by executions", "[timing]") {
    LaunchProfile p = compute_profile(1056);  // 8448 warps, 100 fp32 instructions each
    p.static_insts = 50;                      // the average instruction ran twice per warp
    p.spill_store_bytes = 64;
    p.spill_load_bytes = 128;
    p.stack_frame_bytes = 256;
    p.l1_capacity_bytes = 256 * 1024;         // 8 x 256 threads x 256 B = 512 KiB of frames per SM: half hit
    p.l2_capacity_bytes = 60 * 1024 * 1024;   // 1056 x 256 x 256 B = 66 MiB of frames on the device
    auto s = spill_traffic(p);
    CHECK(s.store_sectors == Approx(64.0 * 2 * 8448));
    CHECK(s.load_sectors == Approx(128.0 * 2 * 8448));
    CHECK(s.instructions == Approx((64.0 + 128.0) / 4 * 2 * 8448));
    CHECK(s.l1_hit == Approx(0.5));
    CHECK(s.l2_hit == Approx(60.0 / 66.0));
    auto m = simple_params();
    LaunchProfile clean = p;
    clean.spill_store_bytes = clean.spill_load_bytes = 0;
    auto with = predict_profile(p, m), without = predict_profile(clean, m);
    CHECK(with.cycles > without.cycles);
    CHECK(with.spill_bytes == Approx(32.0 * (64 + 128) * 2 * 8448));
    CHECK(without.spill_bytes == 0);
}

TEST_CASE("integer and branch instructions take int_issue_weight of an issue slot", "[timing]") {
    auto m = simple_params();
    LaunchProfile p = compute_profile(1056);  // 8 blocks x 8 warps per SM, 100 fp32 each
    p.warp_insts[static_cast<std::size_t>(Pipe::int_alu)] = 1056.0 * 8 * 100;
    p.warp_insts[static_cast<std::size_t>(Pipe::branch)] = 1056.0 * 8 * 50;
    p.chain.clear();
    m.int_issue_weight = 1.0;
    CHECK(predict_profile(p, m).cycles == Approx(64.0 * 250 / 4));  // every PTX instruction issues
    m.int_issue_weight = 0.25;
    CHECK(predict_profile(p, m).cycles == Approx(64.0 * 137.5 / 4));  // 100 fp32 + 37.5 integer and branch
}

TEST_CASE("parameters round-trip through the preset's values map", "[timing]") {
    ModelParams m;
    m.dram_efficiency = 0.77;
    m.launch_overhead_us = 2.5;
    auto v = params_to_values(m);
    CHECK(v.at("dram_efficiency") == 0.77);
    auto back = params_from_values(v);
    CHECK(back.launch_overhead_us == 2.5);
    CHECK(back.dram_efficiency == 0.77);
}
