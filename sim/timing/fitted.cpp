// sim/timing/fitted.cpp — the built-in fits (keep in step with sim/timing/h200_fit.json).
#include "sim/timing/fitted.hpp"

namespace warpsim::timing {

std::optional<BuiltinFit> builtin_fit(const std::string& preset_name) {
    if (preset_name != "h200") return std::nullopt;
    // PROVISIONAL: hand-set starting values until tests/hardware/h200/results.json exists.
    return BuiltinFit{"none yet (model defaults)", {}};
}

}  // namespace warpsim::timing
