// cli/exec_command.cpp — `warpsim exec [options] ./prog args...`: looks at the program, then runs it with
// warpsim's libcudart.so.13 in place of NVIDIA's, so that every kernel runs on the simulated GPU.
#include "cli/commands.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "launch/process.hpp"
#include "launch/tools.hpp"
#include "sim/device/device.hpp"
#include "sim/runtime/program_inspect.hpp"

namespace warpsim::cli {
namespace {

constexpr int kExitBadInput = 2;
constexpr int kRuntimeMajor = 13;

const char* kUsage =
    "usage: warpsim exec [options] PROGRAM [ARGS...]\n"
    "Runs a CUDA program (built with nvcc -cudart shared) with every kernel on the simulated GPU.\n"
    "Options end at PROGRAM; everything after it is the program's own.\n"
    "  --device PRESET    device preset name or file (default h200; see `warpsim devices`)\n"
    "  --report DIR       write per-launch reports to DIR after the program exits\n"
    "  --threads N        host threads for the simulator (default: all cores)\n"
    "  --max-instructions N  stop a kernel after N thread-instructions (default 2e10)\n"
    "  --check            memcheck, racecheck, synccheck and initcheck on every launch (findings on stderr)\n"
    "  --no-reuse         simulate every launch, also one identical to an earlier launch on unchanged "
    "memory\n"
    "  --quiet            no per-kernel summary on stderr at exit\n";

// The runtime library: WARPSIM_CUDART if set, else next to the warpsim executable (build tree: lib/, install:
// ../lib/warpsim/).
std::string find_runtime_library(const char* argv0) {
    if (const char* env = std::getenv("WARPSIM_CUDART"); env && *env) return env;
    std::error_code ec;
    std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) exe = std::filesystem::absolute(argv0, ec);
    const auto dir = exe.parent_path();
    for (const auto& candidate :
         {dir / "lib" / "libcudart.so.13", dir / ".." / "lib" / "warpsim" / "libcudart.so.13"}) {
        if (std::filesystem::exists(candidate, ec)) return candidate.lexically_normal().string();
    }
    return {};
}

std::string arch_list(const std::vector<uint32_t>& archs, const char* prefix) {
    std::string s;
    for (uint32_t a : archs) s += (s.empty() ? "" : ", ") + std::string(prefix) + std::to_string(a);
    return s;
}

// Why the program cannot run on the simulator (with what to do), or empty when it can.
std::string refusal(const std::string& program, const runtime::ProgramInfo& info, uint32_t arch) {
    using Kind = runtime::ProgramInfo::Kind;
    switch (info.kind) {
        case Kind::unreadable:
            return info.error;
        case Kind::static_cudart:
            return program +
                   " is linked with the static CUDA runtime (nvcc's default), which warpsim cannot replace: "
                   "relink with -cudart shared, or build with `warpsim nvcc`";
        case Kind::shared_cudart:
            if (info.cudart_major != kRuntimeMajor) {
                return program + " was built for CUDA " + std::to_string(info.cudart_major) +
                       " (libcudart.so." + std::to_string(info.cudart_major) +
                       "); warpsim implements the CUDA " + std::to_string(kRuntimeMajor) +
                       " runtime: rebuild it with CUDA " + std::to_string(kRuntimeMajor);
            }
            if (info.ptx_archs.empty()) {
                return program + " carries no PTX" +
                       (info.sass_archs.empty()
                            ? std::string()
                            : " (only SASS for " + arch_list(info.sass_archs, "sm_") + ")") +
                       ", and warpsim runs PTX: build with -arch=sm_" + std::to_string(arch) +
                       " (which embeds compute_" + std::to_string(arch) +
                       " PTX), or build with `warpsim nvcc`";
            }
            for (uint32_t a : info.ptx_archs)
                if (a <= arch) return {};
            return program + "'s PTX (" + arch_list(info.ptx_archs, "compute_") +
                   ") is for a newer GPU than the device "
                   "preset (sm_" +
                   std::to_string(arch) + "): build with -arch=sm_" + std::to_string(arch) +
                   " or choose another --device";
        default:
            return {};
    }
}

}  // namespace

