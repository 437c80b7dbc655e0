// cuda/gpu_run.cpp — one launch spec on the GPU: module load, buffers, launch, hashes, timings.
#include "cuda/gpu_run.hpp"

#include <algorithm>

#include "cuda/driver_api.hpp"
#include "cuda/gpu_session.hpp"
#include "kernels_ir/names.hpp"
#include "kernels_ir/parser.hpp"
#include "launch/params.hpp"

namespace warpsim::cuda {
namespace {

using launch::LaunchSpec;
using launch::RunReport;

void set_error(RunReport& r, std::string name, std::string message, std::string details = {}) {
    r.error = launch::ReportError{std::move(name), std::move(message), std::move(details)};
}

RunReport base_report(const LaunchSpec& spec) {
    RunReport r;
    r.kernel = spec.kernel;
    r.backend = "cuda";
    r.spec = spec.path;
    r.launch.grid = spec.grid;
    r.launch.block = spec.block;
    r.launch.shared_bytes = spec.shared_bytes;
    return r;
}

// Timed launches after warm-up; the buffers are whatever the earlier launches left (only the first,
// hashed run is on fresh buffers).
bool measure(GpuSession& s, const LaunchSpec& spec, const RunOptions& o, RunReport& r) {
    for (uint32_t i = 0; i < o.warmup; ++i)
        if (!s.launch(spec)) return false;
    if (!s.synchronize()) return false;
    std::vector<double> us;
    for (uint32_t i = 0; i < o.runs; ++i) {
        auto t = s.timed_launch(spec);
        if (!t) return false;
        us.push_back(*t * 1000.0);
    }
    launch::MeasuredTiming m;
    m.time_us = median(us);
    m.time_us_min = *std::min_element(us.begin(), us.end());
    m.time_us_max = *std::max_element(us.begin(), us.end());
    m.runs = o.runs;
    m.warmup = o.warmup;
    r.measured = m;
    return true;
}

}  // namespace

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

RunReport run_on_gpu(const LaunchSpec& spec, std::string_view ptx, const ir::Function& kernel,
                     const RunOptions& options) {
    RunReport r = base_report(spec);
    auto driver = Driver::load(options.library);
    if (!driver) {
        set_error(r, "WARPSIM_NO_CUDA_DRIVER", "no CUDA driver found", driver.error());
        return r;
    }
    GpuSession s(*driver, r, options.capture_printf);
    if (!s.open(options.device)) return r;
    r.device = s.device_name();
    r.extra["gpu"] = s.device_json();
    if (!s.load_module(ptx, spec.path) || !s.get_function(kernel.name)) return r;
    r.launch.registers_per_thread = s.function_attribute(kFuncNumRegs);
    r.extra["function"] = s.function_json();
    if (spec.max_dynamic_shared_bytes && !s.set_max_dynamic_shared(*spec.max_dynamic_shared_bytes)) return r;
    r.occupancy = s.occupancy(spec);
    if (!s.allocate_and_fill(spec)) return r;
    s.pack(kernel, spec);
    if (!s.launch(spec) || !s.synchronize()) return r;
    if (!s.hash_buffers(spec, options.final_buffers)) return r;
    if (options.runs > 0) measure(s, spec, options, r);
    r.printf_output = s.take_printf();
    return r;
}

RunReport run_on_gpu(const LaunchSpec& spec, std::string_view ptx, const RunOptions& options) {
    ir::ParseResult parsed = ir::parse_ptx(ptx, spec.source_path);
    if (!parsed.ok()) {
        RunReport r = base_report(spec);
        std::string details;
        for (const auto& d : parsed.diagnostics) details += d.str() + "\n";
        set_error(r, "WARPSIM_PTX_PARSE_ERROR", "the PTX could not be parsed", details);
        return r;
    }
    ir::KernelLookup k = ir::find_kernel(parsed.module, spec.kernel);
    if (!k.function) {
        RunReport r = base_report(spec);
        set_error(r, "WARPSIM_KERNEL_NOT_FOUND", spec.path + ": kernel: " + k.error);
        return r;
    }
    auto errors = launch::check_args(*k.function, spec);
    if (!errors.empty()) {
        RunReport r = base_report(spec);
        std::string details;
        for (const auto& e : errors) details += e + "\n";
        set_error(r, "WARPSIM_ARGUMENT_MISMATCH", errors.front(), details);
        return r;
    }
    RunReport r = run_on_gpu(spec, ptx, *k.function, options);
    r.kernel = spec.kernel;
    return r;
}

}  // namespace warpsim::cuda
