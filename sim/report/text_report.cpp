// sim/report/text_report.cpp — the learner's report (see text_report.hpp).
#include "sim/report/text_report.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "kernels_ir/names.hpp"

namespace warpsim::report {
namespace {

namespace fs = std::filesystem;

// One CUDA source line (or, without .loc, one PTX instruction line) and what ran there.
struct LineRow {
    uint32_t file = 0, line = 0;
    counts::KernelCounters::LineStats s;
    bool global = false, shared = false;
};

std::vector<std::string> read_lines(const fs::path& path) {
    std::vector<std::string> lines;
    std::ifstream in(path);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

// The CUDA file as recorded by .file, or a file of the same name beside the PTX or the spec.
std::vector<std::string> source_text(const session::PreparedLaunch& p, uint32_t file) {
    std::string recorded(p.module->file_path(file));
    if (recorded.empty()) return {};
    fs::path name = fs::path(recorded).filename();
    for (const fs::path& candidate : {fs::path(recorded), fs::path(p.ptx_name).parent_path() / name,
                                      fs::path(p.spec.path).parent_path() / name}) {
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec)) return read_lines(candidate);
    }
    return {};
}

std::string trimmed(std::string s, size_t width) {
    auto b = s.find_first_not_of(" \t");
    s = b == std::string::npos ? "" : s.substr(b);
    if (s.size() > width) s = s.substr(0, width - 3) + "...";
    return s;
}

std::vector<LineRow> collect_rows(const session::PreparedLaunch& p, const session::SimRun& run) {
    std::map<std::pair<uint32_t, uint32_t>, LineRow> rows;
    for (const auto& [key, s] : run.counters.per_pc()) {
        const auto& fn = p.module->functions.at(key.first);
        if (key.second >= fn.body.size()) continue;
        const auto& inst = fn.body[key.second];
        uint32_t file = inst.loc.line ? inst.loc.file : 0;
        uint32_t line = inst.loc.line ? inst.loc.line : inst.loc.ptx_line;
        auto& row = rows[{file, line}];
        row.file = file;
        row.line = line;
        row.s.warp_insts += s.warp_insts;
        row.s.thread_insts += s.thread_insts;
        row.s.requests += s.requests;
        row.s.sectors += s.sectors;
        row.s.ideal_sectors += s.ideal_sectors;
        row.s.wavefronts += s.wavefronts;
        row.s.ideal_wavefronts += s.ideal_wavefronts;
        row.s.max_way = std::max(row.s.max_way, s.max_way);
        if (inst.op == ir::Opcode::ld || inst.op == ir::Opcode::st || inst.op == ir::Opcode::atom ||
            inst.op == ir::Opcode::red) {
            if (s.wavefronts) row.shared = true;
            if (s.sectors) row.global = true;
        }
    }
    std::vector<LineRow> out;
    for (auto& [k, r] : rows) out.push_back(r);
    return out;
}

// One sentence for a line whose numbers are off, or "" when it is fine.
std::string explain(const LineRow& r) {
    std::vector<std::string> notes;
    if (r.s.requests && r.s.sectors > r.s.ideal_sectors) {
        double used = 100.0 * static_cast<double>(r.s.ideal_sectors) / static_cast<double>(r.s.sectors);
        double per_req = static_cast<double>(r.s.sectors) / static_cast<double>(r.s.requests);
        double ideal_req = static_cast<double>(r.s.ideal_sectors) / static_cast<double>(r.s.requests);
        if (per_req >= 31.5 && ideal_req <= 4.01) {
            notes.push_back(fmt::format("lanes read addresses at least 32 bytes apart: each lane needs its own "
                                        "32-byte sector; {:.1f} % of the bytes moved are used", used));
        } else {
            notes.push_back(fmt::format("{:.1f} sectors per request where {:.1f} would do: {:.1f} % of the bytes "
                                        "moved are used", per_req, ideal_req, used));
        }
    }
    if (r.s.wavefronts > r.s.ideal_wavefronts && r.s.max_way > 1) {
        notes.push_back(fmt::format("{}-way bank conflict: lanes ask one bank for {} different words, served "
                                    "one after another ({} wavefronts where {} would do)",
                                    r.s.max_way, r.s.max_way, r.s.wavefronts, r.s.ideal_wavefronts));
    }
    if (r.s.warp_insts && r.s.thread_insts < 32 * r.s.warp_insts) {
        double lanes = static_cast<double>(r.s.thread_insts) / static_cast<double>(r.s.warp_insts);
        if (lanes < 31.5) {
            notes.push_back(fmt::format("on average {:.1f} of 32 lanes active: the rest of the warp idles "
                                        "(a branch, a bounds check or a partial warp)", lanes));
        }
    }
    std::string out;
    for (const auto& n : notes) out += (out.empty() ? "" : "; ") + n;
    return out;
}

std::string fmt_ratio(uint64_t a, uint64_t b) {
    return b ? fmt::format("{:.2f}", static_cast<double>(a) / static_cast<double>(b)) : std::string("-");
}

}  // namespace

