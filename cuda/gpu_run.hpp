// cuda/gpu_run.hpp — running a launch spec on a real GPU through the driver API: the same PTX text the
// simulator parsed, the same buffers (launch/ generators), the same packed parameter buffer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "kernels_ir/ir.hpp"
#include "launch/launch_spec.hpp"
#include "launch/result.hpp"

namespace warpsim::cuda {

struct RunOptions {
    int device = 0;
    uint32_t warmup = 3;  // launches before the timed ones
    uint32_t runs = 20;   // timed launches (CUDA events); 0: no timing
    std::string library = "libcuda.so.1";
    bool capture_printf = true;  // device printf goes to RunReport::printf_output, not our stdout
    // When set: per spec argument, its bytes after the first launch (empty for scalars).
    std::vector<std::vector<uint8_t>>* final_buffers = nullptr;
};

// Runs the spec's kernel once on fresh buffers and hashes the buffers, then (runs > 0) launches it
// warmup + runs more times for CUDA-event timings (median, min, max); the timing launches never affect
// the hashes. Every driver error comes back in RunReport::error with the driver's own name and string
// (CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES / "too many resources requested for launch"); without a driver
// the error is "no CUDA driver found". Never throws, never aborts.
launch::RunReport run_on_gpu(const launch::LaunchSpec& spec, std::string_view ptx, const ir::Function& kernel,
                             const RunOptions& options = {});

// The same, parsing the PTX to find the kernel (by name or demangled base name) and checking the
// arguments against its .param list first.
launch::RunReport run_on_gpu(const launch::LaunchSpec& spec, std::string_view ptx,
                             const RunOptions& options = {});

// Median of a non-empty list (mean of the middle two for an even count).
double median(std::vector<double> values);

}  // namespace warpsim::cuda
