// sim/report/text_report.hpp — the report a learner reads after `warpsim run`: the launch, occupancy and
// its limiter, and per CUDA source line the instructions, active lanes, sectors per request and bank
// conflicts, each with a sentence of explanation when something is off.
#pragma once

#include <string>

#include "sim/session/run.hpp"

namespace warpsim::report {

struct TextReportOptions {
    bool color = false;
    size_t max_lines = 40;   // source lines shown, hottest first when there are more
};

std::string text_report(const session::PreparedLaunch& p, const session::SimRun& run,
                        const TextReportOptions& options = {});

// The launch shape in words: blocks, threads, warps per block, partial warps.
std::string describe_launch(const launch::LaunchSpec& spec);

}  // namespace warpsim::report
