// Planted errors: an invalid block size, a write through a bad pointer, the off-by-one guard,
// a misaligned vector load, too many threads for the launch bounds or for the register file,
// a barrier in a branch.

__global__ void fill_ones(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 1.0f;
}

// Launched with a pointer that is not an allocation (the spec passes 0x10 as a u64 scalar).
__global__ void write_bad_pointer(float* p) {
    p[threadIdx.x] = 1.0f;
}

// `i <= n` lets thread n write one element past the end of c.
__global__ void vecAdd_off_by_one(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) {
        c[i] = a[i] + b[i];
    }
}

// A float4 load from an address that is 4 bytes past a 16-byte boundary.
__global__ void misaligned_float4(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = reinterpret_cast<const float4*>(in + 1)[i];
    out[i] = v.x + v.y + v.z + v.w;
}

// Compiled for at most 256 threads per block; launching it with more fails.
__global__ void __launch_bounds__(256) bounded_256(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f;
}

// No launch bounds and about 100 registers per thread: 1024 threads need more than the 64K
// registers of an SM ("too many resources requested for launch").
__global__ void register_hog(const float* in, float* out, int n) {
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

// Only the first half of the block reaches the barrier (whole warps skip it: real GPUs finish
// the kernel anyway, the simulator reports the barrier).
__global__ void barrier_in_branch(float* out) {
    __shared__ float s[256];
    s[threadIdx.x] = (float)threadIdx.x;
    if (threadIdx.x < blockDim.x / 2) {
        __syncthreads();
        out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
    }
}
