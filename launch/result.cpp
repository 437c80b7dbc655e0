// launch/result.cpp — RunReport to and from JSON in DESIGN.md's key layout.
#include "launch/result.hpp"

#include <cmath>
#include <set>

namespace warpsim::launch {
namespace {

using ojson = nlohmann::ordered_json;
using json = nlohmann::json;

const std::set<std::string> kKnownKeys = {"kernel",    "device",  "backend",        "spec",      "launch",
                                          "occupancy", "metrics", "buffers",        "predicted", "measured",
                                          "error",     "printf",  "warpsim_version"};

ojson number(double v) {
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9007199254740992.0) {
        if (v >= 0) return ojson(static_cast<uint64_t>(v));
        return ojson(static_cast<int64_t>(v));
    }
    if (!std::isfinite(v)) return ojson(nullptr);  // JSON has no NaN or infinity
    return ojson(v);
}

ojson launch_json(const LaunchConfig& l) {
    ojson j;
    j["grid"] = l.grid;
    j["block"] = l.block;
    j["shared_bytes"] = l.shared_bytes;
    if (l.registers_per_thread) j["registers_per_thread"] = *l.registers_per_thread;
    return j;
}

// Reads helpers: each throws nlohmann's type_error on a wrong type; from_json turns that into a message.
template <class T>
void read_opt(const json& j, const char* key, T& out) {
    if (j.contains(key) && !j[key].is_null()) out = j[key].get<T>();
}

double read_number(const json& j) {
    return j.is_null() ? NAN : j.get<double>();
}

LaunchConfig read_launch(const json& j) {
    LaunchConfig l;
    read_opt(j, "grid", l.grid);
    read_opt(j, "block", l.block);
    read_opt(j, "shared_bytes", l.shared_bytes);
    if (j.contains("registers_per_thread") && !j["registers_per_thread"].is_null())
        l.registers_per_thread = j["registers_per_thread"].get<uint32_t>();
    return l;
}

void read_timings(const json& j, RunReport& r) {
    if (j.contains("predicted") && j["predicted"].is_object()) {
        const json& p = j["predicted"];
        PredictedTiming t;
        read_opt(p, "cycles", t.cycles);
        read_opt(p, "time_us", t.time_us);
        read_opt(p, "dram_gbps", t.dram_gbps);
        read_opt(p, "gflops", t.gflops);
        read_opt(p, "bound", t.bound);
        read_opt(p, "l2", t.l2);
        read_opt(p, "clock_mhz", t.clock_mhz);
        read_opt(p, "clock", t.clock);
        read_opt(p, "parameters", t.parameters);
        read_opt(p, "parameters_origin", t.parameters_origin);
        read_opt(p, "expected_error", t.expected_error);
        r.predicted = t;
    }
    if (j.contains("measured") && j["measured"].is_object()) {
        const json& m = j["measured"];
        MeasuredTiming t;
        read_opt(m, "time_us", t.time_us);
        read_opt(m, "time_us_min", t.time_us_min);
        read_opt(m, "time_us_max", t.time_us_max);
        read_opt(m, "runs", t.runs);
        read_opt(m, "warmup", t.warmup);
        r.measured = t;
    }
}

RunReport read_report(const json& j) {
    RunReport r;
    read_opt(j, "kernel", r.kernel);
    read_opt(j, "device", r.device);
    read_opt(j, "backend", r.backend);
    read_opt(j, "spec", r.spec);
    if (j.contains("launch")) r.launch = read_launch(j["launch"]);
    if (j.contains("occupancy") && j["occupancy"].is_object()) {
        OccupancyReport o;
        read_opt(j["occupancy"], "blocks_per_sm", o.blocks_per_sm);
        read_opt(j["occupancy"], "warps_per_sm", o.warps_per_sm);
        read_opt(j["occupancy"], "occupancy", o.occupancy);
        read_opt(j["occupancy"], "limiter", o.limiter);
        r.occupancy = o;
    }
    if (j.contains("metrics"))
        for (const auto& [k, v] : j["metrics"].items()) r.metrics[k] = read_number(v);
    if (j.contains("buffers"))
        for (const auto& b : j["buffers"])
            r.buffers.push_back({b.at("arg").get<uint32_t>(), b.at("fnv1a").get<std::string>()});
    read_timings(j, r);
    if (j.contains("error") && j["error"].is_object()) {
        ReportError e;
        read_opt(j["error"], "name", e.name);
        read_opt(j["error"], "message", e.message);
        read_opt(j["error"], "details", e.details);
        r.error = e;
    }
    read_opt(j, "printf", r.printf_output);
    r.warpsim_version.clear();
    read_opt(j, "warpsim_version", r.warpsim_version);
    for (const auto& [k, v] : j.items())
        if (!kKnownKeys.count(k)) r.extra[k] = v;
    return r;
}

}  // namespace

