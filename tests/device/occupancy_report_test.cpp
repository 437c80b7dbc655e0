// The occupancy presentation: JSON fields, the text table, the sweep view and the device list.
#include <catch2/catch.hpp>

#include "sim/device/occupancy_report.hpp"

namespace {

warpsim::device::DevicePreset h200() {
    return warpsim::device::load_preset("h200").value();
}

warpsim::device::KernelResources launch(int threads, int regs, std::int64_t static_shared = 0) {
    warpsim::device::KernelResources k;
    k.threads_per_block = threads;
    k.registers_per_thread = regs;
    k.static_shared_bytes = static_shared;
    return k;
}

}  // namespace

TEST_CASE("occupancy JSON carries the result and every limit", "[report]") {
    auto p = h200();
    auto r = warpsim::device::compute_occupancy(p, launch(256, 32)).value();
    nlohmann::json j = warpsim::device::occupancy_json(r);
    // By hand: 8 blocks x 8 warps; warps and registers both allow 8; 233472 / 1024 = 228 for shared memory;
    // 64 barrier slots / 1 barrier.
    CHECK(j["blocks_per_sm"] == 8);
    CHECK(j["warps_per_sm"] == 64);
    CHECK(j["occupancy"] == 1.0);
    CHECK(j["limiter"] == "warps");
    CHECK(j["limiters"] == nlohmann::json::array({"warps", "registers"}));
    CHECK(j["limits"]["warps"] == 8);
    CHECK(j["limits"]["registers"] == 8);
    CHECK(j["limits"]["shared"] == 228);
    CHECK(j["limits"]["blocks"] == 32);
    CHECK(j["limits"]["barriers"] == 64);
    CHECK(j["shared_config_bytes"] == 233472);
    // No registers at all: that limit does not apply and shows as null.
    auto none = warpsim::device::compute_occupancy(p, launch(64, 0)).value();
    CHECK(warpsim::device::occupancy_json(none)["limits"]["registers"].is_null());
}

TEST_CASE("occupancy text names the limiter and each resource", "[report]") {
    auto p = h200();
    auto k = launch(256, 32, 48 * 1024);
    auto r = warpsim::device::compute_occupancy(p, k).value();
    std::string text = warpsim::device::format_occupancy(p, k, r);
    CHECK_THAT(text, Catch::Contains("blocks per SM   4"));
    CHECK_THAT(text, Catch::Contains("warps per SM    32 of 64"));
    CHECK_THAT(text, Catch::Contains("occupancy       50.0%"));
    CHECK_THAT(text, Catch::Contains("limiter         shared_memory"));
    CHECK_THAT(text, Catch::Contains("50176 B"));
}

TEST_CASE("the seed's table as rows", "[report]") {
    auto p = h200();
    std::string rows = warpsim::device::format_occupancy_rows(
        p, {launch(256, 32), launch(256, 64), launch(256, 32, 48 * 1024), launch(256, 80), launch(256, 300)});
    CHECK_THAT(rows, Catch::Contains("      8     64    100.0%  warps (also registers)"));
    CHECK_THAT(rows, Catch::Contains("      3     24     37.5%  registers"));
    CHECK_THAT(rows, Catch::Contains("error: registers per thread must be 0..255"));
}

TEST_CASE("a sweep over block sizes and registers", "[report]") {
    auto p = h200();
    auto sweep = warpsim::device::sweep_occupancy(p, launch(32, 0), warpsim::device::SweepAxis::registers,
                                                  {32, 64, 128});
    REQUIRE(sweep.has_value());
    REQUIRE(sweep->block_sizes.size() == 32);
    CHECK(sweep->block_sizes.front() == 32);
    CHECK(sweep->block_sizes.back() == 1024);
    // 256 threads (row 7): 8, 4 and 2 blocks (128 regs: 4096 per warp, 4 per sub-partition, 16 warps).
    CHECK(sweep->cells[7][0].blocks_per_sm == 8);
    CHECK(sweep->cells[7][1].blocks_per_sm == 4);
    CHECK(sweep->cells[7][2].blocks_per_sm == 2);
    // 1024 threads with 128 registers: 32 x 4096 = 131072 > 65536 registers per block, so none.
    CHECK(sweep->cells[31][2].blocks_per_sm == 0);
    std::string text = warpsim::device::format_sweep(p, *sweep);
    CHECK_THAT(text, Catch::Contains("    256    8 100% W     4 50% R     2 25% R"));
    CHECK_THAT(text, Catch::Contains("0 - R"));
    nlohmann::json j = warpsim::device::sweep_json(*sweep);
    CHECK(j["axis"] == "registers_per_thread");
    CHECK(j["rows"][7]["cells"][1]["blocks_per_sm"] == 4);
}

TEST_CASE("the devices listing shows every preset and the default", "[report]") {
    std::vector<warpsim::device::DevicePreset> presets;
    for (const std::string& name : warpsim::device::list_presets())
        presets.push_back(warpsim::device::load_preset(name).value());
    std::string text = warpsim::device::format_devices(presets);
    CHECK_THAT(text, Catch::Contains("h200 (default)"));
    CHECK_THAT(text, Catch::Contains("rtx4060-laptop"));
    CHECK_THAT(text, Catch::Contains("sm_75"));
    CHECK_THAT(text, Catch::Contains("60 MiB"));
    nlohmann::json j = warpsim::device::devices_json(presets);
    CHECK(j.size() == presets.size());
}
