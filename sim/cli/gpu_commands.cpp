// sim/cli/gpu_commands.cpp — `warpsim run --backend cuda` and `warpsim compare`.
#include "sim/cli/gpu_commands.hpp"

#include <iostream>

namespace warpsim::cli {

int run_on_gpu_command(const RunArgs&, const char*) {
    std::cerr << "warpsim: the GPU backend is not wired into the command line yet\n";
    return 2;
}

int compare_command(const CompareArgs&, const char*) {
    std::cerr << "warpsim: the GPU backend is not wired into the command line yet\n";
    return 2;
}

}  // namespace warpsim::cli
