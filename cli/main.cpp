// cli/main.cpp — the `warpsim` command line: run, explain, ptx, occupancy, devices, compare, check.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "launch/cleanup.hpp"
#include "launch/log.hpp"
#include "launch/version.hpp"

namespace {

// Exit code when the environment, not the input, stopped the command: memory, an unwritable output.
constexpr int kExitEnvironment = 3;

// What reached stdout must have been written: a full disk or a closed pipe is an error, not a lost report.
int checked_exit(int code) {
    std::cout.flush();
    bool failed = !std::cout;
    errno = 0;
    if (std::fflush(stdout) != 0) failed = true;
    int saved = errno;
    if (!failed) return code;
    std::cerr << "warpsim: cannot write to standard output"
              << (saved ? std::string(": ") + std::strerror(saved) : "") << ": the output is incomplete\n";
    return code == 0 ? kExitEnvironment : code;
}

int dispatch(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
    warpsim::launch::install_cleanup_on_signals();
    try {
        return checked_exit(dispatch(argc, argv));
    } catch (const std::bad_alloc&) {
        std::cerr
            << "warpsim: out of memory: the host could not allocate what this run needs; make the launch "
               "smaller or free memory\n";
    } catch (const std::exception& e) {
        std::cerr << "warpsim: internal error: " << e.what() << " (please report it with the input)\n";
    } catch (...) {
        std::cerr << "warpsim: internal error: an unknown exception (please report it with the input)\n";
    }
    return kExitEnvironment;
}

namespace {

int dispatch(int argc, char** argv) {
    using namespace warpsim::cli;
    // `warpsim exec` stops at the program's path: everything after it is the program's (its own -h, --help).
    if (argc >= 2 && std::string_view(argv[1]) == "exec") return exec_command(argc - 2, argv + 2, argv[0]);
    if (argc >= 2 && std::string_view(argv[1]) == "nvcc") return nvcc_command(argc - 2, argv + 2);
    CLI::App app{
        "warpsim: run CUDA kernels on a simulated NVIDIA GPU, count what the hardware counts, and "
        "compare with a real GPU"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "warpsim " + std::string(warpsim::launch::version()));

    RunArgs run;
    auto* run_cmd =
        app.add_subcommand("run", "Run a launch spec on the simulator (or a real GPU) and report");
    run_cmd->add_option("spec", run.spec, "Launch spec (JSON)")->required();
    run_cmd->add_flag("--json", run.json,
                      "Print one JSON object (the launch-spec contract) instead of the report");
    run_cmd->add_flag("--quiet", run.quiet, "Print nothing but errors; the exit code says whether it worked");
    constexpr const char* kVerboseHelp =
        "-v: log the runtime's and the engine's decisions on stderr (what is launched, which compiler, "
        "ptxas and its cache, occupancy limits, sampling); -vv: also their details";
    run_cmd->add_flag("-v,--verbose", run.verbose, kVerboseHelp);
    run_cmd->add_flag(
        "--ptx-counts", run.ptx_counts,
        "Count the PTX as written (PTX-level counts), not per SASS instruction as ptxas compiled it");
    run_cmd->add_option("--device", run.device, "Device preset name or preset JSON file (default h200)");
    run_cmd->add_option("--backend", run.backend, "sim (default) or cuda")
        ->check(CLI::IsMember({"sim", "cuda"}));
    run_cmd->add_flag("--profile", run.profile,
                      "With --backend cuda: collect the counters with Nsight Compute");
    run_cmd->add_option("--runs", run.runs, "With --backend cuda: timed runs after the warm-up (default 20)");
    run_cmd->add_option("--max-instructions", run.max_instructions,
                        "Stop a kernel after this many thread-instructions (default 2e10)");
    run_cmd
        ->add_option("--time-limit", run.time_limit,
                     "Stop a launch after this many seconds of wall-clock time "
                     "(default 1800; 0: no limit)")
        ->check(CLI::NonNegativeNumber);
    run_cmd
        ->add_option("--printf-buffer", run.printf_buffer,
                     "Bytes of device printf output a launch keeps "
                     "(cudaLimitPrintfFifoSize, default 8650752 as on the H200); the oldest records are "
                     "overwritten beyond it")
        ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 32));
    run_cmd->add_option("--threads", run.workers, "Host threads for the simulator (default: all cores)");
    run_cmd->add_option("--save", run.save,
                        "Save every buffer after the kernel as DIR/argN.npy (NumPy), listed in "
                        "the report");
    run_cmd->add_option("--show", run.show,
                        "Print elements after the kernel: NAME[a:b] or args[N][a:b] (Python "
                        "slices; repeat for more)");
    run_cmd->add_option("--html", run.html,
                        "Also write a self-contained HTML page (launch picture, per-line bars, "
                        "lane diagrams) to this file");
    auto* sample_flag =
        run_cmd->add_flag("--sample", run.sample,
                          "Counts and predicted time from a sample of the "
                          "blocks (every kind of block represented, extrapolated with an error "
                          "bound); no buffers are produced");
    auto* no_sample_flag = run_cmd->add_flag("--no-sample", run.no_sample,
                                             "Run every block, however large the "
                                             "launch (no automatic sampling)");
    sample_flag->excludes(no_sample_flag);
    run_cmd->add_option(
        "--sample-above", run.sample_above,
        "Sample automatically when a pilot block says the launch "
        "runs more than this many thread-instructions and no buffer is asked for (default 1e10)");

