// sim/engine/observer.hpp — the engine's observer interface for the correctness checkers (memcheck-like
// init checks, racecheck, synccheck): one call per warp-level event, never per lane.
//
// Contract:
//  * Set LaunchConfig::observer to receive events; nullptr (the default) costs one well-predicted branch per
//    memory, barrier and warp-collective instruction and nothing else.
//  * With an observer the launch runs every block on one host worker, in linear block order (another order
//    with LaunchConfig::schedule_seed), one block at a time: on_block_begin(b) ... events of b ...
//    on_block_end(b), then the next block. Within a block the events come in the engine's deterministic warp
//    schedule (warps take turns; a warp runs until it waits at a barrier, exits or uses up its quantum of
//    1024 warp instructions; the seed changes the order of turns and their lengths).
//  * Thread-block clusters: the CTAs of a cluster run together (cluster_runner.cpp). on_cluster_begin names
//    them by %cluster_ctarank, then comes on_block_begin of each, their events interleaved (EventSite::block
//    says whose), and on_block_end of each. A launch without clusters makes no on_cluster_begin call.
//    barrier.cluster.arrive and .wait are BarrierEvents with barrier == kClusterBarrierEvent (kind arrive and
//    sync); on_barrier_release(first CTA of the cluster, kClusterBarrierEvent) says that the cluster
//    barrier's current phase completed: every arrival reported before it is ordered before every wait that
//    returns for that phase (one of the waits may have been reported before, and the others come after).
//  * A memory event is reported when its warp-level instruction has been performed and before any other warp
//    runs (a checker that reads memory in on_memory sees the new values); on_barrier comes before the
//    on_barrier_release it may trigger. A memory instruction that faults in some lane reports nothing.
//  * Source positions: module->functions[site.function].body[site.pc].loc (ptx_line, and file/line from
//  .loc).
//  * Global-memory initialisation: every byte written through Simulator::write (or DeviceMemory::write, which
//    the CLI's buffer initialisation uses) and every module-scope .global/.const variable (zero-initialised
//    or with its initialiser) counts as initialised; DeviceMemory::host_written() answers for a byte range.
//    Bytes written by kernels arrive as MemoryEvents of kind write/atomic.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "kernels_ir/ir.hpp"

