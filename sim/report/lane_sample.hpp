// sim/report/lane_sample.hpp — per-lane addresses of one representative warp per memory instruction, and the
// lanes each warp put to work, recorded through the engine's observer for the report's lane diagrams.
//
// The counts model (sim/counts) keeps totals per instruction, never addresses. The report needs a few
// addresses to say "lanes read addresses 4096 bytes apart" and to draw 32 lanes -> sectors / banks, so a
// second, short run with an ExecutionObserver keeps, for each (function, pc, space), the first warp that
// had the most active lanes. With an observer the engine runs blocks one at a time in linear order, so the
// sample comes from the first blocks of the grid and a small instruction budget bounds its cost.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "launch/outcome.hpp"
#include "sim/engine/observer.hpp"
#include "sim/session/run.hpp"

namespace warpsim::report {

// One warp's view of one memory instruction.
struct LaneSample {
    engine::MemorySpace space = engine::MemorySpace::global;
    engine::MemoryKind kind = engine::MemoryKind::read;
    uint32_t bytes_per_lane = 0;
    uint32_t active_mask = 0;
    std::array<uint64_t, 32> addr{};  // valid where active_mask has the lane
    engine::BlockIndex block;         // which warp this is
    uint32_t warp = 0;
};

// `warpsim explain`'s focus: the memory instructions, branches and warp collectives of one source line, as
// one warp saw them.
struct WarpFocus {
    std::vector<std::pair<uint32_t, uint32_t>> pcs;  // (function, pc) of the instructions to follow
    std::optional<uint64_t> block;                   // linear block index to take the warp from; nullopt: any
    std::optional<uint32_t> warp;                    // warp index within the block; nullopt: any
    bool follows(uint32_t function, uint32_t pc) const;
};

// One followed instruction: its first execution by the chosen warp or, when that warp never executed it, by
// the first warp that did.
struct FocusSample {
    LaneSample first;         // block, warp and per-lane addresses of that first execution
    uint64_t executions = 0;  // times that warp executed the instruction within the sample
};

// A followed conditional branch: the shown warp's first execution and, over the sample, how often the warps
// that ran it split there.
struct BranchSample {
    engine::BranchEvent first;
    uint64_t executions = 0;      // times the shown warp executed it within the sample
    uint64_t split = 0;           // of those, the times its lanes went both ways
    uint64_t all_executions = 0;  // every warp of the sample
    uint64_t all_split = 0;
};

// A followed warp collective (shfl, vote, ...): the shown warp's first execution.
struct CollectiveSample {
    engine::WarpSyncEvent first;
    uint64_t executions = 0;  // times the shown warp executed it within the sample
};

struct FocusSamples {
    // The chosen warp (linear block, warp): the first warp matching WarpFocus::block/warp that executed one
    // of the followed instructions. nullopt: none did within the sample.
    std::optional<std::pair<uint64_t, uint32_t>> warp;
    // Keyed like LaneSamples::by_pc.
    std::map<std::tuple<uint32_t, uint32_t, engine::MemorySpace>, FocusSample> by_pc;
    std::map<std::pair<uint32_t, uint32_t>, BranchSample> branches;         // by (function, pc)
    std::map<std::pair<uint32_t, uint32_t>, CollectiveSample> collectives;  // by (function, pc)
    // The chosen warp's block ran to its end (its execution counts are whole), or the block asked for ended
    // without a match: a longer sample would not change the answer.
    bool settled = false;
    bool from_chosen_warp(const FocusSample& f) const {
        return is_chosen(f.first.block.linear, f.first.warp);
    }
    bool is_chosen(uint64_t block, uint32_t w) const {
        return warp && warp->first == block && warp->second == w;
    }
};

// Lanes of one warp that took part in at least one memory instruction (a proxy for "did work").
struct WarpActivity {
    uint32_t lanes_existing = 0;  // threads of the block in this warp (32 but for a partial warp)
    uint32_t lanes_working = 0;   // lanes that performed at least one memory access
    uint32_t working_mask = 0;    // which ones
};

// A guarded branch as the sample run saw it (every one, for the HTML page's branch diagrams): the first
// execution whose lanes went both ways, else the first execution, and how often warps ran it and split.
struct BranchSeen {
    engine::BranchEvent shown;
    uint64_t executions = 0, split = 0;
};

struct LaneSamples {
    // Keyed by (function, pc, space): a generic access whose lanes resolve to two spaces yields two samples.
    std::map<std::tuple<uint32_t, uint32_t, engine::MemorySpace>, LaneSample> by_pc;
    // Per block (linear index) and warp, for the first `max_blocks` blocks the sample run finished.
    std::map<uint64_t, std::vector<WarpActivity>> warps;
    uint64_t blocks_seen = 0;    // blocks the sample run started
    bool complete = false;       // the whole grid ran within the budget
    bool out_of_budget = false;  // the run stopped at SampleOptions::max_thread_instructions
    FocusSamples focus;          // filled when the sampler was given a WarpFocus
    std::map<std::pair<uint32_t, uint32_t>, BranchSeen> branches;  // by (function, pc)