std::string describe_launch(const launch::LaunchSpec& spec) {
    uint64_t threads = spec.threads_per_block();
    uint64_t warps = (threads + 31) / 32;
    std::string s = fmt::format("grid ({},{},{}) x block ({},{},{}): {} blocks of {} threads = {} threads; {} warps per "
                                "block, {} warps in all",
                                spec.grid[0], spec.grid[1], spec.grid[2], spec.block[0], spec.block[1], spec.block[2],
                                spec.block_count(), threads, spec.block_count() * threads, warps,
                                warps * spec.block_count());
    if (threads % 32) {
        s += fmt::format("\n          the last warp of each block is partial: {} of its 32 lanes exist", threads % 32);
    }
    return s;
}

std::string text_report(const session::PreparedLaunch& p, const session::SimRun& run,
                        const TextReportOptions& options) {
    std::ostringstream out;
    const auto& r = run.report;
    out << fmt::format("kernel    {}  ({}, device {}, simulated)\n", ir::demangled_base_name(p.kernel->name), p.ptx_name,
                       r.device);
    out << "launch    " << describe_launch(p.spec) << "\n";
    out << fmt::format("registers {} per thread ({})\n", run.registers.registers, run.registers.method);
    if (run.occupancy) {
        const auto& o = *run.occupancy;
        out << fmt::format("occupancy {} blocks per SM, {} warps per SM of {}: {:.1f} %, limited by {}\n", o.blocks_per_sm,
                           o.warps_per_sm, run.preset.sm.max_warps, 100.0 * o.occupancy,
                           device::limiter_name(o.limiter));
        if (o.blocks_per_sm > 0) {
            uint64_t per_wave = static_cast<uint64_t>(o.blocks_per_sm) * static_cast<uint64_t>(run.preset.sm_count);
            uint64_t blocks = p.spec.block_count();
            uint64_t waves = (blocks + per_wave - 1) / per_wave;
            out << fmt::format("waves     {} blocks, {} fit on the GPU at once ({} SMs): {} wave{}", blocks, per_wave,
                               run.preset.sm_count, waves, waves == 1 ? "" : "s");
            if (waves > 1 && blocks % per_wave) {
                out << fmt::format(", the last {:.1f} % full", 100.0 * static_cast<double>(blocks % per_wave) /
                                                                   static_cast<double>(per_wave));
            }
            out << "\n";
        }
    }
    out << fmt::format("executed  {} warp instructions, {} thread instructions ({:.1f} active lanes per warp "
                       "instruction)\n",
                       run.warp_instructions, run.thread_instructions,
                       run.warp_instructions ? static_cast<double>(run.thread_instructions) /
                                                   static_cast<double>(run.warp_instructions)
                                             : 0.0);
    if (r.error) {
        out << "\nerror     " << r.error->message << " (" << r.error->name << ")\n";
        if (!r.error->details.empty()) out << r.error->details << "\n";
    }
    if (!r.printf_output.empty()) out << "\nprintf output:\n" << r.printf_output;

    auto rows = collect_rows(p, run);
    if (rows.empty()) return out.str();
    std::map<uint32_t, std::vector<std::string>> sources;
    out << fmt::format("\n{:>5}  {:<44} {:>10} {:>6} {:>9} {:>11} {:>11}\n", "line", "source", "warp inst", "lanes",
                       "requests", "sect/req", "wavefronts");
    size_t shown = 0;
    for (const auto& row : rows) {
        if (shown++ >= options.max_lines) break;
        if (!sources.count(row.file)) sources[row.file] = source_text(p, row.file);
        const auto& src = sources[row.file];
        std::string text = row.file && row.line >= 1 && row.line <= src.size() ? trimmed(src[row.line - 1], 44)
                           : row.file                                          ? ""
                                                                               : "(PTX line)";
        uint64_t reqs = row.s.requests;
        std::string sect = row.global ? fmt::format("{} ({})", fmt_ratio(row.s.sectors, reqs),
                                                    fmt_ratio(row.s.ideal_sectors, reqs))
                                      : "";
        std::string wave = row.shared ? fmt::format("{} ({})", row.s.wavefronts, row.s.ideal_wavefronts) : "";
        out << fmt::format("{:>5}  {:<44} {:>10} {:>6} {:>9} {:>11} {:>11}\n", row.line, text, row.s.warp_insts,
                           fmt_ratio(row.s.thread_insts, row.s.warp_insts), reqs ? std::to_string(reqs) : "", sect,
                           wave);
        std::string why = explain(row);
        if (!why.empty()) out << "       ^ " << why << "\n";
    }
    out << "       (sectors per global request and shared-memory wavefronts, the ideal in parentheses)\n";
    return out.str();
}

}  // namespace warpsim::report
