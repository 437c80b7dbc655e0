// sim/report/progress.cpp — the progress bar of long simulations (see progress.hpp).
#include "sim/report/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

namespace warpsim::report {
namespace {

constexpr size_t kBarMax = 30, kBarMin = 10;

std::string human_rate(double per_second) {
    if (per_second < 1e3) return fmt::format("{:.0f}", per_second);
    if (per_second < 1e6) return fmt::format("{:.1f} k", per_second / 1e3);
    if (per_second < 1e9) return fmt::format("{:.1f} M", per_second / 1e6);
    return fmt::format("{:.2f} G", per_second / 1e9);
}

// Columns of the terminal behind `out`, or 80 when it does not say.
size_t terminal_width(std::FILE* out) {
    const auto columns = terminal_columns(out);
    return columns && *columns >= 20 ? *columns : 80;
}

}  // namespace

std::string format_progress(uint64_t blocks_done, uint64_t blocks_total, uint64_t thread_insts,
                            double seconds, size_t width, std::string_view label) {
    const uint64_t done = std::min(blocks_done, blocks_total);
    const double rate = seconds > 0 ? static_cast<double>(thread_insts) / seconds : 0.0;
    const std::string tail =
        fmt::format("] {}/{} blocks, {} thread-inst/s", done, blocks_total, human_rate(rate));
    const std::string head = std::string(label) + " [";
    const size_t room = width > head.size() + tail.size() ? width - head.size() - tail.size() : 0;
    const size_t bar = std::clamp(room, kBarMin, kBarMax);
    const size_t filled = blocks_total ? static_cast<size_t>(done * bar / blocks_total) : 0;
    std::string line = head + std::string(filled, '#') + std::string(bar - filled, '.') + tail;
    if (line.size() > width) line.resize(width);
    return line;
}

bool is_terminal(std::FILE* stream) {
    return stream && isatty(fileno(stream)) == 1;
}

std::optional<size_t> terminal_columns(std::FILE* stream) {
    winsize ws{};
    if (!is_terminal(stream) || ioctl(fileno(stream), TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0)
        return std::nullopt;
    return ws.ws_col;
}

ProgressMeter::ProgressMeter(std::FILE* out, uint64_t blocks_total, bool enabled,
                             const ProgressOptions& options)
    : out_(out),
      blocks_total_(blocks_total),
      options_(options),
      launch_start_(std::chrono::steady_clock::now()) {
    if (!enabled || !is_terminal(out)) return;
    thread_ = std::jthread([this](const std::stop_token& stop) { watch(stop); });
}

ProgressMeter::~ProgressMeter() {
    if (!thread_.joinable()) return;
    thread_.request_stop();
    wake_.notify_all();
    thread_.join();
    if (drawn_width_) {
        std::fputs(("\r" + std::string(drawn_width_, ' ') + "\r").c_str(), out_);
        std::fflush(out_);
    }
}

void ProgressMeter::next_launch(std::string label) {
    std::lock_guard lock(mutex_);
    label_ = std::move(label);
    launch_start_ = std::chrono::steady_clock::now();
}

void ProgressMeter::watch(const std::stop_token& stop) {
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    const auto delay = std::chrono::duration<double>(options_.delay_seconds);
    const auto period = std::chrono::duration<double>(options_.interval_seconds);
    const size_t width = terminal_width(out_) - 1;  // the last column would make some terminals wrap
    std::unique_lock lock(mutex_);
    while (!stop.stop_requested()) {
        wake_.wait_for(lock, stop, std::chrono::duration_cast<clock::duration>(period), [] { return false; });
        if (stop.stop_requested()) break;
        const auto now = clock::now();
        const std::chrono::duration<double> elapsed = now - start;
        if (elapsed < delay) continue;
        const std::chrono::duration<double> this_launch = now - launch_start_;
        const std::string line =
            format_progress(progress_.blocks_done.load(std::memory_order_relaxed), blocks_total_,
                            progress_.thread_instructions.load(std::memory_order_relaxed),
                            this_launch.count(), width, label_);
        // Pad over what a longer previous line left behind.
        const std::string pad(drawn_width_ > line.size() ? drawn_width_ - line.size() : 0, ' ');
        std::fputs(("\r" + line + pad).c_str(), out_);
        std::fflush(out_);
        drawn_width_ = std::max(drawn_width_, line.size());
    }
}

}  // namespace warpsim::report
