// cli/gpu_commands.cpp — `warpsim run --backend cuda` and `warpsim compare`: the same PTX on a real GPU.
#include "cli/gpu_commands.hpp"

#include <filesystem>
#include <iostream>

#include "cuda/compare.hpp"
#include "cuda/gpu_run.hpp"
#include "cuda/ncu_profile.hpp"
#include "launch/baseline.hpp"
#include "launch/input_file.hpp"
#include "launch/json_text.hpp"
#include "sim/counts/metric_table.hpp"
#include "sim/session/run.hpp"
#include "sim/timing/timing.hpp"

namespace warpsim::cli {
namespace {

// The running executable, so that ncu can re-run this very program.
std::string self_exe(const char* argv0) {
    std::error_code ec;
    auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string(argv0) : p.string();
}

launch::Outcome<launch::RunReport> gpu_report(const session::PreparedLaunch& p, uint32_t runs, bool profile,
                                              const char* argv0) {
    cuda::RunOptions options;
    options.runs = runs;
    if (runs <= 1) options.warmup = 0;
    auto report = cuda::run_on_gpu(p.spec, p.ptx, *p.kernel, options);
    report.spec = p.spec.path;
    if (profile && !report.error) {
        auto metrics = cuda::profile_with_ncu(p.spec.path, self_exe(argv0), counts::ncu_metric_names());
        if (!metrics) return launch::Outcome<launch::RunReport>::failure(metrics.error());
        for (const auto& [k, v] : metrics.value()) report.metrics[k] = v;
    }
    return report;
}

}  // namespace

int run_on_gpu_command(const RunArgs& args, const char* argv0) {
    auto prepared = session::prepare(args.spec);
    if (!prepared) {
        std::cerr << "warpsim: " << prepared.error() << "\n";
        return 2;
    }
    auto report = gpu_report(*prepared, args.runs, args.profile, argv0);
    if (!report) {
        std::cerr << "warpsim: " << report.error() << "\n";
        return 1;
    }
    if (args.json || !args.quiet) std::cout << launch::json_text(launch::to_json(*report)) << "\n";
    if (report->error && !args.json) {
        std::cerr << "warpsim: " << report->error->name << ": " << report->error->message << "\n";
    }
    std::string complaint;
    int code = launch::expectation_exit_code(*report, prepared->spec.expect_error, &complaint);
    if (!complaint.empty()) std::cerr << "warpsim: " << prepared->spec.path << ": " << complaint << "\n";
    return code;
}

int ncu_metrics_command() {
    std::string list;
    for (const auto& m : counts::ncu_metric_names()) list += (list.empty() ? "" : ",") + m;
    std::cout << list << "\n";
    return 0;
}

namespace {

// One side of `compare A B`: a report saved with `run --json` (it has "backend" and "metrics"), or a spec run
// on the simulator (or with --gpu on the GPU). `label` says which.
launch::Outcome<launch::RunReport> compare_side(const std::string& path, const CompareArgs& args,
                                                const char* argv0, std::string& label) {
    using Fail = launch::Outcome<launch::RunReport>;
    auto text = launch::read_input_file(path, launch::kMaxSpecBytes, "launch spec or report");
    if (!text) return Fail::failure(text.error());
    if (launch::json_too_deep(text.value()) != std::string::npos)
        return Fail::failure(path + ": JSON nested deeper than " + std::to_string(launch::kMaxJsonNesting) +
                             " levels: neither a launch spec nor a report");
    nlohmann::json j = nlohmann::json::parse(text.value(), nullptr, false);
    if (j.is_object() && j.contains("backend") && j.contains("metrics")) {
        auto report = launch::from_json(j, path);
        if (!report) return report;
        label =
            path + " (saved report: " + report->backend + ", " + report->device + ", " + report->kernel + ")";
        return report;
    }
    auto prepared = session::prepare(path);
    if (!prepared) return Fail::failure(prepared.error());
    if (args.gpu) {
        label = path + " (GPU, " + prepared->spec.kernel + ")";
        return gpu_report(*prepared, 20, true, argv0);
    }
    session::SimOptions options;
    options.device = args.device;
    auto sim = session::run_simulated(*prepared, options);
    if (!sim) return Fail::failure(sim.error());
    if (!sim->report.error) sim->report.predicted = timing::predict(*prepared, *sim);
    label = path + " (simulated, " + args.device + ", " + prepared->spec.kernel + ")";
    return sim->report;
}

int compare_two(const CompareArgs& args, const char* argv0) {
    std::string labels[2];
    std::optional<launch::RunReport> reports[2];
    for (int i = 0; i < 2; ++i) {
        auto side = compare_side(args.inputs[i], args, argv0, labels[i]);
        if (!side) {
            std::cerr << "warpsim: " << side.error() << "\n";
            return 2;
        }
        reports[i] = std::move(side.value());
    }
    std::vector<std::string> filters;
    for (size_t start = 0; start <= args.metrics.size() && !args.metrics.empty();) {
        size_t comma = args.metrics.find(',', start);
        std::string part =
            args.metrics.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!part.empty()) filters.push_back(part);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    auto base =
        launch::make_baseline(*reports[0], *reports[1], "A: " + labels[0], "B: " + labels[1], filters);
    if (args.json) {
        std::cout << launch::json_text(launch::baseline_json(base)) << "\n";
    } else if (args.csv) {
        std::cout << launch::baseline_csv(base);
    } else {
        std::cout << launch::baseline_text(base, args.all || !filters.empty());
    }
    return 0;
}

}  // namespace

int compare_command(const CompareArgs& args, const char* argv0) {
    if (args.inputs.size() == 2) return compare_two(args, argv0);
    if (args.csv || args.all || args.gpu || !args.metrics.empty()) {
        std::cerr << "warpsim: compare: --csv, --all, --gpu and --metrics compare two inputs (compare A B); "
                     "with one "
                     "spec, compare runs it on the simulator and on the GPU\n";
        return 2;
    }
    auto prepared = session::prepare(args.inputs.front());
    if (!prepared) {
        std::cerr << "warpsim: " << prepared.error() << "\n";
        return 2;
    }
    session::SimOptions options;
    options.device = args.device;
    auto sim = session::run_simulated(*prepared, options);
    if (!sim) {
        std::cerr << "warpsim: " << sim.error() << "\n";
        return 2;
    }
    if (!sim->report.error) sim->report.predicted = timing::predict(*prepared, *sim);
    auto gpu = gpu_report(*prepared, 20, true, argv0);
    if (!gpu) {
        std::cerr << "warpsim: " << gpu.error() << "\n";
        return 1;
    }
    cuda::CompareOptions copt;
    copt.deterministic = prepared->spec.deterministic;
    auto rows = cuda::compare_reports(sim->report, *gpu, copt);
    bool mismatch = false;
    for (const auto& r : rows) mismatch = mismatch || (r.match && !*r.match);
    if (args.json) {
        std::cout << launch::json_text(cuda::compare_to_json(rows)) << "\n";
    } else {
        std::cout << cuda::format_compare_text(rows);
    }
    return mismatch ? 1 : 0;
}

}  // namespace warpsim::cli
