// sim/runtime/report_writer.cpp — the files of `warpsim exec --report DIR`: launches.jsonl (per launch the
// `warpsim run --json` object), report.txt (the summary, then the text report of the heaviest kernels) and
// timeline.html (a lane per stream and per kind of copy on the simulated clock, every launch in a table).
#include "sim/runtime/report_writer.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace warpsim::runtime {
namespace {

constexpr size_t kHeaviestKernels = 5;

std::string html_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '&':
                out += "&amp;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

bool write_file(const std::string& path, const std::string& text, std::FILE* err) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (out) return true;
    std::fprintf(err, "warpsim: %s: cannot write\n", path.c_str());
    return false;
}

std::string jsonl(const LaunchLog& log) {
    std::string out;
    for (const auto& r : log.records()) {
        auto j = nlohmann::ordered_json::parse(r.json, nullptr, false);
        if (j.is_discarded()) continue;
        j["stream"] = r.stream;
        j["reused"] = r.reused;  // the result of an identical earlier launch on unchanged memory
        if (!r.not_reusable.empty()) j["not_reusable"] = r.not_reusable;
        j["start_us"] = r.start_us;
        j["end_us"] = r.end_us;
        out += j.dump() + "\n";
    }
    return out;
}

// The kernels with the most predicted time in all, each with the text report of its first simulated launch.
std::string text(const LaunchLog& log, const device::DevicePreset& preset) {
    std::map<std::string, double> total;
    std::map<std::string, const LaunchRecord*> first;
    for (const auto& r : log.records()) {
        total[r.kernel] += r.predicted_us;
        if (!r.text_report.empty() && !first.count(r.kernel)) first[r.kernel] = &r;
    }
    std::vector<std::pair<double, std::string>> order;
    order.reserve(total.size());
    for (const auto& [k, t] : total) order.emplace_back(-t, k);
    std::sort(order.begin(), order.end());
    std::string out = fmt::format("warpsim exec on {}: {} launches of {} kernels, {} copies and memsets\n\n",
                                  preset.name, log.records().size(), total.size(), log.copies().size());
    for (size_t i = 0; i < order.size() && i < kHeaviestKernels; ++i) {
        const auto& name = order[i].second;
        out += fmt::format("== {} — {:.1f} us predicted in all\n", name, -order[i].first);
        auto it = first.find(name);
        out += it == first.end() ? "(no launch of it completed)\n\n" : it->second->text_report + "\n";
    }
    return out;
}

