// sim/check/racecheck.hpp — shared- and global-memory hazards between warps of one block that no barrier,
// and no fence-plus-atomic hand-off, orders (read-after-write, write-after-read, write-after-write).
//
// Happens-before, not the simulator's schedule: every warp carries a vector clock over the block's warps.
// A warp's own entry advances when it arrives at a barrier (bar.sync/red/arrive) or fences; when a barrier
// completes, the warps that waited there take the join of every arriving warp's clock. Access A (warp a,
// epoch e) is ordered before a later access by warp b iff a == b or clock[b][a] > e. Per 4-byte word the
// checker keeps the last write and the reads since (one per warp), FastTrack style.
//
// Atomics and other morally strong accesses (volatile, relaxed, acquire, release) never race with each
// other, and a strong write does not race with a plain read either (the atomicCAS loop reads the old value
// plainly and lets the CAS validate it): a hazard needs at least one plain write. A plain global write that
// leaves the bytes as they were (the value was already there) is benign and not reported, as
// compute-sanitizer ranks same-value writes below errors; shared-memory values are not visible to the
// checker, so every shared write counts. A release (fence, or st/atom .release) followed by a strong write publishes the warp's clock at
// that word; a strong read of the word followed by a fence (or an .acquire read) takes it in.
//
// Intra-warp hazards (two lanes of one warp) are not reported, as compute-sanitizer's racecheck does by
// default: lanes of a warp run in lock step in this engine, and the check would need __syncwarp tracking.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include "sim/check/context.hpp"
#include "sim/check/findings.hpp"
#include "sim/engine/observer.hpp"
#include "sim/memory/device_memory.hpp"

namespace warpsim::check {

class RaceChecker {
public:
    // `memory` lets the checker see whether a global write changed anything; nullptr: every write counts.
    RaceChecker(const CheckContext& ctx, FindingLog& log, bool check_global = true,
                const memory::DeviceMemory* memory = nullptr)
        : ctx_(ctx), log_(log), check_global_(check_global), memory_(memory) {}

    void begin_block(const engine::BlockIndex& b, uint32_t warps, uint32_t threads, uint32_t shared_bytes);
    void on_memory(const engine::MemoryEvent& e);
    void on_barrier(const engine::BarrierEvent& e);
    void on_barrier_release(uint32_t barrier);
    void on_fence(const engine::FenceEvent& e);
    void on_thread_exit(uint32_t warp, uint32_t mask);
    // Copies the named allocations (ctx.allocations) so that a later write can be compared with what was
    // there before it: events come after the instruction has been performed.
    void begin_launch();

private:
    struct Stamp {
        uint32_t warp = 0, lane = 0, epoch = 0;
        Site at;
    };
    struct Word {
        Stamp write;
        bool written = false, write_strong = false;
        std::vector<Stamp> reads;       // at most one per warp: the latest
        std::vector<bool> read_strong;  // parallel to reads
    };
    struct Access {
        const engine::MemoryEvent* ev;
        uint32_t lane;
        uint64_t word_addr;             // address of the 4-byte word (shared offset or device address)
        bool strong;
    };

    using Clock = std::vector<uint32_t>;
    bool ordered(const Stamp& earlier, uint32_t warp) const;
    void check_word(Word& w, const Access& a, bool reads, bool writes);
    void report(const char* hazard, const Stamp& first, const Access& a, bool first_is_write, bool second_is_write);
    uint32_t drop_silent_lanes(const engine::MemoryEvent& e);
    std::string barrier_fix(Site a, Site b) const;
    void publish(uint32_t warp, uint64_t key);
    void observe(uint32_t warp, uint64_t key);
    void release_point(uint32_t warp);
    void acquire_point(uint32_t warp);

    const CheckContext& ctx_;
    FindingLog& log_;
    bool check_global_ = true;
    const memory::DeviceMemory* memory_ = nullptr;
    std::map<uint64_t, std::vector<uint8_t>> mirror_;   // allocation base -> its bytes as of the last event
    engine::BlockIndex block_;
    uint32_t warps_ = 0;
    std::vector<Clock> clock_;                           // per warp
    std::vector<Clock> released_;                        // per warp: clock at its last release point
    std::vector<Clock> pending_;                         // per warp: clocks observed, applied at its next acquire
    std::vector<Clock> barrier_join_;                    // per barrier id: join of the arrivals' clocks
    std::vector<uint64_t> barrier_waiters_;              // per barrier id: warps that wait there (bitmask)
    std::vector<uint32_t> live_;                         // per warp: lanes that have not exited
    Clock exited_join_;                                  // join of the clocks of warps that exited entirely
    std::vector<Word> shared_;                           // per 4-byte word of the shared window
    std::unordered_map<uint64_t, Word> global_;          // per 4-byte word touched in this block
    std::unordered_map<uint64_t, Clock> sync_objects_;   // word key -> clock published there
};

}  // namespace warpsim::check
