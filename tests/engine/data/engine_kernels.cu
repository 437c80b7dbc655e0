// tests/engine/data/engine_kernels.cu — small kernels for the engine tests; engine_kernels.ptx is generated
// from it with: nvcc -ptx -arch=sm_90 -lineinfo engine_kernels.cu -o engine_kernels.ptx
#include <cstdio>

__device__ __noinline__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__global__ void recursion(int* out) { out[threadIdx.x] = fact(threadIdx.x % 8); }

__device__ __noinline__ int pick_local(int n, int k) {
    int a[16];
    for (int i = 0; i < 16; ++i) a[i] = i * n;
    return a[k & 15];
}
__global__ void local_array(int* out, int k) {
    int a[32];
    for (int i = 0; i < 32; ++i) a[i] = i * i;
    out[threadIdx.x] = a[(threadIdx.x * k) % 32] + pick_local(threadIdx.x, threadIdx.x + k);
}

__global__ void divergent_loop(int* out) {
    int t = threadIdx.x, s = 0;
    for (int i = 0; i < 100; ++i) {
        if (i == t) break;
        if (t & 1) s += i; else s -= 1;
    }
    out[t] = s;
}

__global__ void if_else(int* out) {
    int t = threadIdx.x, v;
    if (t % 3 == 0) v = t * 2;
    else if (t % 3 == 1) v = t + 100;
    else v = -t;
    out[t] = v + 1;
}

__global__ void printf_kernel(int x) {
    printf("b%d t%d x=%d f=%.2f s=%s c=%c ll=%lld hex=%x\n", blockIdx.x, threadIdx.x, x, 1.5f * threadIdx.x, "hi",
           'A' + threadIdx.x, (long long)x * 1000000000LL, 255u);
}

__global__ void histogram(const unsigned* in, unsigned* bins, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[in[i] % 16], 1u);
}

__global__ void shared_histogram(const unsigned* in, unsigned* bins, int n) {
    __shared__ unsigned local[16];
    if (threadIdx.x < 16) local[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&local[in[i] % 16], 1u);
    __syncthreads();
    if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

__global__ void atomic_slots(int* counter, int* out) {
    int slot = atomicAdd(counter, 1);
    out[slot] = blockIdx.x * blockDim.x + threadIdx.x;
}

__global__ void float_sum(const float* in, float* sum) { atomicAdd(sum, in[blockIdx.x * blockDim.x + threadIdx.x]); }

__global__ void votes(const int* in, unsigned* out) {
    int v = in[threadIdx.x];
    unsigned b = __ballot_sync(0xffffffffu, v > 0);
    int all = __all_sync(0xffffffffu, v > 0);
    int any = __any_sync(0xffffffffu, v > 0);
    unsigned act = __activemask();
    if (threadIdx.x == 0) { out[0] = b; out[1] = all; out[2] = any; out[3] = act; }
    if (v > 0) {
        unsigned inner = __activemask();
        if (threadIdx.x == 0) out[4] = inner;
    }
}

__global__ void shuffles(int* out) {
    int t = threadIdx.x;
    out[t * 4 + 0] = __shfl_sync(0xffffffffu, t * 10, 3);
    out[t * 4 + 1] = __shfl_up_sync(0xffffffffu, t, 1);
    out[t * 4 + 2] = __shfl_xor_sync(0xffffffffu, t, 5);
    out[t * 4 + 3] = __shfl_down_sync(0xffffffffu, t, 4, 16);
}

__global__ void spin(volatile int* flag) {
    while (*flag == 0) {
    }
}

__global__ void block_reduce(const int* in, int* out) {
    __shared__ int s[256];
    s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
    int c = __syncthreads_count(in[blockIdx.x * blockDim.x + threadIdx.x] > 5);
    if (threadIdx.x == 0) out[gridDim.x + blockIdx.x] = c;
}

__global__ void grid3d(int* out) {
    int bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int nt = blockDim.x * blockDim.y * blockDim.z;
    out[bx * nt + tx] = (blockIdx.z << 24) | (blockIdx.y << 16) | (threadIdx.z << 8) | (threadIdx.y << 4) | threadIdx.x;
}

__global__ void arith(const int* in, int* out) {
    int a = in[0], b = in[1];
    unsigned ua = (unsigned)a;
    out[0] = a / b; out[1] = a % b; out[2] = __popc(ua); out[3] = __clz(ua); out[4] = __brev(ua);
    out[5] = __mulhi(a, b); out[6] = min(a, b); out[7] = abs(a); out[8] = __byte_perm(a, b, 0x5140);
    out[9] = __funnelshift_l(a, b, 8); out[10] = __ffs(a); out[11] = (int)(((long long)a * b) >> 32);
    float fa = __int_as_float(in[2]);
    out[12] = (int)(fa * 3.0f); out[13] = __float_as_int(sqrtf(fa)); out[14] = (int)rintf(fa);
    out[15] = __float2int_rd(-fa);
}
