// sim/check/check_observer.cpp — fan-out of engine events to the checkers.
#include "sim/check/check_observer.hpp"

namespace warpsim::check {

CheckObserver::CheckObserver(CheckContext& ctx, FindingLog& log, const memory::DeviceMemory* memory,
                             bool race, bool race_global, bool sync, bool init)
    : ctx_(ctx) {
    if (race) race_.emplace(ctx, log, race_global, memory);
    if (sync) sync_.emplace(ctx, log);
    if (init) init_.emplace(ctx, log, memory);
}

void CheckObserver::on_launch_begin(const engine::LaunchInfo& info) {
    info_ = info;
    ctx_.block_dim = info.block;
    if (race_) race_->begin_launch();
}

void CheckObserver::on_cluster_begin(std::span<const engine::BlockIndex> ctas) {
    ++events_;
    if (race_) race_->begin_cluster(ctas);
    if (sync_) sync_->begin_cluster(ctas);
    if (init_) init_->begin_cluster(ctas);
}

void CheckObserver::on_block_begin(const engine::BlockIndex& b) {
    in_block_ = true;
    if (race_) race_->begin_block(b, info_.warps_per_block, info_.threads_per_block, info_.shared_bytes);
    if (sync_) sync_->begin_block(b, info_.warps_per_block, info_.threads_per_block);
    if (init_) init_->begin_block(b, info_.shared_bytes);
}

void CheckObserver::on_block_end(const engine::BlockIndex& b) {
    in_block_ = false;
    if (sync_) sync_->end_block(b);
}

void CheckObserver::abandon_block() {
    if (in_block_ && sync_) sync_->end_all_blocks();
    in_block_ = false;
}

void CheckObserver::on_memory(const engine::MemoryEvent& e) {
    ++events_;
    if (race_) race_->on_memory(e);
    if (init_) init_->on_memory(e);
}

void CheckObserver::on_barrier(const engine::BarrierEvent& e) {
    ++events_;
    if (race_) race_->on_barrier(e);
    if (sync_) sync_->on_barrier(e);
}

void CheckObserver::on_barrier_release(const engine::BlockIndex& b, uint32_t barrier) {
    ++events_;
    if (race_) race_->on_barrier_release(b, barrier);
    if (sync_) sync_->on_barrier_release(b, barrier);
}

void CheckObserver::on_warp_sync(const engine::WarpSyncEvent& e) {
    ++events_;
    if (sync_) sync_->on_warp_sync(e);
}

void CheckObserver::on_fence(const engine::FenceEvent& e) {
    ++events_;
    if (race_) race_->on_fence(e);
}

void CheckObserver::on_thread_exit(const engine::EventSite& s, uint32_t mask) {
    ++events_;
    if (race_) race_->on_thread_exit(s, mask);
    if (sync_) sync_->on_thread_exit(s, mask);
}

}  // namespace warpsim::check
