// Occupancy cases computed by hand (the seed's table and the boundaries), and the H200's own answers.
#include <catch2/catch.hpp>

#include <climits>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "sim/device/device.hpp"
#include "sim/device/occupancy.hpp"

namespace {

using warpsim::device::DevicePreset;
using warpsim::device::KernelResources;
using warpsim::device::Limiter;
using warpsim::device::Occupancy;

DevicePreset preset(const char* name) {
    auto loaded = warpsim::device::load_preset(name);
    INFO(loaded.error());
    REQUIRE(loaded.has_value());
    return loaded.value();
}

Occupancy occupancy(const DevicePreset& p, int threads, int regs, std::int64_t static_shared = 0,
                    std::int64_t dynamic_shared = 0) {
    KernelResources k;
    k.threads_per_block = threads;
    k.registers_per_thread = regs;
    k.static_shared_bytes = static_shared;
    k.dynamic_shared_bytes = dynamic_shared;
    auto result = warpsim::device::compute_occupancy(p, k);
    INFO(result.error());
    REQUIRE(result.has_value());
    return result.value();
}

}  // namespace

// H200 (9.0): 64 warps, 32 blocks, 65536 registers in 4 sub-partitions of 16384, 228 KB shared,
// 1 KB reserved per block, 128-byte shared granularity. 256 threads = 8 warps per block.
TEST_CASE("the seed's occupancy table on the H200, by hand", "[occupancy][seed]") {
    DevicePreset h200 = preset("h200");

    // 32 regs: 32*32 = 1024 per warp (4 units); 16384/1024 = 16 warps per sub-partition -> 64 warps -> 8
    // blocks, the same as the warp slots (64 / 8).
    Occupancy a = occupancy(h200, 256, 32);
    CHECK(a.blocks_per_sm == 8);
    CHECK(a.warps_per_sm == 64);
    CHECK(a.occupancy == 1.0);
    CHECK(a.limits.warps == 8);
    CHECK(a.limits.registers == 8);
    CHECK(a.limiters == std::vector<Limiter>{Limiter::warps, Limiter::registers});

    // 64 regs: 2048 per warp; 16384/2048 = 8 per sub-partition -> 32 warps -> 4 blocks, occupancy 0.5.
    Occupancy b = occupancy(h200, 256, 64);
    CHECK(b.blocks_per_sm == 4);
    CHECK(b.occupancy == 0.5);
    CHECK(b.limiter == Limiter::registers);

    // 32 regs + 48 KB: 49152 + 1024 reserved = 50176 bytes (392 x 128); 233472 / 50176 = 4.65 -> 4 blocks.
    Occupancy c = occupancy(h200, 256, 32, 48 * 1024);
    CHECK(c.blocks_per_sm == 4);
    CHECK(c.shared_per_block == 50176);
    CHECK(c.limits.shared == 4);
    CHECK(c.limiter == Limiter::shared_memory);
    CHECK(c.occupancy == 0.5);
    CHECK(c.shared_config_bytes == 233472);

    // 80 regs: 2560 per warp (exactly 10 units); 16384/2560 = 6.4 -> 6 per sub-partition -> 24 warps -> 3
    // blocks.
    Occupancy d = occupancy(h200, 256, 80);
    CHECK(d.blocks_per_sm == 3);
    CHECK(d.warps_per_sm == 24);
    CHECK(d.occupancy == 0.375);
    CHECK(d.limiter == Limiter::registers);
}

TEST_CASE("register allocation rounds each warp up to 256 registers", "[occupancy][registers]") {
    DevicePreset h200 = preset("h200");
    // 33 regs: 1056 per warp, allocated 1280; 16384/1280 = 12.8 -> 12 per sub-partition -> 48 warps -> 6
    // blocks (65536 / (33*256) would say 7).
    Occupancy o = occupancy(h200, 256, 33);
    CHECK(o.registers_per_warp == 1280);
    CHECK(o.registers_per_block == 10240);
    CHECK(o.blocks_per_sm == 6);
    // 40 regs: 1280 per warp, no rounding: the same 6 blocks.
    CHECK(occupancy(h200, 256, 40).blocks_per_sm == 6);
    // 32 regs is the last count with 8 blocks.
    CHECK(occupancy(h200, 256, 31).blocks_per_sm == 8);
    CHECK(occupancy(h200, 256, 32).blocks_per_sm == 8);
}

