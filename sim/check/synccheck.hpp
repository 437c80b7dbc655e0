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
#include <string>
#include <vector>

#include "sim/check/context.hpp"
#include "sim/check/findings.hpp"
#include "sim/engine/observer.hpp"

namespace warpsim::check {

class SyncChecker {
public:
    SyncChecker(const CheckContext& ctx, FindingLog& log) : ctx_(ctx), log_(log) {}

    void begin_block(const engine::BlockIndex& b, uint32_t warps, uint32_t threads);
    void on_barrier(const engine::BarrierEvent& e);
    void on_barrier_release(uint32_t barrier);
    void on_warp_sync(const engine::WarpSyncEvent& e);
    void on_thread_exit(const engine::EventSite& s, uint32_t mask);
    // Barriers left incomplete when the block ends (or the launch stopped inside it).
    void end_block();

private:
    struct Arrival {
        Site at;
        uint32_t warp = 0, lanes = 0;
        bool arrive_only = false;     // bar.arrive: a producer, not a waiter
    };
    struct Phase {
        std::vector<Arrival> arrivals;
        uint32_t expected_threads = 0;      // 0: every thread of the block
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

    const CheckContext& ctx_;
    FindingLog& log_;
    engine::BlockIndex block_;
    uint32_t warps_ = 0, threads_ = 0;
    std::array<Phase, 16> phases_;
    std::vector<std::array<Exit, 32>> exits_;   // per warp, per lane: where it exited
};

}  // namespace warpsim::check
