// Memory spaces: __constant__ data with initialisers, __device__ globals with initialisers,
// cache-hinted loads/stores (__ldg, __ldcg, __ldcs, __stcg, ...), volatile, generic pointers that
// point into shared or global memory, and address-space queries.

__constant__ float c_poly[8] = {1.0f, -0.5f, 0.25f, -0.125f, 0.0625f, -0.03125f, 0.015625f, -0.0078125f};
__constant__ int c_lut[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
__device__ int g_table[8] = {10, 20, 30, 40, 50, 60, 70, 80};
__device__ float g_scale = 1.5f;
__device__ unsigned long long g_wide = 0x0123456789abcdefull;
__device__ int g_counter;                               // zero-initialised

extern "C" __global__ void constant_memory(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i] * 0.01f, acc = 0.0f;
    for (int k = 7; k >= 0; --k) acc = acc * x + c_poly[k];   // uniform constant reads
    out[i] = acc + (float)c_lut[i & 15];                      // divergent constant reads
}

extern "C" __global__ void device_globals(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = g_table[in[i] & 7] + (int)(g_scale * 2.0f);
    atomicAdd(&g_counter, 1);
    if (i == 0) g_table[7] = 80;                        // store to a global with the same value
    out[2 * i + 0] = v;
    out[2 * i + 1] = (int)(g_wide >> (i & 31));
}

extern "C" __global__ void cache_hints(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = __ldg(&in[i]);
    float b = __ldcg(&in[(i + 1) % n]);
    float c = __ldca(&in[(i + 2) % n]);
    float d = __ldcs(&in[(i + 3) % n]);
    float e = __ldlu(&in[(i + 4) % n]);
    float f = __ldcv(&in[(i + 5) % n]);
    float4 g = __ldg(reinterpret_cast<const float4*>(in) + (i % (n / 4)));
    __stcg(&out[4 * i + 0], a + b);
    __stcs(&out[4 * i + 1], c + d);
    __stwt(&out[4 * i + 2], e + f);
    __stwb(&out[4 * i + 3], g.x + g.y + g.z + g.w);
}

extern "C" __global__ void volatile_access(int* data, int* out, int n) {
    __shared__ volatile int flag_area[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    volatile int* vd = data;
    if (threadIdx.x < 32) flag_area[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (i < n) {
        int v = vd[i];                                   // ld.volatile.global
        vd[i] = v + 1;                                   // st.volatile.global
        out[i] = vd[i] + flag_area[threadIdx.x & 31];
    }
}

__device__ __noinline__ float sum_generic(const float* p, int count) {   // p may be shared or global
    float s = 0.0f;
    for (int k = 0; k < count; ++k) s += p[k];
    return s;
}

extern "C" __global__ void generic_pointers(const float* in, float* out, unsigned* spaces, int n) {
    __shared__ float tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    int base = threadIdx.x & ~7;
    float local_copy[4] = {1.0f, 2.0f, (float)i, 4.0f};
    const float* p = (threadIdx.x & 1) ? &tile[base] : &in[min(i, n - 8) & ~7];
    float s = sum_generic(p, 8);
    volatile float* lp = local_copy;
    if (i < n) {
        out[i] = s + lp[i & 3];
        spaces[i] = (unsigned)__isShared(p) | ((unsigned)__isGlobal(p) << 1) |
                    ((unsigned)__isLocal((const void*)lp) << 2) | ((unsigned)__isConstant(c_poly) << 3);
    }
}
