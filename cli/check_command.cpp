// cli/check_command.cpp — `warpsim check SPEC`: memcheck, racecheck, synccheck and initcheck on the
// simulator, reported like compute-sanitizer, with a progress bar on a terminal. Exit code: 0 nothing found,
// 1 findings, 2 bad input (or a kernel the simulator cannot run to the end), 4 nothing found before the run
// stopped at the instruction budget.
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "launch/json_text.hpp"
#include "sim/check/run_check.hpp"
#include "sim/report/progress.hpp"
#include "sim/session/run.hpp"

namespace warpsim::cli {

int check_command(const CheckArgs& args) {
    constexpr int kExitFound = 1, kExitBadInput = 2;
    check::CheckOptions options;
    if (auto err = check::select_tools(args.tools, options)) {
        std::cerr << "warpsim: " << *err << "\n";
        return kExitBadInput;
    }
    options.device = args.device;
    options.max_instructions = args.max_instructions;
    options.time_limit_seconds = args.time_limit;
    options.schedules = args.schedules;
    options.schedule_seed = args.schedule_seed;
    options.race_global = !args.shared_only;
    auto prepared = session::prepare(args.spec, args.device);
    if (!prepared) {
        std::cerr << "warpsim: " << prepared.error() << "\n";
        return kExitBadInput;
    }
    for (const auto& w : prepared->warnings) std::cerr << "warpsim: warning: " << w << "\n";
    // A progress bar on stderr while the checked launch and each further schedule run (as `warpsim run` has):
    // after a second, on a terminal only, never with --json or --quiet.
    auto run = [&] {
        report::ProgressMeter meter(stderr, prepared->spec.block_count(), !args.json && !args.quiet);
        options.progress = &meter.counters();
        options.launch_started = [&meter](uint32_t k, uint32_t n) {
            meter.next_launch(n == 1 ? std::string("checking") : fmt::format("schedule {}/{}", k + 1, n));
        };
        auto result = check::check_prepared(*prepared, options);
        options.progress = nullptr;
        options.launch_started = nullptr;
        return result;
    }();
    if (!run) {
        std::cerr << "warpsim: " << run.error() << "\n";
        return kExitBadInput;
    }
    if (args.quiet) {
        // --quiet: nothing but the exit code
    } else if (args.json) {
        nlohmann::json j = check::render_json(run->log, run->ctx);
        j["kernel"] = run->kernel;
        j["spec"] = run->spec;
        j["notes"] = run->notes;
        if (!run->incomplete.empty()) j["incomplete"] = run->incomplete;
        if (run->stopped_at_budget())
            j["budget_stop"] = {{"max_instructions", args.max_instructions},
                                {"partial", true},
                                {"advice", "raise --max-instructions N"}};
        std::cout << launch::json_text(j) << "\n";
    } else {
        std::string tools;
        for (auto [on, name] : {std::pair{options.memcheck, "memcheck"},
                                {options.racecheck, "racecheck"},
                                {options.synccheck, "synccheck"},
                                {options.initcheck, "initcheck"}})
            if (on) tools += (tools.empty() ? "" : " ") + std::string(name);
        std::string header = fmt::format("{} ({}), tools: {}", run->kernel, run->spec, tools);
        for (const auto& n : run->notes) header += "\n========= note: " + n;
        if (!run->incomplete.empty())
            header += "\n========= the check is incomplete: " + run->incomplete +
                      "; findings before that point follow";
        std::cout << check::render_text(run->log, run->ctx, header);
    }
    if (run->log.size()) return kExitFound;
    if (run->stopped_at_budget()) return kExitBudget;
    return run->incomplete.empty() ? 0 : kExitBadInput;
}

}  // namespace warpsim::cli
