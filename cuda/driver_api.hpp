// cuda/driver_api.hpp — the CUDA driver API, loaded from libcuda.so.1 with dlopen at run time so that
// warpsim builds and runs where no driver (or toolkit) is installed. The few types and constants used are
// declared here with the values of cuda.h (CUDA 13), which has kept them stable since CUDA 4.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "launch/outcome.hpp"

namespace warpsim::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUevent_st;
struct CUstream_st;
using CUcontext = CUctx_st*;
using CUmodule = CUmod_st*;
using CUfunction = CUfunc_st*;
using CUevent = CUevent_st*;
using CUstream = CUstream_st*;

inline constexpr CUresult CUDA_SUCCESS = 0;

// CUdevice_attribute values used here.
enum DeviceAttr : int {
    kAttrClockRateKHz = 13,
    kAttrMultiprocessorCount = 16,
    kAttrMemoryClockRateKHz = 36,
    kAttrMemoryBusWidth = 37,
    kAttrL2CacheSize = 38,
    kAttrMaxThreadsPerSM = 39,
    kAttrComputeCapabilityMajor = 75,
    kAttrComputeCapabilityMinor = 76,
    kAttrMaxSharedPerSM = 81,
    kAttrMaxRegistersPerSM = 82,
    kAttrMaxSharedPerBlockOptin = 97,
    kAttrMaxBlocksPerSM = 106,
};

// CUfunction_attribute values used here.
enum FuncAttr : int {
    kFuncMaxThreadsPerBlock = 0,
    kFuncSharedSizeBytes = 1,
    kFuncLocalSizeBytes = 3,
    kFuncNumRegs = 4,
    kFuncMaxDynamicSharedSizeBytes = 8,
};

// CUjit_option values used here.
enum JitOption : int {
    kJitInfoLogBuffer = 3,
    kJitInfoLogBufferSizeBytes = 4,
    kJitErrorLogBuffer = 5,
    kJitErrorLogBufferSizeBytes = 6,
    kJitLogVerbose = 12,
};

// CU_LAUNCH_PARAM_* markers of cuLaunchKernel's `extra` array.
inline void* const kLaunchParamEnd = nullptr;
inline void* const kLaunchParamBufferPointer = reinterpret_cast<void*>(std::uintptr_t{1});
inline void* const kLaunchParamBufferSize = reinterpret_cast<void*>(std::uintptr_t{2});

// cuLaunchKernelEx's configuration (cuda.h's CUlaunchConfig / CUlaunchAttribute layout, CUDA 12+), with the
// one attribute used here: the thread-block cluster dimension (CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4).
inline constexpr int kLaunchAttributeClusterDimension = 4;
struct LaunchAttribute {
    int id = 0;
    char pad[8 - sizeof(int)] = {};
    union Value {
        char bytes[64];
        struct {
            unsigned x, y, z;
        } cluster_dim;
    } value{};
};
struct LaunchConfigEx {
    unsigned grid_x = 1, grid_y = 1, grid_z = 1, block_x = 1, block_y = 1, block_z = 1, shared_bytes = 0;
    CUstream stream = nullptr;
    LaunchAttribute* attrs = nullptr;
    unsigned num_attrs = 0;
};

// Function pointers of the driver entry points, resolved by their versioned symbol names.
struct DriverFunctions {
    CUresult (*cuInit)(unsigned) = nullptr;
    CUresult (*cuDriverGetVersion)(int*) = nullptr;
    CUresult (*cuDeviceGetCount)(int*) = nullptr;
    CUresult (*cuDeviceGet)(CUdevice*, int) = nullptr;
    CUresult (*cuDeviceGetName)(char*, int, CUdevice) = nullptr;
    CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice) = nullptr;
    CUresult (*cuCtxCreate_v2)(CUcontext*, unsigned, CUdevice) = nullptr;
    CUresult (*cuCtxDestroy_v2)(CUcontext) = nullptr;
    CUresult (*cuCtxSynchronize)() = nullptr;
    CUresult (*cuModuleLoadDataEx)(CUmodule*, const void*, unsigned, int*, void**) = nullptr;
    CUresult (*cuModuleUnload)(CUmodule) = nullptr;
    CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
    CUresult (*cuFuncGetAttribute)(int*, int, CUfunction) = nullptr;
    CUresult (*cuFuncSetAttribute)(CUfunction, int, int) = nullptr;
    CUresult (*cuMemAlloc_v2)(CUdeviceptr*, size_t) = nullptr;
    CUresult (*cuMemFree_v2)(CUdeviceptr) = nullptr;
    CUresult (*cuMemcpyHtoD_v2)(CUdeviceptr, const void*, size_t) = nullptr;
    CUresult (*cuMemcpyDtoH_v2)(void*, CUdeviceptr, size_t) = nullptr;
    CUresult (*cuMemsetD8_v2)(CUdeviceptr, unsigned char, size_t) = nullptr;
    CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                               unsigned, CUstream, void**, void**) = nullptr;
    // Optional (CUDA 12+): only cluster launches use it; nullptr where the driver lacks it.
    CUresult (*cuLaunchKernelEx)(const LaunchConfigEx*, CUfunction, void**, void**) = nullptr;
    CUresult (*cuEventCreate)(CUevent*, unsigned) = nullptr;
    CUresult (*cuEventDestroy_v2)(CUevent) = nullptr;
    CUresult (*cuEventRecord)(CUevent, CUstream) = nullptr;
    CUresult (*cuEventSynchronize)(CUevent) = nullptr;
    CUresult (*cuEventElapsedTime)(float*, CUevent, CUevent) = nullptr;
    CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int*, CUfunction, int, size_t) = nullptr;
    CUresult (*cuGetErrorName)(CUresult, const char**) = nullptr;
    CUresult (*cuGetErrorString)(CUresult, const char**) = nullptr;
};

// Owns the dlopen handle. Move-only; unloading happens in the destructor.
class Driver {
  public:
    // Loads `library` (normally "libcuda.so.1") and resolves every entry point. Failure messages:
    // "no CUDA driver found (libcuda.so.1: <dlerror>)" or "... lacks symbol cuX".
    static launch::Outcome<Driver> load(const std::string& library = "libcuda.so.1");

    Driver(Driver&& other) noexcept;
    Driver& operator=(Driver&& other) noexcept;
    Driver(const Driver&) = delete;
    Driver& operator=(const Driver&) = delete;
    ~Driver();

    const DriverFunctions& fn() const { return fn_; }
    // "CUDA_ERROR_INVALID_VALUE" and "invalid argument", from the driver itself.
    std::string error_name(CUresult r) const;
    std::string error_string(CUresult r) const;

  private:
    Driver() = default;
    void* handle_ = nullptr;
    DriverFunctions fn_;
};

}  // namespace warpsim::cuda
