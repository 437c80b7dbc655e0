// sim/runtime/launch_log.cpp — the one-line-per-kernel summary the runtime prints at exit.
#include "sim/runtime/launch_log.hpp"

#include <map>

#include <fmt/format.h>

namespace warpsim::runtime {
namespace {

std::string dims(const std::array<uint32_t, 3>& d) {
    if (d[1] == 1 && d[2] == 1) return std::to_string(d[0]);
    if (d[2] == 1) return fmt::format("({},{})", d[0], d[1]);
    return fmt::format("({},{},{})", d[0], d[1], d[2]);
}

std::string duration(double us) {
    if (us >= 1e6) return fmt::format("{:.2f} s", us / 1e6);
    if (us >= 1e3) return fmt::format("{:.2f} ms", us / 1e3);
    return fmt::format("{:.1f} us", us);
}

struct KernelSummary {
    uint64_t launches = 0, reused = 0, failed = 0, findings = 0;
    double total_us = 0;
    std::map<std::string, uint64_t> shapes;  // "grid x block" -> launches
    std::map<std::string, uint64_t> bounds;
    std::string first_error;
};

}  // namespace

void LaunchLog::print_summary(std::FILE* out) const {
    if (records_.empty()) return;
    std::map<std::string, KernelSummary> by_kernel;
    std::vector<std::string> order;
    for (const auto& r : records_) {
        auto [it, fresh] = by_kernel.try_emplace(r.kernel);
        if (fresh) order.push_back(r.kernel);
        auto& k = it->second;
        ++k.launches;
        k.reused += r.reused;
        k.findings += r.findings;
        k.total_us += r.predicted_us;
        ++k.shapes[dims(r.grid) + " x " + dims(r.block)];
        if (!r.error.empty()) {
            ++k.failed;
            if (k.first_error.empty()) k.first_error = r.error;
        } else if (!r.bound.empty()) {
            ++k.bounds[r.bound];
        }
    }
    for (const auto& name : order) {
        const auto& k = by_kernel.at(name);
        std::string shape = k.shapes.begin()->first;
        if (k.shapes.size() > 1) shape += fmt::format(" (+{} other shapes)", k.shapes.size() - 1);
        std::string line = fmt::format("warpsim: {}: {} launch{}, {}, predicted {}", name, k.launches,
                                       k.launches == 1 ? "" : "es", shape, duration(k.total_us));
        if (k.launches > 1)
            line += fmt::format(" ({} each)", duration(k.total_us / static_cast<double>(k.launches)));
        if (!k.bounds.empty()) {
            auto top = k.bounds.begin();
            for (auto it = k.bounds.begin(); it != k.bounds.end(); ++it)
                if (it->second > top->second) top = it;
            line += ", " + top->first + "-bound";
        }
        if (k.failed) line += fmt::format(", {} failed ({})", k.failed, k.first_error);
        if (k.findings)
            line += fmt::format(", {} checker finding{} (--check)", k.findings, k.findings == 1 ? "" : "s");
        if (k.reused) line += fmt::format(", {} reused an identical earlier launch", k.reused);
        std::fprintf(out, "%s\n", line.c_str());
    }
    // One device per program: the basis of its first predicted launch stands for all.
    for (const auto& r : records_)
        if (!r.timing_basis.empty()) {
            std::fprintf(out, "warpsim: %s\n", r.timing_basis.c_str());
            break;
        }
}

}  // namespace warpsim::runtime
