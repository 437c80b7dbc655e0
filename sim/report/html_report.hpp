// sim/report/html_report.hpp — `warpsim run SPEC --html out.html`: one self-contained page (inline CSS and
// SVG, nothing fetched from the network) with the launch as a grid of blocks and warps, per source line a bar
// of sectors (or wavefronts) per request against the ideal, and lane diagrams of one representative warp for
// the worst global access (32 lanes -> 32-byte sectors) and the worst shared access (32 lanes -> 32 banks).
#pragma once

#include <string>

#include "sim/report/lane_sample.hpp"
#include "sim/session/run.hpp"

namespace warpsim::report {

struct HtmlOptions {
    size_t max_blocks = 64;  // blocks drawn in the launch picture
};

// The page. `samples` (from sample_lanes) feed the lane diagrams and the idle-lane shading; without them the
// page says why those parts are missing.
std::string html_report(const session::PreparedLaunch& p, const session::SimRun& run,
                        const LaneSamples* samples, const HtmlOptions& options = {});

// Characters that are special in HTML (& < > " ') replaced by entities.
std::string html_escape(std::string_view text);

}  // namespace warpsim::report
