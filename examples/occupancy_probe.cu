// Occupancy limiters: registers (launch bounds / max registers), static shared memory and dynamic
// shared memory. Each kernel does a little real work so its results can be checked.

// Many live values per thread: 64 independent accumulators.
__global__ void __launch_bounds__(256, 1) many_registers(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc[64];
#pragma unroll
    for (int k = 0; k < 64; ++k) acc[k] = in[(i + k) % n];
#pragma unroll
    for (int r = 0; r < 8; ++r)
#pragma unroll
        for (int k = 0; k < 64; ++k) acc[k] = acc[k] * acc[(k + r + 1) & 63] + 1.0f;
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 64; ++k) s += acc[k];
    if (i < n) out[i] = s;
}

// The same work capped at 32 registers per thread (ptxas spills to local memory).
__global__ void __maxnreg__(32) capped_registers(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc[64];
#pragma unroll
    for (int k = 0; k < 64; ++k) acc[k] = in[(i + k) % n];
#pragma unroll
    for (int r = 0; r < 8; ++r)
#pragma unroll
        for (int k = 0; k < 64; ++k) acc[k] = acc[k] * acc[(k + r + 1) & 63] + 1.0f;
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 64; ++k) s += acc[k];
    if (i < n) out[i] = s;
}

// 48 KB of static shared memory per block (the static maximum): at most 4 blocks per SM.
__global__ void static_shared_48k(const float* in, float* out, int n) {
    __shared__ float buf[12288];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = threadIdx.x; k < 12288; k += blockDim.x) buf[k] = (float)k;
    __syncthreads();
    if (i < n) out[i] = in[i] + buf[(threadIdx.x * 48) % 12288];
}

// Dynamic shared memory: the size comes from the launch (shared_bytes); words = shared_bytes / 4.
__global__ void dynamic_shared(const float* in, float* out, int n, int words) {
    extern __shared__ float dyn[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = threadIdx.x; k < words; k += blockDim.x) dyn[k] = (float)(k & 1023);
    __syncthreads();
    if (i < n) out[i] = in[i] + dyn[(threadIdx.x * 7) % words];
}
