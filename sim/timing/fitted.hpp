// sim/timing/fitted.hpp — the timing parameters fitted per GPU, built in (copied from
// sim/timing/<gpu>_fit.json, which the `[.fit]` test of tests/timing writes).
#pragma once

#include <map>
#include <optional>
#include <string>

namespace warpsim::timing {

struct BuiltinFit {
    std::string data_set;                  // where the measurements came from
    std::map<std::string, double> values;  // fitted_names() -> value
};

std::optional<BuiltinFit> builtin_fit(const std::string& preset_name);

// For a GPU without a fit of its own: the fit of a measured GPU of the same architecture ("sm_90" -> the
// H200's). The microarchitectural parameters carry over; the preset keeps its own datasheet figures (SMs,
// clocks, DRAM bandwidth, L2 size), which the model reads from the preset, not from the fit.
std::optional<BuiltinFit> same_architecture_fit(const std::string& arch);

}  // namespace warpsim::timing
