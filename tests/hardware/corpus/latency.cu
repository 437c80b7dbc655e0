// Small-grid and latency-bound kernels: pointer chasing through a permutation, a dependent FMA chain,
// grid-stride element-wise loops launched with a handful of blocks, and a polynomial evaluated per element.

// One thread per chain follows `steps` links of a random cyclic permutation (each load depends on the last).
__global__ void pointer_chase(const int* next, int* end, int steps) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    for (int s = 0; s < steps; ++s) p = next[p];
    end[blockIdx.x * blockDim.x + threadIdx.x] = p;
}

// A chain of dependent fused multiply-adds per thread: compute latency, no memory in the loop.
__global__ void fma_chain(const float* seed, float* out, int iters) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = seed[i], y = 0.5f;
    for (int k = 0; k < iters; ++k) {
        y = fmaf(y, x, 0.25f);
        x = fmaf(x, 0.999f, -y * 0.001f);
    }
    out[i] = x + y;
}

// y = a * x + y over n elements with a grid-stride loop (launched with few blocks: a long loop each).
__global__ void saxpy_grid_stride(const float* x, float* y, float a, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = a * x[i] + y[i];
}

// The same loop over float4 (16-byte accesses).
__global__ void scale_float4_grid_stride(const float4* x, float4* y, float a, int n4) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
        float4 v = x[i];
        y[i] = make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
    }
}

// Horner evaluation of a degree-`degree` polynomial with coefficients in shared memory: compute-bound.
__global__ void polynomial_eval(const float* x, const float* coeffs, float* y, int degree, int n) {
    extern __shared__ float c[];
    for (int k = threadIdx.x; k <= degree; k += blockDim.x) c[k] = coeffs[k];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i], acc = c[degree];
    for (int k = degree - 1; k >= 0; --k) acc = fmaf(acc, v, c[k]);
    y[i] = acc;
}

// A single block sums an array with a long per-thread loop, then a shuffle tree (the "one block" reduction).
__global__ void single_block_sum(const float* in, float* out, int n) {
    __shared__ float warp_sums[32];
    float v = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) v += in[i];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = (threadIdx.x < blockDim.x / 32) ? warp_sums[threadIdx.x] : 0.0f;
        for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
        if (threadIdx.x == 0) *out = v;
    }
}

// Integer dot-product-style accumulation with atomicAdd into 8 global words, one per warp of a block.
__global__ void atomic_spread8(const int* in, int* sums, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&sums[(threadIdx.x / 32) & 7], in[i] & 255);
}
