// Vector add from the seeds: one thread per element (vecAdd, vector_add) and the grid-stride loop.
#include <cstdint>

// Seed "CUDA: threads, memory, and kernels": n = 1000, 256 threads per block -> 4 blocks;
// the last warp of the last block has only 8 working lanes.
__global__ void vecAdd(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

// The same kernel as the third seed writes it.
__global__ void vector_add(const float* a, const float* b, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;   // this thread's global index
    if (i < n) {                                     // the last block can run past the end
        out[i] = a[i] + b[i];
    }
}

// Grid-stride loop: a fixed grid walks any n; int64_t indices never overflow.
__global__ void vector_add_strided(const float* a, const float* b, float* out, int64_t n) {
    int64_t stride = (int64_t)gridDim.x * blockDim.x;           // total threads in the grid
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        out[i] = a[i] + b[i];
    }
}
