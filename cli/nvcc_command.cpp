// cli/nvcc_command.cpp — `warpsim nvcc ARGS...`: nvcc with what `warpsim exec` needs added: the shared CUDA
// runtime, line information for per-line reports, and PTX for the device preset's architecture.
#include "cli/commands.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "launch/process.hpp"
#include "launch/tools.hpp"

namespace warpsim::cli {

int nvcc_command(int argc, char** argv) {
    std::vector<std::string> args;
    std::string arch = "90";
    if (const char* env = std::getenv("WARPSIM_NVCC_ARCH"); env && *env) arch = env;
    bool has_arch = false, has_cudart = false, has_lineinfo = false;
    for (int i = 0; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a.rfind("-arch", 0) == 0 || a.rfind("--gpu-architecture", 0) == 0 ||
            a.rfind("-gencode", 0) == 0 || a.rfind("--generate-code", 0) == 0)
            has_arch = true;
        if (a.rfind("-cudart", 0) == 0 || a.rfind("--cudart", 0) == 0) has_cudart = true;
        if (a == "-lineinfo" || a == "--generate-line-info" || a == "-G") has_lineinfo = true;
        args.emplace_back(a);
    }
    // nvcc where warpsim's other uses of it look (PATH, then the toolkit folders), and run by its full path
    // (nvcc finds its own configuration next to itself).
    const std::string nvcc = launch::find_cuda_program("nvcc");
    if (nvcc.empty()) {
        std::fprintf(
            stderr,
            "warpsim nvcc: nvcc not found (looked in %s): install the CUDA toolkit or set CUDA_HOME\n",
            launch::cuda_program_search_words().c_str());
        return 127;
    }
    std::vector<std::string> cmd{nvcc};
    if (!has_cudart) cmd.insert(cmd.end(), {"-cudart", "shared"});
    if (!has_lineinfo) cmd.emplace_back("-lineinfo");
    // -arch=sm_XX embeds SASS and compute_XX PTX; with the program's own architectures, add the PTX.
    if (!has_arch)
        cmd.emplace_back("-arch=sm_" + arch);
    else
        cmd.emplace_back("-gencode=arch=compute_" + arch + ",code=compute_" + arch);
    cmd.insert(cmd.end(), args.begin(), args.end());
    std::vector<char*> cargs;
    cargs.reserve(cmd.size() + 1);
    for (auto& s : cmd) cargs.push_back(s.data());
    cargs.push_back(nullptr);
    // Replaced, not spawned: nvcc's output, signals and exit status are the command's own.
    std::string error;
    const int code = launch::replace_process(nvcc, cargs.data(), error);
    std::fprintf(stderr, "warpsim nvcc: cannot run %s\n", error.c_str());
    return code;
}

}  // namespace warpsim::cli
