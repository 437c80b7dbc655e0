// sim/runtime/api_device.cpp — device queries and configuration: cudaDeviceProp and cudaDeviceGetAttribute
// from the preset (sim/device/cuda_attributes), kernel attributes from ptxas's figures and the kernel's PTX,
// the occupancy API through the project's calculator (sim/device/occupancy), limits, flags and versions. The
// one simulated device is device 0; the error codes are those the H200's runtime returned
// (tests/hardware/programs/README.md).
#include "sim/runtime/runtime.hpp"

#include <algorithm>
#include <cstring>

#include "launch/hash.hpp"
#include "sim/device/cuda_attributes.hpp"
#include "sim/device/occupancy.hpp"

using warpsim::runtime::Kernel;
using warpsim::runtime::Runtime;

namespace {

constexpr int runtime_version = 13000;  // CUDA 13.0, the toolkit whose ABI this library implements
constexpr int driver_version = 13000;   // what the H200's driver 580.159.04 reported

int attribute(const warpsim::device::DevicePreset& p, cudaDeviceAttr a) {
    return static_cast<int>(warpsim::device::cuda_attribute(p, static_cast<int>(a)).value_or(0));
}

void fill_properties(const warpsim::device::DevicePreset& p, cudaDeviceProp& prop) {
    std::memset(&prop, 0, sizeof prop);
    std::string name =
        p.cuda_runtime ? p.cuda_runtime->product_name : p.description.substr(0, p.description.find(" ("));
    std::snprintf(prop.name, sizeof prop.name, "%s", name.c_str());
    // A stable identity per preset (a simulated device has no serial number).
    uint64_t h = warpsim::launch::fnv1a64(std::string_view(p.name));
    std::memcpy(prop.uuid.bytes, &h, sizeof h);
    std::memcpy(prop.uuid.bytes + 8, &h, sizeof h);
    auto a = [&](cudaDeviceAttr attr) { return attribute(p, attr); };
    prop.totalGlobalMem = static_cast<size_t>(p.memory.bytes);
    prop.sharedMemPerBlock = static_cast<size_t>(a(cudaDevAttrMaxSharedMemoryPerBlock));
    prop.regsPerBlock = a(cudaDevAttrMaxRegistersPerBlock);
    prop.warpSize = a(cudaDevAttrWarpSize);
    prop.memPitch = static_cast<size_t>(a(cudaDevAttrMaxPitch));
    prop.maxThreadsPerBlock = a(cudaDevAttrMaxThreadsPerBlock);
    prop.maxThreadsDim[0] = a(cudaDevAttrMaxBlockDimX);
    prop.maxThreadsDim[1] = a(cudaDevAttrMaxBlockDimY);
    prop.maxThreadsDim[2] = a(cudaDevAttrMaxBlockDimZ);
    prop.maxGridSize[0] = a(cudaDevAttrMaxGridDimX);
    prop.maxGridSize[1] = a(cudaDevAttrMaxGridDimY);
    prop.maxGridSize[2] = a(cudaDevAttrMaxGridDimZ);
    prop.totalConstMem = static_cast<size_t>(a(cudaDevAttrTotalConstantMemory));
    prop.major = a(cudaDevAttrComputeCapabilityMajor);
    prop.minor = a(cudaDevAttrComputeCapabilityMinor);
    prop.textureAlignment = static_cast<size_t>(a(cudaDevAttrTextureAlignment));
    prop.texturePitchAlignment = static_cast<size_t>(a(cudaDevAttrTexturePitchAlignment));
    prop.multiProcessorCount = a(cudaDevAttrMultiProcessorCount);
    prop.integrated = a(cudaDevAttrIntegrated);
    prop.canMapHostMemory = a(cudaDevAttrCanMapHostMemory);
    prop.maxTexture1D = a(cudaDevAttrMaxTexture1DWidth);
    prop.maxTexture1DMipmap = a(cudaDevAttrMaxTexture1DMipmappedWidth);
    prop.maxTexture2D[0] = a(cudaDevAttrMaxTexture2DWidth);
    prop.maxTexture2D[1] = a(cudaDevAttrMaxTexture2DHeight);
    prop.maxTexture2DMipmap[0] = a(cudaDevAttrMaxTexture2DMipmappedWidth);
    prop.maxTexture2DMipmap[1] = a(cudaDevAttrMaxTexture2DMipmappedHeight);
    prop.maxTexture2DLinear[0] = a(cudaDevAttrMaxTexture2DLinearWidth);
    prop.maxTexture2DLinear[1] = a(cudaDevAttrMaxTexture2DLinearHeight);
    prop.maxTexture2DLinear[2] = a(cudaDevAttrMaxTexture2DLinearPitch);
    prop.maxTexture2DGather[0] = a(cudaDevAttrMaxTexture2DGatherWidth);
    prop.maxTexture2DGather[1] = a(cudaDevAttrMaxTexture2DGatherHeight);
    prop.maxTexture3D[0] = a(cudaDevAttrMaxTexture3DWidth);
    prop.maxTexture3D[1] = a(cudaDevAttrMaxTexture3DHeight);
    prop.maxTexture3D[2] = a(cudaDevAttrMaxTexture3DDepth);
    prop.maxTexture3DAlt[0] = a(cudaDevAttrMaxTexture3DWidthAlt);
    prop.maxTexture3DAlt[1] = a(cudaDevAttrMaxTexture3DHeightAlt);
    prop.maxTexture3DAlt[2] = a(cudaDevAttrMaxTexture3DDepthAlt);
    prop.maxTextureCubemap = a(cudaDevAttrMaxTextureCubemapWidth);
    prop.maxTexture1DLayered[0] = a(cudaDevAttrMaxTexture1DLayeredWidth);
    prop.maxTexture1DLayered[1] = a(cudaDevAttrMaxTexture1DLayeredLayers);
    prop.maxTexture2DLayered[0] = a(cudaDevAttrMaxTexture2DLayeredWidth);
    prop.maxTexture2DLayered[1] = a(cudaDevAttrMaxTexture2DLayeredHeight);
    prop.maxTexture2DLayered[2] = a(cudaDevAttrMaxTexture2DLayeredLayers);
    prop.maxTextureCubemapLayered[0] = a(cudaDevAttrMaxTextureCubemapLayeredWidth);
    prop.maxTextureCubemapLayered[1] = a(cudaDevAttrMaxTextureCubemapLayeredLayers);
    prop.maxSurface1D = a(cudaDevAttrMaxSurface1DWidth);
    prop.maxSurface2D[0] = a(cudaDevAttrMaxSurface2DWidth);
    prop.maxSurface2D[1] = a(cudaDevAttrMaxSurface2DHeight);
    prop.maxSurface3D[0] = a(cudaDevAttrMaxSurface3DWidth);
    prop.maxSurface3D[1] = a(cudaDevAttrMaxSurface3DHeight);
    prop.maxSurface3D[2] = a(cudaDevAttrMaxSurface3DDepth);
    prop.maxSurface1DLayered[0] = a(cudaDevAttrMaxSurface1DLayeredWidth);
    prop.maxSurface1DLayered[1] = a(cudaDevAttrMaxSurface1DLayeredLayers);
    prop.maxSurface2DLayered[0] = a(cudaDevAttrMaxSurface2DLayeredWidth);
    prop.maxSurface2DLayered[1] = a(cudaDevAttrMaxSurface2DLayeredHeight);
    prop.maxSurface2DLayered[2] = a(cudaDevAttrMaxSurface2DLayeredLayers);
    prop.maxSurfaceCubemap = a(cudaDevAttrMaxSurfaceCubemapWidth);
    prop.maxSurfaceCubemapLayered[0] = a(cudaDevAttrMaxSurfaceCubemapLayeredWidth);
    prop.maxSurfaceCubemapLayered[1] = a(cudaDevAttrMaxSurfaceCubemapLayeredLayers);
    prop.surfaceAlignment = static_cast<size_t>(a(cudaDevAttrSurfaceAlignment));
    prop.concurrentKernels = a(cudaDevAttrConcurrentKernels);
    prop.ECCEnabled = a(cudaDevAttrEccEnabled);
    prop.pciBusID = a(cudaDevAttrPciBusId);
    prop.pciDeviceID = a(cudaDevAttrPciDeviceId);
    prop.pciDomainID = a(cudaDevAttrPciDomainId);
    prop.tccDriver = a(cudaDevAttrTccDriver);
    prop.asyncEngineCount = a(cudaDevAttrAsyncEngineCount);
    prop.unifiedAddressing = a(cudaDevAttrUnifiedAddressing);
    prop.memoryBusWidth = a(cudaDevAttrGlobalMemoryBusWidth);
    prop.l2CacheSize = a(cudaDevAttrL2CacheSize);
    prop.persistingL2CacheMaxSize = a(cudaDevAttrMaxPersistingL2CacheSize);
    prop.maxThreadsPerMultiProcessor = a(cudaDevAttrMaxThreadsPerMultiProcessor);
    prop.streamPrioritiesSupported = a(cudaDevAttrStreamPrioritiesSupported);
    prop.globalL1CacheSupported = a(cudaDevAttrGlobalL1CacheSupported);
    prop.localL1CacheSupported = a(cudaDevAttrLocalL1CacheSupported);
    prop.sharedMemPerMultiprocessor = static_cast<size_t>(a(cudaDevAttrMaxSharedMemoryPerMultiprocessor));
    prop.regsPerMultiprocessor = a(cudaDevAttrMaxRegistersPerMultiprocessor);
    prop.managedMemory = a(cudaDevAttrManagedMemory);
    prop.isMultiGpuBoard = a(cudaDevAttrIsMultiGpuBoard);
    prop.multiGpuBoardGroupID = a(cudaDevAttrMultiGpuBoardGroupID);
    prop.hostNativeAtomicSupported = a(cudaDevAttrHostNativeAtomicSupported);
    prop.pageableMemoryAccess = a(cudaDevAttrPageableMemoryAccess);
    prop.concurrentManagedAccess = a(cudaDevAttrConcurrentManagedAccess);
    prop.computePreemptionSupported = a(cudaDevAttrComputePreemptionSupported);
    prop.canUseHostPointerForRegisteredMem = a(cudaDevAttrCanUseHostPointerForRegisteredMem);
    prop.cooperativeLaunch = a(cudaDevAttrCooperativeLaunch);
    prop.sharedMemPerBlockOptin = static_cast<size_t>(a(cudaDevAttrMaxSharedMemoryPerBlockOptin));
    prop.pageableMemoryAccessUsesHostPageTables = a(cudaDevAttrPageableMemoryAccessUsesHostPageTables);
    prop.directManagedMemAccessFromHost = a(cudaDevAttrDirectManagedMemAccessFromHost);
    prop.maxBlocksPerMultiProcessor = a(cudaDevAttrMaxBlocksPerMultiprocessor);
    prop.accessPolicyMaxWindowSize = a(cudaDevAttrMaxAccessPolicyWindowSize);
    prop.reservedSharedMemPerBlock = static_cast<size_t>(a(cudaDevAttrReservedSharedMemoryPerBlock));
    prop.hostRegisterSupported = a(cudaDevAttrHostRegisterSupported);
    prop.sparseCudaArraySupported = a(cudaDevAttrSparseCudaArraySupported);
    prop.hostRegisterReadOnlySupported = a(cudaDevAttrHostRegisterReadOnlySupported);
    prop.timelineSemaphoreInteropSupported = a(cudaDevAttrTimelineSemaphoreInteropSupported);
    prop.memoryPoolsSupported = a(cudaDevAttrMemoryPoolsSupported);
    prop.gpuDirectRDMASupported = a(cudaDevAttrGPUDirectRDMASupported);
    prop.gpuDirectRDMAFlushWritesOptions =
        static_cast<unsigned>(a(cudaDevAttrGPUDirectRDMAFlushWritesOptions));
    prop.gpuDirectRDMAWritesOrdering = a(cudaDevAttrGPUDirectRDMAWritesOrdering);
    prop.memoryPoolSupportedHandleTypes = static_cast<unsigned>(a(cudaDevAttrMemoryPoolSupportedHandleTypes));
    prop.deferredMappingCudaArraySupported = a(cudaDevAttrDeferredMappingCudaArraySupported);
    prop.ipcEventSupported = a(cudaDevAttrIpcEventSupport);
    prop.clusterLaunch = a(cudaDevAttrClusterLaunch);
    prop.unifiedFunctionPointers =
        a(cudaDevAttrReserved129);  // cudaDevAttrUnifiedFunctionPointers, renamed in 13
    prop.deviceNumaConfig = a(cudaDevAttrNumaConfig);
    prop.deviceNumaId = a(cudaDevAttrNumaId);
    prop.mpsEnabled = a(cudaDevAttrMpsEnabled);
    prop.hostNumaId = a(cudaDevAttrHostNumaId);
    prop.gpuPciDeviceID = static_cast<unsigned>(a(cudaDevAttrGpuPciDeviceId));
    prop.gpuPciSubsystemID = static_cast<unsigned>(a(cudaDevAttrGpuPciSubsystemId));
    prop.hostNumaMultinodeIpcSupported = a(cudaDevAttrHostNumaMultinodeIpcSupported);
}

}  // namespace

