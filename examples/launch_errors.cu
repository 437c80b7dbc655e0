// Planted errors: an invalid block size, a write through a bad pointer, the off-by-one guard,
// a misaligned vector load, too many threads for the launch bounds, a barrier in a branch.

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

// Only the first half of the block reaches the barrier.
__global__ void barrier_in_branch(float* out) {
    __shared__ float s[256];
    s[threadIdx.x] = (float)threadIdx.x;
    if (threadIdx.x < blockDim.x / 2) {
        __syncthreads();
        out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
    }
}
