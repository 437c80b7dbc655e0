// sim/check/synccheck.cpp — barrier phases per block and member masks of warp collectives (see header).
#include "sim/check/synccheck.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <bit>

namespace warpsim::check {
namespace {

std::string lane_list(uint32_t mask) {
    std::string s;
    for (uint32_t lo = 0; lo < 32;) {
        if (!(mask >> lo & 1)) {
            ++lo;
            continue;
        }
        uint32_t hi = lo;
        while (hi + 1 < 32 && (mask >> (hi + 1) & 1)) ++hi;
        s += (s.empty() ? "" : ",") + (hi == lo ? fmt::format("{}", lo) : fmt::format("{}-{}", lo, hi));
        lo = hi + 1;
    }
    return s;
}

const char* collective_name(engine::WarpSyncKind k) {
    switch (k) {
        case engine::WarpSyncKind::shfl:
            return "shfl.sync (__shfl*_sync)";
        case engine::WarpSyncKind::vote:
            return "vote.sync (__all/__any/__ballot_sync)";
        case engine::WarpSyncKind::match:
            return "match.sync (__match_*_sync)";
        case engine::WarpSyncKind::redux:
            return "redux.sync (__reduce_*_sync)";
        case engine::WarpSyncKind::bar_warp_sync:
            return "bar.warp.sync (__syncwarp)";
        case engine::WarpSyncKind::elect:
            return "elect.sync";
        default:
            return "warp collective";
    }
}

constexpr const char* kBarrierFix =
    "every thread of the block must reach the same __syncthreads(): move it out of the branch, or let the "
    "threads "
    "that have no work skip the work but not the barrier (no early return before it)";

}  // namespace

void SyncChecker::begin_cluster(std::span<const engine::BlockIndex> ctas) {
    ctas_.clear();
    for (const auto& b : ctas) ctas_.push_back(CtaState{b, {}, {}});
    awaiting_ = static_cast<uint32_t>(ctas_.size());
}

void SyncChecker::begin_block(const engine::BlockIndex& b, uint32_t warps, uint32_t threads) {
    warps_ = warps;
    threads_ = threads;
    if (awaiting_ > 0 && select(b)) {  // a CTA of the announced cluster
        --awaiting_;
        cur_->exits.assign(warps, {});
        return;
    }
    awaiting_ = 0;
    ctas_.assign(1, CtaState{b, {}, {}});
    ctas_.front().exits.assign(warps, {});
    cur_ = &ctas_.front();
}

SyncChecker::CtaState* SyncChecker::select(const engine::BlockIndex& b) {
    cur_ = nullptr;
    for (auto& c : ctas_)
        if (c.block.linear == b.linear) cur_ = &c;
    return cur_;
}

void SyncChecker::on_thread_exit(const engine::EventSite& s, uint32_t mask) {
    if (!select(s.block) || s.warp >= warps_) return;
    for (uint32_t m = mask; m; m &= m - 1) {
        const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
        cur_->exits[s.warp][lane] = Exit{Site{s.function, s.pc}, lane, true};
    }
}

void SyncChecker::on_barrier(const engine::BarrierEvent& e) {
    if (!select(e.site.block) || e.barrier >= cur_->phases.size()) return;
    const Site at{e.site.function, e.site.pc};
    const uint32_t missing = e.live_mask & ~e.arriving_mask;
    if (missing) {
        Finding f;
        f.tool = Tool::synccheck;
        f.kind = "sync.barrier_divergent_warp";
        f.title = fmt::format(
            "Barrier {} executed by only some threads of a warp (bar.sync is .aligned: all "
            "threads of the warp must execute it)",
            e.barrier);
        const uint32_t lane = static_cast<uint32_t>(std::countr_zero(e.arriving_mask));
        const uint32_t other = static_cast<uint32_t>(std::countr_zero(missing));
        f.parties.push_back({"barrier", at, ctx_.thread(e.site.warp, lane), cur_->block.ctaid});
        f.notes.push_back(
            fmt::format("warp {}: lanes {} execute it, lanes {} (thread {} first) do not (diverged, or on "
                        "their way to an early return)",
                        e.site.warp, lane_list(e.arriving_mask), lane_list(missing),
                        xyz(ctx_.thread(e.site.warp, other))));
        f.fix = kBarrierFix;
        log_.add(std::move(f));
    }
    Phase& p = cur_->phases[e.barrier];
    p.arrivals.push_back(Arrival{at, e.site.warp, e.arriving_mask, e.kind == engine::BarrierKind::arrive});
    p.expected_threads = e.expected_threads;
}

void SyncChecker::report_exited(uint32_t barrier, const Phase& p) {
    std::vector<uint32_t> arrived(warps_, 0);
    for (const auto& a : p.arrivals)
        if (a.warp < warps_) arrived[a.warp] |= a.lanes;
    const Arrival& waiter = p.arrivals.front();
    const uint32_t waiter_lane = static_cast<uint32_t>(std::countr_zero(waiter.lanes));
    // One finding per exit site: the threads that left there without reaching this barrier.
    std::vector<std::pair<Site, std::pair<uint64_t, std::array<uint32_t, 3>>>> by_site;
    for (uint32_t w = 0; w < warps_; ++w)
        for (uint32_t l = 0; l < 32; ++l) {
            const Exit& x = cur_->exits[w][l];
            if (!x.valid || (arrived[w] >> l & 1)) continue;
            auto it =
                std::find_if(by_site.begin(), by_site.end(), [&](const auto& s) { return s.first == x.at; });
            if (it == by_site.end())
                by_site.push_back({x.at, {1, ctx_.thread(w, l)}});
            else
                ++it->second.first;
        }
    uint64_t waiting = 0;
    for (uint32_t a : arrived) waiting += static_cast<uint64_t>(std::popcount(a));
    for (const auto& [site, info] : by_site) {
        Finding f;
        f.tool = Tool::synccheck;
        f.kind = "sync.barrier_exited_threads";
        f.title =
            fmt::format("Barrier {} reached by only part of the block: threads exited before it", barrier);
        f.parties.push_back({"barrier", waiter.at, ctx_.thread(waiter.warp, waiter_lane), cur_->block.ctaid});
        f.parties.push_back({"exited", site, info.second, cur_->block.ctaid});
        f.notes.push_back(
            fmt::format("{} threads of block {} passed the barrier; {} threads had exited at {} "
                        "without reaching it (the GPU lets the others through, but CUDA leaves it "
                        "undefined)",
                        waiting, xyz(cur_->block.ctaid), info.first, ctx_.where(site)));
        f.fix = kBarrierFix;
        log_.add(std::move(f));
    }
}

void SyncChecker::report_mixed_sites(uint32_t barrier, const Phase& p) {
    for (const auto& a : p.arrivals) {
        if (a.arrive_only || p.arrivals.front().arrive_only || a.at == p.arrivals.front().at) continue;
        const Arrival& first = p.arrivals.front();
        Finding f;
        f.tool = Tool::synccheck;
        f.kind = "sync.barrier_different_sites";
        f.title = fmt::format(
            "Barrier {} completed by different bar.sync instructions (a __syncthreads() in each "
            "branch of a divergent if)",
            barrier);
        f.parties.push_back({"barrier", first.at,
                             ctx_.thread(first.warp, static_cast<uint32_t>(std::countr_zero(first.lanes))),
                             cur_->block.ctaid});
        f.parties.push_back({"barrier", a.at,
                             ctx_.thread(a.warp, static_cast<uint32_t>(std::countr_zero(a.lanes))),
                             cur_->block.ctaid});
        f.fix = "use one __syncthreads() after the if/else that every thread reaches";
        log_.add(std::move(f));
        return;
    }
}

void SyncChecker::on_barrier_release(const engine::BlockIndex& b, uint32_t barrier) {
    if (!select(b) || barrier >= cur_->phases.size()) return;
    Phase& p = cur_->phases[barrier];
    if (!p.arrivals.empty()) {
        if (p.expected_threads == 0) {  // named barriers with counts legitimately use several sites
            report_exited(barrier, p);
            report_mixed_sites(barrier, p);
        }
    }
    p = Phase{};
}

void SyncChecker::report_incomplete(uint32_t barrier, const Phase& p) {
    const Arrival& a = p.arrivals.front();
    uint64_t waiting = 0;
    for (const auto& x : p.arrivals) waiting += static_cast<uint64_t>(std::popcount(x.lanes));
    const uint64_t expected = p.expected_threads ? p.expected_threads : threads_;
    Finding f;
    f.tool = Tool::synccheck;
    f.kind = "sync.barrier_incomplete";
    f.title = fmt::format("Barrier {} never completed: {} of {} threads arrived", barrier, waiting, expected);
    f.parties.push_back({"barrier", a.at,
                         ctx_.thread(a.warp, static_cast<uint32_t>(std::countr_zero(a.lanes))),
                         cur_->block.ctaid});
    f.notes.push_back("on a GPU the block would hang (or the threads would pass an unmatched barrier)");
    f.fix = kBarrierFix;
    log_.add(std::move(f));
}

void SyncChecker::end_all_blocks() {
    for (const auto& c : ctas_) end_block(c.block);
}

void SyncChecker::end_block(const engine::BlockIndex& b) {
    if (!select(b)) return;
    for (uint32_t id = 0; id < cur_->phases.size(); ++id) {
        if (cur_->phases[id].arrivals.empty()) continue;
        report_incomplete(id, cur_->phases[id]);
        cur_->phases[id] = Phase{};
    }
}

// Where lanes `mask` of warp `w` exited (or wait at the kernel's ret/exit to do so), lanes grouped by site:
// "lanes 8-31 have exited at planted.cu:21 (planted.ptx:124)".
std::string SyncChecker::exit_text(const engine::WarpSyncEvent& e, uint32_t mask) const {
    std::vector<std::pair<std::optional<Site>, uint32_t>> by_site;
    for (uint32_t m = mask; m; m &= m - 1) {
        const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
        std::optional<Site> at;
        if (e.leaving_mask >> lane & 1)
            at = Site{ctx_.kernel_index, e.leaving_pc};
        else if (e.site.warp < cur_->exits.size() && cur_->exits[e.site.warp][lane].valid)
            at = cur_->exits[e.site.warp][lane].at;
        auto it = std::find_if(by_site.begin(), by_site.end(), [&](const auto& g) { return g.first == at; });
        if (it == by_site.end())
            by_site.push_back({at, 1u << lane});
        else
            it->second |= 1u << lane;
    }
    std::string s;
    for (const auto& [at, lanes] : by_site)
        s += fmt::format("{}lanes {} have exited{}", s.empty() ? "" : "; ", lane_list(lanes),
                         at ? " at " + ctx_.where(*at) : std::string());
    return s;
}

// One member mask `m` and the executing lanes `group` that passed it.
void SyncChecker::check_member_mask(const engine::WarpSyncEvent& e, uint32_t m, uint32_t group,
                                    uint32_t exist) {
    const Site at{e.site.function, e.site.pc};
    const uint32_t w = e.site.warp;
    const uint32_t lead = static_cast<uint32_t>(std::countr_zero(group));
    auto add = [&](const char* kind, std::string title, std::string note, std::string fix) {
        Finding f;
        f.tool = Tool::synccheck;
        f.kind = kind;
        f.title = std::move(title);
        f.parties.push_back({collective_name(e.kind), at, ctx_.thread(w, lead), cur_->block.ctaid});
        f.notes.push_back(std::move(note));
        f.fix = std::move(fix);
        log_.add(std::move(f));
    };
    const std::string fix_mask =
        "pass the mask of the lanes that really execute it: compute it before the branch with "
        "__ballot_sync(0xffffffff, condition), or use __activemask() when every active lane takes part";
    const std::string head =
        e.member_mask_uniform
            ? fmt::format("warp {}: member mask 0x{:08x}, executing lanes {}", w, m,
                          lane_list(e.executing_mask))
            : fmt::format("warp {}: lanes {} pass member mask 0x{:08x} (executing lanes {})", w,
                          lane_list(group), m, lane_list(e.executing_mask));
    const uint32_t gone = (exist & ~e.live_mask) | e.leaving_mask;  // exited, or finished and waiting to exit
    if (uint32_t absent = m & ~exist)
        add("sync.warp_mask_missing_lanes", "Member mask names lanes that do not exist (partial last warp)",
            head + fmt::format("; lanes {} are not part of the block", lane_list(absent)), fix_mask);
    if (uint32_t left = m & exist & gone)
        add("sync.warp_mask_exited_lanes", "Member mask names lanes that have exited",
            head + "; " + exit_text(e, left) +
                (e.kind == engine::WarpSyncKind::shfl
                     ? " (a lane that reads from one of them gets an undefined value)"
                     : ""),
            "leave the exited lanes out of the mask (compute it with __ballot_sync before the early return, "
            "or use "
            "__activemask()), or let every lane reach the collective and skip only the work");
    if (uint32_t idle = m & e.live_mask & ~gone & ~e.executing_mask)
        add("sync.warp_mask_inactive_lanes", "Member mask names lanes that do not execute this collective",
            head + fmt::format("; lanes {} do not execute it (diverged or predicated off)", lane_list(idle)),
            fix_mask);
    if (uint32_t other = m & e.executing_mask & ~group) {
        const uint32_t first = static_cast<uint32_t>(std::countr_zero(other));
        add("sync.warp_mask_mismatch",
            "Lanes named in a member mask execute the collective with another mask",
            head + fmt::format("; lanes {} execute it with a different member mask (lane {}: 0x{:08x})",
                               lane_list(other), first, e.member_masks[first]),
            "every lane named in a mask must pass that same mask: compute the group's mask from the group, "
            "e.g. "
            "0xffffu << (lane & ~15) for groups of 16 lanes");
    }
    if (uint32_t outside = group & ~m)
        add("sync.warp_mask_excludes_self", "Lanes execute a collective whose member mask leaves them out",
            head + fmt::format("; lanes {} are not in the mask", lane_list(outside)),
            "each lane's own bit must be set in the mask it passes");
}

void SyncChecker::on_warp_sync(const engine::WarpSyncEvent& e) {
    if (!select(e.site.block)) return;
    if (e.kind == engine::WarpSyncKind::activemask) return;
    const uint32_t w = e.site.warp;
    const uint32_t exist_lanes = threads_ > w * 32 ? std::min<uint32_t>(32, threads_ - w * 32) : 32;
    const uint32_t exist = exist_lanes == 32 ? 0xffffffffu : (1u << exist_lanes) - 1;
    // Lanes may pass different masks (cooperative-groups tiles: 0x0000ffff and 0xffff0000 in one shfl): each
    // mask is checked with the lanes that passed it.
    for (uint32_t rest = e.executing_mask; rest;) {
        const uint32_t m = e.member_masks[static_cast<uint32_t>(std::countr_zero(rest))];
        uint32_t group = 0;
        for (uint32_t r = rest; r; r &= r - 1) {
            const uint32_t lane = static_cast<uint32_t>(std::countr_zero(r));
            if (e.member_masks[lane] == m) group |= 1u << lane;
        }
        rest &= ~group;
        check_member_mask(e, m, group, exist);
    }
}

}  // namespace warpsim::check