TEST_CASE("registers are split between the four sub-partitions", "[occupancy][registers]") {
    DevicePreset h200 = preset("h200");
    // 80 regs, one-warp blocks: the whole file would hold 65536/2560 = 25 warps, but each sub-partition
    // holds 16384/2560 = 6, so 24 warps = 24 blocks.
    Occupancy o = occupancy(h200, 32, 80);
    CHECK(o.limits.registers == 24);
    CHECK(o.blocks_per_sm == 24);
}

TEST_CASE("a block over the per-block register file cannot launch at all", "[occupancy][registers]") {
    DevicePreset h200 = preset("h200");
    // 1024 threads x 64 regs: 32 warps x 2048 = 65536 = the per-block limit: 1 block.
    CHECK(occupancy(h200, 1024, 64).blocks_per_sm == 1);
    // 65 regs: 2080 -> 2304 per warp, 32 x 2304 = 73728 > 65536: "too many resources requested for launch".
    Occupancy over = occupancy(h200, 1024, 65);
    CHECK(over.blocks_per_sm == 0);
    CHECK(over.limiter == Limiter::registers);
    // 255 regs: 8160 -> 8192 per warp; 2 warps per sub-partition = 8 warps: one 256-thread block, and a
    // 288-thread block (9 warps, counted as 12 by the hardware check: 98304 > 65536) cannot launch.
    CHECK(occupancy(h200, 256, 255).blocks_per_sm == 1);
    CHECK(occupancy(h200, 288, 255).blocks_per_sm == 0);
}

TEST_CASE("threads: warp slots, partial warps and the 1024 limit", "[occupancy][warps]") {
    DevicePreset h200 = preset("h200");
    // 33 threads take 2 warps: 64 / 2 = 32 blocks, also the block limit.
    Occupancy o = occupancy(h200, 33, 0);
    CHECK(o.blocks_per_sm == 32);
    CHECK(o.warps_per_sm == 64);
    // 1 thread: 64 warp slots allow 64 blocks, the SM allows 32: 32 warps resident, occupancy 0.5.
    Occupancy tiny = occupancy(h200, 1, 0);
    CHECK(tiny.blocks_per_sm == 32);
    CHECK(tiny.limiter == Limiter::blocks);
    CHECK(tiny.occupancy == 0.5);
    CHECK(tiny.limits.registers == warpsim::device::OccupancyLimits::unlimited);
    Occupancy too_big = occupancy(h200, 1025, 16);
    CHECK(too_big.blocks_per_sm == 0);
    CHECK(too_big.limiter == Limiter::warps);
}

