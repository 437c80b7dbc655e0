// sim/timing/timing.cpp — glue between a simulated run and the timing model.
#include "sim/timing/timing.hpp"

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
    r.text =
        prediction_text(r.profile, r.detail) + "          parameters: " + params_origin(run.preset) + "\n";
    return r;
}

launch::PredictedTiming predict(const session::PreparedLaunch& p, const session::SimRun& run) {
    return predict_run(p, run).predicted;
}

}  // namespace warpsim::timing
