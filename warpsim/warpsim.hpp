// warpsim/warpsim.hpp — the public C++ API: load PTX or CUDA source, describe a launch as C++ values, run it
// on the simulator or a GPU, get the buffers, the counts and the predicted time back (docs/API.md).
// This header needs the standard library only; nothing of the simulator's internals or its dependencies
// reaches a program that includes it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace warpsim {

// The library's version, the CMake project version it was built as ("0.2.0").
std::string_view version();

// The library's log: what the runtime and the engine decide (what is launched, which compiler, ptxas and its
// cache, occupancy limits, sampling), one line per message; decisions at info, their details at debug. By
// default it goes to stderr at warning and above ("warpsim: info: ..."). set_log(level) changes the level;
// set_log(level, sink) hands each message at `level` or above to `sink` instead (called from whichever thread
// logs, one message at a time); set_log(LogLevel::off) silences it. The log is the process's, shared by all
// its launches.
enum class LogLevel : uint8_t { debug, info, warning, error, off };
using LogSink = std::function<void(LogLevel level, std::string_view message)>;
void set_log(LogLevel level, LogSink sink = {});

// Bad input (PTX that does not parse, an unknown kernel, arguments that do not fit the kernel's
// parameters, a device preset that does not exist). The message names the file, line or argument.
class Error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Element types of buffers and scalars, as the launch spec names them (docs/SPEC.md).
enum class Type : uint8_t { i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32, f64 };
std::string_view type_name(Type t);
std::size_t type_bytes(Type t);

template <class T>
constexpr Type type_of() {
    if constexpr (std::is_same_v<T, int8_t>)
        return Type::i8;
    else if constexpr (std::is_same_v<T, uint8_t>)
        return Type::u8;
    else if constexpr (std::is_same_v<T, int16_t>)
        return Type::i16;
    else if constexpr (std::is_same_v<T, uint16_t>)
        return Type::u16;
    else if constexpr (std::is_same_v<T, int32_t>)
        return Type::i32;
    else if constexpr (std::is_same_v<T, uint32_t>)
        return Type::u32;
    else if constexpr (std::is_same_v<T, int64_t>)
        return Type::i64;
    else if constexpr (std::is_same_v<T, uint64_t>)
        return Type::u64;
    else if constexpr (std::is_same_v<T, float>)
        return Type::f32;
    else if constexpr (std::is_same_v<T, double>)
        return Type::f64;
    else
        static_assert(sizeof(T) == 0, "warpsim::type_of: no element type for this C++ type");
}

// One parameter of a kernel as its PTX declares it.
struct Param {
    std::string name;      // "_Z6vecAddPKfS0_Pfi_param_0"
    std::string ptx_type;  // "u64" (pointers too), "s32", "f32", "b8" (an array of bytes: a struct) ...
    std::size_t bytes = 0;
    bool is_float = false;  // a floating-point scalar (f16, bf16, f32, f64)
};

// A parsed and verified PTX module. Copies share the module.
class Module {
  public:
    // PTX text; `name` is the file name used in messages.
    static Module from_ptx(std::string ptx, std::string name = "module.ptx");
    // CUDA C++ source compiled to PTX for `arch` ("sm_90") with line information: in process by NVRTC
    // (libnvrtc loaded at run time) when it is there, else by nvcc, and by nvcc also when NVRTC cannot
    // compile it (host code, host headers) (Compiler::automatic); or by the one asked for. Throws Error with
    // the compiler's messages, or saying that neither is installed.
    enum class Compiler : uint8_t { automatic, nvrtc, nvcc };
    static Module from_cuda(std::string source, const std::string& name = "kernel.cu",
                            const std::string& arch = "sm_90", Compiler compiler = Compiler::automatic);
    // A .ptx or .cu file.
    static Module load(const std::string& path);

    const std::string& name() const;
    const std::string& ptx() const;
    // What made the PTX: "nvrtc 13.0", "nvcc", or "" for PTX given as such.
    const std::string& compiler() const;
    // The entry points (.entry), by their PTX names.
    std::vector<std::string> kernels() const;
    // A kernel's parameters (by its PTX name or the demangled base name); throws Error for an unknown or
    // ambiguous kernel, naming the candidates.
    std::vector<Param> parameters(const std::string& kernel) const;

    struct Impl;
    const Impl& impl() const { return *impl_; }

