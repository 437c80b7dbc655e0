// sim/timing/fitted.hpp — the timing parameters fitted per GPU, built in (copied from
// sim/timing/<gpu>_fit.json, which the `[.fit]` test of tests/timing writes).
#pragma once

#include <map>
#include <optional>
#include <string>

namespace warpsim::timing {

struct BuiltinFit {
    std::string data_set;                   // where the measurements came from
    std::map<std::string, double> values;   // fitted_names() -> value
};

std::optional<BuiltinFit> builtin_fit(const std::string& preset_name);

}  // namespace warpsim::timing
