// Device printf (vprintf with a packed argument buffer) with several formats. Only one thread per
// block prints so the output order is fixed within a block.
#include <cstdio>

extern "C" __global__ void printf_formats(const float* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = i * 2;
    if (threadIdx.x == 0) {
        long long big = 1LL << 40 | blockIdx.x;
        printf("block %d of %u: x=%x big=%lld f=%f e=%e g=%g s=%s c=%c %%\n",
               (int)blockIdx.x, gridDim.x, 0xbeefu + blockIdx.x, big, in[i], (double)in[i] * 1e6,
               1.0 / 3.0, "warpsim", 'A' + (int)(blockIdx.x % 26));
    }
}

extern "C" __global__ void printf_simple(int* out) {
    if (threadIdx.x == 0 && blockIdx.x == 0) printf("hello from the device\n");
    if (threadIdx.x == 1 && blockIdx.x == 0) printf("%5d|%-5d|%05.2f|%llu\n", 42, -7, 3.14159, 18446744073709551615ull);
    out[blockIdx.x * blockDim.x + threadIdx.x] = (int)threadIdx.x;
}
