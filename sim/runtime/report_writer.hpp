// sim/runtime/report_writer.hpp — `warpsim exec --report DIR`: the program's launches written out at exit.
#pragma once

#include <cstdio>
#include <string>

#include "sim/device/device.hpp"
#include "sim/runtime/launch_log.hpp"

namespace warpsim::runtime {

// Writes DIR/launches.jsonl (per launch the `warpsim run --json` object, with "reused", "stream" and the
// simulated start and end); problems go to `err`.
void write_reports(const std::string& dir, const LaunchLog& log, const device::DevicePreset& preset,
                   std::FILE* err);

}  // namespace warpsim::runtime
