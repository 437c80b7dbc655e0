// sim/runtime/runtime.hpp — the state of the simulated CUDA runtime (libcudart.so.13) that every API family
// file (api_*.cpp) works on: one Simulator per program, the registered modules, kernels and variables, the
// device allocations, the sticky error, and the per-thread last error and launch configurations.
//
// Extension point: an API family is one file `api_<family>.cpp` of `extern "C"` entry points with the
// signatures of NVIDIA's cuda_runtime_api.h (included below, so a signature that differs does not compile).
// An entry point takes `Runtime& rt = Runtime::get()`, holds `rt.lock()` while it touches the state, and
// returns through `rt.finish(code)` (records the per-thread last error and returns the code). A call not
// implemented yet returns `not_supported("cudaXxx")`: one line on stderr the first time, then
// cudaErrorNotSupported. Nothing here is exported except the entry points (libcudart.map).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "kernels_ir/ir.hpp"
#include "sim/device/device.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/runtime/address_space.hpp"
#include "sim/runtime/host_memory.hpp"
#include "sim/runtime/launch_log.hpp"
#include "sim/runtime/launch_reuse.hpp"
#include "sim/runtime/options.hpp"
#include "sim/runtime/streams.hpp"
#include "sim/runtime/textures.hpp"
#include "sim/session/run.hpp"
#include "sim/timing/stream_clock.hpp"

namespace warpsim::runtime {

// One module of the program: the PTX of one embedded fatbinary, parsed when a kernel of it is first used.
struct Module {
    const void* handle_key = nullptr;  // the fatbinary wrapper the program registered
    std::string ptx;                   // the PTX chosen from the fatbinary
    // -rdc=true: the PTX of each translation unit, linked into one module (then `ptx`) when first used; empty
    // otherwise.
    std::vector<std::string> ptx_parts;
    std::string ptx_name;            // for messages: "vec_add (fatbinary 1, compute_90)"
    std::string load_error;          // why the fatbinary gave no usable PTX; empty: fine
    std::shared_ptr<ir::Module> ir;  // nullptr until parsed
    bool problem_reported = false;   // its load_error was said on stderr
};

// A kernel the program registered (__cudaRegisterFunction), found by its host stub's address.
struct Kernel {
    Module* module = nullptr;
    const void* host_function = nullptr;
    std::string device_name;                            // the mangled name in the PTX
    const ir::Function* function = nullptr;             // resolved when the module is parsed
    std::optional<session::RegisterInfo> registers;     // ptxas's figures, worked out at the first launch
    uint32_t max_dynamic_shared_optin = 0;              // cudaFuncAttributeMaxDynamicSharedMemorySize
    int carveout_percent = -1;                          // cudaFuncAttributePreferredSharedMemoryCarveout
    std::unique_ptr<session::PreparedLaunch> prepared;  // made at the first launch (api_launch.cpp)
    // Its module executes tex/suld/sust: launches read and write memory the reuse footprint does not see.
    bool uses_textures = false;
    // Its module calls cudaGraphSetConditional, whose store the reuse footprint does not see either.
    bool sets_conditionals = false;
};

// A __device__ / __constant__ variable the program registered (__cudaRegisterVar).
struct Variable {
    Module* module = nullptr;
    const void* host_shadow = nullptr;
    std::string device_name;
    uint64_t size = 0;
    bool constant = false;
    bool managed = false;
};

// The configuration `<<<grid, block, shared, stream>>>` pushed before a kernel's host stub runs.
struct CallConfiguration {
    dim3 grid, block;
    size_t shared_bytes = 0;
    cudaStream_t stream = nullptr;
};

// One launch as the program asked for it.
struct LaunchRequest {
    dim3 grid, block;
    void** args = nullptr;    // args[i] points at the value of parameter i
    size_t shared_bytes = 0;  // dynamic shared memory per block
    cudaStream_t stream = nullptr;
    std::optional<std::array<uint32_t, 3>> cluster;  // CTAs per cluster (cudaLaunchKernelExC)
    bool cooperative = false;  // cudaLaunchCooperativeKernel: all blocks resident, grid.sync()
};

class Runtime;
// The prepared launch of a kernel (its module's PTX, the parsed function), made once (api_launch.cpp).
session::PreparedLaunch& prepared_for(Kernel& k);
// Runs one launch on the simulator (api_launch.cpp); the caller holds the lock. Returns the launch call's
// own result: configuration errors at once; a fault while the kernel ran becomes the sticky error instead.
cudaError_t launch_kernel(Runtime& rt, Kernel& k, const LaunchRequest& req);

class Runtime {
  public:
    // The program's one runtime, created at the first call and never destroyed: the program's static
    // destructors and atexit handlers (__cudaUnregisterFatBinary) still find it.
    static Runtime& get();

    std::unique_lock<std::recursive_mutex> lock() { return std::unique_lock(mutex_); }