    PtxArgs ptx;
    auto* ptx_cmd =
        app.add_subcommand("ptx", "List the kernels of a .ptx or .cu file: parameters, shared memory");
    ptx_cmd->add_option("file", ptx.file, "PTX or CUDA file")->required();
    ptx_cmd->add_option("--arch", ptx.arch, "Architecture for compiling .cu files (default sm_90)");
    ptx_cmd->add_flag("--print", ptx.print, "Print the module back as PTX (the IR printer)");

    OccupancyArgs occ;
    auto* occ_cmd = app.add_subcommand("occupancy", "Blocks per SM, occupancy and the limiting resource");
    occ_cmd->add_option("spec", occ.spec,
                        "Launch spec (optional: else give --threads/--regs/--shared-bytes)");
    occ_cmd->add_option("--device", occ.device, "Device preset (default h200)");
    occ_cmd->add_option("--threads", occ.threads, "Threads per block");
    occ_cmd->add_option("--regs", occ.regs, "Registers per thread");
    occ_cmd->add_option("--shared-bytes", occ.shared_bytes, "Shared memory per block (static + dynamic)");
    occ_cmd->add_option("--carveout", occ.carveout,
                        "Preferred shared-memory carveout in percent (-1: default)");
    occ_cmd->add_flag("--sweep", occ.sweep,
                      "Table over block sizes 32..1024 (and registers as a second axis)");
    occ_cmd->add_flag("--json", occ.json, "JSON output");
    occ_cmd->add_flag("--csv", occ.csv,
                      "CSV output of --sweep (threads,registers,occupancy_pct,blocks_per_sm,limiter)");

    DevicesArgs dev;
    auto* dev_cmd = app.add_subcommand("devices", "List the device presets");
    dev_cmd->add_flag("--json", dev.json, "JSON output");

    CompareArgs cmp;
    auto* cmp_cmd = app.add_subcommand("compare",
                                       "SPEC: the simulator and the GPU side by side; A B: two specs or "
                                       "saved `run --json` reports side by side (a baseline)");
    cmp_cmd->add_option("inputs", cmp.inputs, "SPEC, or A B (launch specs or reports saved with run --json)")
        ->required()
        ->expected(1, 2);
    cmp_cmd->add_flag("--json", cmp.json, "JSON output");
    cmp_cmd->add_flag("--csv", cmp.csv, "A B: CSV output (metric,a,b,difference,ratio)");
    cmp_cmd->add_flag("--all", cmp.all, "A B: also list the metrics that are equal on both sides");
    cmp_cmd->add_flag("--gpu", cmp.gpu,
                      "A B: run the specs on the GPU (ncu metrics) instead of the simulator");
    cmp_cmd->add_option("--metrics", cmp.metrics,
                        "A B: keep only metrics whose name contains one of these "
                        "comma-separated parts (bank_conflicts,sectors)");
    cmp_cmd->add_option("--device", cmp.device, "Device preset for the simulator (default h200)");

