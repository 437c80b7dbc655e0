// sim/report/text_report.cpp — the learner's report (see text_report.hpp).
#include "sim/report/text_report.hpp"

#include "sim/report/access_pattern.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "kernels_ir/names.hpp"

namespace warpsim::report {
namespace {

constexpr size_t kWidth = 110;
constexpr size_t kSourceWidth = 35;
const std::string kLabelIndent(10, ' ');

// The code of a source line without its trailing // comment (the comment is kept if it is all there is).
std::string code_only(const std::string& text, size_t width) {
    std::string s = text;
    if (auto c = s.find("//"); c != std::string::npos && c > 0) {
        std::string code = s.substr(0, c);
        code.erase(code.find_last_not_of(" \t") + 1);
        if (!code.empty()) s = code;
    }
    if (s.size() > width) s = s.substr(0, width - 3) + "...";
    return s;
}

std::string fixed2(double v) {
    return fmt::format("{:.2f}", v);
}

std::string row_source(const SourceRow& r, size_t width) {
    if (r.compiler_generated) return "(no source line: compiler setup)";
    if (!r.file) return "(PTX line, no .loc)";
    return code_only(r.text, width);
}

// The table's access columns for one access row: label, requests, per request, ideal, used/way.
std::string access_columns(const AccessRow& a) {
    const std::string note = way_note(a);
    std::string cols = fmt::format("{:<15} {:>8} {:>7} {:>6}  {}", a.label(), a.s.requests,
                                   fixed2(a.per_request()), fixed2(a.ideal_per_request()), note);
    cols.erase(cols.find_last_not_of(' ') + 1);
    return cols;
}

std::string table_header(size_t source_width) {
    return fmt::format("{:>5}  {:<{}} {:>9} {:>5}  {:<15} {:>8} {:>7} {:>6}  {}\n", "line", "source",
                       source_width, "warp inst", "lanes", "access", "requests", "per req", "ideal",
                       "used/way");
}

std::string format_row(const SourceRow& r, size_t source_width) {
    std::string out;
    const std::string lead =
        fmt::format("{:>5}  {:<{}} {:>9} {:>5}", r.compiler_generated ? "-" : std::to_string(r.line),
                    row_source(r, source_width), source_width, r.total.warp_insts, fixed2(r.lanes()));
    out += r.accesses.empty() ? lead + "\n" : lead + "  " + access_columns(r.accesses.front()) + "\n";
    for (size_t i = 1; i < r.accesses.size(); ++i) {
        out += std::string(lead.size(), ' ') + "  " + access_columns(r.accesses[i]) + "\n";
    }
    for (const auto& a : r.accesses) {
        if (!a.inlined.empty())
            out += wrap(a.label() + ": at " + a.inlined, "       ^ ", "         ", kWidth);
        if (!a.note.empty()) out += wrap(a.label() + ": " + a.note, "       ^ ", "         ", kWidth);
    }
    if (const std::string inlined = inlined_note(r); !inlined.empty()) {
        out += wrap(inlined, "       ^ ", "         ", kWidth);
    }
    if (!r.lanes_note.empty()) out += wrap(r.lanes_note, "       ^ ", "         ", kWidth);
    return out;
}

bool has_note(const SourceRow& r) {
    if (!r.lanes_note.empty()) return true;
    return std::any_of(r.accesses.begin(), r.accesses.end(),
                       [](const AccessRow& a) { return !a.note.empty(); });
}

// The rows to print: all of them, or the busiest `max_lines` plus every row with a note, in source order.
std::vector<size_t> shown_rows(const ReportModel& m, size_t max_lines) {
    std::vector<size_t> order(m.rows.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    if (order.size() <= max_lines) return order;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return m.rows[a].total.warp_insts > m.rows[b].total.warp_insts;
    });
    std::set<size_t> keep(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(max_lines));
    for (size_t i = 0; i < m.rows.size(); ++i)
        if (has_note(m.rows[i])) keep.insert(i);
    return {keep.begin(), keep.end()};
}

// "look at": every finding, the costliest first (report_model.hpp's look_at).
std::string summary(const ReportModel& m, bool failed, bool budget) {
    const auto items = look_at(m);
    const std::string stop = budget ? "(partial counts: the run stopped at the instruction budget)"
                                    : "(the counts below stop where the kernel failed)";
    if (items.empty() && budget)
        return "look at   the counts below are partial: the run stopped at the budget\n";
    if (items.empty() && failed) {
        return "look at   the error above first; the counts below stop where the kernel failed\n";
    }
    if (items.empty()) {
        return wrap(
            "nothing stands out: global accesses use every byte they move, shared accesses have no bank "
            "conflicts, the grid fills the GPU, and idle lanes cost under 1 % of the time",
            "look at   ", kLabelIndent, kWidth);
    }
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) {
        const std::string lead =
            fmt::format("{}{:<12} ", i ? kLabelIndent : std::string("look at   "), items[i].where);
        out += wrap(items[i].what + look_at_share(items[i]), lead, std::string(lead.size(), ' '), kWidth);
    }
    if (failed) out += kLabelIndent + stop + "\n";
    return out;
}

}  // namespace

