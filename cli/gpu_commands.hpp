// cli/gpu_commands.hpp — the subcommands that use the real-GPU backend (cuda/).
#pragma once

#include "cli/commands.hpp"

namespace warpsim::cli {

int run_on_gpu_command(const RunArgs& args, const char* argv0);

}  // namespace warpsim::cli