bool error_is_expected(const RunReport& report, const std::optional<std::string>& expect_error) {
    if (!expect_error || !report.error) return false;
    const auto& want = *expect_error;
    return report.error->name.find(want) != std::string::npos ||
           report.error->message.find(want) != std::string::npos ||
           report.error->details.find(want) != std::string::npos;
}

int expectation_exit_code(const RunReport& report, const std::optional<std::string>& expect_error,
                          std::string* complaint) {
    if (report.error) return error_is_expected(report, expect_error) ? 0 : 1;
    if (!expect_error) return 0;
    if (complaint) {
        *complaint =
            "the launch succeeded, but the spec's expect_error says it fails with \"" + *expect_error + "\"";
    }
    return 1;
}

ojson to_json(const RunReport& r) {
    ojson j;
    j["kernel"] = r.kernel;
    j["device"] = r.device;
    j["backend"] = r.backend;
    if (!r.spec.empty()) j["spec"] = r.spec;
    j["launch"] = launch_json(r.launch);
    if (r.occupancy) {
        j["occupancy"] = ojson{{"blocks_per_sm", r.occupancy->blocks_per_sm},
                               {"warps_per_sm", r.occupancy->warps_per_sm},
                               {"occupancy", r.occupancy->occupancy},
                               {"limiter", r.occupancy->limiter}};
    }
    j["metrics"] = ojson::object();
    for (const auto& [k, v] : r.metrics) j["metrics"][k] = number(v);
    j["buffers"] = ojson::array();
    for (const auto& b : r.buffers) j["buffers"].push_back(ojson{{"arg", b.arg}, {"fnv1a", b.fnv1a}});
    if (r.predicted) {
        const auto& p = *r.predicted;
        j["predicted"] = ojson{{"cycles", number(p.cycles)},
                               {"time_us", p.time_us},
                               {"dram_gbps", p.dram_gbps},
                               {"gflops", p.gflops},
                               {"bound", p.bound}};
        if (p.l2 != "warm") j["predicted"]["l2"] = p.l2;  // DESIGN.md's five keys for the default
        if (!p.parameters.empty()) {
            j["predicted"]["clock_mhz"] = p.clock_mhz;
            j["predicted"]["clock"] = p.clock;
            j["predicted"]["parameters"] = p.parameters;
            j["predicted"]["parameters_origin"] = p.parameters_origin;
            j["predicted"]["expected_error"] = p.expected_error;
        }
    }
    if (r.measured) {
        const auto& m = *r.measured;
        j["measured"] = ojson{{"time_us", m.time_us},
                              {"time_us_min", m.time_us_min},
                              {"time_us_max", m.time_us_max},
                              {"runs", m.runs},
                              {"warmup", m.warmup}};
    }
    if (r.error)
        j["error"] =
            ojson{{"name", r.error->name}, {"message", r.error->message}, {"details", r.error->details}};
    if (!r.printf_output.empty()) j["printf"] = r.printf_output;
    if (!r.warpsim_version.empty()) j["warpsim_version"] = r.warpsim_version;
    if (r.extra.is_object())
        for (const auto& [k, v] : r.extra.items())
            if (!j.contains(k)) j[k] = v;
    return j;
}

Outcome<RunReport> from_json(const json& j, const std::string& context) {
    if (!j.is_object()) return Outcome<RunReport>::failure(context + ": a report is a JSON object");
    try {
        return read_report(j);
    } catch (const json::exception& e) {
        return Outcome<RunReport>::failure(context + ": malformed report: " + e.what());
    }
}

}  // namespace warpsim::launch
