// tests/counts/l1_capacity_test.cpp — the L1 capacity a launch gets: the combined L1/shared array less the
// carve-out the driver picks, worked out by hand for two presets from their cited numbers.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <string_view>

#include "sim/counts/l1_capacity.hpp"
#include "sim/session/run.hpp"

using namespace warpsim;

namespace {

device::Occupancy occupancy_of(const device::DevicePreset& p, int threads, int64_t static_shared,
                               int64_t dynamic_shared) {
    device::KernelResources k;
    k.threads_per_block = threads;
    k.registers_per_thread = 32;
    k.static_shared_bytes = static_shared;
    k.dynamic_shared_bytes = dynamic_shared;
    if (dynamic_shared > 0) k.max_dynamic_shared_bytes = dynamic_shared;
    auto occ = device::compute_occupancy(p, k);
    REQUIRE(occ.has_value());
    return occ.value();
}

}  // namespace

TEST_CASE("L1 capacity: combined L1/shared less the driver's carve-out, H200", "[counts][l1]") {
    const auto h200 = device::load_preset("h200");
    REQUIRE(h200.has_value());
    // 256 KB combined; carve-out steps 0, 8, 16, 32, 64, 100, 132, 164, 196, 228 KB; 1 KB reserved per block.
    // 256 threads, no shared variables: 64 warps / 8 = 8 blocks (32 registers do not limit: 16 warps of
    // 1024 registers per sub-partition x 4 = 64 warps), 8 x 1 KB = 8 KB -> the 8 KB step: 248 KB of L1.
    auto occ = occupancy_of(*h200, 256, 0, 0);
    CHECK(occ.blocks_per_sm == 8);
    CHECK(counts::driver_shared_carveout(*h200, occ) == 8 * 1024);
    CHECK(counts::l1_data_bytes(*h200, occ) == 248 * 1024);
    // 1024 threads with an 8 KB tile: 2 blocks (warps), 2 x (8 + 1) KB = 18 KB -> the 32 KB step: 224 KB.
    occ = occupancy_of(*h200, 1024, 8192, 0);
    CHECK(occ.blocks_per_sm == 2);
    CHECK(counts::l1_data_bytes(*h200, occ) == 224 * 1024);
    // 128 threads with 48 KB dynamic: 49 KB per block, 228 KB / 49 KB = 4 blocks = 196 KB, exactly the 196 KB
    // step: 60 KB of L1 (not the 28 KB the calculator's default 228 KB configuration would leave).
    occ = occupancy_of(*h200, 128, 0, 48 * 1024);
    CHECK(occ.blocks_per_sm == 4);
    CHECK(occ.shared_config_bytes == 228 * 1024);
    CHECK(counts::l1_data_bytes(*h200, occ) == 60 * 1024);
}

TEST_CASE("L1 capacity: combined L1/shared less the driver's carve-out, A100", "[counts][l1]") {
    const auto a100 = device::load_preset("a100");
    REQUIRE(a100.has_value());
    // 192 KB combined; steps 0, 8, 16, 32, 64, 100, 132, 164 KB. 256 threads, no shared variables: 8 blocks,
    // the 8 KB step: 184 KB of L1.
    auto occ = occupancy_of(*a100, 256, 0, 0);
    CHECK(occ.blocks_per_sm == 8);
    CHECK(counts::l1_data_bytes(*a100, occ) == 184 * 1024);
    // 128 threads with 48 KB dynamic: 164 KB / 49 KB = 3 blocks = 147 KB, above the 132 KB step: 164 KB
    // carve-out, 28 KB of L1.
    occ = occupancy_of(*a100, 128, 0, 48 * 1024);
    CHECK(occ.blocks_per_sm == 3);
    CHECK(counts::driver_shared_carveout(*a100, occ) == 164 * 1024);
    CHECK(counts::l1_data_bytes(*a100, occ) == 28 * 1024);
}

TEST_CASE("L1 capacity: a simulated launch's counters get the preset's L1, not a fixed 256 KB",
          "[counts][l1]") {
    // transpose_padded_1024: blocks of 32 x 8 threads with a 32 x 33 float tile, 4224 + 1024 reserved = 5248
    // B. With ptxas's register count 8 blocks are resident (warps): 41984 B -> the 64 KB step; where the
    // count is estimated without ptxas (64 registers) 4 blocks (registers): 20992 B -> the 32 KB step. H200:
    // 256 - 64 = 192 KB or 256 - 32 = 224 KB; A100 (192 KB combined): 128 KB or 160 KB.
    auto p = session::prepare(std::string(WARPSIM_SOURCE_DIR) + "/examples/specs/transpose_padded_1024.json");
    REQUIRE(p.ok());
    struct Want {
        const char* device;
        uint64_t with_8_blocks, with_4_blocks;
    };
    for (const Want& want : {Want{"h200", 192 * 1024, 224 * 1024}, Want{"a100", 128 * 1024, 160 * 1024}}) {
        INFO(want.device);
        session::SimOptions options;
        options.device = want.device;
        options.workers = 2;
        // The A100 (sm_80) cannot load PTX for sm_90 (session::ptx_target_error): the same PTX made for
        // sm_80.
        session::PreparedLaunch launch = *p;
        if (std::string_view(want.device) == "a100") {
            auto module = std::make_shared<ir::Module>(*p->module);
            module->target = {"sm_80"};
            launch.module = module;
            launch.kernel = &module->functions[launch.kernel_index];
            if (auto at = launch.ptx.find(".target sm_90"); at != std::string::npos)
                launch.ptx.replace(at, 13, ".target sm_80");
        }
        auto run = session::run_simulated(launch, options);
        REQUIRE(run.ok());
        REQUIRE(run->occupancy.has_value());
        const int blocks = run->occupancy->blocks_per_sm;
        REQUIRE((blocks == 8 || blocks == 4));
        CHECK(run->counters.config().l1_bytes == (blocks == 8 ? want.with_8_blocks : want.with_4_blocks));
    }
}
