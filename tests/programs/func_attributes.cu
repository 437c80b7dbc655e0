// cudaFuncGetAttributes of kernels with different resource needs: registers, local (stack) memory, static
// shared memory, launch bounds (maxThreadsPerBlock), constant memory, PTX and binary versions; then
// cudaFuncSetAttribute of the dynamic-shared limit and the carve-out.
#include "common.h"

__global__ void tiny(int* p) { p[threadIdx.x] = threadIdx.x; }

__global__ void __launch_bounds__(256, 2) bounded(float* p) { p[threadIdx.x] *= 2.0f; }

__global__ void static_shared(float* p) {
    __shared__ float tile[64][65];
    tile[threadIdx.y][threadIdx.x] = p[threadIdx.y * 64 + threadIdx.x];
    __syncthreads();
    p[threadIdx.y * 64 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// A local array indexed at run time lives in local memory.
__global__ void local_array(const int* idx, float* out) {
    float buf[64];
    for (int k = 0; k < 64; ++k) buf[k] = (float)(k * threadIdx.x);
    out[threadIdx.x] = buf[idx[threadIdx.x] & 63];
}

static void show(const char* name, const void* f) {
    cudaFuncAttributes a;
    CHECK(cudaFuncGetAttributes(&a, f));
    printf("%-14s numRegs %3d  localSizeBytes %5zu  sharedSizeBytes %6zu  constSizeBytes %zu  maxThreadsPerBlock %4d"
           "  maxDynamicSharedSizeBytes %6d  ptxVersion %d  binaryVersion %d  preferredShmemCarveout %d\n",
           name, a.numRegs, a.localSizeBytes, a.sharedSizeBytes, a.constSizeBytes, a.maxThreadsPerBlock,
           a.maxDynamicSharedSizeBytes, a.ptxVersion, a.binaryVersion, a.preferredShmemCarveout);
}

int main() {
    show("tiny", (const void*)tiny);
    show("bounded", (const void*)bounded);
    show("static_shared", (const void*)static_shared);
    show("local_array", (const void*)local_array);
    CHECK(cudaFuncSetAttribute(tiny, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
    CHECK(cudaFuncSetAttribute(tiny, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
    show("tiny (set)", (const void*)tiny);
    cudaFuncAttributes b, s;
    CHECK(cudaFuncGetAttributes(&b, bounded));
    CHECK(cudaFuncGetAttributes(&s, static_shared));
    return finish(b.maxThreadsPerBlock == 256 && s.sharedSizeBytes == 64 * 65 * sizeof(float));
}
