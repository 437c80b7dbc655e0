// sim/report/progress.hpp — a one-line progress bar on stderr for simulations that take more than a second:
// blocks done of the grid and simulated thread-instructions per second, redrawn in place while the launch
// runs. Drawn only on a terminal; a file, a pipe, --quiet and --json get nothing.
//
// The engine's side is engine::LaunchProgress (two relaxed atomic counters the launch updates); a small
// thread here polls them a few times a second. Nothing in the engine waits for the display.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "sim/engine/simulator.hpp"

namespace warpsim::report {

// The bar's text, at most `width` columns (the bar itself shrinks first):
//   "simulating [##########..........] 512/1024 blocks, 125.0 M thread-inst/s"
// `label` replaces "simulating" (warpsim check: "checking", "schedule 2/4"). Rates: below 1000 as is, then k,
// M, G (powers of 1000). `seconds` <= 0 gives a rate of 0.
std::string format_progress(uint64_t blocks_done, uint64_t blocks_total, uint64_t thread_insts,
                            double seconds, size_t width = 80, std::string_view label = "simulating");

// Whether `stream` is a terminal (isatty on its file descriptor).
bool is_terminal(std::FILE* stream);
// The columns of the terminal behind `stream`, or nullopt when it is not one or does not say.
std::optional<size_t> terminal_columns(std::FILE* stream);

struct ProgressOptions {
    double delay_seconds = 1.0;     // nothing is drawn before the launch has run this long
    double interval_seconds = 0.2;  // redraw period
};

// Draws the progress of one launch of `blocks_total` blocks on `out` while it lives: give counters() to the
// launch (LaunchConfig::progress, session::SimOptions::progress). When `out` is not a terminal, or `enabled`
// is false (--quiet, --json), no thread is started and nothing is ever written. The destructor stops the
// thread and erases the line if one was drawn, so the report that follows starts on a clean line.
class ProgressMeter {
  public:
    ProgressMeter(std::FILE* out, uint64_t blocks_total, bool enabled = true,
                  const ProgressOptions& options = {});
    ~ProgressMeter();
    ProgressMeter(const ProgressMeter&) = delete;
    ProgressMeter& operator=(const ProgressMeter&) = delete;

    engine::LaunchProgress& counters() { return progress_; }
    // Several launches in a row (warpsim check --schedules N): the next one is called `label` on the bar, and
    // its rate counts from now. Each launch zeroes the counters itself when it starts.
    void next_launch(std::string label);
    bool active() const { return thread_.joinable(); }  // a drawing thread runs (the output is a terminal)

  private:
    void watch(const std::stop_token& stop);

    std::FILE* out_;
    uint64_t blocks_total_;
    ProgressOptions options_;
    engine::LaunchProgress progress_;
    std::mutex mutex_;
    std::condition_variable_any wake_;
    size_t drawn_width_ = 0;                              // columns of the line on screen (0: nothing drawn)
    std::string label_ = "simulating";                    // guarded by mutex_
    std::chrono::steady_clock::time_point launch_start_;  // guarded by mutex_: when the rate starts
    std::jthread thread_;
};

}  // namespace warpsim::report
