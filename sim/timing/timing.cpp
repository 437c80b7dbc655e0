// sim/timing/timing.cpp — glue between a simulated run and the timing model.
#include "sim/timing/timing.hpp"

#include <fmt/format.h>

#include "sim/session/run.hpp"
#include "sim/timing/fitted.hpp"

namespace warpsim::timing {

ModelParams params_for(const device::DevicePreset& preset) {
    if (preset.timing.fitted) return params_from_values(preset.timing.values);
    if (auto fit = builtin_fit(preset.name)) return params_from_values(fit->values);
    if (auto fit = same_architecture_fit(preset.arch())) return params_from_values(fit->values);
    return ModelParams{};
}

std::string params_origin(const device::DevicePreset& preset) {
    if (preset.timing.fitted) return "preset " + preset.origin + " (fitted)";
    if (auto fit = builtin_fit(preset.name)) return "fitted to " + fit->data_set;
    if (auto fit = same_architecture_fit(preset.arch())) return fit->data_set;
    return "defaults (not fitted for this preset)";
}

ParamsProvenance params_provenance(const device::DevicePreset& preset) {
    // The H200's errors with its fit (docs/TIMING.md): the calibration and validation sets of
    // tests/timing/sets.json and the held-out corpus. No other GPU has been measured.
    if (preset.name == "h200" && (preset.timing.fitted || builtin_fit(preset.name)))
        return {"measured", "h200",
                "calibration 8.0 %, validation 7.2 % (MAPE, tests/timing/sets.json), held-out "
                "corpus 16.2 % mean (docs/TIMING.md)"};
    if (preset.timing.fitted)
        return {"measured", preset.name,
                "not validated by warpsim (the preset's own fit, " + preset.origin + ")"};
    if (builtin_fit(preset.name)) return {"measured", preset.name, "not validated by warpsim"};
    if (same_architecture_fit(preset.arch()))
        return {
            "borrowed", "h200",
            "unvalidated (no measurements of this GPU; the H200 itself: validation 7.2 %, held-out 16.2 % "
            "mean)"};
    return {"defaults", "", "unvalidated (the model's defaults; no GPU of this architecture measured)"};
}

double prediction_clock_mhz(const device::DevicePreset& preset) {
    return preset.clocks.sm_boost_mhz > 0 ? preset.clocks.sm_boost_mhz : 1000;
}

std::string clock_text(const device::DevicePreset& preset) {
    if (preset.clocks.sm_boost_mhz > 0)
        return fmt::format(
            "{:.0f} MHz, the preset's SM boost clock (clocks.sm_boost_mhz); the clock under load is not "
            "measured",
            preset.clocks.sm_boost_mhz);
    return "1000 MHz, assumed: the preset gives no SM boost clock (clocks.sm_boost_mhz)";
}

TimingResult predict_run(const session::PreparedLaunch& p, const session::SimRun& run) {
    TimingResult r;
    r.profile = build_profile(p, run);
    r.detail = predict_profile(r.profile, params_for(run.preset));
    r.predicted.cycles = r.detail.cycles;
    r.predicted.time_us = r.detail.time_us;
    r.predicted.dram_gbps = r.detail.dram_gbps;
    r.predicted.gflops = r.detail.gflops;
    r.predicted.bound = r.detail.bound;
    r.predicted.l2 = r.profile.l2_cold ? "cold" : "warm";
    const ParamsProvenance prov = params_provenance(run.preset);
    r.predicted.clock_mhz = r.profile.clock_mhz;
    r.predicted.clock = clock_text(run.preset);
    r.predicted.parameters = prov.kind;
    r.predicted.parameters_origin = params_origin(run.preset);
    r.predicted.expected_error = prov.expected_error;
    const std::string& origin = r.predicted.parameters_origin;
    r.text =
        prediction_text(r.profile, r.detail) +
        "          parameters: " + (origin.rfind(prov.kind, 0) == 0 ? origin : prov.kind + ": " + origin) +
        "\n          expected error: " + prov.expected_error + "\n          clock: " + r.predicted.clock +
        "\n";
    return r;
}

launch::PredictedTiming predict(const session::PreparedLaunch& p, const session::SimRun& run) {
    return predict_run(p, run).predicted;
}

}  // namespace warpsim::timing