int exec_command(int argc, char** argv, const char* argv0) {
    std::string device = "h200", report, threads, max_instructions;
    bool quiet = false, no_reuse = false, check = false;
    int i = 0;
    for (; i < argc; ++i) {
        const std::string_view a = argv[i];
        auto value = [&](std::string& out) {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "warpsim exec: %s needs a value\n%s", argv[i], kUsage);
                return false;
            }
            out = argv[++i];
            return true;
        };
        if (a == "--") {
            ++i;
            break;
        }
        if (a.empty() || a[0] != '-') break;  // the program: options end here
        if (a == "-h" || a == "--help") {
            std::fputs(kUsage, stdout);
            return 0;
        }
        if (a == "--device") {
            if (!value(device)) return kExitBadInput;
        } else if (a == "--report") {
            if (!value(report)) return kExitBadInput;
        } else if (a == "--threads") {
            if (!value(threads)) return kExitBadInput;
        } else if (a == "--max-instructions") {
            if (!value(max_instructions)) return kExitBadInput;
        } else if (a == "--check") {
            check = true;
        } else if (a == "--quiet") {
            quiet = true;
        } else if (a == "--no-reuse") {
            no_reuse = true;
        } else {
            std::fprintf(stderr, "warpsim exec: unknown option %s (options end at the program's path)\n%s",
                         argv[i], kUsage);
            return kExitBadInput;
        }
    }
    if (i >= argc) {
        std::fprintf(stderr, "warpsim exec: no program given\n%s", kUsage);
        return kExitBadInput;
    }
    // A name without a slash: a file of that name in the current folder (as warpsim exec always took it),
    // else the first on PATH, as a shell would. Either way the resolved file is the one inspected and run, so
    // a CUDA program found on PATH runs on the simulator too.
    const std::string program = argv[i];
    std::string path = program;
    if (program.find('/') == std::string::npos) {
        std::error_code ec;
        if (!std::filesystem::exists(program, ec)) path = launch::find_on_path(program);
        if (path.empty()) {
            std::fprintf(stderr, "warpsim exec: %s: not found in the current folder or on PATH\n",
                         program.c_str());
            return 127;
        }
    }
    auto preset = device::load_preset(device);
    if (!preset) {
        std::fprintf(stderr, "warpsim exec: --device %s: %s\n", device.c_str(), preset.error().c_str());
        return kExitBadInput;
    }
    const auto& cc = preset->compute_capability;
    const uint32_t arch = static_cast<uint32_t>(cc.major * 10 + cc.minor);

    // The program replaces warpsim (launch::replace_process, not a child): it keeps the process id, the
    // terminal, signals and exit status, and LD_PRELOAD set below reaches it.
    std::string exec_error;
    const auto info = runtime::inspect_program(path);
    if (info.kind == runtime::ProgramInfo::Kind::not_elf ||
        info.kind == runtime::ProgramInfo::Kind::no_cuda) {
        const int code =
            launch::replace_process(path, argv + i, exec_error);  // not a CUDA program: it just runs
        std::fprintf(stderr, "warpsim exec: %s\n", exec_error.c_str());
        return code;
    }
    if (auto why = refusal(program, info, arch); !why.empty()) {
        std::fprintf(stderr, "warpsim exec: %s\n", why.c_str());
        return kExitBadInput;
    }
    const std::string library = find_runtime_library(argv0);
    if (library.empty()) {
        std::fprintf(stderr,
                     "warpsim exec: warpsim's libcudart.so.13 was not found next to the warpsim executable "
                     "(lib/libcudart.so.13); set WARPSIM_CUDART to its path\n");
        return kExitBadInput;
    }
    std::string preload = library;
    if (const char* old = std::getenv("LD_PRELOAD"); old && *old) preload += std::string(":") + old;
    setenv("LD_PRELOAD", preload.c_str(), 1);
    setenv("WARPSIM_DEVICE", device.c_str(), 1);
    if (!report.empty()) setenv("WARPSIM_REPORT", std::filesystem::absolute(report).string().c_str(), 1);
    if (quiet) setenv("WARPSIM_QUIET", "1", 1);
    if (check) setenv("WARPSIM_CHECK", "1", 1);
    if (no_reuse) setenv("WARPSIM_REUSE", "0", 1);
    if (!threads.empty()) setenv("WARPSIM_THREADS", threads.c_str(), 1);
    if (!max_instructions.empty()) setenv("WARPSIM_MAX_INSTRUCTIONS", max_instructions.c_str(), 1);
    const int code = launch::replace_process(path, argv + i, exec_error);
    std::fprintf(stderr, "warpsim exec: %s\n", exec_error.c_str());
    return code;
}

}  // namespace warpsim::cli
