// sim/timing/fitted.cpp — the built-in fits, read from their records (sim/timing/<gpu>_fit.json, built in
// by sim/CMakeLists.txt).
#include "sim/timing/fitted.hpp"

#include <nlohmann/json.hpp>

namespace warpsim::timing {

std::optional<BuiltinFit> parse_fit_record(const std::string& preset_name, std::string_view text) {
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object() || !j.contains("values") || !j["values"].is_object()) return std::nullopt;
    if (!j.value("calibration_mape_pct", nlohmann::json()).is_number() ||
        !j.value("validation_mape_pct", nlohmann::json()).is_number())
        return std::nullopt;
    BuiltinFit fit;
    fit.preset = preset_name;
    fit.gpu = j.value("gpu", "");
    fit.data_set = j.value("data_set", "");
    for (const auto& [name, value] : j["values"].items()) {
        if (!value.is_number()) return std::nullopt;
        fit.values[name] = value.get<double>();
    }
    fit.accuracy.calibration_mape_pct = j["calibration_mape_pct"].get<double>();
    fit.accuracy.validation_mape_pct = j["validation_mape_pct"].get<double>();
    if (j.contains("heldout")) {
        const auto& heldout = j["heldout"];
        if (!heldout.is_object() || !heldout.value("mean_abs_error_pct", nlohmann::json()).is_number())
            return std::nullopt;
        fit.accuracy.heldout_mean_pct = heldout["mean_abs_error_pct"].get<double>();
    }
    return fit;
}

std::optional<BuiltinFit> builtin_fit(const std::string& preset_name) {
    const std::string_view text = fit_record_text(preset_name);
    if (text.empty()) return std::nullopt;
    return parse_fit_record(preset_name, text);
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
