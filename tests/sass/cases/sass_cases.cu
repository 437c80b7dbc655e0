// tests/sass/cases/sass_cases.cu — small kernels whose SASS shows what ptxas does to PTX: merged shared
// loads (tiled matrix multiplies), if-converted branches (tree reductions), every load/store width of
// shared, global and local memory, atomics, shuffles, votes, barriers, loops and branches. Every kernel
// takes (const float* in, float* out, int n); measure_cases.cu launches each one on the GPU.
#define KERNEL extern "C" __global__ void

KERNEL reduce_interleaved(const float* in, float* out, int n) {
    __shared__ float sdata[256];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = i < n ? in[i] : 0.f;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

KERNEL reduce_strided_index(const float* in, float* out, int n) {
    __shared__ float sdata[256];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = i < n ? in[i] : 0.f;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        unsigned index = 2 * s * tid;
        if (index < blockDim.x) sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

KERNEL reduce_sequential(const float* in, float* out, int n) {
    __shared__ float sdata[256];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = i < n ? in[i] : 0.f;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

KERNEL reduce_warp_unrolled(const float* in, float* out, int n) {
    __shared__ float sdata[256];
    unsigned tid = threadIdx.x, i = blockIdx.x * 512 + threadIdx.x;
    float v = i < n ? in[i] : 0.f;
    if (i + 256 < n) v += in[i + 256];
    sdata[tid] = v;
    __syncthreads();
#pragma unroll
    for (unsigned s = 128; s > 32; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        volatile float* vs = sdata;
        vs[tid] += vs[tid + 32];
        vs[tid] += vs[tid + 16];
        vs[tid] += vs[tid + 8];
        vs[tid] += vs[tid + 4];
        vs[tid] += vs[tid + 2];
        vs[tid] += vs[tid + 1];
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

template <int TILE>
__device__ void matmul_tiled(const float* a, float* c, int n) {
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    const float* b = a + n * n;
    float sum = 0.f;
    for (int t = 0; t < n / TILE; ++t) {
        As[ty][tx] = a[row * n + t * TILE + tx];
        Bs[ty][tx] = b[(t * TILE + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    c[row * n + col] = sum;
}
KERNEL matmul_tile16(const float* in, float* out, int n) { matmul_tiled<16>(in, out, n); }
KERNEL matmul_tile32(const float* in, float* out, int n) { matmul_tiled<32>(in, out, n); }
KERNEL matmul_tile8(const float* in, float* out, int n) { matmul_tiled<8>(in, out, n); }

KERNEL shared_widths(const float* in, float* out, int n) {
    __shared__ unsigned char s8[512];
    __shared__ unsigned short s16[512];
    __shared__ float s32[512];
    __shared__ double s64[512];
    __shared__ float4 s128[512];
    int t = threadIdx.x;
    float v = in[blockIdx.x * blockDim.x + t];
    s8[t] = (unsigned char)v;
    s16[t] = (unsigned short)v;
    s32[t] = v;
    s64[t] = v;
    s128[t] = make_float4(v, v + 1, v + 2, v + 3);
    __syncthreads();
    int u = (t * 7) & 255;
    float4 q = s128[u];
    out[blockIdx.x * blockDim.x + t] = (signed char)s8[u] + s16[u] + s32[u] + (float)s64[u] + q.x + q.y + q.z + q.w;
}

KERNEL global_widths(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const char* c = reinterpret_cast<const char*>(in);
    const short* h = reinterpret_cast<const short*>(in);
    const double* d = reinterpret_cast<const double*>(in);
    const float4* q = reinterpret_cast<const float4*>(in);
    float4 v = q[i / 4];
    float r = c[i] + h[i] + in[i] + (float)d[i / 2] + v.x + v.y + v.z + v.w + __ldg(in + n - 1 - i);
    reinterpret_cast<char*>(out)[4 * n + i] = (char)r;
    reinterpret_cast<short*>(out)[4 * n + i] = (short)r;
    reinterpret_cast<double*>(out)[n + i / 2] = r;
    reinterpret_cast<float4*>(out)[i / 4] = make_float4(r, r, r, r);
    out[i] = r;
}

KERNEL local_array(const float* in, float* out, int n) {
    float buf[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < 64; ++k) buf[k] = in[(i + k) % n];
    int j = (int)in[i] & 63;
    buf[j] += 1.f;
    double dl[8];
    for (int k = 0; k < 8; ++k) dl[k] = buf[k * 3];
    out[i] = buf[(j * 5) & 63] + (float)dl[j & 7];
}

KERNEL atomics(const float* in, float* out, int n) {
    __shared__ int hist[64];
    __shared__ unsigned long long wide;
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (t < 64) hist[t] = 0;
    if (t == 0) wide = 0;
    __syncthreads();
    int b = (int)in[i] & 63;
    atomicAdd(&hist[b], 1);
    atomicMax(&hist[(b + 1) & 63], t);
    atomicAdd(&wide, 3ull);
    atomicCAS(&hist[b], 5, 6);
    __syncthreads();
    int* gout = reinterpret_cast<int*>(out);
    if (t < 64) atomicAdd(&gout[t], hist[t]);
    int old = atomicExch(&gout[64 + (t & 7)], t);
    atomicAdd(&out[128], 1.0f);
    unsigned long long* g64 = reinterpret_cast<unsigned long long*>(out + 256);
    atomicAdd(g64, (unsigned long long)old);
    out[512 + i] = (float)atomicCAS(&gout[200], t, t + 1);
}

KERNEL warp_ops(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    float x = __shfl_xor_sync(0xffffffff, v, 3) + __shfl_up_sync(0xffffffff, v, 2) + __shfl_sync(0xffffffff, v, 7);
    unsigned ballot = __ballot_sync(0xffffffff, v > 100.f);
    int any = __any_sync(0xffffffff, x > 5.f), all = __all_sync(0xffffffff, x > 1.f);
    out[i] = x + __popc(ballot) + any + all + __reduce_add_sync(0xffffffff, (unsigned)i);
}

KERNEL branches(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i], acc = 0.f;
    if (i & 1) {
        for (int k = 0; k < (i & 15); ++k) acc += __sinf(v + k);
    } else {
        acc = v * v - 3.f;
        if (acc > 10.f) acc = sqrtf(acc);
    }
    switch (i & 3) {
    case 0: acc += 1.f; break;
    case 1: acc *= 2.f; break;
    case 2: acc -= in[(i + 5) % n]; break;
    default: acc = -acc;
    }
    int k = 0;
    while (v > 1.f && k < 40) { v *= 0.5f; ++k; }
    out[i] = acc + k;
}

KERNEL transpose_padded(const float* in, float* out, int n) {
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

KERNEL histogram_shared(const float* in, float* out, int n) {
    __shared__ unsigned bins[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) bins[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[((unsigned)in[i]) & 255], 1u);
    __syncthreads();
    unsigned* g = reinterpret_cast<unsigned*>(out);
    for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&g[b], bins[b]);
}