std::string timeline_html(const LaunchLog& log, const device::DevicePreset& preset) {
    double end = 1;
    for (const auto& r : log.records()) end = std::max(end, r.end_us);
    for (const auto& c : log.copies()) end = std::max(end, c.end_us);
    // Lanes: one per stream for kernels, one per copy kind.
    std::vector<std::string> lanes;
    std::map<std::string, size_t> lane_of;
    auto lane = [&](const std::string& name) {
        auto [it, fresh] = lane_of.try_emplace(name, lanes.size());
        if (fresh) lanes.push_back(name);
        return it->second;
    };
    struct Bar {
        size_t lane;
        double start, stop;
        std::string label, color;
    };
    std::vector<Bar> bars;
    for (const auto& r : log.records()) {
        if (!r.error.empty()) continue;
        bars.push_back({lane(fmt::format("stream {:#x} kernels", r.stream)), r.start_us, r.end_us,
                        fmt::format("{} {:.1f} us{}", r.kernel, r.predicted_us, r.reused ? " (reused)" : ""),
                        r.reused ? "#9ecae1" : "#3182bd"});
    }
    for (const auto& c : log.copies()) {
        bars.push_back({lane("copies " + c.kind), c.start_us, c.end_us,
                        fmt::format("{} {} bytes{} {:.1f} us", c.kind, c.bytes, c.pinned ? " pinned" : "",
                                    c.end_us - c.start_us),
                        c.kind == "memset" ? "#a1d99b" : "#fd8d3c"});
    }
    const double width = 1000, lane_h = 26, left = 170;
    std::string svg = fmt::format("<svg xmlns='http://www.w3.org/2000/svg' width='{}' height='{}'>",
                                  left + width + 10, lane_h * static_cast<double>(lanes.size()) + 30);
    for (size_t i = 0; i < lanes.size(); ++i)
        svg += fmt::format("<text x='4' y='{}' font-size='12'>{}</text>",
                           lane_h * static_cast<double>(i) + 17, html_escape(lanes[i]));
    for (const auto& b : bars) {
        const double x = left + b.start / end * width, w = std::max(0.5, (b.stop - b.start) / end * width);
        svg += fmt::format(
            "<rect x='{:.2f}' y='{}' width='{:.2f}' height='{}' fill='{}'><title>{}</title></rect>", x,
            lane_h * static_cast<double>(b.lane) + 4, w, lane_h - 8, b.color, html_escape(b.label));
    }
    svg += fmt::format(
        "<text x='{}' y='{}' font-size='11'>0</text><text x='{}' y='{}' font-size='11' "
        "text-anchor='end'>{:.1f} us</text></svg>",
        left, lane_h * static_cast<double>(lanes.size()) + 20, left + width,
        lane_h * static_cast<double>(lanes.size()) + 20, end);
    std::string rows;
    for (size_t i = 0; i < log.records().size(); ++i) {
        const auto& r = log.records()[i];
        rows += fmt::format(
            "<tr><td>{}</td><td>{}</td><td>({},{},{}) x ({},{},{})</td><td>{:#x}</td><td>{:.2f}</td>"
            "<td>{:.2f}</td><td>{:.2f}</td><td>{}</td><td>{}</td></tr>\n",
            i, html_escape(r.kernel), r.grid[0], r.grid[1], r.grid[2], r.block[0], r.block[1], r.block[2],
            r.stream, r.start_us, r.end_us, r.predicted_us, html_escape(r.error.empty() ? r.bound : r.error),
            r.reused ? "reused" : "");
    }
    return fmt::format(
        "<!doctype html><html><head><meta charset='utf-8'><title>warpsim exec timeline</title><style>"
        "body{{font-family:sans-serif;margin:16px}}table{{border-collapse:collapse}}td,th{{border:1px solid "
        "#ccc;"
        "padding:2px 6px;font-size:12px}}</style></head><body><h1>warpsim exec on {}</h1>"
        "<p>The simulated clock: kernels take the timing model's predicted time, copies the copy model's; "
        "hover a "
        "bar for what it is. Lighter bars are launches whose result was reused from an identical earlier "
        "launch."
        "</p>{}<h2>Launches</h2><table><tr><th>#</th><th>kernel</th><th>grid x block</th><th>stream</th>"
        "<th>start us</th><th>end us</th><th>predicted us</th><th>bound / "
        "error</th><th></th></tr>\n{}</table>"
        "<p>Per launch, the counts and metrics are in launches.jsonl; the heaviest kernels' reports in "
        "report.txt."
        "</p></body></html>\n",
        html_escape(preset.name), svg, rows);
}

}  // namespace

void write_reports(const std::string& dir, const LaunchLog& log, const device::DevicePreset& preset,
                   std::FILE* err) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
        std::fprintf(err, "warpsim: --report %s: cannot create the folder: %s\n", dir.c_str(),
                     ec.message().c_str());
        return;
    }
    if (write_file(dir + "/launches.jsonl", jsonl(log), err) &&
        write_file(dir + "/report.txt", text(log, preset), err) &&
        write_file(dir + "/timeline.html", timeline_html(log, preset), err))
        std::fprintf(err, "warpsim: reports in %s (report.txt, launches.jsonl, timeline.html)\n",
                     dir.c_str());
}

}  // namespace warpsim::runtime
