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

// The L2 cases' model and launch, hand-computed: capacity 60e6, keep_all 0.5 (30e6), keep_none 0.9 read-only
// (54e6), 0.7 half written; cold reads 1e8 B.
ModelParams l2_keep_params() {
    auto m = simple_params();
    m.l2_keep_all_fraction = 0.5;
    m.l2_keep_none_fraction = 0.9;
    m.l2_keep_none_written_fraction = 0.7;
    return m;
}

LaunchProfile l2_profile() {
    LaunchProfile p = compute_profile(1056);
    p.l2_capacity_bytes = 60e6;
    p.dram_read_bytes = 1e8;
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
    CHECK(predict_profile(lanes, m).cycles == Approx(400));  // 200 + 200
    CHECK(predict_profile(split, m).cycles == Approx(200));  // one path per warp
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

// The L2 between repeated launches (tests/timing/l2_reuse on the H200): a footprint up to keep_all x capacity
// keeps all its reads in L2, one from keep_none x capacity on none, linearly in between; keep_none moves from
// the read-only fraction to the written one as the written share goes from 0 to half; writes reach DRAM.
// Hand-computed with l2_keep_params and l2_profile (above).
TEST_CASE(
    "warm L2: kept share of the footprint falls linearly between the measured bounds; writes reach DRAM",
    "[timing]") {
    const auto m = l2_keep_params();
    LaunchProfile p = l2_profile();
    auto at = [&](double footprint, double written) {
        p.footprint_bytes = p.footprint_l2_bytes = footprint;
        p.footprint_write_bytes = written;
        return predict_profile(p, m);
    };
    auto fits = at(30e6, 10.5e6);
    CHECK(fits.l2_kept == 1);
    CHECK(fits.dram_bytes == Approx(10.5e6));  // the writes alone
    auto half = at(42e6, 0);                   // read-only: (54 - 42) / (54 - 30) = 0.5 kept
    CHECK(half.l2_kept == Approx(0.5));
    CHECK(half.dram_bytes == Approx(0.5e8));
    // A quarter written (half of "half written"): keep_none 0.9 + 0.5 x (0.7 - 0.9) = 0.8 -> 48e6;
    // (48 - 42) / (48 - 30) = 1/3 kept.
    auto written = at(42e6, 10.5e6);
    CHECK(written.l2_kept == Approx(1.0 / 3));
    CHECK(written.dram_bytes == Approx(1e8 * 2 / 3 + 10.5e6));
    auto streams = at(54e6, 0);  // nothing kept: 1e8 B / 1000 B per cycle
    CHECK(streams.l2_kept == 0);
    CHECK(streams.dram_bytes == Approx(1e8));
    CHECK(streams.bound == "dram");
    CHECK(streams.cycles == Approx(1e5));
    // A read of one sector per 128-byte line takes its 64-byte granule: 30e6 of sectors use 60e6 of L2.
    p.footprint_bytes = 30e6;
    p.footprint_l2_bytes = 60e6;
    p.footprint_write_bytes = 0;
    CHECK(predict_profile(p, m).l2_kept == 0);
}

TEST_CASE("cold L2 (the spec's \"l2\": \"cold\"): nothing kept, every read from DRAM", "[timing]") {
    const auto m = l2_keep_params();
    LaunchProfile p = l2_profile();
    p.footprint_bytes = p.footprint_l2_bytes = 30e6;  // fits: a warm launch keeps all of it
    p.footprint_write_bytes = 10.5e6;
    CHECK(predict_profile(p, m).dram_bytes == Approx(10.5e6));
    p.l2_cold = true;
    auto cold = predict_profile(p, m);
    CHECK(cold.l2_kept == 0);
    CHECK(cold.dram_bytes == Approx(1e8 + 10.5e6));
    CHECK(cold.bound == "dram");
    CHECK(cold.cycles == Approx(1.105e5));  // 1.105e8 B at 1000 B per cycle
}

TEST_CASE("partially written sectors cost the L2 extra transfers", "[timing]") {
    auto m = simple_params();
    m.partial_sector_cost = 3;
    m.l2_bytes_per_cycle = 32;  // one sector per cycle
    LaunchProfile p = compute_profile(1056);
    p.l2_sectors = 1e6;
    p.store_sectors = 8e5;  // a transpose's scattered 4-byte stores: 8 sectors per 32 bytes
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
    p.l1_capacity_bytes = 256 * 1024;        // 8 x 256 threads x 256 B = 512 KiB of frames per SM: half hit
    p.l2_capacity_bytes = 60 * 1024 * 1024;  // 1056 x 256 x 256 B = 66 MiB of frames on the device
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

// With the SASS read: each spill instruction counts as often as its PTX line ran. Hand-computed: ptxas says
// 64 B of spill stores in 16 STL (4 B each) and 128 B of loads in 32 LDL; the STLs ran 10 times per warp in
// all 160 times per warp (summed over the 16 sites), the LDLs 3200 times (they sit in a loop).
TEST_CASE("register spills: with the SASS read, each spill instruction weighs its PTX line's executions",
          "[timing]") {
    LaunchProfile p = compute_profile(1056);  // 8448 warps
    p.static_insts = 50;
    p.spill_store_bytes = 64;
    p.spill_load_bytes = 128;
    p.stack_frame_bytes = 256;
    p.spill_sites_known = true;
    p.spill_store_insts = 16;
    p.spill_load_insts = 32;
    p.spill_store_execs = 160.0 * 8448;
    p.spill_load_execs = 3200.0 * 8448;
    auto s = spill_traffic(p);
    CHECK(s.store_sectors == Approx(4.0 * 160 * 8448));  // 4 B per thread per STL = 4 sectors per warp
    CHECK(s.load_sectors == Approx(4.0 * 3200 * 8448));
    CHECK(s.instructions == Approx((160.0 + 3200.0) * 8448));
    p.spill_sites_known = false;  // the fallback: the average instruction ran twice per warp
    CHECK(spill_traffic(p).load_sectors == Approx(128.0 * 2 * 8448));
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

// Hand-computed: 1000 MHz (1 cycle per ns), max() for overlaps. A histogram on 8 words in one region:
// 776,000 ns busiest, the same in total, against waves of far fewer cycles.
TEST_CASE("atomics serialised in the L2 limit the launch and name the bound", "[timing]") {
    auto m = simple_params();
    LaunchProfile p = compute_profile(132);
    const double waves = predict_profile(p, m).cycles;
    REQUIRE(waves < 1e5);
    p.atomic_requests = 32768;
    p.atomic_busiest_ns = 776000;
    p.atomic_total_ns = 776000;
    m.atomic_parallel_regions = 30;
    p.atomic_max_same_word = 32;
    auto pr = predict_profile(p, m);
    CHECK(pr.cycles == Approx(776000));
    CHECK(pr.bound == "atomic");
    CHECK(pr.bound_text.find("32 lanes of a warp update one word") != std::string::npos);
    // Spread over many regions: the total over 30 at once, 3e6 / 30 = 1e5 > the busiest 2e4.
    p.atomic_busiest_ns = 2e4;
    p.atomic_total_ns = 3e6;
    p.atomic_max_same_word = 1;
    pr = predict_profile(p, m);
    CHECK(pr.cycles == Approx(1e5));
    CHECK(pr.bound_text == "atomic throughput of the L2");
    // Below the waves: no effect with max().
    p.atomic_busiest_ns = p.atomic_total_ns = waves / 2;
    pr = predict_profile(p, m);
    CHECK(pr.cycles == Approx(waves));
    CHECK(pr.bound != "atomic");
}
