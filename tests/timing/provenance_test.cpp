// tests/timing/provenance_test.cpp — what every prediction says about itself: the SM clock it converts
// cycles with and where its timing parameters come from, with the error to expect (issue 16, "Other GPUs").
// Expected text written from the presets' datasheet clocks (h200 and h100 1980 MHz, a100 1410 MHz) and the
// H200's errors in docs/TIMING.md (calibration 8.0 %, validation 7.2 %, held-out corpus 16.2 %).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "launch/result.hpp"
#include "sim/device/device.hpp"
#include "sim/session/run.hpp"
#include "sim/timing/timing.hpp"

using namespace warpsim;
using namespace warpsim::timing;
namespace fs = std::filesystem;

namespace {

const std::string kH200Error =
    "calibration 8.0 %, validation 7.2 % (MAPE, tests/timing/sets.json), held-out corpus 16.2 % mean "
    "(docs/TIMING.md)";

// A one-warp store of its thread indices, PTX for sm_70 so that every preset here can load it.
fs::path write_spec() {
    fs::path dir = fs::path(WARPSIM_BINARY_DIR) / "provenance_test";
    fs::create_directories(dir);
    std::ofstream(dir / "store_tid.ptx") << R"(.version 7.0
.target sm_70
.address_size 64
.visible .entry store_tid(.param .u64 out)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd2, %rd2, %rd3;
    st.global.u32 [%rd2], %r1;
    ret;
}
)";
    std::ofstream(dir / "store_tid.json")
        << R"({"source": "store_tid.ptx", "kernel": "store_tid", "grid": [1, 1, 1], "block": [32, 1, 1],
 "shared_bytes": 0, "args": [{"type": "u32", "count": 32, "init": "zero"}]})";
    return dir / "store_tid.json";
}

TimingResult predict_on(const std::string& device) {
    auto prep = session::prepare(write_spec().string(), device);
    REQUIRE(prep.ok());
    session::SimOptions opt;
    opt.device = device;
    auto run = session::run_simulated(prep.value(), opt);
    REQUIRE(run.ok());
    REQUIRE_FALSE(run.value().report.error);
    return predict_run(prep.value(), run.value());
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("provenance: the H200 is measured, the H100 borrows its fit, the A100 keeps the defaults",
          "[timing][provenance]") {
    auto h200 = device::load_preset("h200");
    auto h100 = device::load_preset("h100");
    auto a100 = device::load_preset("a100");
    REQUIRE(h200.has_value());
    REQUIRE(h100.has_value());
    REQUIRE(a100.has_value());

    const auto p200 = params_provenance(*h200);
    CHECK(p200.kind == "measured");
    CHECK(p200.from == "h200");
    CHECK(p200.expected_error == kH200Error);

    const auto p100 = params_provenance(*h100);
    CHECK(p100.kind == "borrowed");
    CHECK(p100.from == "h200");
    CHECK(
        p100.expected_error ==
        "unvalidated (no measurements of this GPU; the H200 itself: validation 7.2 %, held-out 16.2 % mean)");

    const auto pa = params_provenance(*a100);
    CHECK(pa.kind == "defaults");
    CHECK(pa.from.empty());
    CHECK(pa.expected_error == "unvalidated (the model's defaults; no GPU of this architecture measured)");
}

TEST_CASE("provenance: the prediction uses the preset's boost clock and says so", "[timing][provenance]") {
    auto h200 = device::load_preset("h200");
    auto a100 = device::load_preset("a100");
    REQUIRE(h200.has_value());
    REQUIRE(a100.has_value());
    CHECK(prediction_clock_mhz(*h200) == 1980);
    CHECK(prediction_clock_mhz(*a100) == 1410);
    CHECK(
        clock_text(*h200) ==
        "1980 MHz, the preset's SM boost clock (clocks.sm_boost_mhz); the clock under load is not measured");
    CHECK(
        clock_text(*a100) ==
        "1410 MHz, the preset's SM boost clock (clocks.sm_boost_mhz); the clock under load is not measured");
    device::DevicePreset none = *a100;
    none.clocks.sm_boost_mhz = 0;
    CHECK(prediction_clock_mhz(none) == 1000);
    CHECK(clock_text(none) == "1000 MHz, assumed: the preset gives no SM boost clock (clocks.sm_boost_mhz)");
}

TEST_CASE("provenance: the report's timing block and its JSON state clock, parameters and expected error",
          "[timing][provenance]") {
    SECTION("h200: measured") {
        const auto r = predict_on("h200");
        CHECK(has(r.text, "\n          parameters: measured: preset h200.json (fitted)\n"));
        CHECK(has(r.text, "\n          expected error: " + kH200Error + "\n"));
        CHECK(has(r.text,
                  "\n          clock: 1980 MHz, the preset's SM boost clock (clocks.sm_boost_mhz); the clock "
                  "under load is not measured\n"));
        CHECK(has(r.text, " cycles at 1980 MHz + "));
        CHECK(r.predicted.clock_mhz == 1980);
        CHECK(r.predicted.parameters == "measured");
        CHECK(r.predicted.expected_error == kH200Error);
        launch::RunReport rep;
        rep.predicted = r.predicted;
        const auto j = launch::to_json(rep);
        CHECK(j["predicted"]["parameters"] == "measured");
        CHECK(j["predicted"]["clock_mhz"] == 1980);
        CHECK(j["predicted"]["expected_error"] == kH200Error);
        auto back = launch::from_json(nlohmann::json::parse(j.dump()));
        REQUIRE(back.ok());
        REQUIRE(back->predicted.has_value());
        CHECK(back->predicted->parameters == "measured");
        CHECK(back->predicted->parameters_origin == "preset h200.json (fitted)");
        CHECK(back->predicted->clock == r.predicted.clock);
    }
    SECTION("h100: borrowed from the H200") {
        const auto r = predict_on("h100");
        CHECK(
            has(r.text, "\n          parameters: borrowed: the H200's fit (same sm_90 microarchitecture; "));
        CHECK(has(r.text, "\n          expected error: unvalidated (no measurements of this GPU; "));
        CHECK(has(r.text, "\n          clock: 1980 MHz, the preset's SM boost clock"));
        CHECK(r.predicted.parameters == "borrowed");
    }
    SECTION("a100: defaults") {
        const auto r = predict_on("a100");
        CHECK(has(r.text, "\n          parameters: defaults (not fitted for this preset)\n"));
        CHECK(
            has(r.text,
                "\n          expected error: unvalidated (the model's defaults; no GPU of this architecture "
                "measured)\n"));
        CHECK(has(r.text,
                  "\n          clock: 1410 MHz, the preset's SM boost clock (clocks.sm_boost_mhz); the clock "
                  "under load is not measured\n"));
        CHECK(has(r.text, " cycles at 1410 MHz + "));
        CHECK(r.predicted.clock_mhz == 1410);
        CHECK(r.predicted.parameters == "defaults");
    }
}
