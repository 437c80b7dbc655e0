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

struct ReportModel {
    std::vector<SourceRow> rows;  // in source order
    double lane_capacity = 32;    // average lanes per warp the launch shape allows (partial warps)
    std::optional<WorstAccess> worst_global, worst_shared;
    std::optional<size_t>
        worst_lanes;              // the line whose warps idle most lane-instructions beyond the launch shape
    std::string source_file;      // the CUDA file the lines come from ("" if none was found)
    uint32_t source_file_id = 0;  // its .file number (0: none found)
    std::vector<std::string> source_lines;  // its text, line by line (untrimmed)
};

// Builds the model from a run's per-pc counters. `samples` (optional) supply per-lane addresses: strides
// and bank mappings for the sentences; AccessRow::sample points into it, so it must outlive the model.
ReportModel build_model(const session::PreparedLaunch& p, const session::SimRun& run,
                        const LaneSamples* samples);

// What to look at first, one item per problem: the worst global access, the worst shared access and the line
// that idles most lanes. Empty when nothing stands out.
struct LookAt {
    std::string where;  // "line 22"
    std::string
        what;  // "global load: 32.00 sectors per request where 4.00 would do (12.5 % of the bytes used)"
};
std::vector<LookAt> look_at(const ReportModel& m);

// "inlined here: CHAIN; CHAIN" for the row's inlined code that no access row names already (at most three
// chains, then "and N more"); "" when there is none. The text and HTML reports print it under the row.
std::string inlined_note(const SourceRow& r);

// The sentence for one access row (empty when nothing is off); exposed for tests.
std::string explain_access(const AccessRow& a);

}  // namespace warpsim::report
