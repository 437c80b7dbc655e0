// sim/report/explain.hpp — `warpsim explain SPEC --line N`: one source line as one warp executed it. Per
// memory instruction: the address each lane touched, the 32-byte sector (global, local) or the bank and
// 4-byte word (shared) it landed in, what the warp's request cost against the ideal (sectors, or passes and
// wavefronts), and one sentence saying why. Per conditional branch: which lanes went which way, where the two
// groups meet again and what each side cost. Per shuffle or vote: which lane each lane read, or the ballot.
//
// The addresses come from the report's lane sampler (lane_sample.hpp) given a WarpFocus; the costs from the
// very counters the run uses (counts::KernelCounters fed the one warp access), so explain and the report
// can never disagree on a rule.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/report/lane_sample.hpp"
#include "sim/report/report_model.hpp"
#include "sim/session/run.hpp"

namespace warpsim::report {

struct ExplainRequest {
    std::optional<uint32_t> line;                  // CUDA source line (from the PTX's .loc; any line
                                                   // of an inlining chain, such as a helper's call) ...
    std::optional<uint32_t> ptx_line;              // ... or PTX line; exactly one of the two
    std::optional<std::array<uint32_t, 3>> block;  // blockIdx of the warp to show; nullopt: any
    std::optional<uint32_t> warp;                  // warp within the block; nullopt: any
    bool worst = false;  // show the costliest warp (of those --block / --warp allow), not the first
    uint64_t max_thread_instructions = 20'000'000'000ull;  // for the sample runs
    engine::LaunchProgress* progress = nullptr;  // the sample runs' progress counters (a progress bar)
};

// One shared-memory pass (the warp is served in 1, 2 or 4 passes depending on the access width).
struct SharedPass {
    uint32_t first_lane = 0, last_lane = 31;
    uint32_t wavefronts = 0, ideal = 0, max_way = 0;
    uint32_t worst_bank = 0;  // a bank asked for max_way different words
};

// One memory instruction of the line.
struct ExplainedAccess {
    uint32_t function = 0, pc = 0, ptx_line = 0;
    std::string instruction;  // the PTX text ("ld.global.f32 %f1, [%rd8];")
    std::string inlined;  // inlined code: its chain, "device_atomic_functions.hpp:107 in atomicAdd, inlined
                          // from reduce.cu:42"; "" for the kernel's own code
    AccessSpace space = AccessSpace::global;
    std::string what;  // "global load", "shared store", ...
    AccessKind kind = AccessKind::load;
    bool sampled = false;                    // some warp executed it within the sample
    bool from_chosen_warp = false;           // the lanes below are the chosen warp's (else a stand-in's)
    FocusSample sample;                      // that warp's first execution
    std::array<uint32_t, 3> block{0, 0, 0};  // blockIdx of the warp shown
    LineStats warp_cost;                     // that one execution: 1 request, sectors or wavefronts, ideal
    std::vector<SharedPass> passes;          // shared: per pass with active lanes
    std::vector<uint64_t> sectors;           // global, local: distinct sector indices (address / 32)
    LineStats run_cost;                      // all executions of the instruction in the whole run
    std::string why;                         // one sentence
    std::string sass;              // what ptxas made of it, where that changes the count ("" if nothing)
    bool merged_follower = false;  // ptxas merged it into an earlier load or store, which counts it
    // What each active lane's address is, as `warpsim check` names it: "args[0] A[1000]", "As[3][4]"; ""
    // outside every buffer and variable.
    std::array<std::string, 32> lane_names;
    std::vector<std::string> arrays;  // the buffers or variables the lanes touched, in address order
    std::string span;                 // the lowest and highest lane's element: "As[31][0] to As[31][31]"
};

// The line's memory instructions grouped for the summary: those of one kind, on the same arrays, with the
// same cost for the shown warp and the same reason (an unrolled loop's 32 loads of Bs[k][tx] are one group).
struct AccessGroup {
    std::vector<size_t> members;  // indices into Explanation::accesses, in PTX order
    size_t merged = 0;            // members that ptxas merged into another member's SASS instruction
    LineStats warp_cost;          // the shown warp's first executions, summed over the members
    LineStats run_cost;           // the whole run, summed over the members
};

// How the shown warp was chosen with --worst: the warp of the sample with the most excess sectors and
// wavefronts on the line's memory instructions (summed over its executions), then the most executions whose
// lanes split at a branch of the line, then the most idle lanes (32 minus the active ones, summed over the
// executions of every instruction followed); ties go to the warp that ran first.
struct WarpCost {
    uint64_t excess = 0;      // sectors beyond ideal_sectors plus wavefronts beyond ideal_wavefronts
    uint64_t splits = 0;      // branch executions whose lanes went both ways
    uint64_t idle = 0;        // idle lanes summed over the executions of the line's instructions
    uint64_t executions = 0;  // executions of the line's instructions
    auto rank() const { return std::make_tuple(excess, splits, idle); }
};
struct WorstChoice {
    uint64_t warps = 0;        // warps of the sample that ran the line
    uint64_t blocks_seen = 0;  // blocks the ranking run started
    bool complete = true;      // the ranking run saw the whole grid
    WarpCost chosen, first;    // the costliest warp's and the first warp's cost
    std::array<uint32_t, 3> first_block{0, 0, 0};
    uint32_t first_warp = 0;
    std::string why;  // "the most excess sectors and wavefronts: 12 (the first warp, block ... : 0)"
};

// One side of a conditional branch: where its lanes go on and what its instructions cost over the run.
struct BranchSide {
    uint32_t first_pc = 0;      // the first instruction the side runs (unconditional jumps followed)
    uint32_t ptx_line = 0;      // its PTX line
    uint32_t line = 0;          // its CUDA line (the kernel's own line for inlined code); 0 when unknown
    uint32_t lanes = 0;         // the shown warp's lanes on this side, at its first execution
    uint32_t instructions = 0;  // PTX instructions on the side before the two sides meet (0: it goes
                                // straight to the meeting point)
    uint64_t warp_insts = 0, thread_insts = 0;  // those instructions' totals over the whole run
};

// What a branch's and a collective's explanation share: the instruction, the warp shown, the run's count.
struct ExplainedInstruction {
    uint32_t function = 0, pc = 0, ptx_line = 0;
    std::string instruction;  // the PTX text ("@%p4 bra $L__BB0_7;")
    std::string inlined;      // inlined code: its chain (as ExplainedAccess::inlined); "" otherwise
    bool sampled = false;     // some warp executed it within the sample
    bool from_chosen_warp = false;
    std::array<uint32_t, 3> block{0, 0, 0};  // blockIdx of the warp shown
    uint64_t run_executions = 0;             // warp executions over the whole run
    std::string why;
};

// A guarded bra of the line, as one warp executed it.
struct ExplainedBranch : ExplainedInstruction {
    bool backward = false;  // the target comes before the branch: a loop's way back
    BranchSample sample;
    BranchSide taken, not_taken;
    bool meets_at_exit = false;  // the sides meet again only when the threads exit
    uint32_t meet_pc = 0, meet_ptx_line = 0, meet_line = 0;
};

// A warp shuffle or vote of the line, as one warp executed it.
struct ExplainedCollective : ExplainedInstruction {
    std::string what;  // "shuffle down", "vote ballot"
    CollectiveSample sample;
    std::string pattern;  // "lane i reads lane i+16", "... the ballot is 0x0000ffff"
};

struct Explanation {
    std::string spec_path, kernel;
    bool is_ptx_line = false;
    uint32_t line = 0;
    std::string source_file;  // the CUDA file (empty for a PTX line)
    std::string source_text;  // the line's text, trimmed ("" when the file is not found)
    std::array<uint32_t, 3> block_dim{1, 1, 1};
    std::optional<std::array<uint32_t, 3>> block;  // blockIdx of the chosen warp (nullopt: none found)
    uint32_t warp = 0;
    bool warp_requested = false;       // --block or --warp narrowed the choice
    bool warp_fully_named = false;     // both were given: exactly one warp was asked for
    bool sample_whole = true;          // the chosen warp's block ran to its end in the sample
    std::optional<WorstChoice> worst;  // set with --worst
    std::vector<ExplainedAccess> accesses;
    std::vector<AccessGroup> groups;  // the summary's view of `accesses`
    std::vector<ExplainedBranch> branches;
    std::vector<ExplainedCollective> collectives;
};

// Finds the line's memory instructions in the launched kernel (and the functions it calls), checks that the
// run executed them, runs the launch again with a WarpFocus until the chosen warp's block has finished
// (longer each time, up to max_thread_instructions) and works out each access's cost. Errors name the spec
// file and the line and say what to do (no such line, no memory instruction, never executed, a warp outside
// the launch).
// The checks explain_line makes before it needs the run: exactly one of line / PTX line, a block inside the
// grid and a warp inside the block, a line of the kernel that holds a memory instruction. nullopt: fine.
std::optional<std::string> explain_request_error(const session::PreparedLaunch& p,
                                                 const ExplainRequest& request);

launch::Outcome<Explanation> explain_line(const session::PreparedLaunch& p, const session::SimRun& run,
                                          const ExplainRequest& request);

// The text for a terminal (110 columns) and the JSON object of `warpsim explain --json`. The text is a
// summary (one entry per access group, each branch and collective) unless `lanes`: then every access in full
// with its lane-by-lane table, and the shuffles' tables.
std::string explain_text(const Explanation& e, bool lanes = false);
nlohmann::ordered_json explain_json(const Explanation& e);

// threadIdx of a lane of warp `warp` in a block of `block_dim` threads (threads are cut into warps in x, y, z
// order).
std::array<uint32_t, 3> lane_thread(const std::array<uint32_t, 3>& block_dim, uint32_t warp, uint32_t lane);

}  // namespace warpsim::report
