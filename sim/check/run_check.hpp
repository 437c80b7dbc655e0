// sim/check/run_check.hpp — `warpsim check`: run a launch spec on the simulator with the checkers attached
// (memcheck, racecheck, synccheck, initcheck) and collect their findings.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/check/context.hpp"
#include "sim/check/findings.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/launch/outcome.hpp"
#include "sim/session/run.hpp"

namespace warpsim::check {

struct CheckOptions {
    bool memcheck = true, racecheck = true, synccheck = true, initcheck = true;
    bool race_global = true;          // racecheck also global memory within a block
    std::string device = "h200";
    uint64_t max_instructions = 20'000'000'000ull;
    uint32_t schedules = 1;           // warp orders to try; >1 needs an engine warp-order seed (not there yet)
};

struct CheckResult {
    std::shared_ptr<ir::Module> module;  // keeps ctx.module alive
    CheckContext ctx;
    FindingLog log;
    std::optional<engine::LaunchError> error;  // where the run stopped, if it did
    std::vector<std::string> notes;            // things the user should know (unsupported options, ...)
    std::string incomplete;                    // non-empty: the simulator could not run the kernel to the end
                                               // (an instruction it does not execute yet): not a finding
    std::string kernel;
    std::string spec;
};

// Runs a prepared launch once with the selected checkers. Fails only when the run cannot be set up.
launch::Outcome<CheckResult> check_prepared(const session::PreparedLaunch& p, const CheckOptions& options);

// Parses the tool list of `--tool` ("memcheck", "racecheck,synccheck", "all"); error text on an unknown name.
std::optional<std::string> select_tools(const std::vector<std::string>& names, CheckOptions& options);

}  // namespace warpsim::check
