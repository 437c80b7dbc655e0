// sim/runtime/options.hpp — what `warpsim exec` tells the runtime it loads into a program (environment
// variables, since the program's own command line is the program's).
#pragma once

#include <cstdint>
#include <string>

namespace warpsim::runtime {

struct Options {
    std::string device = "h200";  // WARPSIM_DEVICE: a preset name or preset file
    std::string report_dir;       // WARPSIM_REPORT: write the reports there at exit; empty: none
    bool check = false;           // WARPSIM_CHECK=1: the correctness checkers on every launch
    bool quiet = false;           // WARPSIM_QUIET=1: no summary at exit
    bool reuse = true;            // WARPSIM_REUSE=0: simulate every launch even when an identical one ran
    uint32_t workers = 0;         // WARPSIM_THREADS: host threads for the simulator (0: all cores)
    uint64_t max_instructions = 20'000'000'000ull;  // WARPSIM_MAX_INSTRUCTIONS, per launch
};

// The options from the environment; `problems` gets a line per value it could not use.
Options options_from_environment(std::string& problems);

}  // namespace warpsim::runtime
