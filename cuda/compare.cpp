// cuda/compare.cpp — building and printing the simulated-versus-measured table.
#include "cuda/compare.hpp"

#include <cmath>
#include <cstdio>
#include <set>

namespace warpsim::cuda {
namespace {

using launch::RunReport;

enum class Judge { exact, tolerance, info };

Judge judge_of(const std::string& metric) {
    // All-instruction totals: the GPU counts SASS instructions, the simulator PTX ones (shown, not judged).
    // Per-kind memory instruction counts (smsp__inst_executed_op_*) map one to one and stay exact.
    if (metric == "smsp__inst_executed.sum" || metric.starts_with("smsp__thread_inst_executed"))
        return Judge::info;
    if (metric.starts_with("lts__") || metric.starts_with("dram__")) return Judge::tolerance;
    for (const char* marker : {"requests", "sectors", "wavefronts", "bank_conflicts", "inst_executed"})
        if (metric.find(marker) != std::string::npos) return Judge::exact;
    return Judge::info;
}

std::string num(double v) {
    char buf[64];
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else
        std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

std::string difference(double sim, double gpu) {
    const double d = sim - gpu;
    std::string out = (d > 0 ? "+" : "") + num(d);
    if (gpu != 0 && d != 0) {
        char buf[32];
        std::snprintf(buf, sizeof buf, " (%+.1f%%)", 100.0 * d / std::fabs(gpu));
        out += buf;
    }
    return out;
}

CompareRow numeric_row(const std::string& metric, std::optional<double> sim, std::optional<double> gpu,
                       Judge judge, double tolerance) {
    CompareRow row{metric, sim ? num(*sim) : "", gpu ? num(*gpu) : "", "", std::nullopt};
    if (!sim || !gpu) return row;
    row.difference = difference(*sim, *gpu);
    if (judge == Judge::exact) row.match = *sim == *gpu;
    if (judge == Judge::tolerance)
        row.match = std::fabs(*sim - *gpu) <= tolerance * std::max(std::fabs(*gpu), 1.0);
    return row;
}

void buffer_rows(const RunReport& sim, const RunReport& gpu, bool deterministic,
                 std::vector<CompareRow>& rows) {
    std::set<uint32_t> args;
    for (const auto& b : sim.buffers) args.insert(b.arg);
    for (const auto& b : gpu.buffers) args.insert(b.arg);
    auto hash_of = [](const RunReport& r, uint32_t arg) -> std::string {
        for (const auto& b : r.buffers)
            if (b.arg == arg) return b.fnv1a;
        return "";
    };
    for (uint32_t arg : args) {
        CompareRow row{"buffer args[" + std::to_string(arg) + "] fnv1a", hash_of(sim, arg), hash_of(gpu, arg),
                       "", std::nullopt};
        if (!row.simulated.empty() && !row.measured.empty()) {
            if (deterministic)
                row.match = row.simulated == row.measured;
            else
                row.difference = "not judged (deterministic: false)";
        }
        rows.push_back(row);
    }
}

std::optional<double> metric_of(const RunReport& r, const std::string& name) {
    auto it = r.metrics.find(name);
    if (it == r.metrics.end() || std::isnan(it->second)) return std::nullopt;
    return it->second;
}

}  // namespace

std::vector<CompareRow> compare_reports(const RunReport& sim, const RunReport& gpu,
                                        const CompareOptions& options) {
    std::vector<CompareRow> rows;
    if (sim.error || gpu.error) {
        CompareRow row{"error", sim.error ? sim.error->name + ": " + sim.error->message : "",
                       gpu.error ? gpu.error->name + ": " + gpu.error->message : "", "", std::nullopt};
        row.match = sim.error.has_value() == gpu.error.has_value();
        rows.push_back(row);
    }
    buffer_rows(sim, gpu, options.deterministic, rows);
    std::set<std::string> names;
    for (const auto& [k, v] : sim.metrics) names.insert(k);
    for (const auto& [k, v] : gpu.metrics) names.insert(k);
    for (const auto& name : names)
        rows.push_back(numeric_row(name, metric_of(sim, name), metric_of(gpu, name), judge_of(name),
                                   options.traffic_tolerance));
    auto regs = [](const RunReport& r) -> std::optional<double> {
        if (!r.launch.registers_per_thread) return std::nullopt;
        return double(*r.launch.registers_per_thread);
    };
    rows.push_back(numeric_row("registers_per_thread", regs(sim), regs(gpu), Judge::info, 0));
    auto blocks = [](const RunReport& r) -> std::optional<double> {
        if (!r.occupancy) return std::nullopt;
        return double(r.occupancy->blocks_per_sm);
    };
    rows.push_back(numeric_row("occupancy.blocks_per_sm", blocks(sim), blocks(gpu), Judge::info, 0));
    std::optional<double> sim_us, gpu_us;
    if (sim.predicted) sim_us = sim.predicted->time_us;
    if (sim.measured) sim_us = sim.measured->time_us;
    if (gpu.measured) gpu_us = gpu.measured->time_us;
    rows.push_back(numeric_row("time_us", sim_us, gpu_us, Judge::info, 0));
    return rows;
}

std::string format_compare_text(const std::vector<CompareRow>& rows) {
    size_t w[4] = {6, 9, 8, 10};
    for (const auto& r : rows) {
        w[0] = std::max(w[0], r.metric.size());
        w[1] = std::max(w[1], r.simulated.size());
        w[2] = std::max(w[2], r.measured.size());
        w[3] = std::max(w[3], r.difference.size());
    }
    auto line = [&](const std::string& a, const std::string& b, const std::string& c, const std::string& d,
                    const std::string& e) {
        char buf[1024];
        std::snprintf(buf, sizeof buf, "%-*s  %*s  %*s  %*s  %s\n", int(w[0]), a.c_str(), int(w[1]),
                      b.c_str(), int(w[2]), c.c_str(), int(w[3]), d.c_str(), e.c_str());
        return std::string(buf);
    };
    std::string out = line("metric", "simulated", "measured", "difference", "match");
    int matched = 0, mismatched = 0;
    for (const auto& r : rows) {
        std::string m = !r.match ? "" : *r.match ? "yes" : "NO";
        if (r.match) (*r.match ? matched : mismatched)++;
        out += line(r.metric, r.simulated.empty() ? "-" : r.simulated, r.measured.empty() ? "-" : r.measured,
                    r.difference, m);
    }
    out += std::to_string(matched) + " matched, " + std::to_string(mismatched) + " mismatched\n";
    return out;
}

nlohmann::ordered_json compare_to_json(const std::vector<CompareRow>& rows) {
    nlohmann::ordered_json j;
    j["rows"] = nlohmann::ordered_json::array();
    int matched = 0, mismatched = 0;
    for (const auto& r : rows) {
        nlohmann::ordered_json row{{"metric", r.metric},
                                   {"simulated", r.simulated},
                                   {"measured", r.measured},
                                   {"difference", r.difference}};
        row["match"] = r.match ? nlohmann::ordered_json(*r.match) : nlohmann::ordered_json(nullptr);
        if (r.match) (*r.match ? matched : mismatched)++;
        j["rows"].push_back(row);
    }
    j["matched"] = matched;
    j["mismatched"] = mismatched;
    return j;
}

}  // namespace warpsim::cuda
