// cuda/tools/gpu_run_main.cpp — warpsim_gpu_run: the GPU backend on its own, for machines with a GPU
// (`warpsim_gpu_run run SPEC [--backend cuda] [--json] [--runs N] [--warmup N] [--profile]`), with the
// same arguments as `warpsim run` so that Nsight Compute can re-run it like it re-runs warpsim.
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "cuda/gpu_run.hpp"
#include "cuda/ncu_profile.hpp"
#include "launch/json_text.hpp"
#include "launch/source.hpp"

namespace {

struct Args {
    std::string spec;
    bool json = false, profile = false;
    warpsim::cuda::RunOptions run;
};

std::string self_path(const char* argv0) {
    char buf[PATH_MAX];
    ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n > 0) return std::string(buf, size_t(n));
    return std::filesystem::absolute(argv0).string();
}

bool parse_args(int argc, char** argv, Args& a) {
    std::vector<std::string> v(argv + 1, argv + argc);
    if (v.empty() || v[0] != "run") return false;
    for (size_t i = 1; i < v.size(); ++i) {
        auto next_uint = [&](uint32_t& out) {
            if (i + 1 >= v.size()) return false;
            out = uint32_t(std::strtoul(v[++i].c_str(), nullptr, 10));
            return true;
        };
        if (v[i] == "--json")
            a.json = true;
        else if (v[i] == "--profile")
            a.profile = true;
        else if (v[i] == "--backend" && i + 1 < v.size() && v[i + 1] == "cuda")
            ++i;
        else if (v[i] == "--runs") {
            if (!next_uint(a.run.runs)) return false;
        } else if (v[i] == "--warmup") {
            if (!next_uint(a.run.warmup)) return false;
        } else if (a.spec.empty() && !v[i].starts_with("--"))
            a.spec = v[i];
        else
            return false;
    }
    if (a.run.runs <= 1) a.run.warmup = 0;  // a profiling run: the hashed launch and at most one more
    return !a.spec.empty();
}

int print(const warpsim::launch::RunReport& r, const warpsim::launch::LaunchSpec& spec, bool json) {
    if (json) {
        std::printf("%s\n", warpsim::launch::json_text(warpsim::launch::to_json(r)).c_str());
    } else {
        std::printf(
            "%s on %s: %s\n", r.kernel.c_str(), r.device.c_str(),
            r.error ? (r.error->name + ": " + r.error->message + "\n" + r.error->details).c_str() : "ok");
        for (const auto& b : r.buffers) std::printf("  args[%u] fnv1a %s\n", b.arg, b.fnv1a.c_str());
        if (r.measured)
            std::printf("  time %.3f us (min %.3f, max %.3f)\n", r.measured->time_us, r.measured->time_us_min,
                        r.measured->time_us_max);
    }
    std::string complaint;
    int code = warpsim::launch::expectation_exit_code(r, spec.expect_error, &complaint);
    if (!complaint.empty()) std::fprintf(stderr, "%s: %s\n", spec.path.c_str(), complaint.c_str());
    return code;
}

}  // namespace

int main(int argc, char** argv) {
    Args a;
    if (!parse_args(argc, argv, a)) {
        std::fprintf(stderr,
                     "usage: %s run SPEC [--backend cuda] [--json] [--runs N] [--warmup N] [--profile]\n",
                     argv[0]);
        return 2;
    }
    auto parsed = warpsim::launch::load_spec(a.spec);
    for (const auto& w : parsed.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
    if (!parsed.ok()) {
        std::fprintf(stderr, "%s", parsed.error_text().c_str());
        return 1;
    }
    auto ptx = warpsim::launch::load_source(*parsed.spec);
    if (!ptx) {
        std::fprintf(stderr, "%s\n", ptx.error().c_str());
        return 1;
    }
    auto report = warpsim::cuda::run_on_gpu(*parsed.spec, *ptx, a.run);
    if (a.profile && !report.error) {
        auto metrics =
            warpsim::cuda::profile_with_ncu(a.spec, self_path(argv[0]), warpsim::cuda::default_ncu_metrics());
        if (metrics)
            report.metrics = *metrics;
        else
            report.extra["profile_error"] = metrics.error();
    }
    return print(report, *parsed.spec, a.json);
}
