// Odds and ends: __nanosleep, prefetch, __builtin_assume/expect, assert (a call to __assertfail),
// __trap and __brkpt behind conditions that the specs never make true.
#include <cassert>

extern "C" __global__ void nanosleep_backoff(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned ns = 8;
    for (int k = 0; k < (in[i] & 3); ++k) {              // exponential back-off, result unaffected
        __nanosleep(ns);
        ns *= 2;
    }
    out[i] = in[i] * 5;
}

extern "C" __global__ void prefetch_hints(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    asm volatile("prefetch.global.L2 [%0];" :: "l"(in + i));
    asm volatile("prefetch.global.L1 [%0];" :: "l"(in + (i + 32) % n));
    __builtin_assume(n > 0);
    float v = in[i];
    if (__builtin_expect(v < 0.0f, 0)) v = -v;
    out[i] = v * 0.5f;
}

extern "C" __global__ void assert_and_trap(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    assert(v >= 0);                                       // holds for the spec's data
    if (v == -12345) __trap();                            // never taken
    if (v == -54321) __brkpt();
    out[i] = v + 1;
}
