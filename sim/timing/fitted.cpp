// sim/timing/fitted.cpp — the built-in fits (keep in step with sim/timing/h200_fit.json, which the
// `[.fit]` test of tests/timing writes; copy its "values" here).
#include "sim/timing/fitted.hpp"

namespace warpsim::timing {

std::optional<BuiltinFit> builtin_fit(const std::string& preset_name) {
    if (preset_name != "h200") return std::nullopt;
    return BuiltinFit{
        "tests/hardware/h200/results.json (2026-11-29T23:26:11Z, driver 580.159.04), calibration set of "
        "tests/timing/sets.json (44 launches)",
        {{"block_issue_cycles", 123.0804147},
         {"block_overhead_cycles", 359.2083225},
         {"dram_efficiency", 0.9},
         {"dram_latency_cycles", 818.7020468},
         {"int_issue_weight", 0.2626685446},
         {"issue_efficiency", 1},
         {"l1_latency_cycles", 47},
         {"l2_bytes_per_cycle", 6058.936325},
         {"l2_latency_cycles", 280},
         {"launch_overhead_us", 5.425272655},
         {"overlap_p", 1.526442697},
         {"partial_sector_cost", 5.759601107}}};
}

std::optional<BuiltinFit> same_architecture_fit(const std::string& arch) {
    if (arch != "sm_90") return std::nullopt;
    auto fit = builtin_fit("h200");
    if (fit)
        fit->data_set =
            "the H200's fit (same sm_90 microarchitecture; SMs, clocks, DRAM bandwidth and L2 size from this "
            "preset): " +
            fit->data_set;
    return fit;
}

}  // namespace warpsim::timing