namespace warpsim::engine {

// Which block an event belongs to: 3-D %ctaid and its linear index (x fastest).
struct BlockIndex {
    std::array<uint32_t, 3> ctaid{0, 0, 0};
    uint64_t linear = 0;
};

// Who executed the instruction: block, warp within the block, and the instruction (function, pc).
struct EventSite {
    BlockIndex block;
    uint32_t warp = 0;      // warp index within the block (threads warp*32 .. warp*32+31 in linear tid order)
    uint32_t function = 0;  // index into ir::Module::functions
    uint32_t pc = 0;        // index into Function::body
};

// The launch as a whole, reported once before the first block.
struct LaunchInfo {
    const ir::Module* module = nullptr;
    uint32_t kernel = 0;  // function index of the .entry
    std::array<uint32_t, 3> grid{1, 1, 1}, block{1, 1, 1};
    uint32_t threads_per_block = 0;
    uint32_t warps_per_block = 0;
    uint32_t shared_bytes = 0;  // a block's shared window: static, then dynamic at its aligned start
};

enum class MemorySpace : uint8_t { global, shared, local, const_, param };
enum class MemoryKind : uint8_t { read, write, atomic };

// One warp-level memory access to one state space (a generic access whose lanes resolve to different
// spaces is reported as one event per space). cp.async / cp.async.bulk report a read of the source and a
// write of the destination; mbarrier operations report an atomic on the barrier object's 8 bytes.
struct MemoryEvent {
    EventSite site;
    MemorySpace space = MemorySpace::global;
    MemoryKind kind = MemoryKind::read;
    uint32_t bytes_per_lane = 0;  // width x vector count (ld.v4.f32: 16)
    uint32_t active_mask = 0;     // lanes that performed the access
    // Per lane: global/const: device address; shared: byte offset in the block's shared window, or for an
    // access through a shared::cluster address (distributed shared memory, mapa) that address,
    // ((rank + 1) << memory::kClusterRankShift) + offset in CTA `rank`'s window (it may be the block's own);
    // local: memory::kLocalWindow + offset in the thread's stack; param: offset in the kernel's parameter
    // buffer (kernel params) or in the thread's call-frame parameter area.
    std::array<uint64_t, 32> addr{};
    // Atomics: the operation, whether it reads the old value to compute the new one (false only for exch
    // and for mbarrier.init), and whether the old value is returned to a register (atom; false for red).
    ir::AtomOp atomic_op = ir::AtomOp::none;
    bool read_modify_write = false;
    bool returns_value = false;
    // Memory-model qualifiers as written (ld.acquire.gpu, st.release, atom.relaxed.cta, ld.volatile ...).
    ir::MemSem sem = ir::MemSem::none;
    ir::Scope scope = ir::Scope::none;
    bool async = false;  // issued by cp.async / cp.async.bulk
};

enum class BarrierKind : uint8_t { sync, arrive, red };

// BarrierEvent::barrier of barrier.cluster.arrive (kind arrive) and barrier.cluster.wait (kind sync).
inline constexpr uint32_t kClusterBarrierEvent = 16;

// A warp executed bar.sync / bar.arrive / bar.red / barrier.sync (with at least one lane).
struct BarrierEvent {
    EventSite site;
    uint32_t barrier = 0;           // barrier id 0..15; kClusterBarrierEvent: barrier.cluster
    uint32_t arriving_mask = 0;     // lanes of this warp that executed the instruction
    uint32_t live_mask = 0;         // lanes of this warp that have not exited
    uint32_t expected_threads = 0;  // the thread-count operand; 0: no operand (all non-exited warps)
    BarrierKind kind = BarrierKind::sync;
    bool aligned = false;  // barrier.sync.aligned / bar.sync (which is aligned by definition)
};

// A warp reached a guarded bra with some lanes active (reported before the branch takes effect, whether the
// lanes agree or not). An unguarded bra never splits a warp and is not reported.
struct BranchEvent {
    EventSite site;
    uint32_t active_mask = 0;    // lanes that reached the branch
    uint32_t taken_mask = 0;     // of those, the lanes whose guard holds: they jump to target_pc
    uint32_t target_pc = 0;      // the label's pc; the others go on at site.pc + 1
    uint32_t reconverge_pc = 0;  // where the two groups meet again (Function::body.size(): only at exit)
};

enum class WarpSyncKind : uint8_t { shfl, vote, match, redux, bar_warp_sync, elect, activemask };

// A warp-level collective with a member mask operand (activemask has none: member_mask = executing lanes).
struct WarpSyncEvent {
    EventSite site;
    WarpSyncKind kind = WarpSyncKind::shfl;
    uint32_t member_mask = 0;                 // the membermask operand of the first executing lane
    bool member_mask_uniform = true;          // false when executing lanes passed different member masks
    std::array<uint32_t, 32> member_masks{};  // per executing lane: the member mask that lane passed
    uint32_t executing_mask = 0;              // lanes that executed the instruction (guard applied)
    uint32_t active_mask = 0;  // lanes currently active in the warp (at this pc, before the guard)
    uint32_t live_mask = 0;    // lanes of the warp that have not exited
    // Live lanes that have finished the kernel: they wait on the reconvergence stack at an unguarded ret/exit
    // of the kernel and will execute nothing else before exiting (`if (i >= n) return;` before the
    // collective; a GPU has retired them already). leaving_pc: that ret/exit (in the kernel function) for the
    // lowest such lane.
    uint32_t leaving_mask = 0;
    uint32_t leaving_pc = 0;
    // shfl: per executing lane the lane it reads (source_lane) and whether that lane is inside the segment
    // (in_range_mask; a lane outside it keeps its own value, and its predicate output is false).
    std::array<uint8_t, 32> source_lane{};
    uint32_t in_range_mask = 0;
    // vote: the executing lanes whose predicate operand is true (the ballot over the executing lanes).
    uint32_t vote_true_mask = 0;
};

enum class FenceKind : uint8_t { membar, fence, fence_proxy, fence_mbarrier_init };

struct FenceEvent {
    EventSite site;
    FenceKind kind = FenceKind::fence;
    ir::MemSem sem = ir::MemSem::none;  // fence.acq_rel / fence.sc (membar: sc)
    ir::Scope scope = ir::Scope::none;  // cta / cluster / gpu / sys (membar.cta -> cta, .gl -> gpu)
    uint32_t executing_mask = 0;
};

// Default no-op methods: a checker overrides what it needs. Calls come from one host thread per launch.
class ExecutionObserver {
  public:
    virtual ~ExecutionObserver() = default;
    virtual void on_launch_begin(const LaunchInfo&) {}
    virtual void on_launch_end() {}
    // The CTAs of one cluster, by %cluster_ctarank, before their on_block_begin calls.
    virtual void on_cluster_begin(std::span<const BlockIndex> /*ctas*/) {}
    virtual void on_block_begin(const BlockIndex&) {}
    virtual void on_block_end(const BlockIndex&) {}
    virtual void on_memory(const MemoryEvent&) {}
    virtual void on_barrier(const BarrierEvent&) {}
    // Barrier `barrier` of `block` completed: every arrival reported before this call is ordered before
    // every instruction after it of the warps that waited (bar.sync/red) there.
    virtual void on_barrier_release(const BlockIndex&, uint32_t /*barrier*/) {}
    virtual void on_warp_sync(const WarpSyncEvent&) {}
    virtual void on_branch(const BranchEvent&) {}
    virtual void on_fence(const FenceEvent&) {}
    // Lanes `mask` of the warp at `site` exited (exit, ret from the kernel, or falling off its end).
    virtual void on_thread_exit(const EventSite&, uint32_t /*mask*/) {}
};

}  // namespace warpsim::engine