  private:
    explicit Module(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
    std::shared_ptr<const Impl> impl_;
};

// One kernel argument: a device buffer (its contents copied in before the launch and out after it) or a
// scalar (its bits, little-endian).
struct Arg {
    enum class Kind : uint8_t { buffer, scalar };
    Kind kind = Kind::scalar;
    Type type = Type::i32;
    uint64_t count = 0;               // buffer: elements
    std::span<const std::byte> data;  // buffer: the initial contents (empty: zeros); not owned
    std::vector<std::byte> value;     // scalar: little-endian bits
    std::string name;                 // optional, for messages
    // buffer (optional): where its bytes go after a kernel that did not fault (the caller's memory, of
    // exactly the buffer's size, written straight from the simulator's); Result::buffers then has no copy
    // of them (an empty entry). Often the same memory as `data`: the buffer is updated in place.
    std::span<std::byte> write_back;

    template <class T>
    static Arg buffer(std::span<const T> initial, std::string name = {}) {
        Arg a;
        a.kind = Kind::buffer;
        a.type = type_of<T>();
        a.count = initial.size();
        a.data = std::as_bytes(initial);
        a.name = std::move(name);
        return a;
    }
    template <class T>
    static Arg buffer(const std::vector<T>& initial, std::string name = {}) {
        return buffer(std::span<const T>(initial), std::move(name));
    }
    // `count` elements of zeros.
    static Arg zeros(Type type, uint64_t count, std::string name = {}) {
        Arg a;
        a.kind = Kind::buffer;
        a.type = type;
        a.count = count;
        a.name = std::move(name);
        return a;
    }
    template <class T>
    static Arg scalar(T v, std::string name = {}) {
        Arg a;
        a.kind = Kind::scalar;
        a.type = type_of<T>();
        a.value.resize(sizeof(T));
        std::memcpy(a.value.data(), &v, sizeof(T));
        a.name = std::move(name);
        return a;
    }
};

struct Dim3 {
    uint32_t x = 1, y = 1, z = 1;
    Dim3() = default;
    Dim3(uint32_t x_, uint32_t y_ = 1, uint32_t z_ = 1) : x(x_), y(y_), z(z_) {}  // NOLINT: Dim3 d = 256;
};

// What the L2 holds when a launch starts, for its predicted time (the launch spec's "l2"): warm, what the
// launch's previous run left there (CUDA-event timing repeats a launch), or cold, nothing (flushed, as
// Nsight Compute's --cache-control all leaves it). The counts are the same either way.
enum class L2 : uint8_t { warm, cold };

// A launch as the launch spec describes one (DESIGN.md "The launch spec").
struct Launch {
    std::string kernel;  // the PTX name, or the demangled base name of a C++ kernel
    Dim3 grid, block;
    uint32_t shared_bytes = 0;  // dynamic shared memory per block
    std::vector<Arg> args;
    L2 l2 = L2::warm;
};

enum class Backend : uint8_t { simulator, gpu };

struct RunOptions {
    Backend backend = Backend::simulator;
    std::string device = "h200";  // simulator: a device preset (`warpsim devices`) or a preset file
    uint32_t workers = 0;         // simulator: host threads, 0 = all cores
    // simulator: counts and predicted time from a sample of the blocks (`warpsim run --sample`,
    // docs/REPORT.md); no buffer comes back (Result::buffers are empty) and the report's "sampling" object
    // has each count's bound.
    bool sample = false;
    uint32_t gpu_runs = 20;  // gpu: timed launches after `gpu_warmup` (0: no timing)
    uint32_t gpu_warmup = 3;
    // simulator: keep what Result::text_report() and Result::html_report() need; costs a short second run
    // of the first blocks (one warp's addresses per instruction for the lane diagrams), as `warpsim run`
    // makes for its report.
    bool reports = false;
};

struct Predicted {
    double cycles = 0, time_us = 0, dram_gbps = 0, gflops = 0;
    std::string bound;  // what limits the kernel: "dram", "latency", ...
    std::string l2;     // the L2 the prediction starts from: "warm" or "cold"
    // How far to trust it (the report's predicted.clock_mhz ... expected_error, docs/TIMING.md):
    double clock_mhz = 0;           // the SM clock the cycles are converted with
    std::string clock;              // that clock in words
    std::string parameters;         // the timing parameters: "measured", "borrowed" or "defaults"
    std::string parameters_origin;  // where they come from
    std::string expected_error;     // the error measured with them, or "unvalidated ..."
};

struct Result {
    std::string backend;  // "sim" or "cuda"
    std::string device;
    // The launch's fault or launch error as CUDA names it ("cudaErrorIllegalAddress"), or empty.
    std::string error, error_message;
    // Per argument, its bytes after the kernel; empty for scalars and for buffers with Arg::write_back.
    std::vector<std::vector<uint8_t>> buffers;
    std::map<std::string, double> metrics;   // Nsight Compute metric names
    std::optional<Predicted> predicted;      // simulator
    std::optional<double> measured_time_us;  // gpu: median of the timed launches
    std::string printf_output;
    std::string json;  // the whole report, as `warpsim run --json` prints it
    // What the launch's checks found questionable but ran anyway (a buffer whose element type differs from
    // the pointer's in the kernel's C++ signature), as the command line prints them.
    std::vector<std::string> warnings;

