// launch/log.hpp — warpsim's log: what the runtime and the engine decide (what is launched, which compiler,
// ptxas's cache, sampling, occupancy limits), through one spdlog logger named "warpsim". It is never spdlog's
// default logger, which belongs to the program that links warpsim. By default it writes to stderr at
// "warning" and above ("warpsim: info: ..."); `warpsim run -v` / `-vv` lower the level to info / debug, and
// the public API's warpsim::set_log redirects or silences it.
#pragma once

#include <spdlog/spdlog.h>

namespace warpsim::launch::log {

// The logger. Messages are one line each; decisions at "info", their details at "debug".
spdlog::logger& logger();

void set_level(spdlog::level::level_enum level);
// Every message to `sink` instead of stderr; nullptr: back to stderr. Safe while other threads log.
void set_sink(spdlog::sink_ptr sink);

}  // namespace warpsim::launch::log
