// sim/session/run.hpp — one launch spec end to end on the simulator: load the source, find the kernel,
// check the arguments, work out registers and occupancy, run, hash the buffers, collect the counts.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernels_ir/ir.hpp"
#include "launch/cxx_signature.hpp"
#include "launch/expect.hpp"
#include "launch/launch_spec.hpp"
#include "launch/outcome.hpp"
#include "launch/result.hpp"
#include "sim/counts/counters.hpp"
#include "sim/device/device.hpp"
#include "sim/device/occupancy.hpp"
#include "sim/engine/simulator.hpp"

namespace warpsim::session {

// A spec with its PTX parsed and its kernel found: what both backends start from.
struct PreparedLaunch {
    launch::LaunchSpec spec;
    std::string ptx;       // the exact PTX text both backends use
    std::string ptx_name;  // file name for messages
    std::shared_ptr<ir::Module> module;
    const ir::Function* kernel = nullptr;
    uint32_t kernel_index = 0;  // index in module->functions
    std::vector<std::string> warnings;
    launch::CxxSignature signature;  // C++ parameter types and names, where known
    std::vector<std::string>
        arg_names;  // per spec argument: the spec's name, else the C++ parameter's, else ""
};

// Parses the spec file, loads (or compiles) its source, parses and verifies the PTX, finds the kernel and
// checks the arguments. The error text names the file, line and field.
launch::Outcome<PreparedLaunch> prepare(const std::string& spec_path);
// The same for a launch on `device` (a preset name or file): a .cu source whose spec names no `arch` is
// compiled for the preset's architecture (`--device t4`: nvcc -arch=sm_75), and PTX the preset's GPU could
// not load (ptx_target_error) is refused.
launch::Outcome<PreparedLaunch> prepare(const std::string& spec_path, const std::string& device);

// Empty when a GPU of the preset's architecture can load the module's PTX; else what a GPU would answer
// (cudaErrorNoKernelImageForDevice) and what to do. PTX for sm_XY loads on sm_XY and newer; PTX for an
// architecture-specific target (sm_90a) only on that architecture; a family target (sm_100f) on the same
// major version, of that minor or newer.
std::string ptx_target_error(const PreparedLaunch& p, const device::DevicePreset& preset);

// The name PTX lines are shown with (`FILE:LINE` in faults and findings): the PTX file's name, or for a .cu
// source the name `nvcc -ptx` gives the PTX it makes of it (buggy.cu -> buggy.ptx): the lines are lines of
// that PTX, not of the .cu.
std::string ptx_file_label(const PreparedLaunch& p);

// The same for a spec and PTX already in memory (the C++ API): `module` is `ptx` parsed and verified;
// `cu_text` the CUDA source it came from, or "" (then the .cu beside the PTX, when there is one).
launch::Outcome<PreparedLaunch> prepare_module(launch::LaunchSpec spec, std::string ptx, std::string ptx_name,
                                               std::shared_ptr<ir::Module> module, std::string cu_text);

// Parses and verifies PTX; the error text has every error with its file:line:col, one per line.
launch::Outcome<std::shared_ptr<ir::Module>> parse_verified(const std::string& ptx, const std::string& name);

// How registers per thread were determined.
struct RegisterInfo {
    int registers = 0;
    std::string method;  // "ptxas -v (sm_90)", "launch spec", "estimate: ..."
    long long static_shared_bytes = 0;
    int barriers = 1;  // named barriers a block uses (ptxas: "used N barriers")
    // ptxas's register spills (bytes of spill instructions in the code, per thread) and the stack frame
    // they live in: local-memory traffic the PTX does not show. Zero without ptxas.
    long long spill_store_bytes = 0, spill_load_bytes = 0, stack_frame_bytes = 0;
    // The cubin that ptxas made (with -lineinfo), for the SASS decoder and the spill reader; empty without
    // ptxas.
    std::shared_ptr<const std::string> cubin;
};
RegisterInfo kernel_registers(const PreparedLaunch& p, const device::DevicePreset& preset);

// Whether a launch runs whole or is sampled (sampled_run.hpp): off runs every block; on samples; automatic
// samples when a pilot block says the launch is above SimOptions::sample_above thread-instructions (callers
// choose it only for queries that need no buffers).
enum class SampleMode : uint8_t { off, on, automatic };

// The default of SimOptions::sample_above: about half a minute of whole-grid simulation on two cores.
inline constexpr uint64_t kDefaultSampleAbove = 10'000'000'000ull;

struct SimOptions {
    std::string device = std::string(device::default_preset_name);
    uint64_t max_instructions = 20'000'000'000ull;
    double time_limit_seconds = engine::kDefaultTimeLimitSeconds;  // per launch; 0: none
    uint64_t printf_fifo_bytes = engine::kDefaultPrintfFifoBytes;  // cudaLimitPrintfFifoSize
    uint32_t workers = 0;                                          // host threads; 0 = all cores
    bool verbose = false;
    bool ptx_level_counts = false;  // count the PTX as written even where the SASS could be decoded
    engine::LaunchProgress* progress = nullptr;  // optional: the launch's progress counters (a progress bar)
    bool keep_buffers = false;  // keep every buffer's bytes after the kernel in SimRun::final_buffers
    // Per spec argument (optional): where that buffer's bytes go after a kernel that did not fault, straight
    // from the simulator's memory (the caller's array: no copy in between); that argument's final_buffers
    // entry then stays empty. A span of another size than the buffer is an internal error.
    std::vector<std::span<uint8_t>> write_back;
    SampleMode sample = SampleMode::off;
    uint64_t sample_above = kDefaultSampleAbove;  // SampleMode::automatic: thread-instructions (estimated)
};

// How a sampled run's figures were obtained, and how far each may be off (sampled_run.hpp).
struct SampleInfo {
    uint64_t grid_blocks = 0, blocks_run = 0, classes = 0;
    std::string reason;  // "--sample", or the automatic decision with its figures
    struct Bound {
        double estimate = 0, bound = 0;  // the figure and how far from the whole grid's it may be (absolute)
        bool model = false;              // a footprint-model figure (L2/DRAM), not a sum over blocks
    };
    std::map<std::string, Bound> bounds;  // by metric name
    std::vector<std::string> notes;
};

// A simulator with the spec's buffers allocated and filled, the packed parameters, and a launch
// configuration for the preset: what every simulated run of a spec (plain, checked, sampled) starts from.
// Callers set what differs (cfg.observer, cfg.host_workers, cfg.max_instructions) before launching.
struct LaunchSetup {
    std::unique_ptr<engine::Simulator> sim;
    std::vector<uint64_t> addresses;  // device address per spec argument (0 for scalars)
    std::vector<uint8_t> params;
    engine::LaunchConfig cfg;
};
launch::Outcome<LaunchSetup> setup_launch(const PreparedLaunch& p, const device::DevicePreset& preset,
                                          int registers);

// The launch configuration of a prepared launch on a preset (grid, block, shared bytes, limits, cache sizes).
engine::LaunchConfig launch_config(const PreparedLaunch& p, const device::DevicePreset& preset,
                                   int registers);

// The engine's launch limits from a device preset.
engine::DeviceLimits limits_from(const device::DevicePreset& preset);

// Everything a simulated run produced: the report (the JSON contract), and what the text report shows.
// A launch that ran past LaunchConfig::max_instructions: the report's error names it so (not the
// cudaErrorLaunchTimeout a program under the runtime gets), and report.extra["budget_stop"] holds the limit,
// what ran, the advice and the partial counts.
inline constexpr std::string_view kBudgetStopName = "instruction_budget";
inline constexpr std::string_view kBudgetAdvice = "raise --max-instructions N or use --sample";

struct SimRun {
    launch::RunReport report;
    device::DevicePreset preset;
    RegisterInfo registers;
    std::optional<device::Occupancy> occupancy;
    counts::KernelCounters counters;
    std::shared_ptr<const counts::SassPlan> sass;  // how ptxas's SASS shapes the counts; nullptr: PTX-level
    std::string counting;                          // the report's sentence on it (sass::KernelSass::counting)
    uint64_t warp_instructions = 0;
    uint64_t thread_instructions = 0;
    double launch_seconds = 0;      // wall time of sim.launch alone (no setup, no hashing)
    double launch_cpu_seconds = 0;  // process CPU time (all threads) spent in sim.launch
    // Per spec argument, its bytes after the kernel (empty for scalars, and for all unless keep_buffers).
    std::vector<std::vector<uint8_t>> final_buffers;
    // The spec's "expect" checks (also in report.extra["expect"]); empty when the spec has none or the kernel
    // failed.
    std::vector<launch::BufferCheck> checks;
    bool checks_passed() const;
    double sass_seconds = 0;  // decoding the cubin and planning the SASS-level counts
    bool started = false;     // false: the launch was refused before any block ran (configuration)
    std::optional<engine::LaunchError> fault;  // the engine's error, with where it happened
    bool stopped_at_budget() const { return fault && fault->kind == engine::Fault::budget_exhausted; }
    // Set when the figures come from a sample of the blocks: then no buffer was produced (report.buffers
    // empty).
    std::optional<SampleInfo> sampling;
};

// Runs a prepared launch on a simulator whose memory already holds what the kernel uses, with `params` packed
// as the kernel's .param list lays them out: the simulated run itself, shared by run_simulated and the CUDA
// runtime (sim/runtime). `run` comes in with preset and registers set (occupancy is worked out when unset);
// buffers are not hashed.
void run_launch(SimRun& run, engine::Simulator& sim, const PreparedLaunch& p, engine::LaunchConfig cfg,
                std::span<const uint8_t> params, const SimOptions& options);

// run_launch's two halves around the launch: the options, occupancy and counting rules (the SASS plan) into
// `cfg` and a fresh run.counters; then the report from the launch's result and run.counters.
void configure_launch(SimRun& run, const PreparedLaunch& p, engine::LaunchConfig& cfg,
                      const SimOptions& options);
// The launch of a configured run, then its report. `ran_before` (optional): a block that already ran on this
// simulator (an automatic sample's pilot): the launch leaves it out and adds its counts.
void launch_configured(SimRun& run, engine::Simulator& sim, const PreparedLaunch& p, engine::LaunchConfig cfg,
                       std::span<const uint8_t> params, const engine::BlockCounts* ran_before);
void fill_report(SimRun& run, const PreparedLaunch& p, const engine::LaunchConfig& cfg,
                 const engine::LaunchResult& result);

// A run with its preset, registers and occupancy worked out, before anything is set up or launched.
launch::Outcome<SimRun> new_run(const PreparedLaunch& p, const SimOptions& options);

// Runs the prepared launch on the simulator. Launch and memory errors come back inside the report
// (report.error); the outcome fails only when the run could not be set up (bad preset, bad buffer file).
launch::Outcome<SimRun> run_simulated(const PreparedLaunch& p, const SimOptions& options);

// The occupancy of the prepared launch on a preset.
launch::Outcome<device::Occupancy> launch_occupancy(const PreparedLaunch& p,
                                                    const device::DevicePreset& preset,
                                                    const RegisterInfo& regs);

}  // namespace warpsim::session
