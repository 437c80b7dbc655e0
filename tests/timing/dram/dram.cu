// DRAM streams at several occupancies: grid-stride loops over 128 MiB arrays (twice the H200's L2, so repeated
// launches find none of it there) that read one or two streams, copy, write, or read two and write one, with
// 1 to 64 warps per SM, to measure the achieved DRAM bandwidth by access pattern, read/write mix and the number
// of warps keeping requests in flight.

// Reads one stream; one store per thread at the end (so the loads are not removed).
__global__ void read1(const float4* __restrict__ x, float* __restrict__ out, int n4) {
    float acc = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
        float4 v = x[i];
        acc += v.x + v.y + v.z + v.w;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Reads two streams (a dot product per thread).
__global__ void read2(const float4* __restrict__ a, const float4* __restrict__ b, float* __restrict__ out, int n4) {
    float acc = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
        float4 u = a[i], v = b[i];
        acc += u.x * v.x + u.y * v.y + u.z * v.z + u.w * v.w;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// One read stream, one write stream.
__global__ void copy4(const float4* __restrict__ x, float4* __restrict__ y, int n4) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) y[i] = x[i];
}

// The same copy with 4-byte accesses.
__global__ void copy1(const float* __restrict__ x, float* __restrict__ y, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = x[i];
}

// Writes one stream.
__global__ void fill4(float4* __restrict__ y, float v, int n4) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) y[i] = make_float4(v, v, v, v);
}

// Two read streams, one write stream.
__global__ void triad4(const float4* __restrict__ a, const float4* __restrict__ b, float4* __restrict__ c, float s,
                       int n4) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
        float4 u = a[i], v = b[i];
        c[i] = make_float4(u.x + s * v.x, u.y + s * v.y, u.z + s * v.z, u.w + s * v.w);
    }
}