TEST_CASE("shared memory: carveout steps, opt-in and the reserved kilobyte", "[occupancy][shared]") {
    DevicePreset h200 = preset("h200");
    KernelResources k;
    k.threads_per_block = 128;
    k.registers_per_thread = 16;
    k.static_shared_bytes = 48 * 1024;  // 50176 per block with the reservation

    // 50% of 228 KB = 116736 bytes, rounded up to the 132 KB step: 135168 / 50176 -> 2 blocks.
    k.carveout_percent = 50;
    Occupancy half = warpsim::device::compute_occupancy(h200, k).value();
    CHECK(half.shared_config_bytes == 132 * 1024);
    CHECK(half.blocks_per_sm == 2);
    // 0% (prefer L1): too small for one block, so the SM grows to the 64 KB step: 1 block.
    k.carveout_percent = 0;
    Occupancy none = warpsim::device::compute_occupancy(h200, k).value();
    CHECK(none.shared_config_bytes == 64 * 1024);
    CHECK(none.blocks_per_sm == 1);

    // 100 KB of dynamic shared memory without opting in: over the 48 KB default, 0 blocks.
    KernelResources dyn;
    dyn.threads_per_block = 256;
    dyn.registers_per_thread = 32;
    dyn.dynamic_shared_bytes = 100 * 1024;
    Occupancy refused = warpsim::device::compute_occupancy(h200, dyn).value();
    CHECK(refused.blocks_per_sm == 0);
    CHECK(refused.limiter == Limiter::shared_memory);
    // Opted in: 102400 + 1024 = 103424 per block; 233472 / 103424 = 2.26 -> 2 blocks.
    dyn.max_dynamic_shared_bytes = 100 * 1024;
    CHECK(warpsim::device::compute_occupancy(h200, dyn).value().blocks_per_sm == 2);
    // The largest block: 227 KB + 1 KB reserved = 228 KB exactly; one byte more does not fit.
    dyn.dynamic_shared_bytes = 227 * 1024;
    dyn.max_dynamic_shared_bytes = 227 * 1024;
    CHECK(warpsim::device::compute_occupancy(h200, dyn).value().blocks_per_sm == 1);
    dyn.dynamic_shared_bytes = 227 * 1024 + 1;
    dyn.max_dynamic_shared_bytes = 227 * 1024 + 1;
    CHECK(warpsim::device::compute_occupancy(h200, dyn).value().blocks_per_sm == 0);
    // 1 byte of dynamic shared memory still costs 1024 + 128 bytes: 233472 / 1152 = 202 -> blocks limit 32.
    Occupancy one = occupancy(h200, 32, 16, 0, 1);
    CHECK(one.shared_per_block == 1152);
    CHECK(one.limits.shared == 202);
}

TEST_CASE("other architectures, by hand", "[occupancy][arch]") {
    // V100 (7.0): no reserved shared memory, 256-byte granularity; 48 KB -> 98304 / 49152 = 2 blocks.
    CHECK(occupancy(preset("v100"), 256, 32, 48 * 1024).blocks_per_sm == 2);
    // T4 (7.5): 32 warps per SM, 16 blocks: 256 threads -> 4 blocks, full occupancy.
    Occupancy t4 = occupancy(preset("t4"), 256, 32);
    CHECK(t4.blocks_per_sm == 4);
    CHECK(t4.occupancy == 1.0);
    // RTX 4090 (8.9): 48 warps, 24 blocks; 64 threads (2 warps) -> 24 blocks = 48 warps.
    Occupancy ada = occupancy(preset("rtx4090"), 64, 32);
    CHECK(ada.blocks_per_sm == 24);
    CHECK(ada.occupancy == 1.0);
    // A100 (8.0): 164 KB per SM; 48 KB static + 1 KB -> 167936 / 50176 = 3 blocks.
    CHECK(occupancy(preset("a100"), 256, 32, 48 * 1024).blocks_per_sm == 3);
}

TEST_CASE("barriers limit blocks on Hopper only when a block uses many", "[occupancy][barriers]") {
    DevicePreset h200 = preset("h200");
    KernelResources k;
    k.threads_per_block = 64;
    k.registers_per_thread = 16;
    k.barriers_per_block = 16;  // 64 barrier slots / 16 = 4 blocks
    Occupancy o = warpsim::device::compute_occupancy(h200, k).value();
    CHECK(o.limits.barriers == 4);
    CHECK(o.blocks_per_sm == 4);
    CHECK(o.limiter == Limiter::barriers);
    // No barrier limit before 9.0.
    CHECK(warpsim::device::compute_occupancy(preset("a100"), k).value().limits.barriers ==
          warpsim::device::OccupancyLimits::unlimited);
}

TEST_CASE("impossible inputs are errors, not answers", "[occupancy][errors]") {
    DevicePreset h200 = preset("h200");
    KernelResources k;
    k.threads_per_block = 0;
    CHECK_THAT(warpsim::device::compute_occupancy(h200, k).error(), Catch::Contains("threads per block"));
    k.threads_per_block = 128;
    k.registers_per_thread = 256;
    CHECK_THAT(warpsim::device::compute_occupancy(h200, k).error(),
               Catch::Contains("registers per thread must be 0..255"));
    k.registers_per_thread = 32;
    k.carveout_percent = 101;
    CHECK_THAT(warpsim::device::compute_occupancy(h200, k).error(), Catch::Contains("carveout"));
    k.carveout_percent = -1;
    k.dynamic_shared_bytes = -4;
    CHECK_FALSE(warpsim::device::compute_occupancy(h200, k).has_value());
}

