// Shared-memory atomics: a histogram, min/max/and/or/xor/exch/CAS/inc on shared words, and float
// adds of integers (exact). Each block writes its own results; totals use integer global atomics.

extern "C" __global__ void shared_histogram(const unsigned* in, unsigned* hist, int n) {
    __shared__ unsigned bins[64];
    for (int k = threadIdx.x; k < 64; k += blockDim.x) bins[k] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned v = in[i] * 2654435761u;
        atomicAdd(&bins[v >> 26], 1u);                // atom.shared.add
    }
    __syncthreads();
    for (int k = threadIdx.x; k < 64; k += blockDim.x) atomicAdd(&hist[k], bins[k]);
}

extern "C" __global__ void shared_atomic_ops(const int* in, int* out, int n) {
    __shared__ int s[8];
    __shared__ unsigned long long s64;
    if (threadIdx.x == 0) {
        s[0] = 0x7fffffff; s[1] = -0x7fffffff; s[2] = -1; s[3] = 0; s[4] = 0; s[5] = 0; s[6] = 0; s[7] = 0;
        s64 = 0;
    }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] * 7 - 300 : 0;
    atomicMin(&s[0], v);
    atomicMax(&s[1], v);
    atomicAnd(&s[2], ~(1 << (threadIdx.x % 29)));
    atomicOr(&s[3], 1 << (threadIdx.x % 23));
    atomicXor(&s[4], v);
    atomicInc((unsigned*)&s[5], 9u);
    atomicCAS(&s[6], 0, 1);                            // exactly one thread wins
    atomicAdd(&s64, (unsigned long long)(unsigned)v);
    __syncthreads();
    if (threadIdx.x < 8) out[blockIdx.x * 10 + threadIdx.x] = s[threadIdx.x];
    if (threadIdx.x == 8) out[blockIdx.x * 10 + 8] = (int)(s64 & 0xffffffff);
    if (threadIdx.x == 9) out[blockIdx.x * 10 + 9] = (int)(s64 >> 32);
}

extern "C" __global__ void shared_float_atomics(const int* in, float* out, double* outd, int n) {
    __shared__ float fs[4];
    __shared__ double ds;
    if (threadIdx.x < 4) fs[threadIdx.x] = 0.0f;
    if (threadIdx.x == 0) ds = 0.0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&fs[i & 3], (float)(in[i] & 1023));
        atomicAdd(&ds, (double)in[i] * 0.5);
        float prev = atomicExch(&fs[3], 2.0f);        // leaves 2.0 or a sum; result depends only on last
        (void)prev;
    }
    __syncthreads();
    if (threadIdx.x < 3) out[blockIdx.x * 3 + threadIdx.x] = fs[threadIdx.x];
    if (threadIdx.x == 0) outd[blockIdx.x] = ds;
}
