// Calls: __noinline__ device functions with several parameters and return values (scalar and
// struct), recursion, and indirect calls through a table of function pointers.

struct MinMax { int lo; int hi; float mean; };

__device__ __noinline__ float weighted(float a, float b, double w, int k, const float* p) {
    return (float)(a * w + b * (1.0 - w)) + p[k & 3];
}

__device__ __noinline__ MinMax min_max_mean(const int* v, int count) {
    MinMax r{v[0], v[0], 0.0f};
    long long s = 0;
    for (int k = 0; k < count; ++k) {
        r.lo = min(r.lo, v[k]);
        r.hi = max(r.hi, v[k]);
        s += v[k];
    }
    r.mean = (float)s / (float)count;
    return r;
}

__device__ __noinline__ long long mix64(long long x, unsigned y, short z, unsigned char w) {
    return x * 31 + (long long)y * 7 - z + w;
}

extern "C" __global__ void noinline_calls(const float* in, const int* iv, float* out, int* outi, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 8 > n) return;
    float w = weighted(in[i], in[i + 1], 0.25 + 0.01 * (i & 7), i, in);
    MinMax mm = min_max_mean(iv + i, 8);
    long long m = mix64((long long)iv[i] << 20, (unsigned)i, (short)(iv[i] - 100), (unsigned char)i);
    out[2 * i + 0] = w;
    out[2 * i + 1] = mm.mean;
    outi[3 * i + 0] = mm.lo;
    outi[3 * i + 1] = mm.hi;
    outi[3 * i + 2] = (int)(m ^ (m >> 32));
}

__device__ __noinline__ int fib(int k) {                // not tail recursive: needs a call stack
    return k < 2 ? k : fib(k - 1) + fib(k - 2);
}

__device__ __noinline__ unsigned long long depth_sum(int k, unsigned long long acc) {
    if (k == 0) return acc;
    unsigned long long r = depth_sum(k - 1, acc * 3 + (unsigned long long)k);
    return r ^ (unsigned long long)k;
}

extern "C" __global__ void recursion(const int* in, int* out, unsigned long long* out64, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = in[i] % 16;                                // divergent recursion depths
    out[i] = fib(k);
    out64[i] = depth_sum(k + 4, (unsigned long long)i);
}

__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }
__device__ __noinline__ int op_xor(int a, int b) { return a ^ b; }
__device__ __noinline__ int op_sub(int a, int b) { return a - b; }

typedef int (*BinOp)(int, int);
__device__ BinOp op_table[4] = {op_add, op_mul, op_xor, op_sub};

extern "C" __global__ void indirect_calls(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    BinOp f = op_table[in[i] & 3];                     // per-lane target: divergent indirect call
    out[i] = f(in[i], i + 3);
}
