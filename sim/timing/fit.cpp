// sim/timing/fit.cpp — Levenberg-Marquardt fit of the timing parameters and accuracy figures.
#include "sim/timing/fit.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <Eigen/Dense>

namespace warpsim::timing {

namespace {

// Broad physical bounds (the fit must not wander into nonsense with few samples).
std::pair<double, double> bounds_of(const std::string& name) {
    if (name == "launch_overhead_us") return {0.5, 30};
    // At most what a copy reaches on the H200 (the preset's measured_copy_gbps, 4300 of 4800 GB/s).
    if (name == "dram_efficiency") return {0.3, 0.9};
    if (name == "l2_bytes_per_cycle") return {500, 20000};
    if (name == "dram_latency_cycles") return {300, 3000};
    if (name == "l2_latency_cycles") return {100, 1500};
    if (name == "l1_latency_cycles") return {15, 200};
    if (name == "issue_efficiency") return {0.2, 1.0};
    if (name == "overlap_p") return {1, 32};
    if (name == "block_overhead_cycles") return {1, 5000};
    if (name == "block_issue_cycles") return {1, 2000};
    if (name == "int_issue_weight") return {0.1, 1.0};
    if (name == "partial_sector_cost") return {0.01, 20};
    return {1e-6, 1e9};
}

ModelParams from_vector(const ModelParams& base, const Eigen::VectorXd& x) {
    ModelParams m = base;
    const auto& names = fitted_names();
    for (std::size_t i = 0; i < names.size(); ++i) {
        auto [lo, hi] = bounds_of(names[i]);
        set_param(m, names[i], std::clamp(std::exp(x[Eigen::Index(i)]), lo, hi));
    }
    return m;
}

Eigen::VectorXd residuals(const std::vector<const Sample*>& cal, const ModelParams& m) {
    Eigen::VectorXd r(Eigen::Index(cal.size()));
    for (std::size_t i = 0; i < cal.size(); ++i)
        r[Eigen::Index(i)] = std::log(predict_profile(cal[i]->profile, m).time_us / cal[i]->measured_us);
    return r;
}

}  // namespace

// Levenberg-Marquardt over fitted_names() from `start`, on the calibration samples.
FitResult fit_params(const std::vector<Sample>& samples, const ModelParams& start) {
    std::vector<const Sample*> cal;
    for (const auto& s : samples)
        if (s.calibration && s.measured_us > 0) cal.push_back(&s);
    const auto& names = fitted_names();
    auto np = Eigen::Index(names.size());
    Eigen::VectorXd x(np);
    for (Eigen::Index i = 0; i < np; ++i)
        x[i] = std::log(std::max(1e-9, get_param(start, names[std::size_t(i)])));
    FitResult out;
    if (cal.empty()) {
        out.params = start;
        return out;
    }
    double lambda = 1e-2;
    Eigen::VectorXd r = residuals(cal, from_vector(start, x));
    double cost = r.squaredNorm();
    for (int it = 0; it < 200; ++it) {
        out.iterations = it + 1;
        Eigen::MatrixXd J(r.size(), np);
        for (Eigen::Index j = 0; j < np; ++j) {  // numeric Jacobian in log-parameter space
            Eigen::VectorXd xp = x;
            xp[j] += 1e-4;
            J.col(j) = (residuals(cal, from_vector(start, xp)) - r) / 1e-4;
        }
        Eigen::MatrixXd A = J.transpose() * J;
        Eigen::VectorXd g = J.transpose() * r;
        bool improved = false;
        for (int tries = 0; tries < 10 && !improved; ++tries) {
            Eigen::MatrixXd Ad = A;
            Ad.diagonal().array() += lambda * (A.diagonal().array() + 1e-9);
            Eigen::VectorXd step = Ad.ldlt().solve(-g);
            Eigen::VectorXd xn = x + step;
            for (Eigen::Index i = 0; i < np; ++i) {  // keep x inside the bounds
                auto [lo, hi] = bounds_of(names[std::size_t(i)]);
                xn[i] = std::clamp(xn[i], std::log(lo), std::log(hi));
            }
            Eigen::VectorXd rn = residuals(cal, from_vector(start, xn));
            if (rn.squaredNorm() < cost) {
                x = xn;
                r = rn;
                double gain = cost - rn.squaredNorm();
                cost = rn.squaredNorm();
                lambda = std::max(1e-7, lambda / 3);
                improved = true;
                if (gain < 1e-10 * (1 + cost)) it = 1000;
            } else {
                lambda *= 4;
            }
        }
        if (!improved) break;
    }
    out.params = from_vector(start, x);
    out.rms_log_error = std::sqrt(cost / double(cal.size()));
    return out;
}

Accuracy accuracy(const std::vector<Sample>& samples, const ModelParams& m, bool calibration_set,
                  double pair_threshold) {
    Accuracy a;
    std::vector<std::pair<const Sample*, double>> set;
    for (const auto& s : samples)
        if (s.calibration == calibration_set && s.measured_us > 0)
            set.emplace_back(&s, predict_profile(s.profile, m).time_us);
    double sum = 0;
    for (const auto& [s, p] : set) sum += std::abs(p - s->measured_us) / s->measured_us;
    a.n = set.size();
    a.mape = set.empty() ? 0 : 100.0 * sum / double(set.size());
    for (std::size_t i = 0; i < set.size(); ++i)
        for (std::size_t j = 0; j < set.size(); ++j) {
            const auto& [si, pi] = set[i];
            const auto& [sj, pj] = set[j];
            if (!(si->measured_us * (1 + pair_threshold) < sj->measured_us)) continue;
            ++a.pairs;
            if (!(pi < pj))
                a.misordered.push_back(
                    fmt::format("{} ({:.1f} us, predicted {:.1f}) < {} ({:.1f} us, predicted {:.1f})",
                                si->spec, si->measured_us, pi, sj->spec, sj->measured_us, pj));
        }
    return a;
}

}  // namespace warpsim::timing
