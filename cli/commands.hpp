// cli/commands.hpp — the subcommands of `warpsim`, each a function from parsed options to an exit code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warpsim::cli {

// The exit code of `run`, `check` and `explain` when the simulation stopped at the instruction budget
// (--max-instructions) before the kernel finished: warpsim's own limit, not a kernel error (docs/LIMITS.md).
inline constexpr int kExitBudget = 4;

// --sample-above's default: session::kDefaultSampleAbove (checked in commands.cpp; this header does not
// include the session's).
inline constexpr uint64_t kRunSampleAboveDefault = 10'000'000'000ull;

struct RunArgs {
    std::string spec;
    bool json = false, quiet = false, profile = false;
    int verbose =
        0;  // -v: the log's decisions (compiler, ptxas, occupancy, sampling) on stderr; -vv: details
    bool ptx_counts = false;  // --ptx-counts: count the PTX as written, not per SASS instruction
    std::string device = "h200";
    std::string backend = "sim";
    uint32_t runs = 20;
    uint64_t max_instructions = 20'000'000'000ull;
    double time_limit = 1800;            // --time-limit seconds per launch; 0: none
    uint64_t printf_buffer = 8'650'752;  // --printf-buffer: cudaLimitPrintfFifoSize (the H200's default)
    uint32_t workers = 0;
    std::string html;                        // --html FILE: also write the HTML report there
    std::string save;                        // --save DIR: every buffer after the kernel as DIR/argN.npy
    std::vector<std::string> show;           // --show 'c[990:1000]': print these elements after the kernel
    bool sample = false, no_sample = false;  // --sample, --no-sample
    uint64_t sample_above = kRunSampleAboveDefault;  // --sample-above
};
int run_command(const RunArgs& args, const char* argv0);

struct PtxArgs {
    std::string file;
    std::string arch = "sm_90";
    bool print = false;
};
int ptx_command(const PtxArgs& args);

struct OccupancyArgs {
    std::string spec;
    std::string device = "h200";
    int threads = 0, regs = 0;
    long long shared_bytes = 0;
    int carveout = -1;
    bool sweep = false, json = false, csv = false;
};
int occupancy_command(const OccupancyArgs& args);

struct DevicesArgs {
    bool json = false;
};
int devices_command(const DevicesArgs& args);

struct CompareArgs {
    std::vector<std::string> inputs;  // SPEC (the simulator against the GPU), or A B (specs or saved reports)
    std::string device = "h200";
    bool json = false;
    bool csv = false;
    bool all = false;     // A B: list the metrics equal on both sides too
    bool gpu = false;     // A B: run the specs on the GPU instead of the simulator
    std::string metrics;  // A B: comma-separated parts of metric names to keep
};
int compare_command(const CompareArgs& args, const char* argv0);

struct CheckArgs {
    std::string spec;
    std::vector<std::string> tools;  // empty: all four
    std::string device = "h200";
    uint64_t max_instructions = 20'000'000'000ull;
    double time_limit = 1800;  // --time-limit seconds per launch; 0: none
    uint32_t schedules = 1;
    uint64_t schedule_seed = 0;
    bool json = false, shared_only = false, quiet = false;
    int verbose = 0;  // -v / -vv, as for run
};
int check_command(const CheckArgs& args);

struct ExplainArgs {
    std::string spec;
    uint32_t line = 0, ptx_line = 0;  // 0: not given (lines count from 1)
    std::string block;                // --block X[,Y[,Z]]; empty: the first warp that executes the line
    int64_t warp = -1;                // --warp W; -1: any
    bool worst = false;               // --worst: the costliest warp instead of the first
    bool lanes = false;               // --lanes: the lane-by-lane tables after the summary
    bool json = false;
    std::string device = "h200";
    uint64_t max_instructions = 20'000'000'000ull;
    double time_limit = 1800;  // --time-limit seconds per launch; 0: none
    uint32_t workers = 0;
};
// One line's memory accesses as one warp performed them (sim/report/explain.hpp).
int explain_command(const ExplainArgs& args);

// `warpsim exec [options] PROGRAM ARGS...` (argv after "exec"): checks the program and runs it with warpsim's
// libcudart.so.13. Returns only when it cannot run the program.
int exec_command(int argc, char** argv, const char* argv0);

// `warpsim nvcc ARGS...`: runs nvcc with -cudart shared, -lineinfo and compute_90 PTX added where missing.
int nvcc_command(int argc, char** argv);

// Prints the metric names for `ncu --metrics` (used by tests/hardware/collect_batch.sh).
int ncu_metrics_command();

}  // namespace warpsim::cli
