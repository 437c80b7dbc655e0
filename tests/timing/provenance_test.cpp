// tests/timing/provenance_test.cpp — what every prediction says about itself: the SM clock it converts
// cycles with and where its timing parameters come from, with the error to expect (issue 16, "Other GPUs").
// Expected text written from the presets' datasheet clocks (h200 and h100 1980 MHz, a100 1410 MHz) and the
// H200's errors in docs/TIMING.md (calibration 8.0 %, validation 7.2 %, held-out corpus 19.5 %); the last
// case checks that docs/TIMING.md and the fit's record (sim/timing/h200_fit.json) agree.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "launch/result.hpp"
#include "sim/device/device.hpp"
#include "sim/session/run.hpp"
#include "sim/timing/fitted.hpp"
#include "sim/timing/timing.hpp"

using namespace warpsim;
using namespace warpsim::timing;
namespace fs = std::filesystem;

namespace {

const std::string kH200Error =
    "calibration 8.0 %, validation 7.2 % (MAPE, tests/timing/sets.json), held-out corpus 19.5 % mean "
    "(docs/TIMING.md)";
// The h200 preset carries no timing values: its fit's record does (sim/timing/h200_fit.json, "data_set").
const std::string kH200Origin =
    "sim/timing/h200_fit.json, fitted to tests/hardware/h200/results.json (2026-11-29T23:26:11Z, driver "
    "580.159.04), calibration set of tests/timing/sets.json (44 launches)";
const std::string kSustainedText =
    "1980 MHz, the preset's SM boost clock (clocks.sm_boost_mhz), sustained under load (measured: "
    "clocks.sm_sustained_mhz)";

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

// The last line of `lines` that starts with `prefix` ("" when none does).
std::string last_line_starting(const std::vector<std::string>& lines, const std::string& prefix) {
    std::string found;
    for (const auto& line : lines)
        if (line.starts_with(prefix)) found = line;
    return found;
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
        "unvalidated (no measurements of this GPU; the H200 itself: validation 7.2 %, held-out 19.5 % mean)");

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
    CHECK(clock_text(*h200) == kSustainedText);
    CHECK(
        clock_text(*a100) ==
        "1410 MHz, the preset's SM boost clock (clocks.sm_boost_mhz); the clock under load is not measured");
    device::DevicePreset none = *a100;
    none.clocks.sm_boost_mhz = 0;
    CHECK(prediction_clock_mhz(none) == 1000);
    CHECK(clock_text(none) == "1000 MHz, assumed: the preset gives no SM boost clock (clocks.sm_boost_mhz)");
}

// The clock text comes from the preset's fields alone: any preset with a measured sustained clock says so,
// and one measured below its boost clock is predicted at the clock measured.
TEST_CASE("provenance: the clock under load is a preset field", "[timing][provenance]") {
    auto a100 = device::load_preset("a100");
    REQUIRE(a100.has_value());
    REQUIRE_FALSE(a100->clocks.sm_sustained_mhz.has_value());
    device::DevicePreset held = *a100;
    held.clocks.sm_sustained_mhz = 1410;
    CHECK(prediction_clock_mhz(held) == 1410);
    CHECK(clock_text(held) ==
          "1410 MHz, the preset's SM boost clock (clocks.sm_boost_mhz), sustained under load (measured: "
          "clocks.sm_sustained_mhz)");
    device::DevicePreset throttled = *a100;
    throttled.clocks.sm_sustained_mhz = 1275;
    CHECK(prediction_clock_mhz(throttled) == 1275);
    CHECK(
        clock_text(throttled) ==
        "1275 MHz, the SM clock sustained under load (measured: clocks.sm_sustained_mhz), below the preset's "
        "SM boost clock of 1410 MHz (clocks.sm_boost_mhz)");
    // A renamed copy of the H200 keeps its measured clock: nothing is keyed on the name.
    auto h200 = device::load_preset("h200");
    REQUIRE(h200.has_value());
    device::DevicePreset renamed = *h200;
    renamed.name = "my_h200";
    CHECK(clock_text(renamed) == kSustainedText);
}