    CheckArgs chk;
    auto* chk_cmd =
        app.add_subcommand("check", "Correctness checkers: memcheck, racecheck, synccheck, initcheck");
    chk_cmd->add_option("spec", chk.spec, "Launch spec (JSON)")->required();
    chk_cmd
        ->add_option("--tool", chk.tools,
                     "memcheck, racecheck, synccheck, initcheck or all (default all; "
                     "repeat or separate with commas)")
        ->allow_extra_args(false);
    chk_cmd->add_option("--device", chk.device, "Device preset (default h200)");
    chk_cmd->add_option("--max-instructions", chk.max_instructions, "Instruction budget (default 2e10)");
    chk_cmd
        ->add_option("--time-limit", chk.time_limit,
                     "Stop a launch after this many seconds of wall-clock time "
                     "(default 1800; 0: no limit)")
        ->check(CLI::NonNegativeNumber);
    chk_cmd
        ->add_option("--schedules", chk.schedules,
                     "Run under N legal warp and block orders (seeds S..S+N-1) and "
                     "report buffers that differ (default 1)")
        ->check(CLI::Range(1u, 1000u));
    chk_cmd->add_option("--schedule-seed", chk.schedule_seed,
                        "Order the checkers watch (0: the engine's own, "
                        "default)");
    chk_cmd->add_flag("--shared-only", chk.shared_only, "racecheck: shared memory only (not global)");
    chk_cmd->add_flag("--json", chk.json, "JSON output");
    chk_cmd->add_flag("-v,--verbose", chk.verbose, kVerboseHelp);
    chk_cmd->add_flag("--quiet", chk.quiet,
                      "Print nothing but errors in the input; the exit code says whether "
                      "anything was found (0 nothing, 1 findings)");

    ExplainArgs exp;
    auto* exp_cmd =
        app.add_subcommand("explain",
                           "One source line as one warp ran it: a summary of its memory accesses "
                           "(the arrays, the cost against the ideal, and why), branches, shuffles "
                           "and votes; --lanes adds the lane-by-lane tables");
    exp_cmd->add_option("spec", exp.spec, "Launch spec (JSON)")->required();
    exp_cmd->add_option("--line", exp.line, "CUDA source line to explain");
    exp_cmd->add_option("--ptx-line", exp.ptx_line, "PTX line to explain (instead of --line)");
    exp_cmd->add_option("--block", exp.block,
                        "blockIdx of the warp to show: X, X,Y or X,Y,Z (default: the block "
                        "of the first warp that executes the line)");
    exp_cmd->add_option("--warp", exp.warp,
                        "Warp within the block: 0 is threads 0-31, counted in x, y, z order");
    exp_cmd->add_flag("--worst", exp.worst,
                      "Show the costliest warp that ran the line (most excess sectors and wavefronts, then "
                      "split branches, then idle lanes) instead of the first; with --block / --warp, the "
                      "costliest of those");
    exp_cmd->add_flag("--lanes", exp.lanes,
                      "After the summary, every access in full with its lane-by-lane table (threads, "
                      "addresses, sectors or banks, elements)");
    exp_cmd->add_flag("--json", exp.json, "JSON output");
    exp_cmd->add_option("--device", exp.device, "Device preset (default h200)");
    exp_cmd->add_option("--max-instructions", exp.max_instructions,
                        "Stop a kernel after this many thread-instructions (default 2e10)");
    exp_cmd
        ->add_option("--time-limit", exp.time_limit,
                     "Stop a launch after this many seconds of wall-clock time "
                     "(default 1800; 0: no limit)")
        ->check(CLI::NonNegativeNumber);
    exp_cmd->add_option("--threads", exp.workers, "Host threads for the simulator (default: all cores)");

    app.add_subcommand("exec",
                       "Run a CUDA program (nvcc -cudart shared) with every kernel on the simulated GPU: "
                       "warpsim exec [--device P] [--report DIR] [--check] PROGRAM ARGS...");
    app.add_subcommand("nvcc",
                       "nvcc with -cudart shared, -lineinfo and PTX for sm_90 added (for warpsim exec)");

    auto* metrics_cmd = app.add_subcommand(
        "ncu-metrics", "Print the Nsight Compute metrics warpsim simulates, comma-separated");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    const int verbose = run_cmd->parsed() ? run.verbose : chk_cmd->parsed() ? chk.verbose : 0;
    warpsim::launch::log::set_level(verbose >= 2   ? spdlog::level::debug
                                    : verbose == 1 ? spdlog::level::info
                                                   : spdlog::level::warn);
    if (run_cmd->parsed()) return run_command(run, argv[0]);
    if (ptx_cmd->parsed()) return ptx_command(ptx);
    if (occ_cmd->parsed()) return occupancy_command(occ);
    if (dev_cmd->parsed()) return devices_command(dev);
    if (cmp_cmd->parsed()) return compare_command(cmp, argv[0]);
    if (metrics_cmd->parsed()) return ncu_metrics_command();
    if (chk_cmd->parsed()) return check_command(chk);
    if (exp_cmd->parsed()) return explain_command(exp);
    return 2;
}

}  // namespace
