// sim/engine/simulator.hpp — the public face of the functional SIMT engine: device memory, module loading
// and kernel launches with CUDA-like errors. A Simulator owns all of its state; two never interfere.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kernels_ir/ir.hpp"
#include "sim/counts/counters.hpp"
#include "sim/engine/fault.hpp"
#include "sim/engine/observer.hpp"
#include "sim/memory/device_memory.hpp"

namespace warpsim::engine {

struct TextureTable;  // sim/engine/texture.hpp

// Architecture limits checked before a launch (CUDA programming guide, compute capability 9.0).
struct DeviceLimits {
    uint32_t max_threads_per_block = 1024;
    std::array<uint32_t, 3> max_block_dim{1024, 1024, 64};
    std::array<uint32_t, 3> max_grid_dim{2147483647u, 65535, 65535};
    uint32_t shared_per_block_default = 48 * 1024;
    uint32_t shared_per_block_optin = 227 * 1024;
    uint32_t registers_per_sm = 65536;
    uint32_t num_sms = 132;
    uint32_t max_blocks_per_sm = 32;
    uint32_t warp_size = 32;
    uint32_t local_bytes_per_thread = 64 * 1024;  // stack for .local depots and call frames
    // The driver's per-block reservation at the start of the block's shared window (1 KB from compute
    // capability 8.0): user shared memory starts after it, as on the H200 (static __shared__ at offset 0x400;
    // tests/hardware/approx/reserved_smem_probe_h200.txt), and %reserved_smem_offset_* point into it.
    uint32_t reserved_shared_per_block = 1024;
};

// How far a running launch has got, for a progress display that polls it from another thread. The launch
// zeroes both counters when it starts; they are updated with relaxed atomics (blocks as they finish, thread
// instructions as the instruction budget is charged), so a reader sees figures that lag a little.
struct LaunchProgress {
    std::atomic<uint64_t> blocks_done{0};
    std::atomic<uint64_t> thread_instructions{0};
};

inline constexpr double kDefaultTimeLimitSeconds = 1800;
// cudaLimitPrintfFifoSize as the H200 reports it before any cudaDeviceSetLimit (tests/hardware/programs/h200:
// 8,650,752 bytes; the Programming Guide's "1 MB" is not what CUDA 13 gives there). warpsim counts the bytes
// of formatted text, the GPU its records (format pointer and arguments), so the two fill at different rates.
inline constexpr uint64_t kDefaultPrintfFifoBytes = 8'650'752;

struct LaunchConfig {
    std::array<uint32_t, 3> grid{1, 1, 1};
    std::array<uint32_t, 3> block{1, 1, 1};
    uint32_t dynamic_shared_bytes = 0;
    uint32_t max_dynamic_shared_optin = 0;  // cudaFuncAttributeMaxDynamicSharedMemorySize; 0: not opted in
    uint32_t registers_per_thread = 0;      // 0: not checked
    // CTAs per thread-block cluster (cuLaunchKernelEx's cluster dimension); all 0: the kernel's
    // .reqnctapercluster (__cluster_dims__) if it has one, else no clusters (one-CTA clusters).
    std::array<uint32_t, 3> cluster{0, 0, 0};
    // A cooperative launch (cudaLaunchCooperativeKernel): all blocks run at the same time (their warps take
    // turns across the grid, on one worker) and %envreg1:%envreg2 hold the address of a zeroed grid
    // workspace, the barrier cooperative groups' grid.sync() spins on. The caller checks that the blocks
    // could all be resident (occupancy); the engine refuses more than max_blocks_per_sm on every SM.
    bool cooperative = false;
    DeviceLimits limits;
    uint64_t max_instructions = 20'000'000'000ull;  // thread-instructions
    // Wall-clock seconds a launch may run before it stops with cudaErrorLaunchTimeout; 0: no limit. The
    // default is far above any benchmark of the corpus (the longest runs a few minutes under ASan).
    double time_limit_seconds = kDefaultTimeLimitSeconds;
    // cudaLimitPrintfFifoSize: bytes of printf output a launch keeps; the oldest records are overwritten
    // when more is printed (the CUDA Programming Guide's "circular" buffer).
    uint64_t printf_fifo_bytes = kDefaultPrintfFifoBytes;
    uint32_t host_workers = 1;  // 0: hardware concurrency
    // Another legal order of warp turns and of blocks (schedule.hpp), the same for any host_workers; 0: the
    // engine's own order. `warpsim check --schedules N` compares results across seeds.
    uint64_t schedule_seed = 0;
    std::string ptx_file = "kernel.ptx";  // named in messages
    counts::CountsConfig counts_config;   // for the per-chunk counters the engine creates
    // Correctness checkers (observer.hpp). nullptr: none. Set: blocks run one at a time in linear order on
    // one worker, and host_workers is ignored.
    ExecutionObserver* observer = nullptr;
    // The texture and surface objects the kernel's handles name (texture.hpp); nullptr: none. Must outlive
    // the launch.
    const TextureTable* textures = nullptr;
    // Optional progress counters (see LaunchProgress); nullptr: none.
    LaunchProgress* progress = nullptr;
    // Linear indices of the blocks to run (distinct, each below the grid's block count); empty: the whole
    // grid. Each listed block gets counters of its own, handed back in LaunchResult::block_counts besides
    // their sum (a sampled launch, sim/session/sampled_run.hpp). Not with clusters or cooperative launches.
    std::vector<uint64_t> only_blocks;
    // A block of the grid that already ran on its own (an automatic sample's pilot block): the launch runs
    // all the others. Not with only_blocks, clusters or cooperative launches.
    std::optional<uint64_t> skip_block;
};

// Where and why a kernel stopped; the fields a compute-sanitizer report would show.
struct FaultDetails {
    std::optional<uint64_t> address;
    uint32_t access_bytes = 0;
    std::string space;   // "global", "shared", "local", ...
    std::string access;  // "read", "write", "atomic"
    memory::NearestAllocation nearest;
    std::array<uint32_t, 3> block{0, 0, 0};
    std::array<uint32_t, 3> thread{0, 0, 0};
    uint32_t ptx_line = 0;
    std::string cuda_location;  // "kernel.cu:12" from .loc (inlined code: its chain, "hdr:107 in atomicAdd,
                                // inlined from kernel.cu:12"), empty without
    std::string function;       // the function (kernel or .func) executing
};

// A launch that failed: its kind (sim/engine/faults.def), and for reports CUDA's name and words for it.
struct LaunchError {
    LaunchError() = default;
    // `message` empty: CUDA's words for the kind.
    LaunchError(Fault kind, std::string details, FaultDetails where = {}, std::string message = {});
    Fault kind = Fault::launch_failure;
    std::string name;     // cuda_name(kind): "cudaErrorIllegalAddress"
    std::string message;  // "an illegal memory access was encountered"
    std::string details;  // multi-line human description
    FaultDetails where;
};

// One block of LaunchConfig::only_blocks: what it alone counted.
struct BlockCounts {
    uint64_t linear = 0;
    counts::KernelCounters counters;
    uint64_t warp_instructions = 0, thread_instructions = 0;
};

struct LaunchResult {
    std::optional<LaunchError> error;  // nullopt: success
    std::string printf_output;
    uint64_t printf_dropped_records = 0;  // overwritten in the printf FIFO (LaunchConfig::printf_fifo_bytes)
    uint64_t printf_dropped_bytes = 0;
    uint64_t warp_instructions = 0;
    uint64_t thread_instructions = 0;
    // Host threads that ran the blocks: LaunchConfig::host_workers, or 1 where order-dependent global atomics
    // (decode.cpp) or an observer make blocks run one after another; 0 when the launch did not start.
    uint32_t host_workers = 0;
    // Per block of LaunchConfig::only_blocks, in its order, when counters were given; empty otherwise.
    std::vector<BlockCounts> block_counts;
    bool ok() const { return !error.has_value(); }
};

struct LoadResult {
    bool ok = true;
    std::string message;
};

class Simulator {
  public:
    Simulator();
    ~Simulator();
    Simulator(const Simulator&) = delete;
    Simulator& operator=(const Simulator&) = delete;

