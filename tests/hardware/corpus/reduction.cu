// Parallel reduction, every classic variant: each block writes one partial sum of its slice
// (deterministic: no floating-point atomics). Integer data so every variant's sum is exact.

// 1. Interleaved addressing with a divergent modulo test.
__global__ void reduce_interleaved_divergent(const int* in, int* out, unsigned n) {
    extern __shared__ int sdata[];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? in[i] : 0;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

// 2. Interleaved addressing with a strided index: no divergence, bank conflicts instead.
__global__ void reduce_interleaved_strided(const int* in, int* out, unsigned n) {
    extern __shared__ int sdata[];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? in[i] : 0;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        unsigned index = 2 * s * tid;
        if (index < blockDim.x) sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

// 3. Sequential addressing: conflict-free.
__global__ void reduce_sequential(const int* in, int* out, unsigned n) {
    extern __shared__ int sdata[];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? in[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

// 4. First add during the global load: each block covers 2 * blockDim elements.
__global__ void reduce_first_add(const int* in, int* out, unsigned n) {
    extern __shared__ int sdata[];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

__device__ void warp_reduce_volatile(volatile int* sdata, unsigned tid) {
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16];
    sdata[tid] += sdata[tid + 8];
    sdata[tid] += sdata[tid + 4];
    sdata[tid] += sdata[tid + 2];
    sdata[tid] += sdata[tid + 1];
}

// 5. The last warp unrolled (volatile shared memory, no barriers below 32 threads).
__global__ void reduce_unroll_last_warp(const int* in, int* out, unsigned n) {
    extern __shared__ int sdata[];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) warp_reduce_volatile(sdata, tid);
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

template <unsigned kBlock>
__device__ void block_tree_unrolled(volatile int* sdata, unsigned tid) {
    if (kBlock >= 1024) { if (tid < 512) sdata[tid] += sdata[tid + 512]; __syncthreads(); }
    if (kBlock >= 512) { if (tid < 256) sdata[tid] += sdata[tid + 256]; __syncthreads(); }
    if (kBlock >= 256) { if (tid < 128) sdata[tid] += sdata[tid + 128]; __syncthreads(); }
    if (kBlock >= 128) { if (tid < 64) sdata[tid] += sdata[tid + 64]; __syncthreads(); }
    if (tid < 32) {
        if (kBlock >= 64) sdata[tid] += sdata[tid + 32];
        if (kBlock >= 32) sdata[tid] += sdata[tid + 16];
        if (kBlock >= 16) sdata[tid] += sdata[tid + 8];
        if (kBlock >= 8) sdata[tid] += sdata[tid + 4];
        if (kBlock >= 4) sdata[tid] += sdata[tid + 2];
        if (kBlock >= 2) sdata[tid] += sdata[tid + 1];
    }
}

// 6. Completely unrolled for a block size known at compile time (256).
__global__ void reduce_complete_unroll_256(const int* in, int* out, unsigned n) {
    __shared__ int sdata[256];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * 512 + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    if (i + 256 < n) v += in[i + 256];
    sdata[tid] = v;
    __syncthreads();
    block_tree_unrolled<256>(sdata, tid);
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

// 7. Multiple elements per thread: a grid-stride loop, then the unrolled tree (block 256).
__global__ void reduce_multiple_256(const int* in, int* out, unsigned n) {
    __shared__ int sdata[256];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * 512 + threadIdx.x;
    unsigned grid = 512 * gridDim.x;
    int v = 0;
    while (i < n) {
        v += in[i];
        if (i + 256 < n) v += in[i + 256];
        i += grid;
    }
    sdata[tid] = v;
    __syncthreads();
    block_tree_unrolled<256>(sdata, tid);
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

__device__ int warp_sum(int v) {
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

// 8. Warp shuffles: a grid-stride sum per thread, shuffles within each warp, one shared word per warp.
__global__ void reduce_shuffle(const int* in, int* out, unsigned n) {
    __shared__ int warp_sums[32];
    int v = 0;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
    v = warp_sum(v);
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = (lane < blockDim.x / 32) ? warp_sums[lane] : 0;
        v = warp_sum(v);
        if (lane == 0) out[blockIdx.x] = v;
    }
}

// 9. Shuffles then one atomicAdd per warp into a single global total (integer: deterministic).
__global__ void reduce_shuffle_atomic(const int* in, int* total, unsigned n) {
    int v = 0;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
    v = warp_sum(v);
    if (threadIdx.x % 32 == 0) atomicAdd(total, v);
}

// 10. Float sum with float4 loads and a shuffle tree: one partial per block.
__global__ void reduce_float4_shuffle(const float4* in, float* out, unsigned n4) {
    __shared__ float warp_sums[32];
    float v = 0.0f;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
        float4 q = in[i];
        v += (q.x + q.y) + (q.z + q.w);
    }
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = (lane < blockDim.x / 32) ? warp_sums[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
        if (lane == 0) out[blockIdx.x] = v;
    }
}

// 11. Single pass with a "last block" finish: partials to global, a fence, a ticket counter, and the
// last block to arrive sums the partials.
__global__ void reduce_last_block(const int* in, int* partial, unsigned* ticket, int* total, unsigned n) {
    __shared__ int warp_sums[32];
    __shared__ bool is_last;
    int v = 0;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
    v = warp_sum(v);
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = (lane < blockDim.x / 32) ? warp_sums[lane] : 0;
        v = warp_sum(v);
        if (lane == 0) {
            partial[blockIdx.x] = v;
            __threadfence();
            unsigned t = atomicInc(ticket, gridDim.x);
            is_last = (t == gridDim.x - 1);
        }
    }
    __syncthreads();
    if (is_last && warp == 0) {
        int s = 0;
        for (unsigned b = lane; b < gridDim.x; b += 32) s += ((volatile int*)partial)[b];
        s = warp_sum(s);
        if (lane == 0) *total = s;
    }
}
