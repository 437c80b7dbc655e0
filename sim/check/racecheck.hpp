// sim/check/racecheck.hpp — shared- and global-memory hazards between warps of one block, or of the CTAs of
// one thread-block cluster, that no barrier and no fence-plus-atomic hand-off orders (read-after-write,
// write-after-read, write-after-write).
//
// Happens-before, not the simulator's schedule: every warp carries a vector clock over the warps of its block
// (of its cluster's CTAs in a launch with clusters: warp w of CTA rank r is entry r * warps + w). A warp's
// own entry advances when it arrives at a barrier (bar.sync/red/arrive, barrier.cluster.arrive) or fences;
// when a barrier completes, the warps that waited there take the join of every arriving warp's clock. Access
// A (warp a, epoch e) is ordered before a later access by warp b iff a == b or clock[b][a] > e. Per byte the
// checker keeps the last write and the reads since (per warp the latest), FastTrack style, stored per 4-byte
// word with byte masks: threads that own different bytes of one word (u8 histogram bins) do not race.
//
// Clusters: each CTA's shared memory has words of its own, reached by that CTA's shared accesses and by any
// CTA's shared::cluster accesses (mapa addresses, distributed shared memory). barrier.cluster.arrive releases
// (not with .relaxed) and barrier.cluster.wait acquires: the arrivals of one phase are ordered before every
// wait that returns for that phase, in every CTA of the cluster; bar.sync orders the warps of one CTA only.
//
// Atomics and other morally strong accesses (volatile, relaxed, acquire, release) never race with each
// other, and a strong write does not race with a plain read either (the atomicCAS loop reads the old value
// plainly and lets the CAS validate it): a hazard needs at least one plain write. A plain global write that
// leaves the bytes as they were (the value was already there) is benign and not reported, as
// compute-sanitizer ranks same-value writes below errors; shared-memory values are not visible to the
// checker, so every shared write counts. A release (fence, or st/atom .release) followed by a strong write
// publishes the warp's clock at that word; a strong read of the word followed by a fence (or an .acquire
// read) takes it in.
//
// Intra-warp hazards (two lanes of one warp) are not reported, as compute-sanitizer's racecheck does by
// default: lanes of a warp run in lock step in this engine, and the check would need __syncwarp tracking.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>
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

    // The CTAs of the cluster whose on_block_begin calls follow (observer.hpp); without it each block is
    // alone.
    void begin_cluster(std::span<const engine::BlockIndex> ctas);
    void begin_block(const engine::BlockIndex& b, uint32_t warps, uint32_t threads, uint32_t shared_bytes);
    void on_memory(const engine::MemoryEvent& e);
    void on_barrier(const engine::BarrierEvent& e);
    void on_barrier_release(const engine::BlockIndex& b, uint32_t barrier);
    void on_fence(const engine::FenceEvent& e);
    void on_thread_exit(const engine::EventSite& s, uint32_t mask);
    // Copies the named allocations (ctx.allocations) so that a later write can be compared with what was
    // there before it: events come after the instruction has been performed.
    void begin_launch();

  private:
    struct Stamp {
        uint32_t warp = 0, lane = 0, epoch = 0;  // warp: rank * warps_ + warp within the CTA
        Site at;
    };
    struct Read {
        Stamp at;
        uint8_t bytes = 0;  // the bytes of the word it read (bit k: byte k)
        bool strong = false;
    };
    struct Word {
        std::array<Stamp, 4> write;             // the last write of each byte
        uint8_t written = 0, write_strong = 0;  // byte masks
        std::vector<Read> reads;  // since each byte's last write; per warp at most one read of a byte
    };
    struct Access {
        const engine::MemoryEvent* ev;
        uint32_t lane;
        uint32_t warp;    // the accessing warp (cluster-wide index)
        uint32_t owner;   // shared: the CTA rank whose shared memory holds the word
        uint64_t offset;  // shared: byte offset in the owner's window; global: device address
        bool strong;
    };

    // The global words a group touched: open addressing over two arrays that live for the whole launch. A
    // new group empties it by bumping the generation, so no word is freed and allocated again per block (the
    // node-per-word hash map this replaces spent two thirds of racecheck's time in malloc and free).
    class WordTable {
      public:
        Word& at(uint64_t key);  // the word, reset to "never accessed" when the group first touches it
        void clear();

      private:
        void grow();
        std::vector<uint64_t> keys_;
        std::vector<uint32_t> gen_;  // slot in use in this group iff gen_[slot] == current_
        std::vector<Word> words_;
        uint32_t current_ = 1;
        std::size_t used_ = 0;
    };

    using Clock = std::vector<uint32_t>;
    static constexpr uint32_t kNoWarp = ~0u;
    void start_group(uint32_t warps, uint32_t threads, uint32_t shared_bytes);
    uint32_t rank_of(const engine::BlockIndex& b) const;  // ctas_.size() when b is not in the group
    uint32_t warp_of(const engine::EventSite& s) const;   // cluster-wide warp index, kNoWarp if unknown
    bool ordered(const Stamp& earlier, uint32_t warp) const;
    void check_word(Word& w, const Access& a, bool reads, bool writes, uint8_t bytes);
    void report(const char* hazard, const Stamp& first, const Access& a, bool first_is_write,
                bool second_is_write);
    uint32_t drop_silent_lanes(const engine::MemoryEvent& e);
    std::string barrier_fix(Site a, Site b, bool across_ctas) const;
    void publish(uint32_t warp, uint64_t key);
    void observe(uint32_t warp, uint64_t key);
    void release_point(uint32_t warp);
    void acquire_point(uint32_t warp);
    void cluster_barrier(const engine::BarrierEvent& e, uint32_t warp);
    void cluster_release();

    const CheckContext& ctx_;
    FindingLog& log_;
    bool check_global_ = true;
    const memory::DeviceMemory* memory_ = nullptr;
    std::map<uint64_t, std::vector<uint8_t>> mirror_;  // allocation base -> its bytes as of the last event
    std::vector<engine::BlockIndex> ctas_;             // the group: one block, or a cluster's CTAs by rank
    uint32_t awaiting_ = 0;                            // CTAs of the announced cluster not begun yet
    uint32_t warps_ = 0;                               // per CTA
    std::vector<Clock> clock_;                         // per warp
    std::vector<Clock> released_;                      // per warp: clock at its last release point
    std::vector<Clock> pending_;                    // per warp: clocks observed, applied at its next acquire
    std::vector<std::vector<Clock>> barrier_join_;  // [rank][barrier id]: join of the arrivals' clocks
    std::vector<std::vector<uint64_t>>
        barrier_waiters_;                    // [rank][barrier id]: warps that wait there (bitmask)
    std::vector<uint32_t> live_;             // per warp: lanes that have not exited
    std::vector<Clock> exited_join_;         // per CTA: join of the clocks of warps that exited entirely
    Clock cluster_exited_join_;              // the same over the cluster
    std::vector<std::vector<Word>> shared_;  // [rank][4-byte word of that CTA's shared window]
    WordTable global_;                       // per 4-byte word touched in this group
    std::unordered_map<uint64_t, Clock> sync_objects_;  // word key -> clock published there
    // barrier.cluster: per warp 1 + the phase of its last arrival (0: none), per phase the join of its
    // releasing arrivals, the completed phases, and the warps waiting (warp, phase).
    std::vector<uint64_t> cluster_arrived_;
    std::map<uint64_t, Clock> cluster_join_;
    uint64_t cluster_phase_ = 0;
    std::vector<std::pair<uint32_t, uint64_t>> cluster_waiting_;
};

}  // namespace warpsim::check
