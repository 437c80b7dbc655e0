// sim/engine/exec_state.hpp — the state a warp-level handler works on: warps with call frames and their
// explicit reconvergence stacks, the block (shared memory, barriers), and the launch-wide context.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/counts/counters.hpp"
#include "sim/engine/program.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/memory/device_memory.hpp"

namespace warpsim::engine {

// One entry of the reconvergence stack: run `mask` from `pc` until `pc == rpc`, then pop.
struct StackEntry {
    uint32_t pc = 0;
    uint32_t rpc = kNone;
    uint32_t mask = 0;
};

struct Frame {
    const DecodedFunction* code = nullptr;
    std::vector<uint64_t> regs;  // regs[r * 32 + lane]
    std::vector<StackEntry> stack;
    uint32_t local_base = 0;     // per-thread local offset of this frame's depot
    uint32_t param_base = 0;     // per-lane offset of this frame's param area
    uint32_t call_site = kNone;  // caller's CallSite index (for copying return values back)
    uint32_t entry_mask = 0;     // lanes that entered the frame
    // alloca (handlers_stack.cpp): per lane, the end of the frame's local memory including what alloca gave;
    // empty until the frame's first alloca (the end is then local_base + the depot's size for every lane).
    std::vector<uint32_t> alloca_top;
};

// Where the next frame's local memory may start: above the depot and every lane's alloca'd memory.
inline uint32_t frame_local_end(const Frame& f, uint32_t depot_bytes) {
    uint32_t end = f.local_base + depot_bytes;
    for (uint32_t t : f.alloca_top) end = std::max(end, (t + 15) / 16 * 16);
    return end;
}

enum class WarpState : uint8_t { ready, at_barrier, done };

// Between blocks of a chunk a warp is reused: reset_warp (warp_runner.cpp) must reset every field.
struct Warp {
    uint32_t index = 0;   // warp id within the block
    uint32_t lanes = 32;  // threads in this warp (partial last warp)
    uint32_t exited = 0;  // lanes that executed exit
    uint32_t carry = 0;   // CC.CF per lane (add.cc / addc / madc)
    WarpState state = WarpState::ready;
    uint32_t barrier_id = 0;
    bool yield = false;        // end this turn early (a failed mbarrier.try_wait)
    bool wait_failed = false;  // the turn's last mbarrier test_wait/try_wait found its phase open
    std::vector<Frame> frames;
    std::array<std::vector<uint8_t>, 32> local;   // per-lane stack of .local depots
    std::array<std::vector<uint8_t>, 32> params;  // per-lane stack of .param areas
};

struct PrintfRecord {
    uint32_t warp = 0;
    uint64_t seq = 0;
    std::string text;
};

// One of the block's 16 named barriers. Arrivals are counted per warp, as sm_70+ hardware does: a warp
// that executes bar.sync/bar.red/bar.arrive with any of its lanes counts as one whole warp (32 threads).
struct BarrierState {
    bool started = false;   // an arrival happened in this phase
    uint32_t arrived = 0;   // warps arrived in this phase
    uint32_t expected = 0;  // warps expected (thread count / 32); 0: every non-exited warp
    uint32_t red_popc = 0;
    bool red_and = true, red_or = false;
    std::vector<uint32_t> waiting;  // warps blocked on it
    struct RedTarget {
        uint32_t warp = 0, reg = 0, lanes = 0;
        uint8_t kind = 0;  // 0 popc, 1 and, 2 or
    };
    std::vector<RedTarget> red_targets;  // bar.red destinations to fill on completion
    uint32_t ptx_line = 0;
    const DInst* where = nullptr;  // first arrival, for deadlock reports
};

struct LaunchContext;
struct BlockContext;

// Register files of frames that ended, for the next frames to reuse: a block's warps then neither allocate
// nor free theirs. One per chunk of blocks (one worker at a time), never shared between threads. Likewise
// the reconvergence stacks of ended frames, a finished block's warps (their frame list and per-lane local
// and param stacks keep their capacity) and its shared memory: each is emptied or refilled before reuse,
// so a block starts from the same state as with new ones.
struct RegisterFilePool {
    std::vector<std::vector<uint64_t>> spare;
    std::vector<std::vector<StackEntry>> spare_stacks;
    std::vector<Warp> spare_warps;
    std::vector<uint8_t> spare_shared;
};

// A thread-block cluster (sm_90): its CTAs run together on one worker (cluster_runner.cpp), read and write
// each other's shared memory (distributed shared memory) and share barrier.cluster (handlers_cluster.cpp).
// A launch without clusters gives a block a one-CTA cluster the first time it uses barrier.cluster.
struct ClusterContext {
    struct Waiter {
        uint32_t rank = 0, warp = 0, lanes = 0;
    };
    std::vector<BlockContext*> ctas;  // by %cluster_ctarank
    uint64_t phase = 0;               // completed phases of barrier.cluster
    uint64_t pending = 0;             // warps with a live lane that have not arrived in the current phase
    std::vector<uint64_t> arrived;    // [rank * warps + warp]: 1 + phase of the warp's last arrival; 0 none
    std::vector<Waiter> waiting;      // warps stopped at barrier.cluster.wait
    const DInst* where = nullptr;  // the first barrier.cluster.wait of the current phase (deadlock reports)
};

inline constexpr uint32_t kClusterBarrierId = 16;  // Warp::barrier_id of a warp in barrier.cluster.wait

struct BlockContext {
    const LaunchContext* launch = nullptr;
    std::array<uint32_t, 3> ctaid{0, 0, 0};
    uint64_t linear = 0;
    uint32_t sm = 0;
    uint32_t threads = 0;
    std::vector<uint8_t> shared;
    std::vector<Warp> warps;
    uint32_t live_warps = 0;  // warps with at least one lane that has not exited
    std::array<BarrierState, 16> barriers;
    std::vector<PrintfRecord> printf_records;
    uint64_t printf_seq = 0;
    uint64_t printf_bytes = 0;  // of printf_records' texts (bounded by the printf FIFO)
    uint64_t printf_dropped_records = 0, printf_dropped_bytes = 0;  // overwritten before the block ended
    // mbarrier deadlock detection (block_runner.cpp): changes to any mbarrier object made by this block's
    // threads, and the rounds in a row in which every warp that ran ended its turn waiting in vain.
    uint64_t mbarrier_updates = 0;
    uint32_t stalled_rounds = 0;
    const DInst* last_failed_wait = nullptr;
    uint64_t last_failed_wait_addr = 0;
    counts::KernelCounters* counters = nullptr;
    uint64_t thread_insts = 0, warp_insts = 0;
    uint64_t clock = 0;
    std::vector<std::vector<uint64_t>>* backedges = nullptr;  // [function][pc]: taken backward branches
    RegisterFilePool* register_pool = nullptr;                // nullptr: frames allocate their own
    std::optional<LaunchError> error;
    ClusterContext* cluster = nullptr;            // nullptr: no cluster barrier used yet (one-CTA cluster)
    uint32_t cluster_rank = 0;                    // %cluster_ctarank
    std::unique_ptr<ClusterContext> own_cluster;  // the one-CTA cluster of a launch without clusters
    // The counter event of the ld/st being executed when resolve_warp served it (memory_access.hpp): built in
    // place, once per block, instead of a zeroed event per instruction. One instruction at a time uses it.
    counts::WarpAccess warp_access;
    BlockIndex index() const { return {ctaid, linear}; }
};

// Read-only during the launch; shared by every worker.
struct LaunchContext {
    const Program* program = nullptr;
    const LaunchConfig* cfg = nullptr;
    memory::DeviceMemory* memory = nullptr;
    std::span<const uint8_t> params;
    std::array<uint32_t, 3> grid{1, 1, 1}, block{1, 1, 1};
    uint32_t kernel = 0;  // function index
    uint32_t static_shared = 0, dynamic_shared = 0;
    uint32_t shared_window =
        0;                     // bytes of a block's shared memory: static, then dynamic at its aligned start
    uint32_t shared_base = 0;  // the reserved region's size: user shared memory starts there
    uint32_t warps_per_block = 0;
    std::array<uint32_t, 3> cluster{1, 1, 1};  // CTAs per cluster in x, y, z
    bool explicit_cluster = false;             // %is_explicit_cluster: launched with a cluster shape
    uint64_t grid_id = 1;
    uint64_t timer_base = 0;
    uint64_t grid_workspace = 0;   // a cooperative launch's grid workspace (%envreg1:%envreg2); 0: none
    bool atomics_on_host = false;  // blocks run concurrently: global atomics must be host atomics
    std::atomic<uint64_t>* budget_used = nullptr;
    std::optional<std::chrono::steady_clock::time_point> deadline;  // LaunchConfig::time_limit_seconds
    ExecutionObserver* observer = nullptr;                          // correctness checkers; nullptr: none
    const TextureTable* textures = nullptr;                         // LaunchConfig::textures
    const std::vector<uint64_t>* only_blocks = nullptr;  // LaunchConfig::only_blocks; nullptr: the whole grid
    uint64_t skip_block = ~uint64_t{0};                  // LaunchConfig::skip_block; ~0: none
    // The linear index of the k-th block the launch runs (k counts the blocks of only_blocks, or of the grid
    // less skip_block).
    uint64_t block_at(uint64_t k) const {
        return only_blocks ? (*only_blocks)[k] : k >= skip_block ? k + 1 : k;
    }
};

// What a handler sees: the warp, its current frame's registers and the block.
struct Exec {
    Warp* warp = nullptr;
    Frame* frame = nullptr;
    uint64_t* R = nullptr;
    BlockContext* block = nullptr;
    const LaunchContext* launch = nullptr;
    bool stop = false;  // the warp must yield (barrier) or the block must stop (error)
    // The allocation the last global access hit: lanes of a warp mostly hit the same buffer, and this
    // spares a map lookup per lane. Allocations do not move or change during a launch.
    const memory::Allocation* last_alloc = nullptr;
};

// Where an observer event happened: this warp executing `in` in the current frame.
inline EventSite event_site(const Exec& x, const DInst& in) {
    return {x.block->index(), x.warp->index, x.frame->code->index, in.pc};
}

inline uint64_t& reg(Exec& x, uint32_t r, uint32_t lane) {
    return x.R[r * 32 + lane];
}

template <class F>
inline void for_lanes(uint32_t mask, F&& f) {
    if (mask == 0xffffffffu) {  // a full warp, the common case: a counted loop the compiler can unroll
        for (uint32_t l = 0; l < 32; ++l) f(l);
        return;
    }
    for (uint32_t m = mask; m; m &= m - 1) f(static_cast<uint32_t>(std::countr_zero(m)));
}

}  // namespace warpsim::engine
