// sim/check/schedules.hpp — `warpsim check --schedules N`: the launch under N legal warp and block orders
// (engine::LaunchConfig::schedule_seed 0..N-1) on fresh buffers, and which buffers came out different.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "launch/elem_type.hpp"
#include "launch/outcome.hpp"
#include "sim/check/findings.hpp"
#include "sim/device/device.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/session/run.hpp"

namespace warpsim::check {

// A buffer argument's bytes after the kernel.
struct BufferSnapshot {
    size_t arg = 0;    // index in the spec's args
    std::string name;  // "args[1] out"
    launch::ElemType type = launch::ElemType::u8;
    std::vector<uint8_t> bytes;
};

// One schedule's outcome: its seed, the buffers, and the error it stopped with, if any.
struct ScheduleRun {
    uint64_t seed = 0;
    std::vector<BufferSnapshot> buffers;
    std::optional<engine::LaunchError> error;
};

// Reads every buffer argument of the spec back from a simulator the launch ran on.
std::vector<BufferSnapshot> read_buffers(const session::PreparedLaunch& p, const session::LaunchSetup& setup);

// Runs the prepared launch once with `seed` on freshly initialised buffers, no checkers attached; `progress`
// (optional) gets the launch's progress counters.
launch::Outcome<ScheduleRun> run_schedule(const session::PreparedLaunch& p,
                                          const device::DevicePreset& preset, int registers, uint64_t seed,
                                          uint64_t max_instructions,
                                          engine::LaunchProgress* progress = nullptr);

// Compares every run with the first: nullopt when all buffers agree byte for byte (and the runs stopped
// alike); otherwise one finding naming each buffer, the schedules, how many bytes and elements differ, and
// the first differing element with both values.
std::optional<Finding> compare_schedules(const std::vector<ScheduleRun>& runs);

}  // namespace warpsim::check
