// cuda/ncu_profile.hpp — collecting the counts metrics with Nsight Compute: run warpsim itself under
// `ncu --csv --page raw`, and read the CSV (header row, units row, one row per profiled kernel).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "launch/outcome.hpp"

namespace warpsim::cuda {

using Metrics = std::map<std::string, double>;

// The Nsight Compute metrics that correspond to the simulator's counts (until sim/counts exports its
// table, this list is kept here; the names are the keys of RunReport::metrics).
std::vector<std::string> default_ncu_metrics();

// Parses ncu's `--csv --page raw` output (other lines, such as the profiled program's own output and
// ==PROF== lines, are skipped). Values are converted to base units using the units row (Kbyte -> byte
// times 1000, us -> ns times 1000 ...). Takes the first kernel row. With `wanted` non-empty only those
// columns are kept (ncu's raw page adds device__attribute_*, launch__* and more to the requested ones).
launch::Outcome<Metrics> parse_ncu_csv(std::string_view text, const std::vector<std::string>& wanted = {});

// Where ncu is: launch::find_cuda_program("ncu") (PATH, $CUDA_HOME/bin, $CUDA_PATH/bin, /usr/local/cuda/bin),
// then /opt/nvidia/nsight-compute/*/ in version order; "" if none.
std::string find_ncu();

struct NcuOptions {
    std::string ncu;  // "" -> find_ncu()
    std::vector<std::string>
        command;  // the program to profile; empty -> EXE run SPEC --backend cuda --json --runs 1
};

// Runs `ncu --csv --page raw --print-units base --clock-control none --launch-count 1 --metrics LIST
// EXE run SPEC --backend cuda --json --runs 1` and returns the metrics of the first kernel launched (the
// hashed run on fresh buffers). GPU clocks are left alone (--clock-control none).
launch::Outcome<Metrics> profile_with_ncu(const std::string& spec_path, const std::string& warpsim_exe,
                                          const std::vector<std::string>& metric_names,
                                          const NcuOptions& options = {});

// The argument vector profile_with_ncu runs (for messages and tests).
std::vector<std::string> ncu_command(const std::string& ncu, const std::string& spec_path,
                                     const std::string& warpsim_exe,
                                     const std::vector<std::string>& metric_names, const NcuOptions& options);

}  // namespace warpsim::cuda
