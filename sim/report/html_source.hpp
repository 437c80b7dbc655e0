// sim/report/html_source.hpp — the HTML page's source view: the kernel's lines (the CUDA source where the
// PTX's .loc maps them, else the PTX) with per-line heat, and for every line with memory or branch activity
// its lane data as JSON, drawn by a small inline script when the line is clicked (or named by the page's
// fragment, #line=N). Without JavaScript the table stays; only the per-line diagrams need the script.
#pragma once

#include <string>
#include <string_view>

#include "sim/report/lane_sample.hpp"
#include "sim/report/report_model.hpp"
#include "sim/session/run.hpp"

namespace warpsim::report {

// What the "time" column shares out among the lines: the work of the resource that bounds the launch.
enum class TimeBasis { sectors, atomics, wavefronts, memory_passes, instructions };
// dram, l2: global and local sectors; atomic: global atomic requests; shared: shared wavefronts; lsu: sectors
// and wavefronts (the L1 data path); anything else (latency, issue, tail, launch, none): warp instructions.
TimeBasis time_basis(std::string_view bound);
std::string_view time_basis_words(TimeBasis b);  // "its share of the sectors", ...

// The section: heading, legend, the table of lines, the detail panel and its script. `bound` is the timing
// model's short code ("" when no time was predicted).
std::string source_section(const session::PreparedLaunch& p, const ReportModel& m, const LaneSamples* samples,
                           std::string_view bound);

}  // namespace warpsim::report
