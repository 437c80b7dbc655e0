// The occupancy API: blocks per SM for several block sizes and dynamic shared sizes, the suggested block
// size for the highest occupancy (with and without dynamic shared memory per block), and a launch with it.
#include "common.h"

__global__ void light(float* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = p[i] * 2.0f + 1.0f;
}

__global__ void __launch_bounds__(128) bounded(float* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1.0f;
}

__global__ void with_shared(float* p, int n) {
    extern __shared__ float s[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? p[i] : 0.0f;
    __syncthreads();
    if (i < n) p[i] = s[blockDim.x - 1 - threadIdx.x];
}

static size_t shared_for_block(int block) { return block * sizeof(float); }

int main() {
    int sms = 0, max_threads_sm = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaDeviceGetAttribute(&max_threads_sm, cudaDevAttrMaxThreadsPerMultiProcessor, 0));
    bool ok = true;
    const int sizes[] = {32, 64, 96, 128, 256, 512, 1024};
    for (int b : sizes) {
        int per_sm = -1;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, light, b, 0));
        printf("light, block %4d: %2d blocks per SM, occupancy %.3f\n", b, per_sm,
               (double)per_sm * b / max_threads_sm);
        ok = ok && per_sm > 0 && per_sm * b <= max_threads_sm;
    }
    const size_t shared[] = {0, 1024, 16384, 49152, 100000};
    for (size_t sh : shared) {
        int per_sm = -1;
        if (sh > 48 * 1024)
            CHECK(cudaFuncSetAttribute(with_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sh));
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, with_shared, 256, sh));
        printf("with_shared, block 256, %6zu B dynamic shared: %2d blocks per SM\n", sh, per_sm);
        ok = ok && per_sm > 0;
    }
    int per_sm_flags = -1;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&per_sm_flags, light, 256, 0,
                                                                 cudaOccupancyDisableCachingOverride));
    printf("light, block 256, with cudaOccupancyDisableCachingOverride: %d blocks per SM\n", per_sm_flags);
    int bounded_1024 = -1;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bounded_1024, bounded, 1024, 0);
    printf("bounded (launch bounds 128), block 1024: %s, %d blocks per SM\n", cudaGetErrorName(e), bounded_1024);

    int min_grid = 0, block = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, light, 0, 0));
    printf("cudaOccupancyMaxPotentialBlockSize(light): block %d, minimum grid %d\n", block, min_grid);
    ok = ok && block > 0 && min_grid >= sms;
    int min_grid_b = 0, block_b = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid_b, &block_b, bounded, 0, 0));
    printf("cudaOccupancyMaxPotentialBlockSize(bounded): block %d, minimum grid %d\n", block_b, min_grid_b);
    ok = ok && block_b <= 128;
    int min_grid_s = 0, block_s = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid_s, &block_s, with_shared, shared_for_block, 0));
    printf("cudaOccupancyMaxPotentialBlockSizeVariableSMem(with_shared): block %d, minimum grid %d\n", block_s,
           min_grid_s);
    int min_grid_l = 0, block_l = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid_l, &block_l, light, 0, 200));
    printf("cudaOccupancyMaxPotentialBlockSize(light, limit 200): block %d, minimum grid %d\n", block_l, min_grid_l);
    ok = ok && block_l <= 200;

    const int n = 1 << 20;
    float* p;
    CHECK(cudaMalloc(&p, n * sizeof(float)));
    CHECK(cudaMemset(p, 0, n * sizeof(float)));
    light<<<(n + block - 1) / block, block>>>(p, n);
    CHECK_LAUNCH();
    float last = 0;
    CHECK(cudaMemcpy(&last, p + n - 1, sizeof last, cudaMemcpyDeviceToHost));
    printf("launch with the suggested block: p[n-1] = %g\n", last);
    CHECK(cudaFree(p));
    return finish(ok && last == 1.0f);
}
