// sim/report/html_report.cpp — the self-contained HTML page of a run (see html_report.hpp).
#include "sim/report/html_report.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <set>

#include <fmt/format.h>

#include "kernels_ir/names.hpp"
#include "sim/report/access_pattern.hpp"
#include "sim/report/html_source.hpp"
#include "sim/report/report_model.hpp"
#include "sim/report/text_report.hpp"
#include "sim/timing/timing.hpp"

namespace warpsim::report {
namespace {

constexpr int kLaneStep = 30;  // horizontal pixels per lane in the lane diagrams
constexpr int kMargin = 20;

const char* kStyle = R"(
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 1100px; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
pre, code, td.src { font-family: ui-monospace, monospace; font-size: 0.9em; }
.facts { background: #f6f6f2; padding: 0.6em 1em; border-radius: 6px; white-space: pre-wrap; }
.lookat li { margin: 0.2em 0; }
table.lines { border-collapse: collapse; width: 100%; }
table.lines th, table.lines td { padding: 2px 6px; border-bottom: 1px solid #e4e4e4; text-align: right; vertical-align: top; }
table.lines td.src, table.lines td.acc { text-align: left; }
table.lines tr.note td { text-align: left; color: #8a3b00; border-bottom: none; font-size: 0.9em; }
table.lines tr.note.inlined td { color: #555; }
.caption { color: #555; font-size: 0.9em; margin: 0.3em 0 0.8em; }
svg text { font-family: ui-monospace, monospace; font-size: 10px; }
.legend span { display: inline-block; width: 12px; height: 12px; vertical-align: middle; margin: 0 4px 0 12px; }
.legend svg { vertical-align: middle; }
dl.header { display: flex; flex-wrap: wrap; gap: 0.6em; margin: 0.8em 0; }
dl.header div { background: #f6f6f2; border-radius: 6px; padding: 0.4em 0.9em; min-width: 12em; flex: 1; }
dl.header dt { color: #555; font-size: 0.85em; }
dl.header dd { margin: 0; } dl.header dd.value { font-size: 1.3em; font-weight: 600; }
dl.header dd.sub { color: #555; font-size: 0.85em; }
table.source { border-collapse: collapse; width: 100%; font-size: 0.9em; }
table.source th { text-align: right; padding: 2px 6px; border-bottom: 1px solid #ccc; }
table.source th:nth-child(2) { text-align: left; }
table.source td { padding: 1px 6px; }
table.source td.ln { color: #777; text-align: right; white-space: nowrap; font-family: ui-monospace, monospace; }
table.source td.code { font-family: ui-monospace, monospace; white-space: pre; overflow: hidden; max-width: 560px; text-overflow: ellipsis; }
table.source td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
table.source tr.act { cursor: pointer; }
table.source tr.act:hover td.code, table.source tr.act:focus td.code { background: #eef3fb; }
table.source tr.sel td.ln, table.source tr.sel td.code { background: #dde8f8; font-weight: 600; }
.detail { border: 1px solid #ddd; border-radius: 6px; padding: 0.3em 1em; margin: 0.8em 0; min-height: 2em; }
.detail h4 { margin: 0.9em 0 0.2em; font-size: 1em; }
)";

// Colours, one meaning each: lanes at work, idle lanes, lanes that do not exist (or nothing there), at the
// ideal, beyond the ideal, which lane goes where (diagram links), a full wave of blocks, a partial one. The
// source view's heat (html_source.cpp) has a hue of its own, purple.
const char* kWork = "#3b7dd8";
const char* kIdle = "#f0a030";
const char* kAbsent = "#d8d8d8";
const char* kGood = "#3c9d4e";
const char* kBad = "#d2452f";
const char* kLink = "#8a8a8a";
const char* kWave = "#4f6d7a";
const char* kWavePartial = "#a9c1cb";

std::string hex(uint64_t v) {
    return fmt::format("0x{:x}", v);
}

// ---- the launch: blocks and warps -------------------------------------------------------------------------

// "7" for a 1-D grid, "(21,0)" or "(1,2,3)" for 2-D and 3-D grids (blockIdx from the linear index, x
// fastest).
std::string block_name(const launch::LaunchSpec& spec, uint64_t linear) {
    const uint64_t x = linear % spec.grid[0], y = linear / spec.grid[0] % spec.grid[1];
    const uint64_t z = linear / (uint64_t{spec.grid[0]} * spec.grid[1]);
    if (spec.grid[2] > 1) return fmt::format("({},{},{})", x, y, z);
    if (spec.grid[1] > 1) return fmt::format("({},{})", x, y);
    return std::to_string(linear);
}

std::string launch_svg(const session::PreparedLaunch& p, const LaneSamples* samples, size_t max_blocks) {
    const uint64_t threads = p.spec.threads_per_block();
    const uint64_t warps = (threads + 31) / 32;
    const uint64_t blocks = std::min<uint64_t>(p.spec.block_count(), max_blocks);
    const int cell = 12, per_row = static_cast<int>(std::min<uint64_t>(warps, 8));
    const int warp_rows = static_cast<int>((warps + 7) / 8);
    const int block_w = per_row * cell + 8, block_h = warp_rows * cell + 20;
    const int blocks_per_line = std::max(1, 1000 / (block_w + 8));
    const int lines = static_cast<int>((blocks + blocks_per_line - 1) / blocks_per_line);
    std::string svg = fmt::format(
        R"(<svg xmlns="http://www.w3.org/2000/svg" id="launch" width="{}" height="{}" class="launch">)",
        blocks_per_line * (block_w + 8) + 8, lines * (block_h + 8) + 8);
    for (uint64_t b = 0; b < blocks; ++b) {
        const int bx = 8 + static_cast<int>(b % blocks_per_line) * (block_w + 8);
        const int by = 8 + static_cast<int>(b / blocks_per_line) * (block_h + 8);
        svg += fmt::format(
            R"(<g class="block" data-block="{}"><rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#888"/>)"
            R"(<text x="{}" y="{}">block {}</text>)",
            b, bx, by, block_w, block_h, bx + 3, by + 12, block_name(p.spec, b));
        const std::vector<WarpActivity>* seen = nullptr;
        if (samples) {
            if (auto it = samples->warps.find(b); it != samples->warps.end()) seen = &it->second;
        }
        for (uint64_t w = 0; w < warps; ++w) {
            const int x = bx + 4 + static_cast<int>(w % 8) * cell,
                      y = by + 16 + static_cast<int>(w / 8) * cell;
            const auto existing = static_cast<uint32_t>(std::min<uint64_t>(32, threads - 32 * w));
            const uint32_t working = seen && w < seen->size() ? (*seen)[w].lanes_working : existing;
            const double unit = (cell - 2) / 32.0;
            svg += fmt::format(R"(<g data-warp="{}"><title>block {} warp {}: {} of 32 lanes exist{}</title>)",
                               w, b, w, existing, seen ? fmt::format(", {} did memory work", working) : "");
            svg += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>)", x, y, cell - 2,
                               cell - 2, kAbsent);
            svg += fmt::format(R"(<rect x="{}" y="{}" width="{:.2f}" height="{}" fill="{}"/>)", x, y,
                               unit * std::min(working, existing), cell - 2, kWork);
            if (working < existing) {
                svg += fmt::format(R"(<rect x="{:.2f}" y="{}" width="{:.2f}" height="{}" fill="{}"/>)",
                                   x + unit * working, y, unit * (existing - working), cell - 2, kIdle);
            }
            svg += "</g>";
        }
        svg += "</g>";
    }
    return svg + "</svg>";
}

// ---- the threads of one block and the warps they form ----------------------------------------------------

// Eight hues that tell neighbouring warps apart.
const char* warp_colour(uint64_t warp) {
    static constexpr const char* kHues[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                            "#76b7b2", "#edc948", "#b07aa1", "#9c755f"};
    return kHues[warp % 8];
}

// The block's threads as a grid of threadIdx.x (across) by threadIdx.y (down), each cell coloured by the warp
// it belongs to: warps are cut from the threads in x, y, z order, so with blockDim.x = 8 a warp spans 4 rows.
// A 1-D block is drawn 32 threads to a row (one row per warp). 3-D blocks show the slice z = 0.
std::string thread_layout_svg(const launch::LaunchSpec& spec) {
    const bool one_d = spec.block[1] == 1 && spec.block[2] == 1;
    const uint64_t cols = one_d ? std::min<uint64_t>(spec.block[0], 32) : spec.block[0];
    const uint64_t rows = one_d ? (spec.block[0] + 31) / 32 : spec.block[1];
    const int cell = static_cast<int>(std::clamp<uint64_t>(
        std::min(960 / std::max<uint64_t>(cols, 1), 480 / std::max<uint64_t>(rows, 1)), 4, 24));
    const int left = 56, top = 32;
    // Index labels every `step` cells: as many as fit without crowding.
    const auto step_for = [&](uint64_t n) -> uint64_t {
        for (uint64_t step : {1, 2, 4, 8, 16, 32, 64, 128, 256, 512})
            if (step * static_cast<uint64_t>(cell) >= 24 || step >= n) return step;
        return 1024;
    };
    std::string svg =
        fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" id="thread-layout" width="{}" height="{}">)",
                    left + static_cast<int>(cols) * cell + 10, top + static_cast<int>(rows) * cell + 24);
    svg += fmt::format(R"(<text x="{}" y="12">{}</text>)", left,
                       one_d ? "threadIdx.x, 32 to a row" : "threadIdx.x");
    if (!one_d)
        svg += fmt::format(R"svg(<text x="12" y="{0}" transform="rotate(-90 12 {0})">threadIdx.y</text>)svg",
                           top + 60);
    for (uint64_t c = 0; c < cols; c += step_for(cols)) {
        svg += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle">{}</text>)",
                           left + static_cast<int>(c) * cell + cell / 2, top - 4, c);
    }
    for (uint64_t r = 0; r < rows; r += step_for(rows)) {
        svg += fmt::format(R"(<text x="{}" y="{}" text-anchor="end">{}</text>)", left - 4,
                           top + static_cast<int>(r) * cell + std::min(cell, 10), one_d ? r * 32 : r);
    }
    const uint64_t threads = one_d ? spec.block[0] : spec.block[0] * spec.block[1];
    for (uint64_t warp = 0; warp * 32 < threads; ++warp) {
        const uint64_t first = warp * 32, last = std::min(threads, first + 32) - 1;
        svg += fmt::format(R"(<g data-warp="{}"><title>warp {}: threads {} to {} ({} threads)</title>)", warp,
                           warp, first, last, last - first + 1);
        for (uint64_t t = first; t <= last; ++t) {
            const int x = left + static_cast<int>(t % cols) * cell,
                      y = top + static_cast<int>(t / cols) * cell;
            svg += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}" stroke="#fff"/>)", x,
                               y, cell, cell, warp_colour(warp));
        }
        // The warp's number in its first cell, when the cells are big enough to hold it.
        if (cell >= 12) {
            svg +=
                fmt::format(R"(<text x="{}" y="{}" fill="#fff" font-size="{}">{}</text>)",
                            left + static_cast<int>(first % cols) * cell + 2,
                            top + static_cast<int>(first / cols) * cell + cell - 3, cell >= 16 ? 9 : 8, warp);
        }
        svg += "</g>";
    }
    return svg + "</svg>";
}

// ---- blocks per SM over time: the timing model's waves
// ------------------------------------------------------

// Blocks one SM holds during a wave: every SM has max_blocks_per_sm in a full wave; a partial wave deals its
// blocks round-robin, so the first blocks % SMs SMs hold one more (the model's busiest SM holds the ceiling).
uint64_t blocks_on_sm(const timing::Wave& w, uint32_t sm, uint32_t sms) {
    if (w.blocks >= uint64_t{w.max_blocks_per_sm} * sms) return w.max_blocks_per_sm;
    return w.blocks / sms + (sm < w.blocks % sms ? 1 : 0);
}

// A stretch of the time axis drawn as one bar per SM: one wave, or several identical full waves merged when
// each would be too thin to see.
struct Band {
    const timing::Wave* wave = nullptr;
    uint64_t first = 1, last = 1;  // wave numbers, from 1
    double start = 0, cycles = 0;
};

std::vector<Band> timeline_bands(const timing::Prediction& pr, double px_per_cycle) {
    std::vector<Band> bands;
    double t = 0;
    uint64_t number = 1;
    for (const auto& w : pr.waves) {
        // Draw waves one by one while each is at least 6 pixels wide (so at most ~150 of them); merge the
        // rest.
        const bool separate = w.count == 1 || w.cycles * px_per_cycle >= 6;
        const uint64_t pieces = separate ? w.count : 1;
        const uint64_t per_piece = separate ? 1 : w.count;
        for (uint64_t i = 0; i < pieces; ++i) {
            bands.push_back(
                {&w, number, number + per_piece - 1, t, w.cycles * static_cast<double>(per_piece)});
            t += w.cycles * static_cast<double>(per_piece);
            number += per_piece;
        }
    }
    return bands;
}

std::string band_name(const Band& b) {
    return b.first == b.last ? fmt::format("wave {}", b.first) : fmt::format("waves {}-{}", b.first, b.last);
}

std::string sm_timeline_svg(const timing::TimingResult& t) {
    const auto& pr = t.detail;
    const uint32_t sms = std::max<uint32_t>(1, t.profile.sm_count);
    const int left = 56, top = 34, plot_w = 880;
    const int row = static_cast<int>(std::clamp<uint32_t>(560 / sms, 2, 16));
    const int plot_h = row * static_cast<int>(sms);
    const double px = pr.cycles > 0 ? plot_w / pr.cycles : 0;
    // Bar heights are out of the blocks an SM can hold (occupancy), not out of what the waves happen to hold.
    uint32_t most = std::max<uint32_t>(1, t.profile.blocks_per_sm);
    for (const auto& w : pr.waves) most = std::max(most, w.max_blocks_per_sm);
    const auto bands = timeline_bands(pr, px);
    const uint64_t nwaves = bands.empty() ? 0 : bands.back().last;
    std::string svg =
        fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" id="sm-timeline" width="{}" height="{}">)",
                    left + plot_w + 40, top + plot_h + 44);
    for (uint32_t sm = 0; sm < sms; ++sm) {
        svg += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>)", left,
                           top + static_cast<int>(sm) * row, plot_w, row, sm % 2 ? "#ececec" : "#f6f6f6");
    }
    const uint32_t label_every = sms <= 16 ? 1 : sms <= 40 ? 5 : sms <= 160 ? 20 : 50;
    for (uint32_t sm = 0; sm < sms; sm += label_every) {
        svg += fmt::format(R"(<text x="{}" y="{}" text-anchor="end">SM {}</text>)", left - 4,
                           top + static_cast<int>(sm) * row + std::max(row, 8), sm);
    }
    for (const auto& b : bands) {
        // A partial wave leaves SMs (or block slots) empty; when it follows full waves it is the tail.
        const bool partial = b.wave->blocks < uint64_t{most} * sms;
        const bool tail = partial && nwaves > 1;
        const double x = left + b.start * px, w = std::max(1.0, b.cycles * px - (b.cycles * px > 4 ? 1 : 0));
        svg += fmt::format(
            R"(<g class="wave{}{}" data-waves="{}-{}"><title>{}: {} block{}{}, up to {} per SM on {} of {} )"
            R"(SMs, {:.0f} cycles{}</title>)",
            partial ? " partial" : "", tail ? " tail" : "", b.first, b.last, band_name(b), b.wave->blocks,
            b.wave->blocks == 1 ? "" : "s", b.first == b.last ? "" : " per wave", b.wave->max_blocks_per_sm,
            b.wave->sms_busy, sms, b.wave->cycles, b.first == b.last ? "" : " each");
        // Consecutive SMs holding the same number of blocks share one bar.
        for (uint32_t sm = 0; sm < sms;) {
            const uint64_t n = blocks_on_sm(*b.wave, sm, sms);
            uint32_t end = sm + 1;
            while (end < sms && blocks_on_sm(*b.wave, end, sms) == n) ++end;
            if (n > 0) {
                // One block of eight would be half a pixel: a bar keeps at least 2 pixels (or its whole row).
                const double h = std::max(static_cast<double>(row) * static_cast<double>(n) / most,
                                          std::min(2.0, static_cast<double>(row)));
                for (uint32_t r = sm; r < end && n < most; ++r) {
                    svg += fmt::format(
                        R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="{}"/>)", x,
                        top + (r + 1.0) * row - h, w, h, partial ? kWavePartial : kWave);
                }
                if (n == most) {
                    svg += fmt::format(R"(<rect x="{:.1f}" y="{}" width="{:.1f}" height="{}" fill="{}"/>)", x,
                                       top + static_cast<int>(sm) * row, w, static_cast<int>(end - sm) * row,
                                       partial ? kWavePartial : kWave);
                }
            }
            sm = end;
        }
        if (b.cycles * px >= 40 || partial) {
            const std::string what = partial ? fmt::format("{}: {} block{} on {} SM{}", tail ? " (tail)" : "",
                                                           b.wave->blocks, b.wave->blocks == 1 ? "" : "s",
                                                           b.wave->sms_busy, b.wave->sms_busy == 1 ? "" : "s")
                                             : std::string();
            // A label that would run past the plot ends at the bar's right edge instead (about 6 px a
            // character).
            const std::string label = band_name(b) + what;
            const bool right = x + 6.0 * static_cast<double>(label.size()) > left + plot_w + 30;
            svg += fmt::format(R"(<text x="{:.1f}" y="{}"{}>{}</text>)", right ? x + w : x, top - 6,
                               right ? R"( text-anchor="end")" : "", label);
        }
        svg += "</g>";
    }
    // Time axis in microseconds at the preset's clock.
    const double us = pr.cycles / std::max(1.0, t.profile.clock_mhz);
    for (int i = 0; i <= 5; ++i) {
        const int x = left + plot_w * i / 5;
        svg +=
            fmt::format(R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#888"/><text x="{0}" y="{3}" )"
                        R"(text-anchor="middle">{4:.2f} us</text>)",
                        x, top + plot_h, top + plot_h + 4, top + plot_h + 16, us * i / 5);
    }
    svg += fmt::format(
        R"(<text x="{}" y="{}">time (kernel only, {} wave{}; the launch overhead of {:.1f} us is not drawn))"
        R"(</text></svg>)",
        left, top + plot_h + 36, nwaves, nwaves == 1 ? "" : "s", pr.overhead_us);
    return svg;
}

std::string timeline_section(const session::PreparedLaunch& p, const session::SimRun& run,
                             const timing::TimingResult* predicted) {
    std::string out = "<h2>Blocks per SM over time</h2>\n";
    if (!predicted) return out + "<p>No timeline: the launch did not run to completion on this device.</p>\n";
    const timing::TimingResult& t = *predicted;
    const auto& pr = t.detail;
    out += fmt::format(
        "<p class=\"legend\">One row per SM, time to the right (the timing model's prediction). A bar's "
        "height is the blocks the SM holds, out of {} at most.<span style=\"background:{}\"></span>"
        "full waves<span style=\"background:{}\"></span>a partial wave (after full waves: the tail)</p>\n",
        run.occupancy->blocks_per_sm, kWave, kWavePartial);
    out += sm_timeline_svg(t) + "\n";
    std::string text;
    const uint64_t per_wave = uint64_t(run.occupancy->blocks_per_sm) * t.profile.sm_count;
    const uint64_t blocks = p.spec.block_count();
    const uint64_t waves = (blocks + per_wave - 1) / per_wave;
    text =
        fmt::format("{} blocks at {} per SM on {} SMs: {} per wave, {} wave{}.", blocks,
                    run.occupancy->blocks_per_sm, t.profile.sm_count, per_wave, waves, waves == 1 ? "" : "s");
    if (blocks % per_wave && !pr.waves.empty()) {
        const auto& last = pr.waves.back();
        const bool idle_sms = last.sms_busy < t.profile.sm_count;
        const uint64_t fewest = last.blocks / t.profile.sm_count,
                       most = (last.blocks + t.profile.sm_count - 1) / t.profile.sm_count;
        text += fmt::format(
            " The {} wave holds {} block{} on {} of {} SMs ({:.1f} % full) and takes {:.0f} cycles of the "
            "{:.0f}; {}.",
            waves == 1 ? "only" : "last", last.blocks, last.blocks == 1 ? "" : "s", last.sms_busy,
            t.profile.sm_count,
            100.0 * static_cast<double>(blocks % per_wave) / static_cast<double>(per_wave), last.cycles,
            pr.cycles,
            idle_sms
                ? std::string("the other SMs idle meanwhile")
                : fmt::format("its SMs hold {} blocks where {} fit",
                              fewest == most ? std::to_string(most) : fmt::format("{} or {}", fewest, most),
                              run.occupancy->blocks_per_sm));
    }
    return out + "<p class=\"caption\">" + html_escape(text) + "</p>\n";
}

// ---- per line: bars of cost per request against the ideal ------------------------------------------------

std::string cost_bar(const AccessRow& a, double scale) {
    const double width = 180;
    const double have = a.per_request(), ideal = a.ideal_per_request();
    const char* colour = a.excess() ? kBad : kGood;
    return fmt::format(
        R"(<svg width="{}" height="16"><rect x="0" y="1" width="{:.1f}" height="6" fill="{}"/>)"
        R"(<rect x="0" y="9" width="{:.1f}" height="6" fill="{}"/></svg>)",
        width, width * std::min(1.0, ideal / scale), kGood, width * std::min(1.0, have / scale), colour);
}

std::string lines_table(const ReportModel& m) {
    double scale_global = 4, scale_shared = 1;
    for (const auto& r : m.rows) {
        for (const auto& a : r.accesses) {
            double& s = a.space == AccessSpace::shared ? scale_shared : scale_global;
            s = std::max(s, a.per_request());
        }
    }
    std::string out =
        "<table class=\"lines\"><tr><th>line</th><th>source</th><th>warp inst</th><th>lanes</th>"
        "<th>access</th><th>requests</th><th>per request: ideal (top), actual (bottom)</th>"
        "<th>per req</th><th>ideal</th><th>used / way</th></tr>\n";
    for (const auto& r : m.rows) {
        const size_t span = std::max<size_t>(1, r.accesses.size());
        std::string src = r.compiler_generated ? "(no source line: compiler setup)"
                          : r.file             ? html_escape(r.text)
                                               : "(PTX line, no .loc)";
        std::string head =
            fmt::format(R"(<tr data-line="{}"><td rowspan="{}">{}</td><td class="src" rowspan="{}">{}</td>)"
                        R"(<td rowspan="{}">{}</td><td rowspan="{}">{:.2f}</td>)",
                        r.line, span, r.compiler_generated ? "-" : std::to_string(r.line), span, src, span,
                        r.total.warp_insts, span, r.lanes());
        if (r.accesses.empty()) out += head + "<td colspan=\"6\"></td></tr>\n";
        for (size_t i = 0; i < r.accesses.size(); ++i) {
            const auto& a = r.accesses[i];
            const double scale = a.space == AccessSpace::shared ? scale_shared : scale_global;
            const std::string note = way_note(a);
            out +=
                (i == 0 ? head : std::string("<tr>")) +
                fmt::format(
                    "<td class=\"acc\">{}</td><td>{}</td><td>{}</td><td>{:.2f} "
                    "{}</td><td>{:.2f}</td><td>{}</td></tr>\n",
                    a.label(), a.s.requests, cost_bar(a, scale), a.per_request(),
                    a.space == AccessSpace::shared ? "wavefronts" : "sectors", a.ideal_per_request(), note);
        }
        for (const auto& a : r.accesses) {
            if (!a.inlined.empty())
                out += fmt::format(
                    "<tr class=\"note inlined\"><td></td><td colspan=\"9\">&#9650; {}: at {}</td></tr>\n",
                    a.label(), html_escape(a.inlined));
            if (!a.note.empty())
                out += fmt::format("<tr class=\"note\"><td></td><td colspan=\"9\">&#9650; {}: {}</td></tr>\n",
                                   a.label(), html_escape(a.note));
        }
        if (const std::string inlined = inlined_note(r); !inlined.empty()) {
            out += fmt::format("<tr class=\"note inlined\"><td></td><td colspan=\"9\">&#9650; {}</td></tr>\n",
                               html_escape(inlined));
        }
        if (!r.lanes_note.empty())
            out += fmt::format("<tr class=\"note\"><td></td><td colspan=\"9\">&#9650; {}</td></tr>\n",
                               html_escape(r.lanes_note));
    }
    return out + "</table>\n";
}

// ---- lane diagrams
// ------------------------------------------------------------------------------------------

int lane_x(int lane) {
    return kMargin + lane * kLaneStep + kLaneStep / 2;
}

std::string lane_boxes(const LaneSample& s) {
    std::string svg;
    for (int l = 0; l < 32; ++l) {
        const bool on = s.active_mask >> l & 1u;
        svg += fmt::format(
            R"(<rect x="{}" y="20" width="{}" height="20" fill="{}"/><text x="{}" y="34" text-anchor="middle" fill="{}">{}</text>)",
            lane_x(l) - 12, 24, on ? kWork : kAbsent, lane_x(l), on ? "#fff" : "#666", l);
    }
    return svg + R"(<text x="2" y="14">lanes</text>)";
}

std::string sample_caption(const LaneSample& s, const std::string& what) {
    const auto& c = s.block.ctaid;
    return fmt::format(
        "<p class=\"caption\">{}: block ({},{},{}) warp {}, {} active lanes, {} bytes per lane.</p>\n", what,
        c[0], c[1], c[2], s.warp, std::popcount(s.active_mask), s.bytes_per_lane);
}

std::string global_lane_diagram(const AccessRow& a, const SourceRow& row) {
    const LaneSample& s = *a.sample;
    const std::set<uint64_t> sectors = active_sectors(s);
    if (sectors.empty()) return "";
    const uint64_t base = *sectors.begin();
    std::map<uint64_t, int> slot;
    for (uint64_t sec : sectors) slot.emplace(sec, static_cast<int>(slot.size()));
    const int n = static_cast<int>(sectors.size());
    const double step = 32.0 * kLaneStep / std::max(n, 1);
    const double box = std::min(24.0, step - 2);
    auto sector_x = [&](uint64_t sec) { return kMargin + step * slot.at(sec) + step / 2; };
    std::string svg = fmt::format(
        R"(<svg xmlns="http://www.w3.org/2000/svg" id="lanes-to-sectors" width="{}" height="230" class="lanes-to-sectors">)",
        2 * kMargin + 32 * kLaneStep);
    for (int l = 0; l < 32; ++l) {
        if (!(s.active_mask >> l & 1u)) continue;
        for (uint64_t sec = lane_sector(s, l); sec <= lane_last_sector(s, l); ++sec) {
            svg += fmt::format(
                R"(<line data-lane="{}" data-sector="{}" x1="{}" y1="40" x2="{:.1f}" y2="140" stroke="{}" stroke-opacity="0.6"/>)",
                l, sec - base, lane_x(l), sector_x(sec), kLink);
        }
    }
    svg += lane_boxes(s);
    const size_t longest_label = fmt::format("+{}", *sectors.rbegin() - base).size();
    for (uint64_t sec : sectors) {
        // Labels wider than their slot are turned to read downwards instead of overlapping.
        const std::string label = fmt::format("+{}", sec - base);
        const bool turn = static_cast<double>(longest_label) * 7.5 > step;
        svg += fmt::format(R"(<rect x="{:.1f}" y="140" width="{:.1f}" height="20" fill="{}"/>)",
                           sector_x(sec) - box / 2, box, a.excess() ? kBad : kGood);
        svg += turn ? fmt::format(
                          R"svg(<text x="{0:.1f}" y="172" transform="rotate(60 {0:.1f} 172)">{1}</text>)svg",
                          sector_x(sec) - 3, label)
                    : fmt::format(R"(<text x="{:.1f}" y="175" text-anchor="middle">{}</text>)", sector_x(sec),
                                  label);
    }
    svg += fmt::format(
        R"(<text x="2" y="225">32-byte sectors, numbered from the lowest ({}): {} touched</text></svg>)",
        hex(base * 32), n);
    std::string stride;
    if (auto st = lane_stride(s)) stride = fmt::format(" Consecutive lanes are {} bytes apart.", *st);
    std::string out =
        fmt::format("<h3>{}: {} ({})</h3>\n", html_escape(row.where()), a.label(), html_escape(row.text));
    out += sample_caption(s, "One warp of this instruction") + svg + "\n";
    if (auto shared = sharing_sentence(a.space, a.kind, s, {a.per_request(), a.ideal_per_request()}))
        out += fmt::format("<p class=\"caption\">This warp touches {} sectors: {}.</p>\n", n,
                           html_escape(*shared));
    else
        out += fmt::format(
            "<p class=\"caption\">This warp touches {} sectors; the whole run averages {:.2f} per request "
            "where {:.2f} would do.{}</p>\n",
            n, a.per_request(), a.ideal_per_request(), stride);
    out +=
        "<details><summary>lane, address, sector</summary><table "
        "class=\"lanemap\"><tr><th>lane</th><th>address</th><th>sector</th></tr>";
    for (int l = 0; l < 32; ++l) {
        if (!(s.active_mask >> l & 1u)) continue;
        out += fmt::format("<tr data-lane=\"{}\"><td>{}</td><td>{}</td><td>+{}</td></tr>", l, l,
                           hex(s.addr[l]), s.addr[l] / 32 - base);
    }
    return out + "</table></details>\n";
}

std::string shared_lane_diagram(const AccessRow& a, const SourceRow& row) {
    const LaneSample& s = *a.sample;
    std::map<uint32_t, std::set<uint64_t>> words;  // bank -> distinct words
    std::map<uint32_t, size_t> updates;            // bank -> lane-words (atomics serve each lane in turn)
    const bool atomic = a.kind == AccessKind::atomic || a.kind == AccessKind::reduction;
    const uint32_t words_per_lane = std::max(1u, s.bytes_per_lane / 4);
    for (int l = 0; l < 32; ++l) {
        if (!(s.active_mask >> l & 1u)) continue;
        for (uint32_t k = 0; k < words_per_lane; ++k) {
            const uint64_t word = s.addr[l] / 4 + k;
            words[static_cast<uint32_t>(word % 32)].insert(word);
            ++updates[static_cast<uint32_t>(word % 32)];
        }
    }
    std::string svg = fmt::format(
        R"(<svg xmlns="http://www.w3.org/2000/svg" id="lanes-to-banks" width="{}" height="200" class="lanes-to-banks">)",
        2 * kMargin + 32 * kLaneStep);
    for (int l = 0; l < 32; ++l) {
        if (!(s.active_mask >> l & 1u)) continue;
        for (uint32_t k = 0; k < words_per_lane; ++k) {
            const auto bank = static_cast<int>((s.addr[l] / 4 + k) % 32);
            svg += fmt::format(
                R"(<line data-lane="{}" data-bank="{}" x1="{}" y1="40" x2="{}" y2="140" stroke="{}" stroke-opacity="0.6"/>)",
                l, bank, lane_x(l), lane_x(bank), kLink);
        }
    }
    svg += lane_boxes(s);
    for (int b = 0; b < 32; ++b) {
        const size_t count = atomic           ? (updates.count(b) ? updates[b] : 0)
                             : words.count(b) ? words[b].size()
                                              : 0;
        const char* fill = count == 0 ? kAbsent : count == 1 ? kGood : kBad;
        svg += fmt::format(
            R"(<rect x="{}" y="140" width="24" height="20" fill="{}"><title>bank {}: {} {}</title></rect>)"
            R"(<text x="{}" y="154" text-anchor="middle" fill="#fff">{}</text><text x="{}" y="175" text-anchor="middle">{}</text>)",
            lane_x(b) - 12, fill, b, count, atomic ? "updates" : "distinct words", lane_x(b),
            count ? std::to_string(count) : "", lane_x(b), b);
    }
    svg +=
        atomic
            ? R"(<text x="2" y="195">banks (updates each serves, one after another: more than 1 costs more)</text></svg>)"
            : R"(<text x="2" y="195">banks (number of different words each is asked for: more than 1 is a conflict)</text></svg>)";
    size_t worst = 0;
    for (const auto& [b, w] : words) worst = std::max(worst, w.size());
    std::string out =
        fmt::format("<h3>{}: {} ({})</h3>\n", html_escape(row.where()), a.label(), html_escape(row.text));
    out += sample_caption(s, "One warp of this instruction") + svg + "\n";
    if (auto shared = sharing_sentence(a.space, a.kind, s, {a.per_request(), a.ideal_per_request()})) {
        out += fmt::format("<p class=\"caption\">In this warp {}.</p>\n", html_escape(*shared));
        return out;
    }
    out += fmt::format(
        "<p class=\"caption\">In this warp the busiest bank is asked for {} different word{}; the whole run "
        "averages {:.2f} wavefronts per request where {:.2f} would do.</p>\n",
        worst, worst == 1 ? "" : "s", a.per_request(), a.ideal_per_request());
    return out;
}

// The access to draw: the worst one of its kind, or failing that the busiest one with a sample.
std::optional<WorstAccess> pick(const ReportModel& m, const std::optional<WorstAccess>& worst, bool shared) {
    if (worst && m.rows[worst->row].accesses[worst->access].sample) return worst;
    std::optional<WorstAccess> best;
    uint64_t most = 0;
    for (size_t r = 0; r < m.rows.size(); ++r) {
        for (size_t i = 0; i < m.rows[r].accesses.size(); ++i) {
            const auto& a = m.rows[r].accesses[i];
            if ((a.space == AccessSpace::shared) != shared || !a.sample || a.s.requests <= most) continue;
            most = a.s.requests;
            best = WorstAccess{r, i};
        }
    }
    return best;
}

std::string lane_section(const ReportModel& m, const LaneSamples* samples) {
    std::string out = "<h2>One warp, lane by lane</h2>\n";
    if (!samples) return out + "<p>No lane sample was taken.</p>\n";
    const auto g = pick(m, m.worst_global, false);
    const auto s = pick(m, m.worst_shared, true);
    if (g) out += global_lane_diagram(m.rows[g->row].accesses[g->access], m.rows[g->row]);
    if (s) out += shared_lane_diagram(m.rows[s->row].accesses[s->access], m.rows[s->row]);
    if (!g && !s) out += "<p>No global or shared access was sampled.</p>\n";
    return out;
}

// The launch at a glance: registers, occupancy, predicted time and bound, each a box (plain HTML).
std::string header_facts(const session::SimRun& run, const timing::TimingResult* t) {
    auto item = [](std::string_view key, const std::string& value, const std::string& sub) {
        return fmt::format("<div><dt>{}</dt><dd class=\"value\">{}</dd><dd class=\"sub\">{}</dd></div>", key,
                           html_escape(value), html_escape(sub));
    };
    std::string out = "<dl class=\"header\" id=\"launch-header\">";
    out += item("registers", fmt::format("{} per thread", run.registers.registers), run.registers.method);
    if (run.occupancy) {
        const auto& o = *run.occupancy;
        out += item("occupancy", fmt::format("{:.1f} %", 100.0 * o.occupancy),
                    fmt::format("{} blocks, {} of {} warps per SM; limited by {}", o.blocks_per_sm,
                                o.warps_per_sm, run.preset.sm.max_warps, device::limiter_name(o.limiter)));
    } else {
        out += item("occupancy", "-", "not worked out: the launch was refused");
    }
    if (t) {
        out += item("predicted time", fmt::format("{:.2f} us", t->detail.time_us),
                    fmt::format("{:.0f} cycles at {:.0f} MHz + {:.2f} us launch overhead", t->detail.cycles,
                                t->profile.clock_mhz, t->detail.overhead_us));
        out += item("bound", t->detail.bound, t->detail.bound_text);
        out += item("timing parameters", t->predicted.parameters,
                    "expected error: " + t->predicted.expected_error + "; clock " + t->predicted.clock);
    } else {
        out += item("predicted time", "-", "not predicted: the launch did not run to completion");
        out += item("bound", "-", "");
    }
    return out + "</dl>\n";
}

std::string facts(const session::PreparedLaunch& p, const session::SimRun& run) {
    std::string text = "launch    " + describe_launch(p.spec) + "\n";
    if (run.occupancy) {
        const auto& o = *run.occupancy;
        text += fmt::format("occupancy {} blocks per SM, {} of {} warps per SM: {:.1f} %, limited by {}\n",
                            o.blocks_per_sm, o.warps_per_sm, run.preset.sm.max_warps, 100.0 * o.occupancy,
                            device::limiter_name(o.limiter));
        const uint64_t waves = wave_count(p.spec.block_count(), o.blocks_per_sm, run.preset.sm_count);
        if (waves) text += fmt::format("waves     {} ({} SMs)\n", waves, run.preset.sm_count);
    }
    const auto counted = run.counters.derived_stats();
    text += fmt::format("executed  {} warp instructions, {} thread instructions\n",
                        counted[static_cast<std::size_t>(counts::Stat::warp_insts)],
                        counted[static_cast<std::size_t>(counts::Stat::thread_insts)]);
    if (run.report.error)
        text += fmt::format("error     {} ({})\n{}\n", run.report.error->message, run.report.error->name,
                            run.report.error->details);
    return "<div class=\"facts\">" + html_escape(text) + "</div>\n";
}

}  // namespace

std::string html_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string html_report(const session::PreparedLaunch& p, const session::SimRun& run,
                        const LaneSamples* samples, const HtmlOptions& options) {
    // One prediction for the header, the costs of "what to look at", the source heat and the timeline.
    std::optional<timing::TimingResult> predicted;
    if (!run.report.error && run.occupancy && run.occupancy->blocks_per_sm > 0)
        predicted = timing::predict_run(p, run);
    const ReportModel m = build_model(p, run, samples, predicted ? &predicted->predicted : nullptr);
    const std::string name = ir::demangled_base_name(p.kernel->name);
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">";
    out +=
        fmt::format("<title>warpsim: {}</title><style>{}</style></head><body>\n", html_escape(name), kStyle);
    out += fmt::format("<h1>{} <small>({}, device {}, simulated)</small></h1>\n", html_escape(name),
                       html_escape(p.spec.path), html_escape(run.report.device));
    out += header_facts(run, predicted ? &*predicted : nullptr);
    out += facts(p, run);
    const auto items = look_at(m);
    out += "<h2>What to look at</h2>\n<ul class=\"lookat\">";
    if (items.empty())
        out +=
            "<li>Nothing stands out: every access uses the bytes it moves, no bank conflicts, the grid "
            "fills the GPU, idle lanes cost under 1 % of the time.</li>";
    for (const auto& i : items)
        out += "<li><b>" + html_escape(i.where) + "</b> " + html_escape(i.what + look_at_share(i)) + "</li>";
    out += "</ul>\n";
    out += source_section(p, m, samples, predicted ? std::string_view(predicted->detail.bound) : "");
    out += "<h2>The launch</h2>\n";
    out += fmt::format(
        "<p class=\"legend\">Each box is a block, each cell a warp of 32 lanes."
        "<span style=\"background:{}\"></span>lanes at work<span style=\"background:{}\"></span>lanes idle "
        "(no memory access)<span style=\"background:{}\"></span>lanes that do not exist (partial warp)</p>\n",
        kWork, kIdle, kAbsent);
    out += launch_svg(p, samples, options.max_blocks) + "\n";
    if (p.spec.block_count() > options.max_blocks) {
        out += fmt::format("<p class=\"caption\">The first {} of {} blocks.</p>\n", options.max_blocks,
                           p.spec.block_count());
    }
    if (samples && !samples->complete) {
        out += fmt::format(
            "<p class=\"caption\">Lane activity was sampled from the first {} blocks; other blocks are drawn "
            "from the launch shape alone.</p>\n",
            samples->warps.size());
    }
    out += "<h2>The threads of a block</h2>\n";
    const bool one_d = p.spec.block[1] == 1 && p.spec.block[2] == 1;
    out += fmt::format(
        "<p class=\"caption\">Block ({},{},{}): each cell is a thread{}, coloured by its warp. Warps take "
        "32 threads at a time in x, then y, then z order{}.</p>\n",
        p.spec.block[0], p.spec.block[1], p.spec.block[2],
        one_d ? ", 32 to a row (so each row is one warp)" : " at (threadIdx.x, threadIdx.y)",
        p.spec.block[2] > 1 ? "; the slice threadIdx.z = 0 is shown" : "");
    out += thread_layout_svg(p.spec) + "\n";
    out += timeline_section(p, run, predicted ? &*predicted : nullptr);
    out += "<h2>Per source line</h2>\n" + lines_table(m);
    out += lane_section(m, samples);
    out +=
        "<p class=\"caption\">Generated by warpsim. A sector is 32 bytes; a wavefront is one pass of shared "
        "memory's 32 "
        "banks.</p>\n</body></html>\n";
    return out;
}

}  // namespace warpsim::report
