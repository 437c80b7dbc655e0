// sim/report/text_report.hpp — the report a learner reads after `warpsim run`: the launch, occupancy and
// its limiter, what to look at first, and per CUDA source line the instructions, active lanes and one row per
// kind of memory access (sectors per request or wavefronts per request against the ideal, bank conflicts),
// each with a sentence of explanation when something is off. Fits a 110-column terminal.
#pragma once

#include <string>
#include <string_view>

#include "sim/report/lane_sample.hpp"
#include "sim/report/report_model.hpp"
#include "sim/session/run.hpp"

namespace warpsim::report {

struct TextReportOptions {
    size_t max_lines = 40;  // source lines shown; the busiest (and every line with a note) first
    const LaneSamples* samples = nullptr;  // per-lane addresses (sample_lanes) for strides and idle warps
    // The most columns the table's source column may take (35 at least): it is as wide as the longest source
    // line shown up to this, and longer lines are cut with "...". 35 keeps the table within 110 columns;
    // `warpsim run` gives the room a terminal has, or 100 when its output is not a terminal.
    size_t source_width = 35;
};

std::string text_report(const session::PreparedLaunch& p, const session::SimRun& run,
                        const TextReportOptions& options = {});

// The lines that say a run stopped at the instruction budget (SimRun::stopped_at_budget): the budget, what
// ran, that the counts are partial, `advice` (what the command offers instead), and the hottest loop where
// known.
std::string budget_stop_text(const session::SimRun& run, std::string_view advice);

// The launch shape in words: blocks, threads, warps per block, partial warps (lines after the first are
// indented to follow a 10-column label).
std::string describe_launch(const launch::LaunchSpec& spec);

// Waves of blocks: how many rounds of `blocks_per_sm * sm_count` resident blocks the grid needs (0 when no
// block fits).
uint64_t wave_count(uint64_t blocks, int blocks_per_sm, int sm_count);

// Wraps `text` to `width` columns; the first line starts after `first_prefix`, later lines after `indent`.
std::string wrap(const std::string& text, const std::string& first_prefix, const std::string& indent,
                 size_t width);

}  // namespace warpsim::report
