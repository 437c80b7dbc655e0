// Device presets: every built-in one loads, matches its file, cites its numbers; bad files name the field.
#include <catch2/catch.hpp>

#include <climits>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/device/device.hpp"
#include "sim/device/occupancy.hpp"

namespace {

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string h200_text() {
    return std::string(*warpsim::device::builtin_preset_text("h200"));
}

// The H200 preset with one edit applied, parsed under the name "h200.json".
std::string error_after(const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json j = nlohmann::json::parse(h200_text());
    edit(j);
    auto result = warpsim::device::parse_preset(j.dump(2), "h200.json");
    return result.has_value() ? std::string("(no error)") : result.error();
}

}  // namespace

TEST_CASE("the built-in presets are the ones asked for", "[presets]") {
    std::vector<std::string> names = warpsim::device::list_presets();
    for (const char* wanted : {"h200", "h100", "a100", "v100", "rtx4090", "rtx4060-laptop", "t4"}) {
        CHECK(std::find(names.begin(), names.end(), wanted) != names.end());
    }
    CHECK(warpsim::device::default_preset_name == "h200");
}

TEST_CASE("every built-in preset loads, and its embedded text equals the file", "[presets]") {
    const std::filesystem::path dir = WARPSIM_PRESET_DIR;
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".json") continue;
        ++files;
        std::string name = entry.path().stem().string();
        INFO(name << ": if the texts differ, run cmake -P sim/device/embed_presets.cmake");
        auto embedded = warpsim::device::builtin_preset_text(name);
        REQUIRE(embedded.has_value());
        CHECK(std::string(*embedded) == read_file(entry.path()));
        auto loaded = warpsim::device::load_preset(name);
        INFO(loaded.error());
        REQUIRE(loaded.has_value());
        CHECK(loaded->name == name);
        if (name == "h200") {
            // The one GPU we measure: its timing parameters are fitted, kept in the fit's record alone (the
            // record names the data set), and its clock under load is measured.
            CHECK(loaded->timing.fitted);
            CHECK(loaded->timing.values.empty());
            CHECK_THAT(loaded->timing.status, Catch::Contains("sim/timing/h200_fit.json"));
            CHECK(loaded->clocks.sm_sustained_mhz == 1980);
        } else {
            CHECK_FALSE(loaded->timing.fitted);
            CHECK_THAT(loaded->timing.status, Catch::Contains("PLACEHOLDER"));
            CHECK_FALSE(loaded->clocks.sm_sustained_mhz.has_value());  // nobody measured it
        }
    }
    CHECK(files == warpsim::device::list_presets().size());
}

TEST_CASE("the H200 preset holds what we measured on ours", "[presets][hardware]") {
    auto h200 = warpsim::device::load_preset("h200");
    REQUIRE(h200.has_value());
    CHECK(h200->compute_capability == warpsim::device::ComputeCapability{9, 0});
    CHECK(h200->arch() == "sm_90");
    CHECK(h200->sm_count == 132);
    CHECK(h200->cache.l2_bytes == 60 * 1024 * 1024);
    CHECK(h200->clocks.sm_boost_mhz == 1980);
    CHECK(h200->memory.measured_copy_gbps == 4300);
    CHECK(h200->sm.shared_bytes == 228 * 1024);
    CHECK(h200->block.shared_optin_bytes == 227 * 1024);
    CHECK(h200->sm.reserved_shared_per_block == 1024);
    CHECK(h200->sm.shared_carveout_bytes ==
          std::vector<std::int64_t>{0, 8192, 16384, 32768, 65536, 102400, 135168, 167936, 200704, 233472});
    CHECK(h200->block.max_registers_per_thread == 255);
    CHECK(h200->sources.at("sm_count").find("measured on our H200") != std::string::npos);
}

