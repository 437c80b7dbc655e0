// sim/check/synccheck.hpp — barriers and warp collectives used in ways CUDA leaves undefined:
//  * a block-wide barrier that only part of the block reaches: threads exited before it (the GPU lets the
//    others through; undefined behaviour all the same), or it never completes;
//  * a barrier instruction reached by only some lanes of a warp (bar.sync is .aligned), and one barrier
//    phase completed by different bar.sync instructions (if/else, each with its own __syncthreads());
//  * shfl/vote/match/redux/bar.warp.sync (and __syncwarp) whose member mask, checked per lane, names lanes
//    that exited (or finished the kernel and only wait to exit), do not exist, do not execute the
//    instruction, or execute it with another mask, or leaves out the lane that passes it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/check/context.hpp"
#include "sim/check/findings.hpp"
#include "sim/engine/observer.hpp"

namespace warpsim::check {

class SyncChecker {
  public:
    SyncChecker(const CheckContext& ctx, FindingLog& log) : ctx_(ctx), log_(log) {}

    // The CTAs of the cluster whose on_block_begin calls follow (observer.hpp): each keeps its own barrier
    // state while their events interleave. Without it each block is alone.
    void begin_cluster(std::span<const engine::BlockIndex> ctas);
    void begin_block(const engine::BlockIndex& b, uint32_t warps, uint32_t threads);
    void on_barrier(const engine::BarrierEvent& e);
    void on_barrier_release(const engine::BlockIndex& b, uint32_t barrier);
    void on_warp_sync(const engine::WarpSyncEvent& e);
    void on_thread_exit(const engine::EventSite& s, uint32_t mask);
    // Barriers left incomplete when block `b` ends (or the launch stopped inside it: every block of the
    // group).
    void end_block(const engine::BlockIndex& b);
    void end_all_blocks();

  private:
    struct Arrival {
        Site at;
        uint32_t warp = 0, lanes = 0;
        bool arrive_only = false;  // bar.arrive: a producer, not a waiter
    };
    struct Phase {
        std::vector<Arrival> arrivals;
        uint32_t expected_threads = 0;  // 0: every thread of the block
    };
    struct Exit {
        Site at;
        uint32_t lane = 0;
        bool valid = false;
    };

    void check_member_mask(const engine::WarpSyncEvent& e, uint32_t mask, uint32_t lanes, uint32_t exist);
    std::string exit_text(const engine::WarpSyncEvent& e, uint32_t lanes) const;
    void report_exited(uint32_t barrier, const Phase& p);
    void report_mixed_sites(uint32_t barrier, const Phase& p);
    void report_incomplete(uint32_t barrier, const Phase& p);

    struct CtaState {
        engine::BlockIndex block;
        std::array<Phase, 16> phases;
        std::vector<std::array<Exit, 32>> exits;  // per warp, per lane: where it exited
    };
    // The state of block `b` if it belongs to the group (nullptr otherwise); becomes cur_.
    CtaState* select(const engine::BlockIndex& b);

    const CheckContext& ctx_;
    FindingLog& log_;
    uint32_t warps_ = 0, threads_ = 0;
    std::vector<CtaState> ctas_;  // one block, or a cluster's CTAs by rank
    uint32_t awaiting_ = 0;       // CTAs of the announced cluster not begun yet
    CtaState* cur_ = nullptr;     // the CTA of the event being handled
};

}  // namespace warpsim::check