    uint64_t malloc(uint64_t bytes);  // 256-byte aligned; 0 on failure
    bool free(uint64_t addr);
    bool write(uint64_t addr, std::span<const uint8_t> bytes);
    std::optional<std::vector<uint8_t>> read(uint64_t addr, uint64_t n) const;
    memory::DeviceMemory& memory() { return memory_; }

    // Lays out the module-scope .global/.const variables (with initialisers and address relocations).
    // Launching a module that was not loaded loads it first. The Module must outlive the Simulator's use.
    // `placed` names variables whose storage the caller already mapped (name -> address of memory the
    // allocation table holds, at least the variable's size: a __managed__ variable in host pages the program
    // reaches too); the others get allocations of their own. Ignored when the module is loaded already.
    using Placement = std::map<std::string, uint64_t, std::less<>>;
    LoadResult load(const ir::Module& module, const Placement& placed = {});
    // Device address of a module-scope .global/.const variable of a loaded module.
    std::optional<uint64_t> symbol_address(const ir::Module& module, std::string_view name) const;

    LaunchResult launch(const ir::Module& module, const ir::Function& kernel, const LaunchConfig& cfg,
                        std::span<const uint8_t> param_bytes, counts::KernelCounters* counters);

    uint64_t launches() const { return launch_count_; }
    // Whether the kernel's blocks interact through global atomics whose outcome depends on their order (the
    // engine then runs them one after another in linear order): running one of them first changes the
    // results.
    bool blocks_interact(const ir::Module& module, const ir::Function& kernel);

  private:
    struct LoadedModule;
    LoadedModule* loaded(const ir::Module& module, const Placement* placed = nullptr);

    memory::DeviceMemory memory_;
    std::map<const ir::Module*, std::unique_ptr<LoadedModule>> modules_;
    uint64_t launch_count_ = 0;
};

}  // namespace warpsim::engine