namespace {

// What ptxas and the PTX say of a registered kernel; the error code when its module cannot be used.
struct KernelFacts {
    cudaError_t error = cudaSuccess;
    warpsim::session::RegisterInfo registers;
    int max_threads = 0;  // cudaFuncAttributes::maxThreadsPerBlock
};

KernelFacts kernel_facts(Runtime& rt, Kernel& k) {
    KernelFacts f;
    if (rt.ensure_loaded(*k.module)) {
        f.error = k.module->ptx.empty() ? cudaErrorNoKernelImageForDevice : cudaErrorInvalidPtx;
        return f;
    }
    if (!k.function || !k.function->is_entry) {
        f.error = cudaErrorInvalidDeviceFunction;
        return f;
    }
    if (!k.registers)
        k.registers = warpsim::session::kernel_registers(warpsim::runtime::prepared_for(k), rt.preset());
    f.registers = *k.registers;
    const auto& p = rt.preset();
    int threads = p.block.max_threads;
    const auto& maxntid = k.function->perf.maxntid;
    if (maxntid[0] != 0) {
        int64_t bound = int64_t{maxntid[0]} * std::max(1u, maxntid[1]) * std::max(1u, maxntid[2]);
        threads = static_cast<int>(std::min<int64_t>(threads, bound));
    }
    // The registers of a block: per warp, rounded up to the allocation unit; the warps that fit in a block's
    // register budget and in each scheduler's share of the register file.
    if (f.registers.registers > 0) {
        const int unit = p.sm.register_allocation_unit;
        const int per_warp = (f.registers.registers * p.warp_size + unit - 1) / unit * unit;
        const int per_partition = p.sm.registers / p.sm.sub_partitions;
        const int warps =
            std::min(p.block.max_registers / per_warp, per_partition / per_warp * p.sm.sub_partitions);
        threads = std::min(threads, warps * p.warp_size);
    }
    f.max_threads = threads;
    return f;
}

warpsim::device::KernelResources resources(const Kernel& k, const KernelFacts& f, int block,
                                           size_t dynamic_shared) {
    warpsim::device::KernelResources r;
    r.threads_per_block = block;
    r.registers_per_thread = f.registers.registers;
    r.static_shared_bytes = f.registers.static_shared_bytes;
    r.dynamic_shared_bytes = static_cast<int64_t>(dynamic_shared);
    if (k.max_dynamic_shared_optin != 0) r.max_dynamic_shared_bytes = k.max_dynamic_shared_optin;
    r.carveout_percent = k.carveout_percent;
    r.barriers_per_block = f.registers.barriers;
    return r;
}

bool valid_device(int device) {
    return device == 0;
}

}  // namespace