    const LaneSample* find(uint32_t function, uint32_t pc, engine::MemorySpace space) const;
};

// The observer that fills LaneSamples. Keeps the first warp with the most active lanes per instruction.
class LaneSampler : public engine::ExecutionObserver {
  public:
    explicit LaneSampler(uint64_t max_blocks = 256, const WarpFocus* focus = nullptr)
        : max_blocks_(max_blocks), focus_(focus) {}
    void on_launch_begin(const engine::LaunchInfo& info) override;
    void on_block_begin(const engine::BlockIndex& b) override;
    void on_block_end(const engine::BlockIndex& b) override;
    void on_memory(const engine::MemoryEvent& e) override;
    void on_branch(const engine::BranchEvent& e) override;
    void on_warp_sync(const engine::WarpSyncEvent& e) override;
    // The samples, with the warp activity of blocks that did not finish (the budget ran out) left out.
    LaneSamples take();
    const LaneSamples& samples() const { return samples_; }

  private:
    void follow(const engine::MemoryEvent& e);
    // Makes the event's warp the chosen one if none is yet and it matches the focus; true if it is the
    // chosen warp.
    bool choose(const engine::EventSite& site);

    uint64_t max_blocks_;
    const WarpFocus* focus_;
    uint32_t threads_per_block_ = 0;
    uint32_t warps_per_block_ = 0;
    LaneSamples samples_;
    std::vector<uint64_t> finished_;
};

struct SampleOptions {
    // Thread-instructions the sample run may execute before it stops; the blocks run by then are the sample.
    uint64_t max_thread_instructions = 4'000'000;
    uint64_t max_blocks = 256;         // blocks whose warp activity is kept
    const WarpFocus* focus = nullptr;  // also follow these instructions in one warp (warpsim explain)
    engine::LaunchProgress* progress = nullptr;  // the sample run's progress counters (a progress bar)
    // Called with the sample run's simulator, buffers and parameters before it launches (optional): where
    // the buffers lie, to name the sampled addresses.
    std::function<void(const session::LaunchSetup&)> on_setup;
};

// Runs the prepared launch once more on a fresh simulator with a LaneSampler attached (same buffers,
// parameters and limits as `run`). A launch error or the budget simply ends the sample; the outcome fails
// only when the run cannot be set up.
launch::Outcome<LaneSamples> sample_lanes(const session::PreparedLaunch& p, const session::SimRun& run,
                                          const SampleOptions& options = {});

// Constant distance in bytes between consecutive active lanes' addresses, or nullopt when the lanes do not
// follow one stride (or fewer than two lanes are active). 0 means every lane used the same address.
std::optional<int64_t> lane_stride(const LaneSample& s);

// The aligned 32-byte sector (address / 32) that holds a lane's first byte (global and local accesses).
uint64_t lane_sector(const LaneSample& s, uint32_t lane);
// The sector that holds a lane's last byte (bytes_per_lane, at least 1): a lane touches lane_sector to it.
uint64_t lane_last_sector(const LaneSample& s, uint32_t lane);
// Every sector the active lanes touch, in address order.
std::set<uint64_t> active_sectors(const LaneSample& s);
// Shared-memory bank of a lane's first word (4-byte banks, 32 of them).
uint32_t lane_bank(const LaneSample& s, uint32_t lane);

}  // namespace warpsim::report
