// A device query at start-up, as real programs do it: cudaGetDeviceCount, cudaGetDeviceProperties, the
// attributes that CUDA 13 moved out of cudaDeviceProp (clock rate, compute mode, ...), versions; the
// properties and the attributes must agree.
#include "common.h"

int main() {
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    printf("CUDA devices: %d\n", count);
    int driver = 0, runtime = 0;
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaRuntimeGetVersion(&runtime));
    printf("driver API version %d.%d, runtime version %d.%d\n", driver / 1000, driver % 1000 / 10, runtime / 1000,
           runtime % 1000 / 10);
    bool ok = count >= 1 && runtime / 1000 == 13 && driver >= runtime;
    CHECK(cudaSetDevice(0));
    int dev = -1;
    CHECK(cudaGetDevice(&dev));
    ok = ok && dev == 0;
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    int clock_khz = 0, mem_clock_khz = 0, compute_mode = -1, kernel_timeout = -1, smem_sm = 0;
    int major = 0, minor = 0, sms = 0, warp = 0, max_block = 0, regs = 0, l2 = 0, bus = 0, engines = 0;
    CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    CHECK(cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, 0));
    CHECK(cudaDeviceGetAttribute(&compute_mode, cudaDevAttrComputeMode, 0));
    CHECK(cudaDeviceGetAttribute(&kernel_timeout, cudaDevAttrKernelExecTimeout, 0));
    CHECK(cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
    CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
    CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0));
    CHECK(cudaDeviceGetAttribute(&max_block, cudaDevAttrMaxThreadsPerBlock, 0));
    CHECK(cudaDeviceGetAttribute(&regs, cudaDevAttrMaxRegistersPerBlock, 0));
    CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    CHECK(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0));
    CHECK(cudaDeviceGetAttribute(&engines, cudaDevAttrAsyncEngineCount, 0));
    printf("device 0: %s, compute capability %d.%d\n", p.name, p.major, p.minor);
    printf("  %d SMs, warp size %d, %d threads per block, %d per SM, %d blocks per SM\n", p.multiProcessorCount,
           p.warpSize, p.maxThreadsPerBlock, p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor);
    printf("  block dims %d x %d x %d, grid dims %d x %d x %d\n", p.maxThreadsDim[0], p.maxThreadsDim[1],
           p.maxThreadsDim[2], p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
    printf("  shared memory: %zu per block, %zu opt-in, %zu per SM, %zu reserved per block\n", p.sharedMemPerBlock,
           p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor, p.reservedSharedMemPerBlock);
    printf("  registers: %d per block, %d per SM; constant memory %zu\n", p.regsPerBlock, p.regsPerMultiprocessor,
           p.totalConstMem);
    printf("  global memory %zu MiB, bus %d bits, L2 %d bytes\n", p.totalGlobalMem >> 20, p.memoryBusWidth,
           p.l2CacheSize);
    printf("  SM clock %d MHz, memory clock %d MHz, compute mode %d, kernel timeout %d\n", clock_khz / 1000,
           mem_clock_khz / 1000, compute_mode, kernel_timeout);
    printf("  async engines %d, concurrent kernels %d, unified addressing %d, managed memory %d, cooperative %d\n",
           p.asyncEngineCount, p.concurrentKernels, p.unifiedAddressing, p.managedMemory, p.cooperativeLaunch);
    ok = ok && major == p.major && minor == p.minor && sms == p.multiProcessorCount && warp == p.warpSize &&
         max_block == p.maxThreadsPerBlock && regs == p.regsPerBlock && l2 == p.l2CacheSize &&
         bus == p.memoryBusWidth && engines == p.asyncEngineCount &&
         (size_t)smem_sm == p.sharedMemPerMultiprocessor && clock_khz > 0 && compute_mode == cudaComputeModeDefault;
    size_t free_b = 0, total_b = 0;
    CHECK(cudaMemGetInfo(&free_b, &total_b));
    printf("  cudaMemGetInfo: total %zu MiB, free <= total: %s\n", total_b >> 20, free_b <= total_b ? "yes" : "no");
    ok = ok && free_b <= total_b && total_b <= p.totalGlobalMem && total_b > p.totalGlobalMem / 2;
    return finish(ok);
}
