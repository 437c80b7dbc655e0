// sim/report/report_model.hpp — what the text and HTML reports show, computed once: per CUDA source line the
// instructions and lanes, one row per kind of memory access (global load, shared store, ...) with its cost
// per request against the ideal, a sentence where something is off, and the worst lines to look at first.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/counts/counters.hpp"
#include "sim/report/lane_sample.hpp"
#include "sim/session/run.hpp"

namespace warpsim::report {

using LineStats = counts::KernelCounters::LineStats;

enum class AccessSpace { global, local, shared };
enum class AccessKind { load, store, atomic, reduction, other };

std::string_view space_word(AccessSpace s);           // "global", "local", "shared"
std::string_view kind_word(AccessKind k);             // "load", "store", "atomic", "reduction", "access"
AccessKind access_kind(const ir::Instruction& inst);  // ld/ldu: load, st: store, atom, red; else other

// One kind of memory access on a source line: the instructions (pcs) of that line with the same space, kind
// and cost per request, summed.
struct AccessRow {
    AccessSpace space = AccessSpace::global;
    AccessKind kind = AccessKind::load;
    uint32_t function = 0;
    std::vector<uint32_t> pcs;  // the PTX instructions merged into this row
    LineStats s;                // summed over pcs
    const LaneSample* sample =
        nullptr;       // one warp's addresses for one of the pcs (the costliest), if sampled
    std::string note;  // one sentence when the access costs more than the ideal
    // Inlined code: where the instructions are, down from the row's line ("device_atomic_functions.hpp:107 in
    // atomicAdd, inlined from reduce.cu:8 in add_pair"; more than two levels are shortened to the innermost
    // and the outermost: "..., inlined through 2 more levels from ..."); "" for the line's own code.
    std::string inlined;

    // Sectors per request (global, local) or wavefronts per request (shared), and the ideal.
    double per_request() const;
    double ideal_per_request() const;
    // Sectors or wavefronts beyond the ideal, over the whole run: how much this row wastes.
    uint64_t excess() const;
    // Share of the bytes moved that were used (global, local): ideal / sectors.
    double efficiency() const;
    std::string label() const;  // "global load", "shared store x2"
};

// One CUDA source line (or one PTX line where the PTX has no .loc). Code inlined from device functions
// (atomicAdd, the user's __device__ helpers) counts at the line of the kernel (or .func) that calls it.
struct SourceRow {
    uint32_t file = 0, line = 0;      // file 0: `line` is a PTX line
    bool compiler_generated = false;  // .loc FILE 0: no source line
    std::string text;                 // the source line, trimmed ("" when the file is not found)
    LineStats total;                  // all instructions of the line
    std::vector<AccessRow> accesses;
    std::string lanes_note;  // "on average 31.2 of 32 lanes active: ..." when lanes idle
    // Idle lane slots (warp instructions x lane capacity - lanes) of the line's instructions that run with
    // one lane at most once per warp: a reduction publishing its result (`if (lane == 0) atomicAdd(...)`),
    // wherever ptxas put those instructions. "look at" does not count them as lanes to put to work.
    uint64_t intended_idle_slots = 0;
    std::vector<std::string>
        inlined;  // the inlined code counted here, one chain each (as AccessRow::inlined)
    // The guarded branches (bra with a predicate) of the line that ran, as (function, pc): where lanes of a
    // warp can part.
    std::vector<std::pair<uint32_t, uint32_t>> branches;

    double lanes() const;       // average active lanes per warp instruction
    std::string where() const;  // "line 22", "PTX line 388", "no line"
};

// The worst access of the run: indices into ReportModel::rows and that row's accesses.
struct WorstAccess {
    size_t row = 0, access = 0;
};

// What "look at" needs of the launch as a whole to put a cost in time on each finding: its shape on the
// GPU, the timing model's throughputs for the preset and its predicted cycles, and the traffic totals.
struct LaunchCosts {
    uint32_t sm_count = 0;
    uint64_t blocks = 0;
    int blocks_per_sm = 0;     // 0: occupancy unknown
    double kernel_cycles = 0;  // predicted, without the launch overhead (0: no prediction)
    std::string bound;         // the prediction's bound code ("launch", "dram", "tail", ...)
    // The timing model's throughputs (timing::ModelParams of the preset).
    double l2_bytes_per_cycle = 0, shared_wavefronts_per_cycle = 1, l1_sectors_per_cycle = 4;
    double issue_slots_per_cycle = 4;  // per SM: schedulers times their issue efficiency
    uint64_t global_ld_sectors = 0, l1_global_ld_hits = 0;
    uint64_t buffer_bytes = 0;  // the launch's buffers together
    uint64_t warp_insts = 0;    // the whole launch, counted as the table counts them
    uint32_t busy_sms() const;  // SMs that get at least one block
};

struct ReportModel {
    std::vector<SourceRow> rows;  // in source order
    LaunchCosts costs;
    double lane_capacity = 32;  // average lanes per warp the launch shape allows (partial warps)
    std::optional<WorstAccess> worst_global, worst_shared;
    std::optional<size_t>
        worst_lanes;              // the line whose warps idle most lane-instructions beyond the launch shape
    std::string source_file;      // the CUDA file the lines come from ("" if none was found)
    uint32_t source_file_id = 0;  // its .file number (0: none found)
    std::vector<std::string> source_lines;  // its text, line by line (untrimmed)
};

// Builds the model from a run's per-pc counters. `samples` (optional) supply per-lane addresses: strides
// and bank mappings for the sentences; AccessRow::sample points into it, so it must outlive the model.
// `predicted` (optional): the caller's prediction for this run, used for the costs' scale; without it the
// run's stored one, else the timing model is asked.
ReportModel build_model(const session::PreparedLaunch& p, const session::SimRun& run,
                        const LaneSamples* samples, const launch::PredictedTiming* predicted = nullptr);

// What to look at first: every finding (each access that costs more than its ideal, each line whose lanes
// idle, SMs the grid leaves without work, a tail wave, data read again and again through L1) with its cost
// estimated in cycles from the timing model's throughputs, the costliest first, at most kMaxLookAt. Left
// out: findings under 1 % of the predicted cycles (or, without a prediction, of the costliest), and the
// intended single-lane write of a reduction's result (`if (lane == 0) out[w] = sum`). Empty when nothing
// stands out.
struct LookAt {
    std::string where;  // "line 22", or "launch" for the grid as a whole
    std::string
        what;  // "global load: 32.00 sectors per request where 4.00 would do (12.5 % of the bytes used)"
    double cost_cycles = 0;  // the estimate the ranking uses
    double share = 0;        // cost_cycles over the predicted kernel cycles (0: no prediction)
};
constexpr size_t kMaxLookAt = 5;
// " (about 38 % of the predicted kernel time)" after a finding's `what`, for the text and HTML reports; ""
// under 1 % or without a prediction.
std::string look_at_share(const LookAt& item);
std::vector<LookAt> look_at(const ReportModel& m);

// "inlined here: CHAIN; CHAIN" for the row's inlined code that no access row names already (at most three
// chains, then "and N more"); "" when there is none. The text and HTML reports print it under the row.
std::string inlined_note(const SourceRow& r);

// The sentence for one access row (empty when nothing is off); exposed for tests.
std::string explain_access(const AccessRow& a);

}  // namespace warpsim::report
