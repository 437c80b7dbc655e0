// launch/nvrtc.cpp — NVRTC through dlopen: the handful of entry points compile_cuda needs, declared here
// with NVRTC's C signatures (nvrtc.h), so no CUDA header is needed to build.
#include "launch/nvrtc.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "launch/log.hpp"
#include "launch/source.hpp"
#include "launch/tools.hpp"

namespace warpsim::launch {

namespace {

using nvrtcProgram = struct nvrtcProgramOpaque*;
using nvrtcResult = int;  // NVRTC_SUCCESS = 0

struct Nvrtc {
    std::string path;
    int major = 0, minor = 0;
    nvrtcResult (*create)(nvrtcProgram*, const char*, const char*, int, const char* const*,
                          const char* const*) = nullptr;
    nvrtcResult (*compile)(nvrtcProgram, int, const char* const*) = nullptr;
    nvrtcResult (*ptx_size)(nvrtcProgram, size_t*) = nullptr;
    nvrtcResult (*ptx)(nvrtcProgram, char*) = nullptr;
    nvrtcResult (*log_size)(nvrtcProgram, size_t*) = nullptr;
    nvrtcResult (*log)(nvrtcProgram, char*) = nullptr;
    nvrtcResult (*destroy)(nvrtcProgram*) = nullptr;
    const char* (*error_string)(nvrtcResult) = nullptr;
    nvrtcResult (*version)(int*, int*) = nullptr;
};

template <class F>
bool bind(void* lib, const char* name, F& f) {
    f = reinterpret_cast<F>(::dlsym(lib, name));
    return f != nullptr;
}

std::vector<std::string> candidates() {
    std::vector<std::string> names = {"libnvrtc.so.13", "libnvrtc.so.12"};
    std::vector<std::string> out = names;
    for (const auto& root : cuda_roots()) {
        for (const auto& n : names) out.push_back((std::filesystem::path(root) / "lib64" / n).string());
    }
    return out;
}

// Loaded once per process and kept (like libcuda): nullptr when no NVRTC can be loaded.
const Nvrtc* nvrtc() {
    static std::once_flag once;
    static Nvrtc loaded;
    static bool ok = false;
    std::call_once(once, [] {
        for (const auto& candidate : candidates()) {
            void* lib = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (!lib) continue;
            Nvrtc n;
            n.path = candidate;
            if (bind(lib, "nvrtcCreateProgram", n.create) && bind(lib, "nvrtcCompileProgram", n.compile) &&
                bind(lib, "nvrtcGetPTXSize", n.ptx_size) && bind(lib, "nvrtcGetPTX", n.ptx) &&
                bind(lib, "nvrtcGetProgramLogSize", n.log_size) && bind(lib, "nvrtcGetProgramLog", n.log) &&
                bind(lib, "nvrtcDestroyProgram", n.destroy) &&
                bind(lib, "nvrtcGetErrorString", n.error_string) && bind(lib, "nvrtcVersion", n.version) &&
                n.version(&n.major, &n.minor) == 0) {
                loaded = n;
                ok = true;
                return;
            }
            ::dlclose(lib);
        }
    });
    return ok ? &loaded : nullptr;
}

// "sm_90" or "compute_90" -> "compute_90": NVRTC makes PTX for a virtual architecture.
std::string virtual_arch(const std::string& arch) {
    if (arch.rfind("sm_", 0) == 0) return "compute_" + arch.substr(3);
    return arch;
}

Outcome<CompiledPtx> nvrtc_compile(const Nvrtc& n, const std::string& source, const std::string& name,
                                   const std::string& arch) {
    using Fail = Outcome<CompiledPtx>;
    nvrtcProgram prog = nullptr;
    if (nvrtcResult r = n.create(&prog, source.c_str(), name.c_str(), 0, nullptr, nullptr); r != 0)
        return Fail::failure(name + ": NVRTC (" + n.path +
                             ") could not take the source: " + n.error_string(r));
    const std::string arch_option = "--gpu-architecture=" + virtual_arch(arch);
    const char* options[] = {arch_option.c_str(), "--generate-line-info"};
    const nvrtcResult compiled = n.compile(prog, 2, options);
    size_t log_size = 0;
    std::string log;
    if (n.log_size(prog, &log_size) == 0 && log_size > 1) {
        log.resize(log_size);
        if (n.log(prog, log.data()) == 0) log.resize(log_size - 1);  // without its terminating NUL
    }
    Fail out = Fail::failure("");
    if (compiled != 0) {
        out = Fail::failure("NVRTC " + std::to_string(n.major) + "." + std::to_string(n.minor) +
                            " failed on " + name + " (" + n.error_string(compiled) + "):\n" + log);
    } else {
        size_t size = 0;
        std::string ptx;
        if (n.ptx_size(prog, &size) == 0 && size > 0) {
            ptx.resize(size);
            if (n.ptx(prog, ptx.data()) == 0) ptx.resize(size - 1);
        }
        if (ptx.empty())
            out = Fail::failure(name + ": NVRTC compiled it but gave no PTX");
        else
            out = CompiledPtx{std::move(ptx),
                              "nvrtc " + std::to_string(n.major) + "." + std::to_string(n.minor)};
    }
    n.destroy(&prog);
    return out;
}

}  // namespace

std::string find_nvrtc() {
    const Nvrtc* n = nvrtc();
    return n ? n->path : "";
}

namespace {

Outcome<CompiledPtx> compile_uncached(const std::string& source, const std::string& name,
                                      const std::string& arch, CudaCompiler which) {
    using Fail = Outcome<CompiledPtx>;
    if (which != CudaCompiler::nvcc) {
        if (const Nvrtc* n = nvrtc()) {
            auto compiled = nvrtc_compile(*n, source, name, arch);
            // NVRTC compiles device code only: a source with host code or host headers (<cstdio>, a main())
            // goes to nvcc when there is one, as a whole program would.
            if (compiled)
                log::logger().info("compiled {} for {} in process with NVRTC {}.{} ({})", name, arch,
                                   n->major, n->minor, n->path);
            if (compiled || which == CudaCompiler::nvrtc || find_nvcc().empty()) return compiled;
            log::logger().info(
                "NVRTC could not compile {} (device code only; host code or headers?): nvcc "
                "compiles it",
                name);
            log::logger().debug("NVRTC said: {}", compiled.error());
        } else if (which == CudaCompiler::automatic) {
            log::logger().info("no libnvrtc.so.13 or .12 could be loaded: nvcc compiles {}", name);
        }
        if (which == CudaCompiler::nvrtc)
            return Fail::failure(
                "compiling " + name +
                " with NVRTC: no libnvrtc.so.13 or .12 could be loaded (on "
                "the loader's path, under $CUDA_HOME, $CUDA_PATH or /usr/local/cuda); install "
                "the CUDA toolkit's NVRTC or let nvcc compile it");
    }
    if (find_nvcc().empty())
        return Fail::failure("compiling " + name +
                             " needs NVRTC or nvcc from the CUDA toolkit, and neither was "
                             "found; install the toolkit (or just its NVRTC) or give the .ptx");
    auto ptx = compile_cu_text(source, name, arch);
    if (!ptx) return Fail::failure(ptx.error());
    log::logger().info("compiled {} for {} with nvcc ({})", name, arch, find_nvcc());
    return CompiledPtx{std::move(ptx.value()), "nvcc"};
}

}  // namespace

Outcome<CompiledPtx> compile_cuda(const std::string& source, const std::string& name, const std::string& arch,
                                  CudaCompiler which) {
    // Successful compiles are kept per process, keyed by everything that goes into them (a notebook that
    // runs a cell again does not compile again); failures are not kept.
    using Key = std::tuple<std::string, std::string, std::string, CudaCompiler>;
    static std::mutex mutex;
    static std::map<Key, CompiledPtx> cache;
    Key key{source, name, arch, which};
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (auto it = cache.find(key); it != cache.end()) {
            log::logger().debug("{}: the PTX {} made of this source for {} before, from the process's cache",
                                name, it->second.compiler, arch);
            return it->second;
        }
    }
    auto compiled = compile_uncached(source, name, arch, which);
    if (compiled) {
        std::lock_guard<std::mutex> lock(mutex);
        cache.emplace(std::move(key), compiled.value());
    }
    return compiled;
}

}  // namespace warpsim::launch