std::string budget_stop_text(const session::SimRun& run, std::string_view advice) {
    const auto& stop = run.report.extra.at("budget_stop");
    std::string out =
        wrap(fmt::format("the run stopped at warpsim's instruction budget of {} thread-instructions "
                         "(--max-instructions) before the kernel finished",
                         stop["max_instructions"].get<uint64_t>()),
             "\nstopped   ", kLabelIndent, kWidth);
    out += wrap(
        "the counts in this report are partial: they cover the work done until then, not the whole "
        "launch",
        kLabelIndent, kLabelIndent, kWidth);
    out += wrap(std::string(advice), kLabelIndent, kLabelIndent, kWidth);
    const std::string& details = run.report.error->details;
    if (auto loop = details.find("; the hottest loop"); loop != std::string::npos)
        out += wrap(details.substr(loop + 2), kLabelIndent, kLabelIndent, kWidth);
    return out;
}

namespace {

// The engine's multi-line error text, long lines wrapped under their own indentation.
std::string wrapped_details(const std::string& details) {
    std::string out;
    std::istringstream lines(details);
    for (std::string line; std::getline(lines, line);) {
        if (line.size() <= kWidth) {
            out += line + "\n";
            continue;
        }
        const std::string indent(
            line.find_first_not_of(' ') == std::string::npos ? 0 : line.find_first_not_of(' '), ' ');
        out += wrap(line, indent, indent + "    ", kWidth);
    }
    return out;
}

// "work": threads that touched memory and the warps with idle lanes, from the sample run.
std::string work_line(const LaneSamples& s, uint64_t total_blocks) {
    if (s.warps.empty()) return "";
    uint64_t existing = 0, working = 0;
    std::vector<std::string> idle;
    size_t idle_count = 0;
    for (const auto& [block, warps] : s.warps) {
        for (size_t w = 0; w < warps.size(); ++w) {
            existing += warps[w].lanes_existing;
            working += warps[w].lanes_working;
            if (warps[w].lanes_working >= warps[w].lanes_existing) continue;
            if (++idle_count <= 3) {
                idle.push_back(fmt::format("block {} warp {} ({} of {} lanes)", block, w,
                                           warps[w].lanes_working, warps[w].lanes_existing));
            }
        }
    }
    std::string scope = s.warps.size() < total_blocks
                            ? fmt::format(" in the first {} of {} blocks", s.warps.size(), total_blocks)
                            : std::string();
    std::string text = fmt::format("{} of {} threads{} touched memory", working, existing, scope);
    if (idle_count == 0) {
        text += "; every warp had all its lanes at work";
    } else {
        text += fmt::format("; {} warp{} with idle lanes: ", idle_count, idle_count == 1 ? "" : "s");
        for (size_t i = 0; i < idle.size(); ++i) text += (i ? ", " : "") + idle[i];
        if (idle_count > idle.size()) text += ", ...";
    }
    return wrap(text, "work      ", kLabelIndent, kWidth);
}

std::string occupancy_lines(const session::PreparedLaunch& p, const session::SimRun& run) {
    if (!run.occupancy) return "";
    const auto& o = *run.occupancy;
    std::string out = fmt::format(
        "occupancy {} blocks per SM, {} of {} warps per SM: {:.1f} %, limited by {}\n", o.blocks_per_sm,
        o.warps_per_sm, run.preset.sm.max_warps, 100.0 * o.occupancy, device::limiter_name(o.limiter));
    if (o.blocks_per_sm <= 0) return out;
    const uint64_t per_wave =
        static_cast<uint64_t>(o.blocks_per_sm) * static_cast<uint64_t>(run.preset.sm_count);
    const uint64_t blocks = p.spec.block_count();
    const uint64_t waves = wave_count(blocks, o.blocks_per_sm, run.preset.sm_count);
    out += fmt::format("waves     {} blocks, {} fit on the GPU at once ({} SMs): {} wave{}", blocks, per_wave,
                       run.preset.sm_count, waves, waves == 1 ? "" : "s");
    if (waves > 1 && blocks % per_wave) {
        out += fmt::format(", the last {:.1f} % full",
                           100.0 * static_cast<double>(blocks % per_wave) / static_cast<double>(per_wave));
    }
    return out + "\n";
}

}  // namespace

std::string wrap(const std::string& text, const std::string& first_prefix, const std::string& indent,
                 size_t width) {
    std::string out, line = first_prefix;
    bool line_has_word = false;
    std::istringstream words(text);
    for (std::string word; words >> word;) {
        if (line_has_word && line.size() + 1 + word.size() > width) {
            out += line + "\n";
            line = indent;
            line_has_word = false;
        }
        line += (line_has_word ? " " : "") + word;
        line_has_word = true;
    }
    return out + line + "\n";
}

