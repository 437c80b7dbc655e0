// cuda/driver_api.cpp — dlopen of libcuda and resolution of the driver entry points.
#include "cuda/driver_api.hpp"

#include <dlfcn.h>

#include <utility>

namespace warpsim::cuda {
namespace {

template <class F>
bool resolve(void* handle, const char* name, F& out, std::string& missing) {
    void* sym = ::dlsym(handle, name);
    if (!sym) {
        if (missing.empty()) missing = name;
        return false;
    }
    out = reinterpret_cast<F>(sym);
    return true;
}

std::string resolve_all(void* h, DriverFunctions& f) {
    std::string missing;
#define WARPSIM_RESOLVE(name) resolve(h, #name, f.name, missing)
    WARPSIM_RESOLVE(cuInit);
    WARPSIM_RESOLVE(cuDriverGetVersion);
    WARPSIM_RESOLVE(cuDeviceGetCount);
    WARPSIM_RESOLVE(cuDeviceGet);
    WARPSIM_RESOLVE(cuDeviceGetName);
    WARPSIM_RESOLVE(cuDeviceGetAttribute);
    WARPSIM_RESOLVE(cuCtxCreate_v2);
    WARPSIM_RESOLVE(cuCtxDestroy_v2);
    WARPSIM_RESOLVE(cuCtxSynchronize);
    WARPSIM_RESOLVE(cuModuleLoadDataEx);
    WARPSIM_RESOLVE(cuModuleUnload);
    WARPSIM_RESOLVE(cuModuleGetFunction);
    WARPSIM_RESOLVE(cuFuncGetAttribute);
    WARPSIM_RESOLVE(cuFuncSetAttribute);
    WARPSIM_RESOLVE(cuMemAlloc_v2);
    WARPSIM_RESOLVE(cuMemFree_v2);
    WARPSIM_RESOLVE(cuMemcpyHtoD_v2);
    WARPSIM_RESOLVE(cuMemcpyDtoH_v2);
    WARPSIM_RESOLVE(cuMemsetD8_v2);
    WARPSIM_RESOLVE(cuLaunchKernel);
    WARPSIM_RESOLVE(cuEventCreate);
    WARPSIM_RESOLVE(cuEventDestroy_v2);
    WARPSIM_RESOLVE(cuEventRecord);
    WARPSIM_RESOLVE(cuEventSynchronize);
    WARPSIM_RESOLVE(cuEventElapsedTime);
    WARPSIM_RESOLVE(cuOccupancyMaxActiveBlocksPerMultiprocessor);
    WARPSIM_RESOLVE(cuGetErrorName);
    WARPSIM_RESOLVE(cuGetErrorString);
#undef WARPSIM_RESOLVE
    std::string optional_missing;
    resolve(h, "cuLaunchKernelEx", f.cuLaunchKernelEx, optional_missing);
    return missing;
}

}  // namespace

launch::Outcome<Driver> Driver::load(const std::string& library) {
    void* handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* why = ::dlerror();
        return launch::Outcome<Driver>::failure("no CUDA driver found (" + std::string(why ? why : library) +
                                                ")");
    }
    Driver d;
    d.handle_ = handle;
    std::string missing = resolve_all(handle, d.fn_);
    if (!missing.empty())
        return launch::Outcome<Driver>::failure("the CUDA driver " + library + " lacks symbol " + missing +
                                                " (driver too old?)");
    return d;
}

Driver::Driver(Driver&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)), fn_(other.fn_) {}

Driver& Driver::operator=(Driver&& other) noexcept {
    if (this != &other) {
        if (handle_) ::dlclose(handle_);
        handle_ = std::exchange(other.handle_, nullptr);
        fn_ = other.fn_;
    }
    return *this;
}

Driver::~Driver() {
    if (handle_) ::dlclose(handle_);
}

std::string Driver::error_name(CUresult r) const {
    const char* s = nullptr;
    if (fn_.cuGetErrorName && fn_.cuGetErrorName(r, &s) == CUDA_SUCCESS && s) return s;
    return "CUDA_ERROR_" + std::to_string(r);
}

std::string Driver::error_string(CUresult r) const {
    const char* s = nullptr;
    if (fn_.cuGetErrorString && fn_.cuGetErrorString(r, &s) == CUDA_SUCCESS && s) return s;
    return "unknown CUDA error " + std::to_string(r);
}

}  // namespace warpsim::cuda
