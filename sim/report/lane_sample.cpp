// sim/report/lane_sample.cpp — the sample run and its observer (see lane_sample.hpp).
#include "sim/report/lane_sample.hpp"

#include <algorithm>
#include <bit>
#include <filesystem>

#include "launch/buffer_init.hpp"
#include "launch/params.hpp"
#include "sim/engine/simulator.hpp"

namespace warpsim::report {
namespace {

LaneSample sample_of(const engine::MemoryEvent& e) {
    LaneSample s;
    s.space = e.space;
    s.kind = e.kind;
    s.bytes_per_lane = e.bytes_per_lane;
    s.active_mask = e.active_mask;
    s.addr = e.addr;
    s.block = e.site.block;
    s.warp = e.site.warp;
    return s;
}

}  // namespace

bool WarpFocus::follows(uint32_t function, uint32_t pc) const {
    return std::find(pcs.begin(), pcs.end(), std::make_pair(function, pc)) != pcs.end();
}

const LaneSample* LaneSamples::find(uint32_t function, uint32_t pc, engine::MemorySpace space) const {
    auto it = by_pc.find({function, pc, space});
    return it == by_pc.end() ? nullptr : &it->second;
}

void LaneSampler::on_launch_begin(const engine::LaunchInfo& info) {
    threads_per_block_ = info.threads_per_block;
    warps_per_block_ = info.warps_per_block;
}

void LaneSampler::on_block_begin(const engine::BlockIndex& b) {
    ++samples_.blocks_seen;
    if (samples_.warps.size() >= max_blocks_) return;
    std::vector<WarpActivity> warps(warps_per_block_);
    for (uint32_t w = 0; w < warps_per_block_; ++w) {
        warps[w].lanes_existing = std::min<uint32_t>(32, threads_per_block_ - 32 * w);
    }
    samples_.warps[b.linear] = std::move(warps);
}

void LaneSampler::on_block_end(const engine::BlockIndex& b) {
    if (samples_.warps.count(b.linear)) finished_.push_back(b.linear);
    if (!focus_) return;
    auto& f = samples_.focus;
    if ((f.warp && f.warp->first == b.linear) || (!f.warp && focus_->block == b.linear)) f.settled = true;
}

bool LaneSampler::choose(const engine::EventSite& site) {
    auto& f = samples_.focus;
    const uint64_t block = site.block.linear;
    const bool wanted =
        (!focus_->block || *focus_->block == block) && (!focus_->warp || *focus_->warp == site.warp);
    if (!f.warp && wanted) f.warp = std::make_pair(block, site.warp);
    return f.is_chosen(block, site.warp);
}

void LaneSampler::follow(const engine::MemoryEvent& e) {
    auto& f = samples_.focus;
    const uint64_t block = e.site.block.linear;
    const uint32_t warp = e.site.warp;
    const bool chosen = choose(e.site);
    auto [slot, fresh] = f.by_pc.try_emplace({e.site.function, e.site.pc, e.space});
    FocusSample& s = slot->second;
    // The chosen warp's first execution replaces a stand-in recorded from an earlier warp.
    if (fresh || (chosen && !f.from_chosen_warp(s))) {
        s.first = sample_of(e);
        s.executions = 1;
    } else if (s.first.block.linear == block && s.first.warp == warp) {
        ++s.executions;
    }
}

void LaneSampler::on_branch(const engine::BranchEvent& e) {
    const bool split = e.taken_mask != 0 && e.taken_mask != e.active_mask;
    auto [seen, first] = samples_.branches.try_emplace({e.site.function, e.site.pc});
    if (first || (split && seen->second.split == 0)) seen->second.shown = e;
    ++seen->second.executions;
    seen->second.split += split;
    if (!focus_ || !focus_->follows(e.site.function, e.site.pc)) return;
    const bool chosen = choose(e.site);
    auto [slot, fresh] = samples_.focus.branches.try_emplace({e.site.function, e.site.pc});
    BranchSample& s = slot->second;
    ++s.all_executions;
    s.all_split += split;
    const bool shown_is_chosen = samples_.focus.is_chosen(s.first.site.block.linear, s.first.site.warp);
    if (fresh || (chosen && !shown_is_chosen)) {
        s.first = e;
        s.executions = 1;
        s.split = split;
    } else if (s.first.site.block.linear == e.site.block.linear && s.first.site.warp == e.site.warp) {
        ++s.executions;
        s.split += split;
    }
}

void LaneSampler::on_warp_sync(const engine::WarpSyncEvent& e) {
    if (!focus_ || !focus_->follows(e.site.function, e.site.pc)) return;
    const bool chosen = choose(e.site);
    auto [slot, fresh] = samples_.focus.collectives.try_emplace({e.site.function, e.site.pc});
    CollectiveSample& s = slot->second;
    const bool shown_is_chosen = samples_.focus.is_chosen(s.first.site.block.linear, s.first.site.warp);
    if (fresh || (chosen && !shown_is_chosen)) {
        s.first = e;
        s.executions = 1;
    } else if (s.first.site.block.linear == e.site.block.linear && s.first.site.warp == e.site.warp) {
        ++s.executions;
    }
}

LaneSamples LaneSampler::take() {
    std::erase_if(samples_.warps, [&](const auto& entry) {
        return std::find(finished_.begin(), finished_.end(), entry.first) == finished_.end();
    });
    return std::move(samples_);
}

void LaneSampler::on_memory(const engine::MemoryEvent& e) {
    // Parameter and constant loads are uniform bookkeeping, not the data traffic the diagrams explain.
    if (e.space == engine::MemorySpace::param || e.space == engine::MemorySpace::const_) return;
    if (focus_ && focus_->follows(e.site.function, e.site.pc)) follow(e);
    const auto lanes = static_cast<uint32_t>(std::popcount(e.active_mask));
    if (auto it = samples_.warps.find(e.site.block.linear);
        it != samples_.warps.end() && e.site.warp < it->second.size()) {
        auto& w = it->second[e.site.warp];
        w.working_mask |= e.active_mask;
        w.lanes_working = static_cast<uint32_t>(std::popcount(w.working_mask));
    }
    auto [slot, fresh] = samples_.by_pc.try_emplace({e.site.function, e.site.pc, e.space});
    // A later warp replaces the kept one only with strictly more lanes: the first full warp wins.
    if (!fresh && std::popcount(slot->second.active_mask) >= static_cast<int>(lanes)) return;
    slot->second = sample_of(e);
}

launch::Outcome<LaneSamples> sample_lanes(const session::PreparedLaunch& p, const session::SimRun& run,
                                          const SampleOptions& options) {
    using Fail = launch::Outcome<LaneSamples>;
    auto setup = session::setup_launch(p, run.preset, run.registers.registers);
    if (!setup) return Fail::failure(setup.error());
    if (options.on_setup) options.on_setup(*setup);
    engine::LaunchConfig& cfg = setup->cfg;
    cfg.max_instructions = options.max_thread_instructions;
    cfg.progress = options.progress;
    LaneSampler sampler(options.max_blocks, options.focus);
    cfg.observer = &sampler;
    auto result = setup->sim->launch(*p.module, *p.kernel, cfg, setup->params, nullptr);
    LaneSamples samples = sampler.take();
    samples.complete = result.ok();
    samples.out_of_budget = result.error && result.error->kind == engine::Fault::budget_exhausted;
    return samples;
}

std::optional<int64_t> lane_stride(const LaneSample& s) {
    std::optional<int64_t> stride;
    int prev = -1;
    for (int lane = 0; lane < 32; ++lane) {
        if (!(s.active_mask >> lane & 1u)) continue;
        if (prev >= 0) {
            const int64_t diff = static_cast<int64_t>(s.addr[lane] - s.addr[prev]);
            if (diff % (lane - prev) != 0) return std::nullopt;
            const int64_t step = diff / (lane - prev);
            if (stride && *stride != step) return std::nullopt;
            stride = step;
        }
        prev = lane;
    }
    return stride;
}

uint64_t lane_sector(const LaneSample& s, uint32_t lane) {
    return s.addr[lane & 31u] / 32;
}

uint64_t lane_last_sector(const LaneSample& s, uint32_t lane) {
    return (s.addr[lane & 31u] + std::max(1u, s.bytes_per_lane) - 1) / 32;
}

std::set<uint64_t> active_sectors(const LaneSample& s) {
    std::set<uint64_t> sectors;
    for (uint32_t l = 0; l < 32; ++l) {
        if (!(s.active_mask >> l & 1u)) continue;
        for (uint64_t sec = lane_sector(s, l); sec <= lane_last_sector(s, l); ++sec) sectors.insert(sec);
    }
    return sectors;
}

uint32_t lane_bank(const LaneSample& s, uint32_t lane) {
    return static_cast<uint32_t>(s.addr[lane & 31u] / 4 % 32);
}

}  // namespace warpsim::report
