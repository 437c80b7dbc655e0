// cli/explain_command.cpp — `warpsim explain SPEC --line N`: one source line as one warp ran it, a summary
// first and lane by lane with --lanes (sim/report/explain.hpp does the work).
#include <array>
#include <charconv>
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "launch/json_text.hpp"
#include "sim/report/explain.hpp"
#include "sim/report/progress.hpp"
#include "sim/report/text_report.hpp"
#include "sim/session/run.hpp"

namespace warpsim::cli {
namespace {

constexpr int kExitBadInput = 2;

// "3", "3,1" or "3,1,0" -> blockIdx (missing components 0); nullopt on anything else.
std::optional<std::array<uint32_t, 3>> parse_block(const std::string& text) {
    std::array<uint32_t, 3> v{0, 0, 0};
    const char* p = text.data();
    const char* end = text.data() + text.size();
    for (size_t i = 0; i < 3; ++i) {
        auto [next, ec] = std::from_chars(p, end, v[i]);
        if (ec != std::errc() || next == p) return std::nullopt;
        p = next;
        if (p == end) return v;
        if (*p != ',') return std::nullopt;
        ++p;
    }
    return std::nullopt;
}

}  // namespace

int explain_command(const ExplainArgs& args) {
    if ((args.line == 0) == (args.ptx_line == 0)) {
        std::cerr << "warpsim explain: " << args.spec
                  << ": say which line to explain: --line N (a line of the CUDA "
                  << "source) or --ptx-line N (a line of the PTX)\n";
        return kExitBadInput;
    }
    report::ExplainRequest request;
    if (args.line) request.line = args.line;
    if (args.ptx_line) request.ptx_line = args.ptx_line;
    if (!args.block.empty()) {
        request.block = parse_block(args.block);
        if (!request.block) {
            std::cerr << "warpsim explain: --block " << args.block
                      << ": write blockIdx as X, X,Y or X,Y,Z (e.g. "
                      << "--block 3,1)\n";
            return kExitBadInput;
        }
    }
    if (args.warp >= 0) request.warp = static_cast<uint32_t>(args.warp);
    request.worst = args.worst;
    request.max_thread_instructions = args.max_instructions;

    auto prepared = session::prepare(args.spec, args.device);
    if (!prepared) {
        std::cerr << "warpsim: " << prepared.error() << "\n";
        return kExitBadInput;
    }
    for (const auto& w : prepared->warnings) std::cerr << "warpsim: warning: " << w << "\n";
    // A line without memory instructions or a warp outside the launch is known before anything runs.
    if (auto bad = report::explain_request_error(*prepared, request)) {
        std::cerr << "warpsim explain: " << *bad << "\n";
        return kExitBadInput;
    }
    session::SimOptions options;
    options.device = args.device;
    options.max_instructions = args.max_instructions;
    options.time_limit_seconds = args.time_limit;
    options.workers = args.workers;
    const bool show_progress = !args.json;
    std::optional<launch::Outcome<session::SimRun>> run;
    {
        report::ProgressMeter meter(stderr, prepared->spec.block_count(), show_progress);
        options.progress = &meter.counters();
        run.emplace(session::run_simulated(*prepared, options));
    }
    if (!*run) {
        std::cerr << "warpsim: " << run->error() << "\n";
        return kExitBadInput;
    }
    std::optional<launch::Outcome<report::Explanation>> explained;
    {
        report::ProgressMeter meter(stderr, prepared->spec.block_count(), show_progress);
        request.progress = &meter.counters();
        explained.emplace(report::explain_line(*prepared, run->value(), request));
    }
    if (!*explained) {
        std::cerr << "warpsim explain: " << explained->error() << "\n";
        return kExitBadInput;
    }
    // The whole-run figures come from a run that stopped at the budget: said first, and in the exit code.
    const bool budget = (*run)->stopped_at_budget();
    const std::string advice = "raise --max-instructions N for whole-run figures";
    if (args.json) {
        auto j = report::explain_json(explained->value());
        if (budget) {
            j["budget_stop"] = (*run)->report.extra.at("budget_stop");
            j["budget_stop"].erase("partial_metrics");
            j["budget_stop"]["advice"] = advice;
        }
        std::cout << launch::json_text(j) << "\n";
    } else {
        if (budget) std::cout << report::budget_stop_text(run->value(), advice).substr(1) << "\n";
        std::cout << report::explain_text(explained->value(), args.lanes);
    }
    return budget ? kExitBudget : 0;
}

}  // namespace warpsim::cli
