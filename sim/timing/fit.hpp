// sim/timing/fit.hpp — fitting the per-GPU timing parameters to measured launch times (Levenberg-
// Marquardt on log-time residuals, Eigen least squares for each step), and the accuracy figures.
#pragma once

#include <string>
#include <vector>

#include "sim/timing/model.hpp"
#include "sim/timing/profile.hpp"

namespace warpsim::timing {

struct Sample {
    std::string spec;  // path relative to the repo root
    LaunchProfile profile;
    double measured_us = 0;   // median CUDA-event time
    bool calibration = true;  // false: validation (the fit never sees it)
};

struct FitResult {
    ModelParams params;
    int iterations = 0;
    double rms_log_error = 0;  // over the calibration samples
};

// Fits fitted_names() on the calibration samples, starting from `start`. Parameters stay positive
// (fitted in log space) and within broad physical bounds.
FitResult fit_params(const std::vector<Sample>& samples, const ModelParams& start);

struct Accuracy {
    std::size_t n = 0;
    double mape = 0;                      // percent
    std::size_t pairs = 0;                // pairs whose measured times differ by more than the threshold
    std::vector<std::string> misordered;  // "a < b measured, predicted otherwise"
};

// MAPE and pairwise order over the samples with calibration == `calibration_set`.
Accuracy accuracy(const std::vector<Sample>& samples, const ModelParams& m, bool calibration_set,
                  double pair_threshold = 0.2);

}  // namespace warpsim::timing