    // Records `code` as this thread's last error unless it is cudaSuccess, and returns it.
    static cudaError_t finish(cudaError_t code);
    // The error a call returns when an earlier kernel fault made the context unusable (sticky); cudaSuccess
    // while there was none.
    cudaError_t sticky() const { return sticky_error_; }
    // A fault of a kernel the program has not synchronised with yet: launches return before the kernel ends,
    // so the fault becomes the sticky error at the next synchronising call (synchronize()), not before.
    void set_pending_fault(cudaError_t code) {
        if (pending_fault_ == cudaSuccess) pending_fault_ = code;
    }
    // True once a fault happened, seen or not: later kernels of the dead context do not run.
    bool context_faulted() const { return sticky_error_ != cudaSuccess || pending_fault_ != cudaSuccess; }

    // Modules, kernels, variables.
    Module& add_module(const void* wrapper);
    Kernel& add_kernel(Module& m, const void* host_function, std::string device_name);
    Variable& add_variable(Module& m, const void* host_shadow, std::string device_name, uint64_t size,
                           bool constant);
    Kernel* kernel_by_host_function(const void* host_function);
    Variable* variable_by_host_shadow(const void* host_shadow);
    void remove_module(const void* wrapper);
    // Parses the module's PTX and loads it into the simulator (once); the error text on failure.
    std::optional<std::string> ensure_loaded(Module& m);
    // The device address of a registered variable (loading its module first); nullopt when unknown.
    std::optional<uint64_t> variable_address(Variable& v);
    // Maps host pages for each __managed__ variable of `m` and points the program's pointer at them
    // (runtime.cpp); the error text when memory ran out.
    std::optional<std::string> place_managed(Module& m, engine::Simulator::Placement& placed);

    engine::Simulator& sim() { return *sim_; }
    const device::DevicePreset& preset() const { return preset_; }
    const Options& options() const { return options_; }
    HostMemory& host() { return host_; }
    AddressSpace& addresses() { return addresses_; }
    size_t module_count() const { return modules_.size(); }
    uint64_t next_allocation_serial() { return ++allocation_serial_; }
    LaunchLog& log() { return log_; }
    // The program's stream and event handles (streams.hpp); cudaDeviceGetLimit/SetLimit's values.
    Streams& streams() { return streams_; }
    std::map<cudaLimit, size_t>& limits() { return limits_; }
    LaunchReuse& reuse() { return reuse_; }
    // CUDA arrays, texture and surface objects (api_texture.cpp).
    TextureObjects& textures() { return textures_; }
    // When the program's work would run on the GPU: kernels (the timing model's time), copies (the copy
    // model) and the host's waits, per stream (sim/timing/stream_clock.hpp).
    timing::StreamClock& clock() { return *clock_; }
    // The clock's stream of a cudaStream_t (the legacy and per-thread default handles are stream 0).
    static timing::StreamClock::StreamId stream_id(cudaStream_t s);

    // Device printf text of finished kernels, written to stdout at the next synchronising call.
    void queue_printf(const std::string& text) { pending_printf_ += text; }
    void flush_printf();
    // What a synchronising call does before it returns: printf out, a pending fault made sticky, the sticky
    // error back. synchronize() also makes the host wait for all of the device's work on the clock; a call
    // that waits for one stream or event waits for that on the clock and then calls synchronized().
    cudaError_t synchronize();
    cudaError_t synchronized();

    // True when [addr, addr+n) lies inside one device allocation (or module variable, or mapped host range).
    bool is_device_range(uint64_t addr, uint64_t n) const;

  private:
    Runtime();
    void at_exit();

    std::recursive_mutex mutex_;
    Options options_;
    device::DevicePreset preset_;
    std::unique_ptr<engine::Simulator> sim_;
    AddressSpace addresses_;
    HostMemory host_;
    LaunchLog log_;
    LaunchReuse reuse_;
    TextureObjects textures_;
    std::unique_ptr<timing::StreamClock> clock_;
    std::vector<std::unique_ptr<Module>> modules_;
    std::map<const void*, std::unique_ptr<Kernel>> kernels_;
    std::map<const void*, std::unique_ptr<Variable>> variables_;
    std::map<const void*, Variable*> managed_by_address_;  // a __managed__ variable by its storage's address
    cudaError_t sticky_error_ = cudaSuccess;
    Streams streams_;
    std::map<cudaLimit, size_t> limits_;
    cudaError_t pending_fault_ = cudaSuccess;
    uint64_t allocation_serial_ = 0;
    std::string pending_printf_;
};

// Per-thread state of the runtime API (as CUDA keeps it per host thread).
cudaError_t& thread_last_error();
std::vector<CallConfiguration>& thread_call_stack();
// The thread's capture mode (cudaThreadExchangeStreamCaptureMode; global until changed).
cudaStreamCaptureMode& thread_capture_mode();

// The entry point of a call warpsim does not implement yet: says so once on stderr
// ("warpsim: cudaXxx is not supported yet"), records and returns cudaErrorNotSupported.
cudaError_t not_supported(const char* api_name);

// The cudaError_t of an engine error name ("cudaErrorIllegalAddress"); cudaErrorUnknown when not a CUDA name.
cudaError_t error_code(const std::string& name);
// The runtime's name and string of a code ("cudaErrorInvalidValue", "invalid argument").
const char* error_name(cudaError_t code);
const char* error_string(cudaError_t code);

}  // namespace warpsim::runtime