TEST_CASE("the H200 preset's CUDA runtime section: its name, copy engines and copy model",
          "[presets][hardware]") {
    auto h200 = warpsim::device::load_preset("h200");
    REQUIRE(h200.has_value());
    REQUIRE(h200->cuda_runtime.has_value());
    const auto& rt = *h200->cuda_runtime;
    // cudaDeviceProp::name and asyncEngineCount as the H200 printed them (tests/hardware/programs/h200).
    CHECK(rt.product_name == "NVIDIA H200");
    CHECK(rt.copy_engines == 3);
    // The fitted link reproduces the measured pinned copies: 256 MB H2D in 4855.94 us, 4 KB D2H in 3.26 us.
    CHECK(rt.pinned_h2d.latency_us + 268435456 / (rt.pinned_h2d.gbps * 1e3) == Approx(4855.94).epsilon(0.01));
    CHECK(rt.pinned_d2h.latency_us + 4096 / (rt.pinned_d2h.gbps * 1e3) == Approx(3.26).epsilon(0.03));
    CHECK(rt.attributes.empty());
    // The other presets have none: the runtime falls back to the H200's copy model.
    CHECK_FALSE(warpsim::device::load_preset("t4")->cuda_runtime.has_value());
}

TEST_CASE("a preset can be loaded from a user's file", "[presets]") {
    auto path = std::filesystem::temp_directory_path() / "warpsim_test_custom_gpu.json";
    nlohmann::json j = nlohmann::json::parse(h200_text());
    j["name"] = "custom";
    j["sm_count"] = 66;
    std::ofstream(path) << j.dump(2);
    auto loaded = warpsim::device::load_preset(path.string());
    std::filesystem::remove(path);
    INFO(loaded.error());
    REQUIRE(loaded.has_value());
    CHECK(loaded->name == "custom");
    CHECK(loaded->sm_count == 66);
    CHECK(loaded->origin == path.string());
}

TEST_CASE("bad presets are errors that name the file and the field", "[presets][errors]") {
    CHECK(error_after([](nlohmann::json& j) { j["sm"]["max_warps"] = -3; }) ==
          "h200.json: field 'sm.max_warps': expected a positive integer");
    CHECK(error_after([](nlohmann::json& j) { j["sm"]["max_warps"] = "64"; }) ==
          "h200.json: field 'sm.max_warps': expected a positive integer");
    CHECK(error_after([](nlohmann::json& j) { j["sm"].erase("registers"); }) ==
          "h200.json: field 'sm.registers': missing (expected a positive integer)");
    CHECK_THAT(error_after([](nlohmann::json& j) { j["sm"]["max_warp"] = 64; }),
               Catch::StartsWith("h200.json: field 'sm.max_warp': unknown field"));
    CHECK_THAT(error_after([](nlohmann::json& j) { j["sm"]["max_warps"] = 60; }),
               Catch::StartsWith(
                   "h200.json: field 'sm.max_threads': 2048 is not sm.max_warps (60) x warp_size (32)"));
    CHECK_THAT(error_after([](nlohmann::json& j) { j["sources"].erase("sm_count"); }),
               Catch::StartsWith("h200.json: field 'sm_count': no source given"));
    CHECK_THAT(
        error_after([](nlohmann::json& j) {
            j["sm"]["shared_carveout_kb"] = {0, 16, 8, 228};
        }),
        Catch::StartsWith("h200.json: field 'sm.shared_carveout_kb': expected a non-empty ascending array"));
    CHECK_THAT(error_after([](nlohmann::json& j) { j["block"]["max_registers_per_thread"] = 256; }),
               Catch::StartsWith("h200.json: field 'block.max_registers_per_thread'"));
    CHECK_THAT(error_after([](nlohmann::json& j) { j["compute_capability"]["major"] = 6; }),
               Catch::Contains("not supported"));
    CHECK_THAT(error_after([](nlohmann::json& j) { j["timing"]["dram_latency_cycles"] = "slow"; }),
               Catch::StartsWith("h200.json: field 'timing.dram_latency_cycles': expected a number"));
    CHECK_THAT(
        error_after([](nlohmann::json& j) {
            j["block"]["max_dims"] = {1024, 1024};
        }),
        Catch::StartsWith("h200.json: field 'block.max_dims': expected an array of 3 positive integers"));
    CHECK(error_after([](nlohmann::json& j) { j["cuda_runtime"]["pinned_h2d"].erase("gbps"); }) ==
          "h200.json: field 'cuda_runtime.pinned_h2d.gbps': missing (expected a positive number)");
    CHECK_THAT(error_after([](nlohmann::json& j) { j["cuda_runtime"]["copy_engine"] = 2; }),
               Catch::StartsWith("h200.json: field 'cuda_runtime.copy_engine': unknown field"));
    CHECK(error_after([](nlohmann::json& j) {
              j["cuda_runtime"]["attributes"] = {{"cudaDevAttrEccEnabled", 1.5}};
          }) ==
          "h200.json: field 'cuda_runtime.attributes.cudaDevAttrEccEnabled': expected a 32-bit integer");
    CHECK_THAT(error_after([](nlohmann::json& j) { j["sources"].erase("cuda_runtime"); }),
               Catch::Contains("no source given"));
    // The clock under load: at most the boost clock, cited; absent or null = not measured.
    CHECK(error_after([](nlohmann::json& j) { j["clocks"]["sm_sustained_mhz"] = 2100; }) ==
          "h200.json: field 'clocks.sm_sustained_mhz': exceeds clocks.sm_boost_mhz (a GPU holds at most its "
          "boost clock)");
    CHECK(error_after([](nlohmann::json& j) { j["clocks"]["sm_sustained_mhz"] = 0; }) ==
          "h200.json: field 'clocks.sm_sustained_mhz': expected a positive number or null");
    CHECK_THAT(error_after([](nlohmann::json& j) { j["sources"].erase("clocks.sm_sustained_mhz"); }),
               Catch::StartsWith("h200.json: field 'clocks.sm_sustained_mhz': no source given"));
    CHECK(error_after([](nlohmann::json& j) {
              j["clocks"].erase("sm_sustained_mhz");
              j["sources"].erase("clocks.sm_sustained_mhz");
          }) == "(no error)");
    // A parent's source covers its children.
    CHECK(error_after([](nlohmann::json& j) {
              j["sources"].erase("cache.l2_bytes");
              j["sources"].erase("cache.l1_bytes_per_sm");
              j["sources"]["cache"] = "a datasheet";
          }) == "(no error)");
}