uint64_t wave_count(uint64_t blocks, int blocks_per_sm, int sm_count) {
    if (blocks_per_sm <= 0 || sm_count <= 0) return 0;
    const uint64_t per_wave = static_cast<uint64_t>(blocks_per_sm) * static_cast<uint64_t>(sm_count);
    return (blocks + per_wave - 1) / per_wave;
}

std::string describe_launch(const launch::LaunchSpec& spec) {
    const uint64_t threads = spec.threads_per_block();
    const uint64_t warps = (threads + 31) / 32;
    std::string s = fmt::format("grid ({},{},{}) x block ({},{},{}): {} block{} of {} threads = {} threads\n",
                                spec.grid[0], spec.grid[1], spec.grid[2], spec.block[0], spec.block[1],
                                spec.block[2], spec.block_count(), spec.block_count() == 1 ? "" : "s",
                                threads, spec.block_count() * threads);
    s += fmt::format(
        "{}{} warp{} per block, {} in all (warps are cut from the threads in x, y, z order, 32 at a time)",
        kLabelIndent, warps, warps == 1 ? "" : "s", warps * spec.block_count());
    if (threads % 32) {
        s += fmt::format("\n{}the last warp of each block is partial: {} of its 32 lanes exist", kLabelIndent,
                         threads % 32);
    }
    return s;
}

std::string text_report(const session::PreparedLaunch& p, const session::SimRun& run,
                        const TextReportOptions& options) {
    std::ostringstream out;
    const auto& r = run.report;
    out << fmt::format("kernel    {}  ({}, device {}, simulated)\n", ir::demangled_base_name(p.kernel->name),
                       p.ptx_name, r.device);
    out << "launch    " << describe_launch(p.spec) << "\n";
    if (options.samples) out << work_line(*options.samples, p.spec.block_count());
    out << fmt::format("registers {} per thread ({})\n", run.registers.registers, run.registers.method);
    if (!run.counting.empty()) out << fmt::format("counted   {}\n", run.counting);
    out << occupancy_lines(p, run);
    // Lanes counted as the table counts them (issued lanes, ncu's smsp__thread_inst_executed), so the
    // header's average and the per-line averages agree; the engine's own total counts only lanes whose guard
    // was true.
    // Counted like the metrics: per SASS instruction where the plan maps the kernel's instructions.
    const auto counted = run.counters.derived_stats();
    const uint64_t warp_insts = counted[static_cast<std::size_t>(counts::Stat::warp_insts)];
    const uint64_t lanes = counted[static_cast<std::size_t>(counts::Stat::thread_insts)];
    out << fmt::format(
        "executed  {} warp instructions, {} thread instructions ({:.2f} active lanes per warp "
        "instruction)\n",
        warp_insts, lanes, warp_insts ? static_cast<double>(lanes) / static_cast<double>(warp_insts) : 0.0);
    if (run.stopped_at_budget()) {
        out << budget_stop_text(run,
                                "raise --max-instructions N or use --sample (counts from a sample of the "
                                "blocks, extrapolated)");
    } else if (r.error) {
        out << "\nerror     " << r.error->message << " (" << r.error->name << ")\n";
        if (!r.error->details.empty()) out << wrapped_details(r.error->details);
    }
    if (!r.printf_output.empty()) out << "\nprintf output:\n" << r.printf_output;

    const ReportModel m = build_model(p, run, options.samples);
    if (m.rows.empty()) return out.str();
    out << "\n" << summary(m, r.error.has_value(), run.stopped_at_budget());
    const auto shown = shown_rows(m, options.max_lines);
    // The source column: as wide as the longest line shown, from kSourceWidth up to options.source_width;
    // longer lines are cut with "...".
    size_t source_width = kSourceWidth;
    for (size_t i : shown) {
        const SourceRow& row = m.rows[i];
        if (!row.compiler_generated && row.file)
            source_width = std::max(source_width, code_only(row.text, std::string::npos).size());
    }
    source_width = std::min(source_width, std::max(kSourceWidth, options.source_width));
    out << "\n" << table_header(source_width);
    for (size_t i : shown) out << format_row(m.rows[i], source_width);
    if (shown.size() < m.rows.size()) {
        out << fmt::format("       ({} lines with fewer instructions not shown)\n",
                           m.rows.size() - shown.size());
    }
    out << "\n"
        << wrap(
               "per req: 32-byte sectors per request (global, local) or wavefronts per request (shared); "
               "ideal: the "
               "fewest the same bytes could take; used/way: share of the bytes moved that the lanes asked "
               "for, or "
               "the worst bank conflict, or Nx same: N atomics on one word, one after another; lanes: active "
               "lanes per "
               "warp instruction.",
               "", "", kWidth);
    return out.str();
}

}  // namespace warpsim::report
