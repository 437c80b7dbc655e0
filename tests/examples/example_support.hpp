// tests/examples/example_support.hpp — running the example specs for the seed-number tests: prepare +
// simulate, per-instruction counts of one kind of memory access, and buffers read back through the simulator
// API.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/simulator.hpp"
#include "sim/session/run.hpp"

namespace warpsim::examples_test {

// examples/specs/NAME.json (or tests/examples/specs/NAME.json when `ours` is set), prepared; fails the test
// case if the spec does not load.
session::PreparedLaunch prepare_example(const std::string& name, bool ours = false);

// session::run_simulated with two host workers; fails the test case if the run cannot be set up.
session::SimRun simulate(const session::PreparedLaunch& p, uint64_t max_instructions = 20'000'000'000ull);

// Counts summed over the kernel's instructions with this opcode and state space (ld + global, ...).
struct AccessTotals {
    uint32_t instructions = 0;  // PTX instructions of that kind that ran
    uint64_t warp_insts = 0, lanes = 0, requests = 0, sectors = 0, ideal_sectors = 0, wavefronts = 0,
             ideal_wavefronts = 0;
};
AccessTotals totals(const session::PreparedLaunch& p, const session::SimRun& run, ir::Opcode op,
                    ir::Space space);

// The launch run once more on a fresh engine::Simulator, with each buffer argument read back afterwards.
struct Readback {
    engine::LaunchResult result;
    std::vector<std::vector<uint8_t>> buffers;  // per spec argument; empty for scalars
    std::vector<float> floats(size_t arg) const;
    std::vector<int32_t> ints(size_t arg) const;
};
Readback run_and_read(const session::PreparedLaunch& p);

}  // namespace warpsim::examples_test
