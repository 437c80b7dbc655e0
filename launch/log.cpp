// launch/log.cpp — the "warpsim" logger: one per copy of the library linked into a process (the command, the
// shared library, the simulated CUDA runtime), with a distributing sink whose target can be swapped while the
// simulator's threads log.
#include "launch/log.hpp"

#include <memory>

#include <spdlog/sinks/dist_sink.h>
#include <spdlog/sinks/stdout_sinks.h>

namespace warpsim::launch::log {

namespace {

spdlog::sink_ptr stderr_sink() {
    auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
    sink->set_pattern("warpsim: %l: %v");
    return sink;
}

struct Log {
    std::shared_ptr<spdlog::sinks::dist_sink_mt> target = std::make_shared<spdlog::sinks::dist_sink_mt>();
    spdlog::logger logger{"warpsim", target};
    Log() {
        target->set_sinks({stderr_sink()});
        logger.set_level(spdlog::level::warn);
        logger.flush_on(spdlog::level::trace);  // a line at a time: the log interleaves with the reports
    }
};

// The process's log, like stderr itself: the one piece of state shared by every simulator of a process,
// because a log is where their decisions meet. Constructed on first use, thread-safe.
Log& the_log() {
    static Log log;
    return log;
}

}  // namespace

spdlog::logger& logger() {
    return the_log().logger;
}

void set_level(spdlog::level::level_enum level) {
    the_log().logger.set_level(level);
}

void set_sink(spdlog::sink_ptr sink) {
    if (!sink) sink = stderr_sink();
    sink->set_level(spdlog::level::trace);
    the_log().target->set_sinks({std::move(sink)});
}

}  // namespace warpsim::launch::log
