// Histograms of byte data: global atomics, shared atomics with a merge, per-warp sub-histograms, and a
// few-bin histogram where every thread hits the same handful of counters.

// 256 bins, one global atomicAdd per element.
__global__ void histogram256_global(const unsigned char* data, unsigned* bins, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&bins[data[i]], 1u);
}

// 256 bins per block in shared memory, merged into the global histogram at the end.
__global__ void histogram256_shared(const unsigned char* data, unsigned* bins, int n) {
    __shared__ unsigned local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        if (local[b]) atomicAdd(&bins[b], local[b]);
}

// 64 bins, one sub-histogram per warp (fewer collisions), 4 bytes read per thread and iteration.
__global__ void histogram64_per_warp(const unsigned* data4, unsigned* bins, int n4) {
    extern __shared__ unsigned sub[];  // 64 * warps per block
    int warp = threadIdx.x / 32;
    int warps = blockDim.x / 32;
    for (int b = threadIdx.x; b < 64 * warps; b += blockDim.x) sub[b] = 0;
    __syncthreads();
    unsigned* mine = sub + 64 * warp;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
        unsigned w = data4[i];
        atomicAdd(&mine[(w >> 2) & 63], 1u);
        atomicAdd(&mine[(w >> 10) & 63], 1u);
        atomicAdd(&mine[(w >> 18) & 63], 1u);
        atomicAdd(&mine[(w >> 26) & 63], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < 64; b += blockDim.x) {
        unsigned s = 0;
        for (int w = 0; w < warps; ++w) s += sub[64 * w + b];
        atomicAdd(&bins[b], s);
    }
}

// 4 bins in global memory: every thread contends for the same four words.
__global__ void histogram4_global(const unsigned char* data, unsigned* bins, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&bins[data[i] & 3], 1u);
}

// Counting above a threshold with one global counter: a warp-aggregated atomic.
__global__ void count_above_aggregated(const float* x, float threshold, unsigned* count, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        unsigned active = __activemask();
        unsigned hits = __ballot_sync(active, x[i] > threshold);
        int leader = __ffs(active) - 1;
        if ((threadIdx.x % 32) == leader && hits) atomicAdd(count, __popc(hits));
    }
}

// Per-thread atomic increments on one global counter (no aggregation): the serialised worst case.
__global__ void count_above_naive(const float* x, float threshold, unsigned* count, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        if (x[i] > threshold) atomicAdd(count, 1u);
}