// The H200's sustained clock as tests/timing/scatter measured it: every launch of a second or more ran its
// blocks at a median within 1 MHz of the preset's value ("clock KIND LAUNCH BLOCKS SECONDS MEDIAN MIN MAX").
TEST_CASE("provenance: the h200 preset's sustained clock is the one measured under load",
          "[timing][provenance]") {
    auto h200 = device::load_preset("h200");
    REQUIRE(h200.has_value());
    REQUIRE(h200->clocks.sm_sustained_mhz.has_value());
    CHECK(h200->sources.contains("clocks.sm_sustained_mhz"));
    std::ifstream in(std::string(WARPSIM_SOURCE_DIR) + "/tests/timing/scatter/results_h200.txt");
    REQUIRE(in.good());
    int long_launches = 0;
    for (std::string line; std::getline(in, line);) {
        if (!line.starts_with("clock ")) continue;
        std::istringstream row(line.substr(6));
        std::string kind;
        int launch = 0, blocks = 0;
        double seconds = 0, median = 0, lowest = 0, highest = 0;
        REQUIRE(row >> kind >> launch >> blocks >> seconds >> median >> lowest >> highest);
        if (seconds < 0.5) continue;
        ++long_launches;
        INFO(line);
        CHECK(std::abs(median - *h200->clocks.sm_sustained_mhz) <= 1.0);
    }
    CHECK(long_launches >= 4);
}

// The h200 preset names its fit's record instead of repeating its values: the parameters are the record's,
// over the model's measured defaults (tests/timing/mlp: L1 47 and L2 280 cycles, 9.4 loads in flight;
// tests/timing/l2_reuse: keep fractions 0.67, 0.90, 0.80).
TEST_CASE("provenance: the h200 preset's parameters are its fit's record's", "[timing][provenance]") {
    auto h200 = device::load_preset("h200");
    REQUIRE(h200.has_value());
    CHECK(h200->timing.fitted);
    CHECK(h200->timing.values.empty());
    const auto fit = builtin_fit("h200");
    REQUIRE(fit.has_value());
    const ModelParams m = params_for(*h200);
    CHECK(params_to_values(m) == fit->values);
    CHECK(m.l1_latency_cycles == 47);
    CHECK(m.l2_latency_cycles == 280);
    CHECK(m.loads_in_flight_per_warp == 9.4);
    CHECK(m.l2_keep_all_fraction == 0.67);
    CHECK(m.l2_keep_none_fraction == 0.90);
    CHECK(m.l2_keep_none_written_fraction == 0.80);
    const auto p = params_provenance(*h200);
    CHECK(p.origin == kH200Origin);
    CHECK(p.expected_error == kH200Error);
    // docs/TIMING.md's copy of the measured ones ("Parameters and the fit") is the model's.
    std::ifstream doc_in(std::string(WARPSIM_SOURCE_DIR) + "/docs/TIMING.md");
    REQUIRE(doc_in.good());
    std::ostringstream doc;
    doc << doc_in.rdbuf();
    CHECK(has(doc.str(),
              fmt::format("`l1_latency_cycles` {}, `l2_latency_cycles` {}, `loads_in_flight_per_warp` {}",
                          m.l1_latency_cycles, m.l2_latency_cycles, m.loads_in_flight_per_warp)));
}