using warpsim::runtime::not_supported;

extern "C" {

cudaError_t cudaGetDeviceCount(int* count) {
    if (!count) return Runtime::finish(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
    if (!device) return Runtime::finish(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!valid_device(device)) return Runtime::finish(cudaErrorInvalidDevice);
    return Runtime::finish(rt.sticky());
}

cudaError_t cudaInitDevice(int device, unsigned int, unsigned int) {
    return Runtime::finish(valid_device(device) ? cudaSuccess : cudaErrorInvalidDevice);
}

cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop) {
    if (!device || !prop) return Runtime::finish(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!prop) return Runtime::finish(cudaErrorInvalidValue);
    if (!valid_device(device)) return Runtime::finish(cudaErrorInvalidDevice);
    fill_properties(rt.preset(), *prop);
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!value) return Runtime::finish(cudaErrorInvalidValue);
    if (!valid_device(device)) return Runtime::finish(cudaErrorInvalidDevice);
    auto v = warpsim::device::cuda_attribute(rt.preset(), static_cast<int>(attr));
    if (!v) return Runtime::finish(cudaErrorInvalidValue);
    *value = static_cast<int>(*v);
    return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* version) {
    if (!version) return Runtime::finish(cudaErrorInvalidValue);
    *version = driver_version;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* version) {
    if (!version) return Runtime::finish(cudaErrorInvalidValue);
    *version = runtime_version;
    return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!attr) return Runtime::finish(cudaErrorInvalidValue);
    Kernel* k = rt.kernel_by_host_function(func);
    if (!k) return Runtime::finish(cudaErrorInvalidDeviceFunction);
    KernelFacts f = kernel_facts(rt, *k);
    if (f.error != cudaSuccess) return Runtime::finish(f.error);
    const auto& p = rt.preset();
    std::memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = static_cast<size_t>(f.registers.static_shared_bytes);
    attr->constSizeBytes = 0;  // what the H200 reported for kernels with __constant__ data too
    attr->localSizeBytes = static_cast<size_t>(f.registers.stack_frame_bytes);
    attr->maxThreadsPerBlock = f.max_threads;
    attr->numRegs = f.registers.registers;
    const int arch = p.compute_capability.major * 10 + p.compute_capability.minor;
    attr->ptxVersion = arch;
    attr->binaryVersion = arch;
    attr->maxDynamicSharedSizeBytes =
        k->max_dynamic_shared_optin != 0
            ? static_cast<int>(k->max_dynamic_shared_optin)
            : static_cast<int>(p.block.shared_default_bytes - f.registers.static_shared_bytes);
    attr->preferredShmemCarveout = k->carveout_percent;
    return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    Kernel* k = rt.kernel_by_host_function(func);
    if (!k) return Runtime::finish(cudaErrorInvalidDeviceFunction);
    KernelFacts f = kernel_facts(rt, *k);
    if (f.error != cudaSuccess) return Runtime::finish(f.error);
    const auto& p = rt.preset();
    switch (attr) {
        case cudaFuncAttributeMaxDynamicSharedMemorySize:
            if (value < 0 || value > p.block.shared_optin_bytes - f.registers.static_shared_bytes)
                return Runtime::finish(cudaErrorInvalidValue);
            k->max_dynamic_shared_optin = static_cast<uint32_t>(value);
            return cudaSuccess;
        case cudaFuncAttributePreferredSharedMemoryCarveout:
            if (value < -1 || value > 100) return Runtime::finish(cudaErrorInvalidValue);
            k->carveout_percent = value;
            return cudaSuccess;
        default:
            // Cluster attributes and the like: accepted; the launch's own attributes decide the cluster.
            return cudaSuccess;
    }
}

cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.kernel_by_host_function(func)) return Runtime::finish(cudaErrorInvalidDeviceFunction);
    return cudaSuccess;  // a preference; the carve-out follows cudaFuncAttributePreferredSharedMemoryCarveout
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, const void* func,
                                                                   int block_size, size_t dynamic_shared,
                                                                   unsigned int) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!blocks) return Runtime::finish(cudaErrorInvalidValue);
    Kernel* k = rt.kernel_by_host_function(func);
    if (!k) return Runtime::finish(cudaErrorInvalidDeviceFunction);
    if (block_size <= 0) {
        *blocks = 0;
        return Runtime::finish(cudaErrorInvalidValue);
    }
    KernelFacts f = kernel_facts(rt, *k);
    if (f.error != cudaSuccess) return Runtime::finish(f.error);
    // Larger than any block may be: success and no block, as the H200's runtime answers. The kernel's own
    // limit (launch bounds, registers) is left to the calculator: a __launch_bounds__(128) kernel asked about
    // blocks of 1024 gets 2 per SM there.
    if (block_size > rt.preset().block.max_threads) {
        *blocks = 0;
        return cudaSuccess;
    }
    auto occ = warpsim::device::compute_occupancy(rt.preset(), resources(*k, f, block_size, dynamic_shared));
    *blocks = occ ? occ->blocks_per_sm : 0;
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func, int block_size,
                                                          size_t dynamic_shared) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, func, block_size, dynamic_shared,
                                                                  cudaOccupancyDefault);
}

cudaError_t cudaSetDeviceFlags(unsigned int) {
    return cudaSuccess;
}
cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
    if (!flags) return Runtime::finish(cudaErrorInvalidValue);
    *flags = 0;
    return cudaSuccess;
}
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) {
    return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit) {
    if (!value) return Runtime::finish(cudaErrorInvalidValue);
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    auto it = rt.limits().find(limit);
    if (it == rt.limits().end()) return Runtime::finish(cudaErrorUnsupportedLimit);
    *value = it->second;
    return cudaSuccess;
}

cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    auto it = rt.limits().find(limit);
    if (it == rt.limits().end()) return Runtime::finish(cudaErrorUnsupportedLimit);
    it->second = value;
    return cudaSuccess;
}

}  // extern "C"
