// sim/engine/cluster.hpp — thread-block clusters (sm_90): running a cluster's CTAs together, barrier.cluster
// bookkeeping and its deadlock report, and the selectors for mapa/getctarank/barrier.cluster.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "sim/engine/dispatch.hpp"
#include "sim/engine/exec_state.hpp"

namespace warpsim::engine {

// The launch's cluster shape: LaunchConfig::cluster, else the kernel's .reqnctapercluster, else 1x1x1 (no
// clusters; `explicit_cluster` false). Checked as cuLaunchKernelEx checks it: every grid dimension a multiple
// of the cluster's, at most 8 CTAs (the portable limit) and no more than .maxclusterrank, and no shape that
// contradicts the kernel's own.
std::optional<LaunchError> resolve_cluster_shape(const LaunchConfig& cfg, const ir::Function& kernel,
                                                 std::array<uint32_t, 3>& shape, bool& explicit_cluster);

// Runs the CTAs of one cluster to completion (or the first error, left in that CTA's BlockContext::error):
// their warps take turns across all CTAs, so a CTA can wait at barrier.cluster for the others. `blocks` are
// set up (ctaid, shared memory, counters) and ordered by %cluster_ctarank; `cluster` must outlive the run.
void run_cluster(std::span<BlockContext> blocks, ClusterContext& cluster);
// Runs `blocks` to completion the same way, their warps taking turns across all of them; with `cluster`
// they form that cluster (run_cluster), without it they are separate CTAs that run at the same time, as
// all blocks of a cooperative launch do (so that grid.sync()'s spin on the grid workspace ends).
void run_together(std::span<BlockContext> blocks, ClusterContext* cluster);

// Lanes of x.warp exited: they no longer hold up barrier.cluster (called by lanes_exited).
void cluster_lanes_exited(Exec& x, uint32_t lanes);

// When warps of block b wait at barrier.cluster.wait and nothing can run: fills b.error with the report and
// returns true; false when no warp of the cluster waits at barrier.cluster.
bool report_cluster_deadlock(BlockContext& b);

Handler select_cluster(const ir::Instruction&, DInst&, const SelectContext&);          // mapa, getctarank
Handler select_cluster_barrier(const ir::Instruction&, DInst&, const SelectContext&);  // barrier.cluster.*

}  // namespace warpsim::engine