    bool ok() const { return error.empty(); }
    // The report `warpsim run` prints (launch, occupancy, what to look at, per source line the accesses,
    // the timing), and the page `warpsim run --html` writes. Need RunOptions::reports; else throw Error.
    std::string text_report() const;
    std::string html_report() const;
    struct Reports;
    std::shared_ptr<const Reports> reports;  // what the two need, kept by a run with RunOptions::reports
    // Argument `arg`'s buffer as elements of T; throws Error when it is no buffer or T has another size.
    template <class T>
    std::vector<T> buffer(std::size_t arg) const {
        if (arg >= buffers.size() || buffers[arg].size() % sizeof(T) != 0)
            throw Error("warpsim::Result::buffer: argument " + std::to_string(arg) +
                        " is no buffer of that type");
        std::vector<T> out(buffers[arg].size() / sizeof(T));
        std::memcpy(out.data(), buffers[arg].data(), buffers[arg].size());
        return out;
    }
};

// Runs one launch. Bad input throws Error; what the kernel does wrong (an out-of-bounds access, a trap, a
// launch the device refuses) comes back in Result::error, as on a GPU.
Result run(const Module& module, const Launch& launch, const RunOptions& options = {});

// `warpsim check`: the launch on the simulator with compute-sanitizer's checkers attached (docs/CHECKERS.md).
struct CheckOptions {
    // "memcheck", "racecheck", "synccheck", "initcheck", or "all".
    std::vector<std::string> tools{"all"};
    std::string device = "h200";
    bool race_global = true;  // racecheck also global memory within a block (false: shared memory only)
    uint32_t schedules = 1;   // > 1: also run that many legal warp orders and report buffers that differ
};

// One party of a finding: what it did ("write", "read", "waits at barrier") where, and who.
struct FindingParty {
    std::string what;
    std::string location;  // the user's line, "reverse.cu:19" (the CUDA source where .loc says, else PTX)
    std::string where;     // the full place: "reverse.cu:19 (reverse.ptx:52)", inlined frames included
    uint32_t line = 0;     // the line of `location`
    uint32_t ptx_line = 0;
    std::string function;  // the demangled kernel or function
    std::array<uint32_t, 3> thread{0, 0, 0}, block{0, 0, 0};
};

struct Finding {
    std::string tool;   // "memcheck", "racecheck", "synccheck", "initcheck", "schedules"
    std::string kind;   // a stable id: "race.raw.shared", "sync.barrier_partial", "mem.oob.global" ...
    std::string title;  // "Read-after-write hazard on shared memory"
    std::vector<FindingParty> parties;  // 1 or 2; the first is where it was seen
    std::optional<uint64_t> address;
    std::string space;     // "shared", "global" ...
    std::string variable;  // "tile[255]", "args[1] y[1024]"
    std::vector<std::string> notes;
    std::string fix;     // "add __syncthreads() between line 19 and line 20"
    uint64_t count = 1;  // occurrences folded into this finding
};

struct CheckReport {
    std::string kernel;
    std::vector<Finding> findings;
    std::vector<std::string> notes;
    std::string incomplete;  // non-empty: the simulator could not run the kernel to the end (not a finding)
    std::string text;        // as `warpsim check` prints it (compute-sanitizer's form)
    std::string json;        // as `warpsim check --json` prints it
    bool clean() const { return findings.empty() && incomplete.empty(); }
};

// Bad input (and an unknown tool name) throws Error; what the checkers find comes back in the report.
CheckReport check_launch(const Module& module, const Launch& launch, const CheckOptions& options = {});

}  // namespace warpsim
