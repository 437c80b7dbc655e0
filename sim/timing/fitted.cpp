// sim/timing/fitted.cpp — the built-in fits (keep in step with sim/timing/h200_fit.json, which the
// `[.fit]` test of tests/timing writes; copy its "values" here).
#include "sim/timing/fitted.hpp"

namespace warpsim::timing {

std::optional<BuiltinFit> builtin_fit(const std::string& preset_name) {
    if (preset_name != "h200") return std::nullopt;
    return BuiltinFit{"tests/hardware/h200/results.json (2026-11-29T23:26:11Z, driver 580.159.04), calibration set of tests/timing/sets.json (44 launches)",
        {{"block_issue_cycles", 140.0210218},
         {"block_overhead_cycles", 312.8437526},
         {"dram_efficiency", 0.8190070862},
         {"dram_latency_cycles", 713.3262077},
         {"int_issue_weight", 0.3585948522},
         {"issue_efficiency", 1},
         {"l1_latency_cycles", 79.06885791},
         {"l2_bytes_per_cycle", 5649.532151},
         {"l2_latency_cycles", 100},
         {"launch_overhead_us", 5.234993257},
         {"overlap_p", 1.971623439},
         {"partial_sector_cost", 5.432758488}}};
}

std::optional<BuiltinFit> same_architecture_fit(const std::string& arch) {
    if (arch != "sm_90") return std::nullopt;
    auto fit = builtin_fit("h200");
    if (fit) fit->data_set = "the H200's fit (same sm_90 microarchitecture; SMs, clocks, DRAM bandwidth and L2 size from this preset): " + fit->data_set;
    return fit;
}

}  // namespace warpsim::timing
