// Reduction: a warp sums with shuffles, warps combine through shared memory, each block writes
// one partial sum (deterministic: no atomics on floats).

__device__ float warp_reduce_sum(float v) {
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void block_sum(const float* in, float* partial, int n) {
    __shared__ float warp_sums[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    v = warp_reduce_sum(v);
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int nwarps = (blockDim.x + 31) / 32;
        v = (lane < nwarps) ? warp_sums[lane] : 0.0f;
        v = warp_reduce_sum(v);
        if (lane == 0) partial[blockIdx.x] = v;
    }
}

// Integer sum over the whole grid with one atomicAdd per warp: deterministic.
__global__ void grid_sum_int(const int* in, int* total, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(total, v);
}
