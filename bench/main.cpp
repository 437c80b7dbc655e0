// bench/main.cpp — warpsim_bench: times the simulator's launch (setup excluded) on bench specs with 1, 2 (or
// any listed number of) host workers and prints thread-instructions per second per core (median of N runs)
// as a Markdown table: per wall second divided by the workers, per CPU second of the process (what a loaded
// machine still shows fairly), and the wall-clock speed-up of each worker count over the first.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "sim/session/run.hpp"

namespace {

struct Sample {
    double seconds = 0;
    double cpu_seconds = 0;
    uint64_t thread_insts = 0;
    std::string hashes;       // buffer hashes: must not change with the worker count
    double sass_seconds = 0;  // decoding ptxas's cubin and planning the SASS-level counts (before the launch)
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

// One measured run: the launch's wall time and smsp__thread_inst_executed.sum from the counters.
bool run_once(const warpsim::session::PreparedLaunch& p, uint32_t workers, bool ptx_counts, Sample& out,
              std::string& error) {
    warpsim::session::SimOptions opt;
    opt.workers = workers;
    opt.ptx_level_counts = ptx_counts;
    auto run = warpsim::session::run_simulated(p, opt);
    if (!run) {
        error = run.error();
        return false;
    }
    const auto& r = run.value().report;
    if (r.error) {
        error = r.error->name + ": " + r.error->message;
        return false;
    }
    const auto it = r.metrics.find("smsp__thread_inst_executed.sum");
    out.seconds = run.value().launch_seconds;
    out.cpu_seconds = run.value().launch_cpu_seconds;
    out.sass_seconds = run.value().sass_seconds;
    out.thread_insts = it == r.metrics.end() ? 0 : static_cast<uint64_t>(it->second);
    out.hashes.clear();
    for (const auto& b : r.buffers) out.hashes += b.fnv1a + " ";
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"warpsim_bench: simulated thread-instructions per second (launch only, counting on)"};
    std::vector<std::string> specs;
    int runs = 3;
    std::string worker_list = "1,2";
    app.add_option("specs", specs, "launch spec files (default: the four in bench/specs)");
    app.add_option("-r,--runs", runs, "runs per configuration; the median is reported")
        ->check(CLI::Range(1, 100));
    app.add_option("-w,--workers", worker_list, "host worker counts to measure, comma-separated");
    bool ptx_counts = false;
    app.add_flag("--ptx-counts", ptx_counts,
                 "count the PTX as written, without the SASS plan (to measure its cost)");
    CLI11_PARSE(app, argc, argv);
    std::vector<uint32_t> workers;
    for (std::size_t at = 0; at < worker_list.size();) {
        std::size_t end = worker_list.find(',', at);
        if (end == std::string::npos) end = worker_list.size();
        try {
            workers.push_back(static_cast<uint32_t>(std::stoul(worker_list.substr(at, end - at))));
        } catch (const std::exception&) {
            std::fprintf(stderr, "--workers: '%s' is not a comma-separated list of counts\n",
                         worker_list.c_str());
            return 2;
        }
        at = end + 1;
    }
    if (specs.empty()) {
        const std::string dir = std::string(WARPSIM_SOURCE_DIR) + "/bench/specs/";
        specs = {dir + "vector_add_16M.json", dir + "transpose_padded_4096.json",
                 dir + "matmul_tiled16_1024.json", dir + "block_sum_16M.json"};
    }
    std::string header = "| spec | thread-insts |";
    std::string rule = "|---|---:|";
    for (uint32_t w : workers) {
        header += fmt::format(" {}w wall s | {}w M/s/core | {}w M/cpu-s |", w, w, w);
        rule += "---:|---:|---:|";
    }
    for (std::size_t i = 1; i < workers.size(); ++i) {
        header += fmt::format(" {}w speed-up |", workers[i]);
        rule += "---:|";
    }
    header += " SASS plan ms |";
    rule += "---:|";
    std::printf("%s\n%s\n", header.c_str(), rule.c_str());
    int status = 0;
    for (const auto& path : specs) {
        auto p = warpsim::session::prepare(path);
        if (!p) {
            std::fprintf(stderr, "%s\n", p.error().c_str());
            status = 1;
            continue;
        }
        std::string line, first_hashes, error;
        uint64_t insts = 0;
        std::vector<double> medians, sass;
        for (uint32_t w : workers) {
            std::vector<double> secs, cpu;
            for (int i = 0; i < runs; ++i) {
                Sample s;
                if (!run_once(p.value(), w, ptx_counts, s, error)) break;
                sass.push_back(s.sass_seconds);
                if (first_hashes.empty()) first_hashes = s.hashes;
                if (s.hashes != first_hashes) error = "buffer hashes differ between runs";
                insts = s.thread_insts;
                secs.push_back(s.seconds);
                cpu.push_back(s.cpu_seconds);
            }
            if (!error.empty()) break;
            const double m = median(secs);
            medians.push_back(m);
            const double c = median(cpu);
            line += fmt::format(" {:.3f} | {:.0f} | {:.0f} |", m, static_cast<double>(insts) / m / w / 1e6,
                                static_cast<double>(insts) / c / 1e6);
        }
        const auto name = std::filesystem::path(path).stem().string();
        if (!error.empty()) {
            std::fprintf(stderr, "%s: %s\n", name.c_str(), error.c_str());
            status = 1;
            continue;
        }
        for (std::size_t i = 1; i < medians.size(); ++i)
            line += fmt::format(" {:.2f} |", medians.front() / medians[i]);
        line += fmt::format(" {:.2f} |", median(sass) * 1e3);
        std::printf("| %s | %llu |%s\n", name.c_str(), static_cast<unsigned long long>(insts), line.c_str());
        std::fflush(stdout);
    }
    return status;
}
