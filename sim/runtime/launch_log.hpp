// sim/runtime/launch_log.hpp — every kernel launch of the program as the runtime ran it: what the summary at
// exit and the reports (warpsim exec --report) are made of.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace warpsim::runtime {

struct LaunchRecord {
    std::string kernel;  // demangled name
    std::array<uint32_t, 3> grid{1, 1, 1}, block{1, 1, 1};
    uint32_t shared_bytes = 0;
    double predicted_us = 0;          // the timing model's time; 0 when the launch failed
    std::string bound;                // what limits it ("dram", "issue", ...), from the timing model
    std::string error;                // the CUDA error name when the launch failed
    bool reused = false;              // the result of an identical earlier launch (kernel, arguments, memory)
    uint64_t findings = 0;            // --check: findings of the checkers in this launch
    std::string not_reusable;         // why a later identical launch cannot reuse this one ("" when it can)
    uint64_t stream = 0;              // the cudaStream_t as a number (0: the default stream)
    double start_us = 0, end_us = 0;  // on the simulated clock
    std::string json;                 // the `warpsim run --json` object of the launch (one line)
    std::string text_report;   // with --report: the text report `warpsim run` prints (simulated launches)
    std::string timing_basis;  // the prediction's clock, parameters and expected error, for the summary
};

// A copy or memset on the simulated clock (the report's timeline).
struct CopyRecord {
    std::string kind;  // "H2D", "D2H", "D2D", "H2H", "memset"
    uint64_t bytes = 0;
    bool pinned = false;
    uint64_t stream = 0;
    double start_us = 0, end_us = 0;
};

class LaunchLog {
  public:
    void add(LaunchRecord r) { records_.push_back(std::move(r)); }
    void add_copy(CopyRecord c) { copies_.push_back(std::move(c)); }
    const std::vector<LaunchRecord>& records() const { return records_; }
    const std::vector<CopyRecord>& copies() const { return copies_; }
    // One line per kernel on `out`: name, launches, grid x block, predicted time, what stands out.
    void print_summary(std::FILE* out) const;

  private:
    std::vector<LaunchRecord> records_;
    std::vector<CopyRecord> copies_;
};

}  // namespace warpsim::runtime
