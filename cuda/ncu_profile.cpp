// cuda/ncu_profile.cpp — running Nsight Compute on warpsim and parsing its raw CSV page.
#include "cuda/ncu_profile.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>

#include "launch/process.hpp"
#include "launch/source.hpp"
#include "launch/tools.hpp"

namespace warpsim::cuda {
namespace {

namespace fs = std::filesystem;

// One CSV line: fields separated by commas, optionally quoted with "" as an escaped quote.
std::vector<std::string> split_csv(std::string_view line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                fields.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                fields.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else if (c != '\r') {
            fields.back() += c;
        }
    }
    return fields;
}

std::vector<std::string_view> lines_of(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        auto nl = text.find('\n');
        lines.push_back(text.substr(0, nl));
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    }
    return lines;
}

// Factor from a unit as ncu prints it to the base unit (byte, nsecond, ...).
double unit_scale(const std::string& unit) {
    struct Prefixed {
        const char* unit;
        double scale;
    };
    static constexpr Prefixed kScales[] = {
        {"Kbyte", 1e3},   {"Mbyte", 1e6},   {"Gbyte", 1e9},  {"Tbyte", 1e12},   {"KB", 1e3},
        {"MB", 1e6},      {"GB", 1e9},      {"us", 1e3},     {"ms", 1e6},       {"s", 1e9},
        {"usecond", 1e3}, {"msecond", 1e6}, {"second", 1e9}, {"Ksector", 1e3},  {"Msector", 1e6},
        {"Kinst", 1e3},   {"Minst", 1e6},   {"Ginst", 1e9},  {"Krequest", 1e3}, {"Mrequest", 1e6},
    };
    for (const auto& s : kScales)
        if (unit == s.unit) return s.scale;
    return 1;
}

bool parse_value(const std::string& text, double& out) {
    std::string clean;
    for (char c : text)
        if (c != ',' && c != ' ') clean += c;
    if (clean.empty()) return false;
    auto r = std::from_chars(clean.data(), clean.data() + clean.size(), out);
    return r.ec == std::errc() && r.ptr == clean.data() + clean.size();
}

}  // namespace

std::vector<std::string> default_ncu_metrics() {
    return {
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum",
        "smsp__inst_executed.sum",
        "smsp__thread_inst_executed.sum",
        "smsp__inst_executed_op_global_ld.sum",
        "smsp__inst_executed_op_global_st.sum",
        "smsp__inst_executed_op_shared_ld.sum",
        "smsp__inst_executed_op_shared_st.sum",
        "lts__t_sectors_srcunit_tex_op_read.sum",
        "lts__t_sectors_srcunit_tex_op_write.sum",
        "dram__bytes_read.sum",
        "dram__bytes_write.sum",
        "gpu__time_duration.sum",
        "launch__registers_per_thread",
        "sm__warps_active.avg.pct_of_peak_sustained_active",
    };
}

launch::Outcome<Metrics> parse_ncu_csv(std::string_view text, const std::vector<std::string>& wanted) {
    const auto lines = lines_of(text);
    size_t header = lines.size();
    for (size_t i = 0; i < lines.size(); ++i)
        if (lines[i].starts_with("\"ID\",")) {
            header = i;
            break;
        }
    if (header == lines.size())
        return launch::Outcome<Metrics>::failure("no ncu CSV header (\"ID\",...) in the output");
    const auto names = split_csv(lines[header]);
    std::vector<std::string> units(names.size());
    size_t row = header + 1;
    if (row < lines.size() && lines[row].starts_with("\"\","))
        units = split_csv(lines[row++]);  // the units row
    for (; row < lines.size(); ++row) {
        auto fields = split_csv(lines[row]);
        if (fields.size() != names.size() || fields[0].empty()) continue;
        Metrics m;
        for (size_t c = 0; c < names.size(); ++c) {
            if (names[c].find("__") == std::string::npos) continue;  // ID, Kernel Name, Grid Size ...
            if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), names[c]) == wanted.end())
                continue;
            double v = 0;
            if (parse_value(fields[c], v)) m[names[c]] = v * unit_scale(c < units.size() ? units[c] : "");
        }
        return m;
    }
    return launch::Outcome<Metrics>::failure(
        "the ncu CSV has a header but no kernel row (was a kernel launched?)");
}

std::string find_ncu() {
    std::vector<fs::path> extra;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/opt/nvidia/nsight-compute", ec)) extra.push_back(e.path());
    std::sort(extra.begin(),
              extra.end());  // the folder's order is the file system's: the oldest version first
    return launch::find_cuda_program("ncu", extra);
}

std::vector<std::string> ncu_command(const std::string& ncu, const std::string& spec_path,
                                     const std::string& warpsim_exe,
                                     const std::vector<std::string>& metric_names,
                                     const NcuOptions& options) {
    std::string list;
    for (const auto& m : metric_names) list += (list.empty() ? "" : ",") + m;
    std::vector<std::string> argv = {ncu,
                                     "--csv",
                                     "--page",
                                     "raw",
                                     "--print-units",
                                     "base",
                                     "--clock-control",
                                     "none",
                                     "--launch-count",
                                     "1",
                                     "--metrics",
                                     list};
    if (options.command.empty()) {
        argv.insert(argv.end(),
                    {warpsim_exe, "run", spec_path, "--backend", "cuda", "--json", "--runs", "1"});
    } else {
        argv.insert(argv.end(), options.command.begin(), options.command.end());
    }
    return argv;
}

launch::Outcome<Metrics> profile_with_ncu(const std::string& spec_path, const std::string& warpsim_exe,
                                          const std::vector<std::string>& metric_names,
                                          const NcuOptions& options) {
    const std::string ncu = options.ncu.empty() ? find_ncu() : options.ncu;
    if (ncu.empty())
        return launch::Outcome<Metrics>::failure(
            "profiling needs ncu (Nsight Compute, part of the CUDA toolkit); "
            "none found in " +
            launch::cuda_program_search_words() + " or /opt/nvidia/nsight-compute/*");
    auto result = launch::run_process(ncu_command(ncu, spec_path, warpsim_exe, metric_names, options));
    auto metrics = parse_ncu_csv(result.output, metric_names);
    if (metrics.ok()) return metrics;
    std::string errors;
    for (auto line : lines_of(result.output))
        if (line.find("==ERROR==") != std::string_view::npos ||
            line.find("==WARNING==") != std::string_view::npos)
            errors += std::string(line) + "\n";
    if (errors.empty())
        errors = result.output.substr(result.output.size() > 2000 ? result.output.size() - 2000 : 0);
    return launch::Outcome<Metrics>::failure("ncu on " + spec_path + " (exit " +
                                             std::to_string(result.status) + "): " + metrics.error() + "\n" +
                                             errors);
}

}  // namespace warpsim::cuda
