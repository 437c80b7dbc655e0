// sim/timing/timing.hpp — the timing model's entry points for the CLI and reports: a simulated run in,
// the predicted time, bound and per-SM timeline out.
#pragma once

#include <string>

#include "launch/result.hpp"
#include "sim/device/device.hpp"
#include "sim/timing/model.hpp"
#include "sim/timing/profile.hpp"

namespace warpsim::session {
struct PreparedLaunch;
struct SimRun;
}  // namespace warpsim::session

namespace warpsim::timing {

// The parameters for a preset: its own "timing" values when marked fitted and it has some, else the fit
// shipped with warpsim for that GPU (sim/timing/h200_fit.json, built in), else the fit of a measured GPU of
// the same architecture (an H100 borrows the H200's), else the model's defaults.
ModelParams params_for(const device::DevicePreset& preset);

// How far a preset's predictions can be trusted: where params_for takes its timing parameters from and the
// error the project measured with them (the fit's record, sim/timing/<gpu>_fit.json; docs/TIMING.md), for
// `warpsim devices` and every report. The same choice as params_for's, made in one place.
struct ParamsProvenance {
    std::string kind;            // "measured" (fitted to this GPU), "borrowed" (a measured GPU of the same
                                 // architecture), "defaults" (the model's, unvalidated)
    std::string from;            // the measured preset they come from ("h200"; "" for defaults)
    std::string origin;          // where, in words: "sim/timing/h200_fit.json, fitted to ...",
                                 // "preset my_gpu.json (fitted)",
                                 // "defaults (not fitted for this preset)"
    std::string expected_error;  // "calibration 8.0 %, ..." or "unvalidated ..."
};
ParamsProvenance params_provenance(const device::DevicePreset& preset);
// The SM clock the prediction converts cycles with (the preset's clock sustained under load where measured,
// else its boost clock, 1000 MHz when it has none) and that choice in words for the report.
double prediction_clock_mhz(const device::DevicePreset& preset);
std::string clock_text(const device::DevicePreset& preset);

struct TimingResult {
    launch::PredictedTiming predicted;  // cycles, time_us, dram_gbps, gflops, bound (short code)
    Prediction detail;
    LaunchProfile profile;
    std::string text;  // the report's timing block (several lines)
};

// Predicts the launch's time from its simulated counts. Call after run_simulated succeeded.
TimingResult predict_run(const session::PreparedLaunch& p, const session::SimRun& run);
// The same, just the report field.
launch::PredictedTiming predict(const session::PreparedLaunch& p, const session::SimRun& run);

}  // namespace warpsim::timing
