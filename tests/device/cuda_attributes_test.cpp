// cudaDeviceGetAttribute from a preset: the H200 preset answers what our H200 answered, attribute by
// attribute; another preset's limits come from its own file; overrides and unknown numbers.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/device/cuda_attributes.hpp"

namespace {

// "attr.NAME (NUMBER) VALUE cudaSuccess" lines of the H200's device_dump run.
std::vector<std::tuple<int, std::string, std::int64_t>> measured_h200_attributes() {
    std::ifstream in(std::string(WARPSIM_SOURCE_DIR) + "/tests/hardware/programs/h200/results.json");
    auto doc = nlohmann::json::parse(in);
    std::istringstream out(doc["runs"]["device_dump"]["stdout"].get<std::string>());
    std::vector<std::tuple<int, std::string, std::int64_t>> rows;
    std::regex line(R"(attr\.(\w+) \((\d+)\) (-?\d+) cudaSuccess)");
    for (std::string s; std::getline(out, s);) {
        std::smatch m;
        if (std::regex_match(s, m, line)) rows.emplace_back(std::stoi(m[2]), m[1], std::stoll(m[3]));
    }
    return rows;
}

}  // namespace

TEST_CASE("the H200 preset answers every cudaDeviceGetAttribute as our H200 did",
          "[cuda_attributes][hardware]") {
    auto h200 = warpsim::device::load_preset("h200");
    REQUIRE(h200.has_value());
    auto rows = measured_h200_attributes();
    REQUIRE(rows.size() == 137);  // every cudaDeviceAttr of CUDA 13.0
    for (const auto& [number, name, value] : rows) {
        INFO(name << " (" << number << ")");
        CHECK(warpsim::device::cuda_attribute_name(number) == name);
        auto got = warpsim::device::cuda_attribute(*h200, number);
        REQUIRE(got.has_value());
        if (name == "cudaDevAttrPciDeviceId") {
            CHECK(*got == 0);  // the slot of the machine's board (6 there); a simulated device has none
        } else {
            CHECK(*got == value);
        }
    }
}

TEST_CASE("another preset's limits come from its own file", "[cuda_attributes]") {
    auto t4 = warpsim::device::load_preset("t4");
    REQUIRE(t4.has_value());
    using warpsim::device::cuda_attribute;
    CHECK(cuda_attribute(*t4, 16) == 40);    // cudaDevAttrMultiProcessorCount: TU104 in the T4
    CHECK(cuda_attribute(*t4, 39) == 1024);  // cudaDevAttrMaxThreadsPerMultiProcessor on 7.5
    CHECK(cuda_attribute(*t4, 75) == 7);
    CHECK(cuda_attribute(*t4, 76) == 5);
    CHECK(cuda_attribute(*t4, 81) == 65536);  // cudaDevAttrMaxSharedMemoryPerMultiprocessor: 64 KB on 7.5
    CHECK(cuda_attribute(*t4, 120) == 0);     // cudaDevAttrClusterLaunch: clusters need 9.0
    CHECK(cuda_attribute(*t4, 40) == 3);      // no cuda_runtime section: the H200's copy engines
}

TEST_CASE("overrides, unknown numbers and names", "[cuda_attributes][errors]") {
    auto h200 = warpsim::device::load_preset("h200");
    REQUIRE(h200.has_value());
    warpsim::device::DevicePreset p = *h200;
    p.cuda_runtime->attributes["cudaDevAttrEccEnabled"] = 0;
    CHECK(warpsim::device::cuda_attribute(p, 32) == 0);
    CHECK(warpsim::device::cuda_attribute(*h200, 32) == 1);
    CHECK_FALSE(warpsim::device::cuda_attribute(*h200, 9999).has_value());
    CHECK_FALSE(warpsim::device::cuda_attribute(*h200, 44).has_value());  // a gap in the enum
    CHECK(warpsim::device::cuda_attribute_name(9999).empty());
    nlohmann::json j = nlohmann::json::parse(std::string(*warpsim::device::builtin_preset_text("h200")));
    j["cuda_runtime"]["attributes"] = {{"cudaDevAttrEccEnable", 0}};
    auto bad = warpsim::device::parse_preset(j.dump(), "h200.json");
    CHECK(bad.error() ==
          "h200.json: field 'cuda_runtime.attributes.cudaDevAttrEccEnable': not a cudaDeviceAttr of CUDA 13 "
          "(names as in "
          "driver_types.h)");
}
