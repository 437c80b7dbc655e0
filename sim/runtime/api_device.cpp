// sim/runtime/api_device.cpp — device queries and configuration: properties and attributes from the preset, kernel attributes,
// the occupancy API, versions.
// Not implemented yet: each entry point says so once and returns cudaErrorNotSupported (runtime.hpp).
#include "sim/runtime/runtime.hpp"

using warpsim::runtime::not_supported;

extern "C" {

cudaError_t cudaGetDeviceCount(int*) { return not_supported("cudaGetDeviceCount"); }
cudaError_t cudaGetDevice(int*) { return not_supported("cudaGetDevice"); }
cudaError_t cudaSetDevice(int) { return not_supported("cudaSetDevice"); }
cudaError_t cudaGetDeviceProperties(cudaDeviceProp*, int) { return not_supported("cudaGetDeviceProperties"); }
cudaError_t cudaDeviceGetAttribute(int*, cudaDeviceAttr, int) { return not_supported("cudaDeviceGetAttribute"); }
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes*, const void*) { return not_supported("cudaFuncGetAttributes"); }
cudaError_t cudaFuncSetAttribute(const void*, cudaFuncAttribute, int) { return not_supported("cudaFuncSetAttribute"); }
cudaError_t cudaFuncSetCacheConfig(const void*, cudaFuncCache) { return not_supported("cudaFuncSetCacheConfig"); }
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int*, const void*, int, size_t) { return not_supported("cudaOccupancyMaxActiveBlocksPerMultiprocessor"); }
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int*, const void*, int, size_t, unsigned int) { return not_supported("cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags"); }
cudaError_t cudaDriverGetVersion(int*) { return not_supported("cudaDriverGetVersion"); }
cudaError_t cudaRuntimeGetVersion(int*) { return not_supported("cudaRuntimeGetVersion"); }
cudaError_t cudaSetDeviceFlags(unsigned int) { return not_supported("cudaSetDeviceFlags"); }
cudaError_t cudaGetDeviceFlags(unsigned int*) { return not_supported("cudaGetDeviceFlags"); }
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return not_supported("cudaDeviceSetCacheConfig"); }
cudaError_t cudaDeviceGetLimit(size_t*, cudaLimit) { return not_supported("cudaDeviceGetLimit"); }
cudaError_t cudaDeviceSetLimit(cudaLimit, size_t) { return not_supported("cudaDeviceSetLimit"); }
cudaError_t cudaChooseDevice(int*, const cudaDeviceProp*) { return not_supported("cudaChooseDevice"); }
cudaError_t cudaInitDevice(int, unsigned int, unsigned int) { return not_supported("cudaInitDevice"); }

}  // extern "C"
