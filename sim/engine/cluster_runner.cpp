// sim/engine/cluster_runner.cpp — the CTAs of one thread-block cluster (or of a cooperative grid) run
// together: their warps take turns across all CTAs (CTA by CTA in rank order; within a CTA in warp order with
// a fixed quantum, or in the seeded order of LaunchConfig::schedule_seed as run_block does), so that a CTA
// can wait at barrier.cluster for the others and read their shared memory while they run. The order depends
// on the cluster and the seed alone, never on the host worker, so results do not depend on the worker count.
#include <fmt/format.h>
#include <algorithm>

#include "sim/engine/block_runner.hpp"
#include "sim/engine/cluster.hpp"
#include "sim/engine/schedule.hpp"
#include "sim/engine/warp_runner.hpp"

namespace warpsim::engine {

namespace {

// The driver's words for every bad cluster shape (CUDA_ERROR_INVALID_CLUSTER_SIZE on the H200, driver 580:
// tests/specs/launch_error_cluster_grid.json and launch_error_cluster_16.json).
LaunchError cluster_error(std::string details) {
    return LaunchError(Fault::invalid_cluster_size, std::move(details));
}

}  // namespace

std::optional<LaunchError> resolve_cluster_shape(const LaunchConfig& cfg, const ir::Function& kernel,
                                                 std::array<uint32_t, 3>& shape, bool& explicit_cluster) {
    const auto& req = kernel.perf.reqnctapercluster;
    const std::array<uint32_t, 3> compiled{req[0], req[0] ? std::max(req[1], 1u) : 0,
                                           req[0] ? std::max(req[2], 1u) : 0};
    const bool asked = cfg.cluster[0] || cfg.cluster[1] || cfg.cluster[2];
    shape = {1, 1, 1};
    explicit_cluster = asked || compiled[0];
    if (!explicit_cluster) return std::nullopt;
    const std::array<uint32_t, 3> want = asked ? cfg.cluster : compiled;
    const auto dims = [](const std::array<uint32_t, 3>& d) {
        return fmt::format("{}x{}x{}", d[0], d[1], d[2]);
    };
    if (asked && compiled[0] && want != compiled)
        return cluster_error(
            fmt::format("the launch asks for clusters of {} CTAs, but {} was compiled for clusters of "
                        "{} (.reqnctapercluster / __cluster_dims__): launch with that shape or none",
                        dims(want), kernel.name, dims(compiled)));
    const char* axis = "xyz";
    for (int i = 0; i < 3; ++i) {
        if (want[i] == 0)
            return cluster_error(fmt::format("cluster dimension {} is 0 (cluster {})", axis[i], dims(want)));
        if (cfg.grid[i] % want[i] != 0)
            return cluster_error(
                fmt::format("gridDim.{} = {} is not a multiple of the cluster's {} (cluster {}): the "
                            "grid must be made of whole clusters",
                            axis[i], cfg.grid[i], want[i], dims(want)));
    }
    const uint64_t ctas = uint64_t{want[0]} * want[1] * want[2];
    if (ctas > 8)
        return cluster_error(fmt::format(
            "a cluster of {} ({} CTAs) is larger than the portable maximum of 8 CTAs "
            "(the non-portable sizes up to 16 need cudaFuncAttributeNonPortableClusterSizeAllowed, "
            "which warpsim does not model)",
            dims(want), ctas));
    if (kernel.perf.maxclusterrank && ctas > kernel.perf.maxclusterrank)
        return cluster_error(fmt::format("a cluster of {} CTAs exceeds {}'s .maxclusterrank of {}", ctas,
                                         kernel.name, kernel.perf.maxclusterrank));
    shape = want;
    return std::nullopt;
}

void run_together(std::span<BlockContext> blocks, ClusterContext* c) {
    const LaunchContext& L = *blocks.front().launch;
    if (c) c->ctas.clear();
    for (BlockContext& b : blocks) {
        if (c) {
            b.cluster = c;
            c->ctas.push_back(&b);
        }
        start_warps(b);
        if (b.error) return;
        if (c) c->pending += b.warps.size();
    }
    if (c) c->arrived.assign(blocks.size() * L.warps_per_block, 0);
    if (L.observer) {
        std::vector<BlockIndex> ctas;
        for (const BlockContext& b : blocks) ctas.push_back(b.index());
        L.observer->on_cluster_begin(ctas);
    }
    for (BlockContext& b : blocks) {
        if (b.counters) b.counters->on_block_begin(b.linear, b.sm);
        if (L.observer) L.observer->on_block_begin(b.index());
    }
    std::vector<WarpOrder> orders;
    for (BlockContext& b : blocks)
        orders.emplace_back(L.cfg->schedule_seed, b.linear, static_cast<uint32_t>(b.warps.size()),
                            kWarpQuantum);
    for (;;) {
        bool any_ran = false, all_done = true;
        for (std::size_t i = 0; i < blocks.size(); ++i)  // CTA by CTA in rank order
            if (!run_warp_turns(blocks[i], orders[i], any_ran, all_done)) return;
        if (all_done) break;
        // Every CTA's warps have waited in vain on mbarriers for the same rounds: none can arrive at
        // another's.
        auto stalled = [](const BlockContext& b) {
            return b.stalled_rounds >= kMbarrierStallRounds ||
                   std::all_of(b.warps.begin(), b.warps.end(),
                               [](const Warp& w) { return w.state == WarpState::done; });
        };
        if (any_ran && std::all_of(blocks.begin(), blocks.end(), stalled)) {
            for (BlockContext& b : blocks) {
                if (b.last_failed_wait) {
                    report_mbarrier_deadlock(b);
                    return;
                }
            }
        }
        if (any_ran) continue;
        for (BlockContext& b : blocks)  // nothing can run: report at the first CTA with a waiting warp
            for (const Warp& w : b.warps)
                if (w.state == WarpState::at_barrier) {
                    report_deadlock(b);
                    return;
                }
        return;
    }
    for (BlockContext& b : blocks) {
        if (b.counters) b.counters->on_block_end(b.linear, b.sm);
        if (L.observer) L.observer->on_block_end(b.index());
    }
}

void run_cluster(std::span<BlockContext> blocks, ClusterContext& c) {
    run_together(blocks, &c);
}

}  // namespace warpsim::engine
