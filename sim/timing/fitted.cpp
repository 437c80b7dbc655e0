// sim/timing/fitted.cpp — the built-in fits (keep in step with sim/timing/h200_fit.json, which the
// `[.fit]` test of tests/timing writes; copy its "values" here).
#include "sim/timing/fitted.hpp"

namespace warpsim::timing {

std::optional<BuiltinFit> builtin_fit(const std::string& preset_name) {
    if (preset_name != "h200") return std::nullopt;
    return BuiltinFit{"tests/hardware/h200/results.json (2026-11-29T23:26:11Z, driver 580.159.04), calibration set of tests/timing/sets.json (44 launches)",
        {{"block_issue_cycles", 137.4585956},
         {"block_overhead_cycles", 316.8826449},
         {"dram_efficiency", 0.8548802123},
         {"dram_latency_cycles", 709.064659},
         {"int_issue_weight", 0.3445927596},
         {"issue_efficiency", 1},
         {"l1_latency_cycles", 78.50824241},
         {"l2_bytes_per_cycle", 5599.143402},
         {"l2_latency_cycles", 100},
         {"l2_resident_fraction", 0.56},
         {"launch_overhead_us", 5.258443423},
         {"overlap_p", 1.916164609},
         {"partial_sector_cost", 5.371315059}}};
}

std::optional<BuiltinFit> same_architecture_fit(const std::string& arch) {
    if (arch != "sm_90") return std::nullopt;
    auto fit = builtin_fit("h200");
    if (fit) fit->data_set = "the H200's fit (same sm_90 microarchitecture; SMs, clocks, DRAM bandwidth and L2 size from this preset): " + fit->data_set;
    return fit;
}

}  // namespace warpsim::timing
