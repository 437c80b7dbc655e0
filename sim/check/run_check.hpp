// sim/check/run_check.hpp — `warpsim check`: run a launch spec on the simulator with the checkers attached
// (memcheck, racecheck, synccheck, initcheck) and collect their findings.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "launch/outcome.hpp"
#include "sim/check/context.hpp"
#include "sim/check/findings.hpp"
#include "sim/check/schedules.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/session/run.hpp"

namespace warpsim::check {

struct CheckOptions {
    bool memcheck = true, racecheck = true, synccheck = true, initcheck = true;
    bool race_global = true;  // racecheck also global memory within a block
    std::string device = "h200";
    uint64_t max_instructions = 20'000'000'000ull;
    double time_limit_seconds = engine::kDefaultTimeLimitSeconds;  // per launch; 0: none
    uint32_t schedules = 1;      // legal warp orders to run (seeds 0..N-1) and compare the buffers of
    uint64_t schedule_seed = 0;  // the order the checkers watch (engine::LaunchConfig::schedule_seed)
    // A progress display (optional): every launch of the check (the checked one, then each further schedule)
    // counts into `progress`, and `launch_started(k, n)` is called before launch k of n (k from 0).
    engine::LaunchProgress* progress = nullptr;
    std::function<void(uint32_t, uint32_t)> launch_started;
};

struct CheckResult {
    std::shared_ptr<ir::Module> module;  // keeps ctx.module alive
    CheckContext ctx;
    FindingLog log;
    std::optional<engine::LaunchError> error;  // where the run stopped, if it did
    std::vector<std::string> notes;            // things the user should know (unsupported options, ...)
    std::string incomplete;                    // non-empty: the simulator could not run the kernel to the end
                                               // (an instruction it does not execute yet, the instruction
                                               // budget): not a finding
    std::string kernel;
    std::string spec;
    std::vector<ScheduleRun> schedules;  // with --schedules N > 1: the checked run first, then the others
    bool stopped_at_budget() const { return error && error->kind == engine::Fault::budget_exhausted; }
};

// Runs a prepared launch once with the selected checkers (in the order of options.schedule_seed); with
// options.schedules = N > 1 also N - 1 further orders without checkers, and adds a finding when buffers
// differ. Fails only when a run cannot be set up.
launch::Outcome<CheckResult> check_prepared(const session::PreparedLaunch& p, const CheckOptions& options);

// Names for the launch's memory, as every checker's message gives them: the block's shared window (its
// .shared variables after the reserved region of `preset`), the spec's buffers at the device addresses
// `setup` gave them ("args[2] c") and the module's global variables. `warpsim explain` names its lanes'
// addresses with it.
void name_launch_memory(CheckContext& ctx, const session::PreparedLaunch& p,
                        const session::LaunchSetup& setup, const device::DevicePreset& preset);

// Parses the tool list of `--tool` ("memcheck", "racecheck,synccheck", "all"); error text on an unknown name.
std::optional<std::string> select_tools(const std::vector<std::string>& names, CheckOptions& options);

}  // namespace warpsim::check
