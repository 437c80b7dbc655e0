// sim/timing/timing.cpp — glue between a simulated run and the timing model.
#include "sim/timing/timing.hpp"

#include <fmt/format.h>

#include "sim/session/run.hpp"
#include "sim/timing/fitted.hpp"

namespace warpsim::timing {

namespace {

// Where a preset's timing parameters come from: the one decision that params_for and params_provenance
// both follow.
enum class ParamsSource { preset_fit, builtin_fit, same_architecture, defaults };

struct ParamsChoice {
    ParamsSource source = ParamsSource::defaults;
    std::optional<BuiltinFit> fit;  // the built-in fit taken (builtin_fit, same_architecture)
};

// A preset marked fitted that carries no values of its own (the built-in h200) names its fit's record
// instead, so the values are kept in one place: the record.
ParamsChoice choose_params(const device::DevicePreset& preset) {
    if (preset.timing.fitted && !preset.timing.values.empty())
        return {ParamsSource::preset_fit, std::nullopt};
    if (auto fit = builtin_fit(preset.name)) return {ParamsSource::builtin_fit, std::move(fit)};
    if (auto fit = same_architecture_fit(preset.arch()))
        return {ParamsSource::same_architecture, std::move(fit)};
    return {};
}

// "NVIDIA H200" -> "H200".
std::string gpu_short_name(const BuiltinFit& fit) {
    const std::string vendor = "NVIDIA ";
    return fit.gpu.starts_with(vendor) ? fit.gpu.substr(vendor.size()) : fit.gpu;
}

std::string heldout_text(const FitAccuracy& a, const std::string& what) {
    return a.heldout_mean_pct ? fmt::format("{} {:.1f} % mean", what, *a.heldout_mean_pct)
                              : what + " not measured with this fit";
}

// The error measured with a fit, in words, from its record (sim/timing/<gpu>_fit.json).
std::string measured_error_text(const FitAccuracy& a) {
    return fmt::format(
        "calibration {:.1f} %, validation {:.1f} % (MAPE, tests/timing/sets.json), {} (docs/TIMING.md)",
        a.calibration_mape_pct, a.validation_mape_pct, heldout_text(a, "held-out corpus"));
}

// A preset marked fitted runs with the record's error only when its values are the record's.
bool same_fitted_values(const device::DevicePreset& preset, const BuiltinFit& fit) {
    return params_to_values(params_from_values(preset.timing.values)) ==
           params_to_values(params_from_values(fit.values));
}

}  // namespace

ModelParams params_for(const device::DevicePreset& preset) {
    const ParamsChoice choice = choose_params(preset);
    if (choice.source == ParamsSource::preset_fit) return params_from_values(preset.timing.values);
    if (choice.fit) return params_from_values(choice.fit->values);
    return ModelParams{};
}

ParamsProvenance params_provenance(const device::DevicePreset& preset) {
    const ParamsChoice choice = choose_params(preset);
    switch (choice.source) {
        case ParamsSource::preset_fit: {
            const std::string origin = "preset " + preset.origin + " (fitted)";
            const auto record = builtin_fit(preset.name);
            if (record && same_fitted_values(preset, *record))
                return {"measured", preset.name, origin, measured_error_text(record->accuracy)};
            return {"measured", preset.name, origin,
                    "not validated by warpsim (the preset's own fit, " + preset.origin + ")"};
        }
        case ParamsSource::builtin_fit:
            return {"measured", preset.name,
                    "sim/timing/" + preset.name + "_fit.json, fitted to " + choice.fit->data_set,
                    measured_error_text(choice.fit->accuracy)};
        case ParamsSource::same_architecture: {
            const BuiltinFit& fit = *choice.fit;
            return {"borrowed", fit.preset, fit.data_set,
                    fmt::format(
                        "unvalidated (no measurements of this GPU; the {} itself: validation {:.1f} %, {})",
                        gpu_short_name(fit), fit.accuracy.validation_mape_pct,
                        heldout_text(fit.accuracy, "held-out"))};
        }
        case ParamsSource::defaults:
            break;
    }
    return {"defaults", "", "defaults (not fitted for this preset)",
            "unvalidated (the model's defaults; no GPU of this architecture measured)"};
}

double prediction_clock_mhz(const device::DevicePreset& preset) {
    if (preset.clocks.sm_sustained_mhz) return *preset.clocks.sm_sustained_mhz;
    return preset.clocks.sm_boost_mhz > 0 ? preset.clocks.sm_boost_mhz : 1000;
}

// Said from the preset's clocks alone: the sustained clock is a preset field with its source (for the H200
// tests/timing/scatter, docs/TIMING.md "The clock under load"), so no preset is named here.
std::string clock_text(const device::DevicePreset& preset) {
    const device::Clocks& c = preset.clocks;
    if (c.sm_sustained_mhz && *c.sm_sustained_mhz == c.sm_boost_mhz)
        return fmt::format(
            "{:.0f} MHz, the preset's SM boost clock (clocks.sm_boost_mhz), sustained under load (measured: "
            "clocks.sm_sustained_mhz)",
            c.sm_boost_mhz);
    if (c.sm_sustained_mhz)
        return fmt::format(
            "{:.0f} MHz, the SM clock sustained under load (measured: clocks.sm_sustained_mhz), below the "
            "preset's SM boost clock of {:.0f} MHz (clocks.sm_boost_mhz)",
            *c.sm_sustained_mhz, c.sm_boost_mhz);
    if (c.sm_boost_mhz > 0)
        return fmt::format(
            "{:.0f} MHz, the preset's SM boost clock (clocks.sm_boost_mhz); the clock under load is not "
            "measured",
            c.sm_boost_mhz);
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
    r.predicted.parameters_origin = prov.origin;
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
