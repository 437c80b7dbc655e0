// sim/session/sampled_run.hpp — a launch's counts from a sample of its blocks: the grid cut into classes of
// blocks (edges, tails, the blocks around the spec's sizes, split further where sampled blocks disagree), a
// few blocks of each run, the sums extrapolated class by class with a stated error, and the L2/DRAM footprint
// estimated from how much of a block's footprint its neighbours share. No buffer is produced.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "launch/outcome.hpp"
#include "sim/session/run.hpp"

namespace warpsim::session {

// A box of the grid, [lo, hi) in each dimension: blocks that are expected to do the same work.
struct BlockClass {
    std::array<uint32_t, 3> lo{0, 0, 0}, hi{1, 1, 1};
    uint32_t origin = 0;  // the initial class it was split from (initial_classes' index)
    uint64_t size() const { return uint64_t{hi[0] - lo[0]} * (hi[1] - lo[1]) * (hi[2] - lo[2]); }
    bool contains(const std::array<uint32_t, 3>& b) const {
        for (int d = 0; d < 3; ++d)
            if (b[d] < lo[d] || b[d] >= hi[d]) return false;
        return true;
    }
};

// The first classes of a grid: per dimension the first block, the last, and the blocks on each side of the
// spec's integer sizes (scalar arguments and buffer element counts) divided by the block's extent; the
// classes are the boxes these cuts make. `sizes` are the candidate sizes.
std::vector<BlockClass> initial_classes(const std::array<uint32_t, 3>& grid,
                                        const std::array<uint32_t, 3>& block,
                                        const std::vector<uint64_t>& sizes);

// Up to `count` blocks of a class, spread over it (its first and last corner, its centre, then blocks picked
// by a seeded generator), as grid coordinates.
std::vector<std::array<uint32_t, 3>> pick_blocks(const BlockClass& c, uint32_t count, uint64_t seed);

// Runs the prepared launch on a sample of its blocks (SampleMode::on). Fails on impossible requests: "expect"
// checks or kept buffers (a sample produces no buffers), a launch with thread-block clusters.
launch::Outcome<SimRun> run_sampled(const PreparedLaunch& p, const SimOptions& options);

// SampleMode::automatic on a launch set up and configured (configure_launch) to run whole: runs a pilot block
// of the largest class; when its thread-instructions times the grid's blocks exceed options.sample_above,
// samples the launch into `run` and returns true. Otherwise returns false with the pilot's counts in `pilot`
// (the whole run leaves that block out: launch_configured). Launches that need buffers, have clusters, print,
// or whose blocks interact through order-dependent atomics run whole without a pilot.
bool sample_if_large(SimRun& run, const PreparedLaunch& p, LaunchSetup& setup,
                     const engine::LaunchConfig& cfg, const SimOptions& options,
                     std::optional<engine::BlockCounts>& pilot);

// The report's "sampling" object (blocks run, classes, why, each metric's estimate and bound) and its text.
nlohmann::json sampling_json(const SampleInfo& info);
std::string sampling_text(const SampleInfo& info);

}  // namespace warpsim::session
