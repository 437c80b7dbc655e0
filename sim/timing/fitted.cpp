// sim/timing/fitted.cpp — the built-in fits (keep in step with sim/timing/h200_fit.json, which the
// `[.fit]` test of tests/timing writes; copy its "values" here).
#include "sim/timing/fitted.hpp"

namespace warpsim::timing {

std::optional<BuiltinFit> builtin_fit(const std::string& preset_name) {
    if (preset_name != "h200") return std::nullopt;
    return BuiltinFit{"tests/hardware/h200/results.json (2026-11-29T23:26:11Z, driver 580.159.04), calibration set of tests/timing/sets.json (44 launches)",
        {{"block_issue_cycles", 158.5092125},
         {"block_overhead_cycles", 609.5326574},
         {"dram_efficiency", 0.7078287875},
         {"dram_latency_cycles", 729.2014188},
         {"issue_efficiency", 1},
         {"l1_latency_cycles", 93.31492718},
         {"l2_bytes_per_cycle", 1707.939249},
         {"l2_latency_cycles", 100},
         {"launch_overhead_us", 4.837967872},
         {"overlap_p", 4.221238355}}};
}

}  // namespace warpsim::timing
