// sim/check/check_observer.hpp — the engine observer that hands every event to the enabled checkers.
#pragma once

#include <optional>

#include "sim/check/initcheck.hpp"
#include "sim/check/racecheck.hpp"
#include "sim/check/synccheck.hpp"
#include "sim/engine/observer.hpp"

namespace warpsim::check {

class CheckObserver : public engine::ExecutionObserver {
  public:
    CheckObserver(CheckContext& ctx, FindingLog& log, const memory::DeviceMemory* memory, bool race,
                  bool race_global, bool sync, bool init);

    void on_launch_begin(const engine::LaunchInfo& info) override;
    void on_cluster_begin(std::span<const engine::BlockIndex> ctas) override;
    void on_block_begin(const engine::BlockIndex& b) override;
    void on_block_end(const engine::BlockIndex& b) override;
    void on_memory(const engine::MemoryEvent& e) override;
    void on_barrier(const engine::BarrierEvent& e) override;
    void on_barrier_release(const engine::BlockIndex& b, uint32_t barrier) override;
    void on_warp_sync(const engine::WarpSyncEvent& e) override;
    void on_fence(const engine::FenceEvent& e) override;
    void on_thread_exit(const engine::EventSite& s, uint32_t mask) override;

    // The launch stopped inside a block: close what that block left open (incomplete barriers).
    void abandon_block();
    uint64_t events() const { return events_; }
    // The global bytes the kernel wrote (InitChecker::written_global); empty without initcheck.
    std::vector<std::pair<uint64_t, uint64_t>> written_global() const {
        return init_ ? init_->written_global() : std::vector<std::pair<uint64_t, uint64_t>>{};
    }

  private:
    CheckContext& ctx_;
    std::optional<RaceChecker> race_;
    std::optional<SyncChecker> sync_;
    std::optional<InitChecker> init_;
    engine::LaunchInfo info_;
    bool in_block_ = false;
    uint64_t events_ = 0;
};

}  // namespace warpsim::check