// Every answer of cudaOccupancyMaxActiveBlocksPerMultiprocessor recorded on our H200 (driver 580.159.04).
TEST_CASE("the H200's own occupancy answers", "[occupancy][hardware]") {
    std::ifstream in(std::string(WARPSIM_SOURCE_DIR) + "/tests/device/data/h200_occupancy_measured.json");
    REQUIRE(in);
    nlohmann::json data = nlohmann::json::parse(in);
    DevicePreset h200 = preset("h200");
    REQUIRE(data["device"]["sms"] == h200.sm_count);
    REQUIRE(data["device"]["shared_per_sm"] == h200.sm.shared_bytes);
    REQUIRE(data["device"]["reserved_shared_per_block"] == h200.sm.reserved_shared_per_block);
    REQUIRE(data["device"]["l2_bytes"] == h200.cache.l2_bytes);

    // The probe raised cudaFuncAttributeMaxDynamicSharedMemorySize whenever a launch needed more than 48 KB,
    // and never lowered it: replay that per kernel.
    std::map<std::string, std::int64_t> attribute;
    int rows = 0, mismatches = 0;
    std::string first;
    for (const auto& row : data["sweep"]) {
        std::string kernel = row[0];
        KernelResources k;
        k.registers_per_thread = row[1];
        k.static_shared_bytes = row[2];
        k.threads_per_block = row[3];
        k.dynamic_shared_bytes = row[4];
        k.carveout_percent = row[5];
        int measured = row[6];
        auto [it, inserted] = attribute.try_emplace(kernel, 48 * 1024 - k.static_shared_bytes);
        if (k.static_shared_bytes + k.dynamic_shared_bytes > 48 * 1024) it->second = k.dynamic_shared_bytes;
        k.max_dynamic_shared_bytes = it->second;
        auto ours = warpsim::device::compute_occupancy(h200, k);
        ++rows;
        if (!ours || ours->blocks_per_sm != measured) {
            if (mismatches++ == 0)
                first = row.dump() + " ours " + (ours ? std::to_string(ours->blocks_per_sm) : ours.error());
        }
    }
    INFO(mismatches << " of " << rows << " differ; first: " << first);
    CHECK(rows == 9632);
    CHECK(mismatches == 0);
}

TEST_CASE("the issue's Ada laptop example: 72 registers at 256 and 1024 threads, by hand",
          "[occupancy][seed]") {
    const DevicePreset ada = preset("rtx4060-laptop");
    // sm_89: 65536 registers in 4 sub-partitions of 16384; 72 x 32 = 2304 per warp (9 units of 256), so 7
    // warps fit a sub-partition, 28 an SM. A 256-thread block has 8 warps, 2 per sub-partition: 7 / 2 -> 3
    // blocks, 24 of 48 warps = 50 %.
    Occupancy o = occupancy(ada, 256, 72);
    CHECK(o.blocks_per_sm == 3);
    CHECK(o.warps_per_sm == 24);
    CHECK(o.occupancy == Approx(0.5));
    CHECK(o.limiter == Limiter::registers);
    // 1024 threads: 32 warps x 2304 = 73728 registers > 65536 per SM: no block fits, the launch fails with
    // "too many resources requested for launch".
    CHECK(occupancy(ada, 1024, 72).blocks_per_sm == 0);
}

// Block sizes no device accepts: 0 blocks per SM, and no int overflow on the way (the register arithmetic
// overflowed for INT_MAX threads; the sanitizer run of this test aborts without the bound).
TEST_CASE("absurd block sizes give zero blocks, not overflow", "[occupancy][hostile]") {
    DevicePreset h200 = preset("h200");
    for (int threads : {1025, 1 << 20, INT_MAX - 31, INT_MAX}) {
        Occupancy o = occupancy(h200, threads, 255);
        CHECK(o.blocks_per_sm == 0);
        CHECK(o.warps_per_sm == 0);
    }
}
