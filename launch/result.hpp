// launch/result.hpp — the report of one run (DESIGN.md `warpsim run spec.json --json`), from either
// backend, and its JSON form; the hardware data set and the compare tool read it back.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "launch/outcome.hpp"
#include "launch/version.hpp"

namespace warpsim::launch {

struct LaunchConfig {
    std::array<uint32_t, 3> grid{1, 1, 1};
    std::array<uint32_t, 3> block{1, 1, 1};
    uint32_t shared_bytes = 0;
    std::optional<uint32_t> registers_per_thread;
};

struct OccupancyReport {
    uint32_t blocks_per_sm = 0;
    uint32_t warps_per_sm = 0;
    double occupancy = 0;  // warps_per_sm / the SM's maximum
    std::string limiter;   // "warps", "registers", "shared", "blocks" (or "" when unknown)
};

struct BufferHash {
    uint32_t arg = 0;   // index into the spec's args
    std::string fnv1a;  // 16 lower-case hex digits
};

struct PredictedTiming {  // the simulator's timing model
    double cycles = 0, time_us = 0, dram_gbps = 0, gflops = 0;
    std::string bound;  // "dram", "latency", ...
    // The L2 the prediction assumes at the start: "warm" or "cold" (the spec's "l2"; in JSON only when cold).
    std::string l2 = "warm";
    // How far to trust it (empty when not known, e.g. a report written before these fields):
    double clock_mhz = 0;           // the SM clock cycles are converted with
    std::string clock;              // that clock in words ("1980 MHz, the preset's SM boost clock ...")
    std::string parameters;         // "measured", "borrowed" or "defaults"
    std::string parameters_origin;  // where they come from ("fitted to tests/hardware/h200/...")
    std::string expected_error;     // "calibration 8.0 %, ..." or "unvalidated ..."
};

struct MeasuredTiming {  // CUDA events on the GPU: median and spread of `runs` launches after `warmup`
    double time_us = 0, time_us_min = 0, time_us_max = 0;
    uint32_t runs = 0, warmup = 0;
};

struct ReportError {
    std::string name;     // "CUDA_ERROR_ILLEGAL_ADDRESS", or the simulator's own name
    std::string message;  // "an illegal memory access was encountered"
    std::string details;  // where: file:line, block, thread, address ... ("" when none)
};

struct RunReport {
    std::string kernel, device, backend;  // backend: "sim" or "cuda"
    std::string spec;                     // the spec file, when known ("" leaves the key out)
    LaunchConfig launch;
    std::optional<OccupancyReport> occupancy;
    std::map<std::string, double> metrics;  // keyed by Nsight Compute metric names
    std::vector<BufferHash> buffers;
    std::optional<PredictedTiming> predicted;
    std::optional<MeasuredTiming> measured;
    std::optional<ReportError> error;
    std::string printf_output;                             // "printf" key, left out when empty
    std::string warpsim_version = std::string(version());  // the warpsim that wrote the report
    nlohmann::json extra = nlohmann::json::object();       // further top-level keys, kept on a round trip
};

// Whether the report's error is the one a spec's `expect_error` names: the expected text occurs in the
// error's name, message or details. False when either is absent.
bool error_is_expected(const RunReport& report, const std::optional<std::string>& expect_error);
// What the exit code is to say about a run: 0 when it succeeded and no error was expected, or it failed
// with the expected error; 1 otherwise, with `complaint` set when an expected error did not happen (a
// launch-error spec whose launch now succeeds is a regression, not a pass).
int expectation_exit_code(const RunReport& report, const std::optional<std::string>& expect_error,
                          std::string* complaint);

// Keys in DESIGN.md's order: kernel, device, backend, spec, launch, occupancy, metrics, buffers,
// predicted, measured, error, printf, then `extra`. Integral metric values print as integers.
nlohmann::ordered_json to_json(const RunReport& report);
// Reads a report back; unknown top-level keys go to `extra`. `context` prefixes error messages.
Outcome<RunReport> from_json(const nlohmann::json& j, const std::string& context = "report");

}  // namespace warpsim::launch
