// cli/nvcc_command.cpp — `warpsim nvcc ARGS...`: nvcc with what `warpsim exec` needs added: the shared CUDA
// runtime, line information for per-line reports, and PTX for the device preset's architecture.
#include "cli/commands.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

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
    std::vector<std::string> cmd{"nvcc"};
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
    execvp("nvcc", cargs.data());
    std::fprintf(stderr, "warpsim nvcc: cannot run nvcc: %s (put the CUDA toolkit's bin/ on PATH)\n",
                 std::strerror(errno));
    return 127;
}

}  // namespace warpsim::cli
