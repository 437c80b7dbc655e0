// Records a real GPU's device properties and the driver's own occupancy answers as JSON (run on the H200).
// Build: nvcc -O2 -arch=sm_90 -o h200_probe h200_probe.cu ; run: ./h200_probe > h200_measured.json
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

// One heavy kernel body, instantiated under several register caps so the driver sees varied numRegs.
#define HEAVY_BODY                                                                   \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                   \
    float acc[64];                                                                   \
    _Pragma("unroll") for (int k = 0; k < 64; ++k) acc[k] = in[(i + k) % n];         \
    _Pragma("unroll") for (int r = 0; r < 8; ++r)                                    \
    _Pragma("unroll") for (int k = 0; k < 64; ++k) acc[k] = acc[k] * acc[(k + r + 1) & 63] + 1.0f; \
    float s = 0.0f;                                                                  \
    _Pragma("unroll") for (int k = 0; k < 64; ++k) s += acc[k];                      \
    if (i < n) out[i] = s;

#define HEAVY(N) __global__ void __maxnreg__(N) heavy_##N(const float* in, float* out, int n) { HEAVY_BODY }
HEAVY(24) HEAVY(32) HEAVY(40) HEAVY(48) HEAVY(56) HEAVY(64) HEAVY(72) HEAVY(80) HEAVY(96)
HEAVY(128) HEAVY(168) HEAVY(200) HEAVY(255)

__global__ void tiny(float* out) { out[threadIdx.x] = 1.0f; }

__global__ void static_shared_48k(const float* in, float* out, int n) {
    __shared__ float buf[12288];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = threadIdx.x; k < 12288; k += blockDim.x) buf[k] = (float)k;
    __syncthreads();
    if (i < n) out[i] = in[i] + buf[(threadIdx.x * 48) % 12288];
}

__global__ void dynamic_shared(const float* in, float* out, int n, int words) {
    extern __shared__ float dyn[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = threadIdx.x; k < words; k += blockDim.x) dyn[k] = (float)(k & 1023);
    __syncthreads();
    if (i < n) out[i] = in[i] + dyn[(threadIdx.x * 7) % words];
}

struct Kernel { const char* name; const void* fn; };

static int attr(cudaDeviceAttr a) { int v = -1; cudaDeviceGetAttribute(&v, a, 0); return v; }

static void print_device() {
    cudaDeviceProp p{};
    cudaGetDeviceProperties(&p, 0);
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    std::printf("{\"device\": {\"name\": \"%s\", \"major\": %d, \"minor\": %d, \"sms\": %d,\n", p.name, p.major, p.minor, p.multiProcessorCount);
    std::printf("  \"driver_version\": %d, \"runtime_version\": %d,\n", drv, rt);
    std::printf("  \"max_threads_per_sm\": %d, \"max_blocks_per_sm\": %d, \"regs_per_sm\": %d, \"regs_per_block\": %d,\n",
                p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor, p.regsPerMultiprocessor, p.regsPerBlock);
    std::printf("  \"shared_per_sm\": %zu, \"shared_per_block\": %zu, \"shared_per_block_optin\": %zu, \"reserved_shared_per_block\": %zu,\n",
                p.sharedMemPerMultiprocessor, p.sharedMemPerBlock, p.sharedMemPerBlockOptin, p.reservedSharedMemPerBlock);
    std::printf("  \"l2_bytes\": %d, \"persisting_l2_max\": %d, \"total_global_mem\": %zu, \"memory_bus_width\": %d, \"const_mem\": %zu,\n",
                p.l2CacheSize, p.persistingL2CacheMaxSize, p.totalGlobalMem, p.memoryBusWidth, p.totalConstMem);
    std::printf("  \"max_threads_per_block\": %d, \"block_dims\": [%d, %d, %d], \"grid_dims\": [%d, %d, %d], \"warp_size\": %d,\n",
                p.maxThreadsPerBlock, p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2], p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2], p.warpSize);
    std::printf("  \"clock_khz\": %d, \"memory_clock_khz\": %d, \"async_engines\": %d},\n",
                attr(cudaDevAttrClockRate), attr(cudaDevAttrMemoryClockRate), attr(cudaDevAttrAsyncEngineCount));
}

static void sweep(const Kernel& k, const std::vector<size_t>& dyn, bool first) {
    cudaFuncAttributes fa{};
    cudaFuncGetAttributes(&fa, k.fn);
    const int carveouts[] = {-1, 0, 10, 25, 50, 75, 100};
    for (int carve : carveouts) {
        cudaFuncSetAttribute(k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, carve);
        for (size_t d : dyn) {
            if (d + fa.sharedSizeBytes > 48 * 1024)
                cudaFuncSetAttribute(k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)d);
            for (int b = 32; b <= 1024; b += 32) {
                int blocks = -1;
                cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k.fn, b, d);
                std::printf("%s    [\"%s\", %d, %zu, %d, %zu, %d, %d]", first ? "" : ",\n", k.name, fa.numRegs,
                            fa.sharedSizeBytes, b, d, carve, e == cudaSuccess ? blocks : -1);
                first = false;
            }
        }
    }
}

int main() {
    print_device();
    std::printf("\"sweep_columns\": [\"kernel\", \"regs\", \"static_shared\", \"block\", \"dynamic_shared\", \"carveout\", \"blocks_per_sm\"],\n");
    std::printf("\"sweep\": [\n");
    const Kernel heavy[] = {{"heavy_24", (const void*)heavy_24}, {"heavy_32", (const void*)heavy_32},
        {"heavy_40", (const void*)heavy_40}, {"heavy_48", (const void*)heavy_48}, {"heavy_56", (const void*)heavy_56},
        {"heavy_64", (const void*)heavy_64}, {"heavy_72", (const void*)heavy_72}, {"heavy_80", (const void*)heavy_80},
        {"heavy_96", (const void*)heavy_96}, {"heavy_128", (const void*)heavy_128}, {"heavy_168", (const void*)heavy_168},
        {"heavy_200", (const void*)heavy_200}, {"heavy_255", (const void*)heavy_255}, {"tiny", (const void*)tiny}};
    bool first = true;
    for (const Kernel& k : heavy) { sweep(k, {0, 4096}, first); first = false; }
    sweep({"static_shared_48k", (const void*)static_shared_48k}, {0, 1024, 16384}, false);
    sweep({"dynamic_shared", (const void*)dynamic_shared},
          {1, 1024, 3072, 8192, 16384, 32768, 49152, 65536, 100 * 1024, 131072, 200 * 1024, 227 * 1024}, false);
    std::printf("\n]}\n");
    return 0;
}