TEST_CASE("provenance: the report's timing block and its JSON state clock, parameters and expected error",
          "[timing][provenance]") {
    SECTION("h200: measured") {
        const auto r = predict_on("h200");
        CHECK(has(r.text, "\n          parameters: measured: " + kH200Origin + "\n"));
        CHECK(has(r.text, "\n          expected error: " + kH200Error + "\n"));
        CHECK(has(r.text, "\n          clock: " + kSustainedText + "\n"));
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
        CHECK(back->predicted->parameters_origin == kH200Origin);
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

// One place per fact: the reports read the H200's errors from its fit's record, sim/timing/h200_fit.json
// (built in); docs/TIMING.md writes them in four places, each checked against the record here.
TEST_CASE("provenance: docs/TIMING.md states the H200's errors as the fit's record has them",
          "[timing][provenance]") {
    const std::string root = WARPSIM_SOURCE_DIR;
    std::ifstream record_in(root + "/sim/timing/h200_fit.json");
    REQUIRE(record_in.good());
    const auto record = nlohmann::json::parse(record_in);
    REQUIRE(record.contains("heldout"));
    const auto pct = [](const nlohmann::json& v) { return fmt::format("{:.1f}", v.get<double>()); };
    const std::string cal = pct(record["calibration_mape_pct"]), val = pct(record["validation_mape_pct"]);
    const std::string held = pct(record["heldout"]["mean_abs_error_pct"]);
    const std::string held_median = pct(record["heldout"]["median_abs_error_pct"]);
    const std::string launches = std::to_string(record["heldout"]["launches"].get<int>());

    // The build's copy is the file.
    const auto fit = builtin_fit("h200");
    REQUIRE(fit.has_value());
    CHECK(fit->accuracy.calibration_mape_pct == record["calibration_mape_pct"].get<double>());
    CHECK(fit->accuracy.validation_mape_pct == record["validation_mape_pct"].get<double>());
    REQUIRE(fit->accuracy.heldout_mean_pct.has_value());
    CHECK(*fit->accuracy.heldout_mean_pct == record["heldout"]["mean_abs_error_pct"].get<double>());

    std::ifstream doc_in(root + "/docs/TIMING.md");
    REQUIRE(doc_in.good());
    std::vector<std::string> doc;
    for (std::string line; std::getline(doc_in, line);) doc.push_back(line);

    INFO("record: calibration " << cal << " %, validation " << val << " %, held-out " << held << " % mean, "
                                << held_median << " % median over " << launches << " launches");
    // The table of presets.
    const std::string row = last_line_starting(doc, "| h200 |");
    INFO(row);
    CHECK(row.ends_with("| calibration " + cal + " %, validation " + val + " % (MAPE), held-out corpus " +
                        held + " % mean |"));
    // The report's timing block as the doc shows it.
    auto h200 = device::load_preset("h200");
    REQUIRE(h200.has_value());
    CHECK(last_line_starting(doc, "          expected error: ") ==
          "          expected error: " + params_provenance(*h200).expected_error);
    // The accuracy table's current row and the held-out corpus table's "all" row.
    const std::string now = last_line_starting(doc, "| MAPE, now");
    INFO(now);
    CHECK(has(now, "| **" + cal + " %** | **" + val + " %** |"));
    const std::string all = last_line_starting(doc, "| all | ");
    INFO(all);
    CHECK(all.starts_with("| all | " + launches + " | "));
    CHECK(has(all, "**" + held + " %** |"));
    CHECK(has(all, "**" + held_median + " %** |"));
}

TEST_CASE("provenance: a preset fitted with other values than the record's claims no measured error",
          "[timing][provenance]") {
    auto h200 = device::load_preset("h200");
    REQUIRE(h200.has_value());
    device::DevicePreset other = *h200;
    other.timing.values["launch_overhead_us"] = 6.0;  // the record's is 5.43
    const auto p = params_provenance(other);
    CHECK(p.kind == "measured");
    CHECK(p.origin == "preset h200.json (fitted)");
    CHECK(p.expected_error == "not validated by warpsim (the preset's own fit, h200.json)");
    // A copy that writes the record's values out again is the record's fit, with its error.
    device::DevicePreset copied = *h200;
    const auto fit = builtin_fit("h200");
    REQUIRE(fit.has_value());
    copied.timing.values = fit->values;
    CHECK(params_provenance(copied).origin == "preset h200.json (fitted)");
    CHECK(params_provenance(copied).expected_error == kH200Error);
}

TEST_CASE("provenance: a fit record without held-out figures, and records that are not one",
          "[timing][provenance]") {
    const auto fit = parse_fit_record("x", R"({"gpu": "NVIDIA X", "values": {"launch_overhead_us": 5},
        "calibration_mape_pct": 8.04, "validation_mape_pct": 7.25})");
    REQUIRE(fit.has_value());
    CHECK(fit->preset == "x");
    CHECK(fit->values.at("launch_overhead_us") == 5);
    CHECK(fit->accuracy.calibration_mape_pct == 8.04);
    CHECK(fit->accuracy.validation_mape_pct == 7.25);
    CHECK_FALSE(fit->accuracy.heldout_mean_pct.has_value());
    CHECK_FALSE(parse_fit_record("x", "{").has_value());
    CHECK_FALSE(parse_fit_record("x", R"({"values": {}, "calibration_mape_pct": 8})").has_value());
    CHECK_FALSE(parse_fit_record("x", R"({"values": {"a": "b"}, "calibration_mape_pct": 8,
        "validation_mape_pct": 7})")
                    .has_value());
    CHECK_FALSE(parse_fit_record("x", R"({"values": {}, "calibration_mape_pct": 8, "validation_mape_pct": 7,
        "heldout": {"launches": 92}})")
                    .has_value());
    CHECK(fit_record_text("a100").empty());
}