TEST_CASE("malformed JSON, unknown names and missing files", "[presets][errors]") {
    auto bad = warpsim::device::parse_preset("{\n  \"name\": \"x\",\n  \"sm_count\": ,\n}", "mine.json");
    REQUIRE_FALSE(bad.has_value());
    CHECK_THAT(bad.error(), Catch::StartsWith("mine.json:3:15: invalid JSON"));
    auto unknown = warpsim::device::load_preset("h300");
    REQUIRE_FALSE(unknown.has_value());
    CHECK_THAT(unknown.error(),
               Catch::StartsWith("unknown device preset 'h300' (built in: a100, h100, h200"));
    auto missing = warpsim::device::load_preset("/nonexistent/dir/gpu.json");
    REQUIRE_FALSE(missing.has_value());
    CHECK_THAT(missing.error(),
               Catch::StartsWith("/nonexistent/dir/gpu.json: cannot open the device preset: No such file"));
}

// The committed preset fuzz corpus (tests/fuzz/corpus/preset): absurd values, nesting, bytes that are not
// UTF-8. Each parses or fails with a message; what parses gives occupancy answers without overflow.
TEST_CASE("the preset fuzz corpus parses or fails with a message", "[fuzz][hostile]") {
    namespace fs = std::filesystem;
    int files = 0;
    for (const auto& entry :
         fs::directory_iterator(fs::path(WARPSIM_SOURCE_DIR) / "tests/fuzz/corpus/preset")) {
        std::ifstream in(entry.path(), std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        INFO(entry.path().filename().string());
        auto p = warpsim::device::parse_preset(ss.str(), entry.path().filename().string());
        ++files;
        if (!p) {
            CHECK_FALSE(p.error().empty());
            continue;
        }
        for (int threads : {1, 1024, 1025, INT_MAX}) {
            warpsim::device::KernelResources k;
            k.threads_per_block = threads;
            k.registers_per_thread = 64;
            auto o = warpsim::device::compute_occupancy(p.value(), k);
            if (o) CHECK(o->blocks_per_sm >= 0);
        }
    }
    CHECK(files >= 5);
}

TEST_CASE("a number beyond a double's range in a preset is a message, not an exception", "[fuzz][hostile]") {
    // Found by fuzz_preset (tests/fuzz/corpus/preset/number_overflow.json): nlohmann throws out_of_range 406.
    auto p = warpsim::device::parse_preset(R"({"name": "x", "sm_count": 25769e803776})", "big.json");
    REQUIRE_FALSE(p);
    CHECK_THAT(p.error(), Catch::Contains("big.json: invalid JSON: number overflow parsing '25769e803776'"));
}
