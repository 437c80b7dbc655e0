// sim/runtime/api_register.cpp — what nvcc's generated host code calls before main: the fatbinary, its
// kernels and variables (crt/host_runtime.h: __cudaRegisterFatBinary, __cudaRegisterFunction,
// __cudaRegisterVar, ...).
#include "sim/runtime/runtime.hpp"

#include <fmt/format.h>

#include "sim/runtime/fatbin.hpp"

using warpsim::runtime::Runtime;

namespace {

// The handle the program keeps for the fatbinary: the runtime's Module.
void** handle_of(warpsim::runtime::Module& m) {
    return reinterpret_cast<void**>(&m);
}
warpsim::runtime::Module* module_of(void** handle) {
    return reinterpret_cast<warpsim::runtime::Module*>(handle);
}

void read_module(warpsim::runtime::Module& m, const void* wrapper, uint32_t arch, int serial) {
    using namespace warpsim::runtime;
    const WrapperView w = read_wrapper(wrapper);
    if (!w.error.empty()) {
        m.load_error = w.error;
        return;
    }
    if (w.prelinked) {
        // -rdc=true: each translation unit's relocatable fatbinary carries its PTX; they are linked later.
        for (const void* const* p = w.prelinked; *p; ++p) {
            auto c = read_fatbin(static_cast<const uint8_t*>(*p), UINT64_MAX);
            if (!c.error.empty()) {
                m.load_error = c.error;
                return;
            }
            const PtxChoice part = choose_ptx(c.entries, arch);
            if (part.ptx.empty()) {
                m.load_error = part.reason;
                return;
            }
            m.ptx_parts.push_back(part.ptx);
        }
        if (!m.ptx_parts.empty()) {
            m.ptx = m.ptx_parts.front();
            m.ptx_name = fmt::format("fatbinary{}.rdc.ptx", serial);
            return;
        }
    }
    std::vector<FatbinEntry> entries;
    auto add = [&](const uint8_t* data) {
        auto c = read_fatbin(data, UINT64_MAX);
        if (!c.error.empty()) m.load_error = c.error;
        for (auto& e : c.entries) entries.push_back(std::move(e));
    };
    if (w.data) add(w.data);
    if (!m.load_error.empty()) return;
    const PtxChoice choice = choose_ptx(entries, arch);
    if (choice.ptx.empty()) {
        m.load_error = choice.reason;
        return;
    }
    m.ptx = choice.ptx;
    m.ptx_name = fmt::format("fatbinary{}.compute_{}.ptx", serial, choice.arch);
}

}  // namespace

extern "C" {

void** __cudaRegisterFatBinary(void* fatCubin) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    const int serial = static_cast<int>(rt.module_count());
    auto& m = rt.add_module(fatCubin);
    const auto& cc = rt.preset().compute_capability;
    read_module(m, fatCubin, static_cast<uint32_t>(cc.major * 10 + cc.minor), serial);
    return handle_of(m);
}

void __cudaRegisterFatBinaryEnd(void** fatCubinHandle) {
    (void)fatCubinHandle;
}

void __cudaUnregisterFatBinary(void** fatCubinHandle) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (auto* m = module_of(fatCubinHandle)) rt.remove_module(m->handle_key);
}

void __cudaRegisterFunction(void** fatCubinHandle, const char* hostFun, char* deviceFun,
                            const char* deviceName, int thread_limit, uint3* tid, uint3* bid, dim3* bDim,
                            dim3* gDim, int* wSize) {
    (void)deviceFun, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    rt.add_kernel(*module_of(fatCubinHandle), hostFun, deviceName ? deviceName : "");
}

void __cudaRegisterVar(void** fatCubinHandle, char* hostVar, char* deviceAddress, const char* deviceName,
                       int ext, size_t size, int constant, int global) {
    (void)deviceAddress, (void)ext, (void)global;
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    rt.add_variable(*module_of(fatCubinHandle), hostVar, deviceName ? deviceName : "", size, constant != 0);
}

void __cudaRegisterManagedVar(void** fatCubinHandle, void** hostVarPtrAddress, char* deviceAddress,
                              const char* deviceName, int ext, size_t size, int constant, int global) {
    (void)deviceAddress, (void)ext, (void)global;
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    auto& v = rt.add_variable(*module_of(fatCubinHandle), hostVarPtrAddress, deviceName ? deviceName : "",
                              size, constant != 0);
    // The host reaches a __managed__ variable through *hostVarPtrAddress, set when the module is loaded
    // (__cudaInitModule at the host's first access, or the first launch): Runtime::place_managed.
    v.managed = true;
}

char __cudaInitModule(void** fatCubinHandle) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    return rt.ensure_loaded(*module_of(fatCubinHandle)) ? 0 : 1;
}

void __cudaRegisterTexture(void**, const struct textureReference*, const void**, const char*, int, int, int) {
    warpsim::runtime::not_supported("__cudaRegisterTexture (texture references)");
}

void __cudaRegisterSurface(void**, const struct surfaceReference*, const void**, const char*, int, int) {
    warpsim::runtime::not_supported("__cudaRegisterSurface (surface references)");
}

}  // extern "C"
