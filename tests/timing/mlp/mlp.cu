// How many global loads one warp keeps in flight on the H200: grid-stride loops launched with few blocks, the loop
// body unrolled 1, 2, 4 or 8 times (#pragma unroll) or as nvcc -O3 chooses, and a single-thread pointer chase for
// the bare load latency. CUDA events, median of 20 launches after 3 warm-ups (the L2 keeps what fits between
// launches, as in every CUDA-event timing).
//   sum_uU     v += in[i] over a grid-stride loop, one partial sum per thread stored at the end (no store in the loop)
//   saxpy_uU   y[i] = a * x[i] + y[i], x and y not __restrict__ (loads cannot move above the previous store)
//   saxpyr_uU  the same with __restrict__ pointers
//   sumk_uU    v += in[t + k * stride] for k < iters: a counted loop (U up to 32)
//   chase      one thread: p = next[p], `steps` times, next[i] = (i + step) % n; also clock64() cycles per step
// U = 0 is the loop as nvcc writes it without a pragma. Prints one line per launch:
//   kernel U blocks threads n iterations_per_thread median_us ns_per_iteration
// and for the chase: chase footprint_bytes steps median_us ns_per_step cycles_per_step.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cuda_check.h"

#define SUM_KERNEL(NAME, PRAGMA)                                                                 \
    extern "C" __global__ void NAME(const float* in, float* out, int n) {                        \
        float v = 0.0f;                                                                          \
        PRAGMA                                                                                   \
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) \
            v += in[i];                                                                          \
        out[blockIdx.x * blockDim.x + threadIdx.x] = v;                                          \
    }
#define SAXPY_KERNEL(NAME, RESTRICT, PRAGMA)                                                          \
    extern "C" __global__ void NAME(const float* RESTRICT x, float* RESTRICT y, float a, int n) {     \
        PRAGMA                                                                                        \
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)      \
            y[i] = a * x[i] + y[i];                                                                   \
    }

#define P(x) _Pragma(#x)
SUM_KERNEL(sum_u0, )
SUM_KERNEL(sum_u1, P(unroll 1))
SUM_KERNEL(sum_u2, P(unroll 2))
SUM_KERNEL(sum_u4, P(unroll 4))
SUM_KERNEL(sum_u8, P(unroll 8))
SAXPY_KERNEL(saxpy_u0, , )
SAXPY_KERNEL(saxpy_u1, , P(unroll 1))
SAXPY_KERNEL(saxpy_u4, , P(unroll 4))
SAXPY_KERNEL(saxpyr_u0, __restrict__, )
SAXPY_KERNEL(saxpyr_u4, __restrict__, P(unroll 4))

// A counted loop (trip count known on entry, as a column sum down `iters` rows): ptxas can unroll it without an
// exit test per copy and issue the copies' loads together.
#define SUMK_KERNEL(NAME, PRAGMA)                                                  \
    extern "C" __global__ void NAME(const float* in, float* out, int iters) {      \
        int t = blockIdx.x * blockDim.x + threadIdx.x, stride = blockDim.x * gridDim.x; \
        float v = 0.0f;                                                            \
        PRAGMA                                                                     \
        for (int k = 0; k < iters; ++k) v += in[t + k * stride];                   \
        out[t] = v;                                                                \
    }
SUMK_KERNEL(sumk_u0, )
SUMK_KERNEL(sumk_u1, P(unroll 1))
SUMK_KERNEL(sumk_u2, P(unroll 2))
SUMK_KERNEL(sumk_u4, P(unroll 4))
SUMK_KERNEL(sumk_u8, P(unroll 8))
SUMK_KERNEL(sumk_u16, P(unroll 16))
SUMK_KERNEL(sumk_u32, P(unroll 32))

extern "C" __global__ void chase(const int* next, int* end, long long* cycles, int steps, int start) {
    int p = start;
    long long t0 = clock64();
    for (int s = 0; s < steps; ++s) p = next[p];
    long long t1 = clock64();
    end[0] = p;
    cycles[0] = t1 - t0;
}

extern "C" __global__ void chase_init(int* next, long long n, long long step) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        next[i] = int((i + step) % n);
}

template <class F>
float median_us(F launch) {
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    for (int i = 0; i < 3; ++i) launch();
    CHECK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int r = 0; r < 20; ++r) {
        CHECK(cudaEventRecord(e0));
        launch();
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        t.push_back(ms * 1000.0f);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaEventDestroy(e0));
    CHECK(cudaEventDestroy(e1));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

using SumFn = void (*)(const float*, float*, int);
using SaxpyFn = void (*)(const float*, float*, float, int);
using SumkFn = void (*)(const float*, float*, int);

int main(int argc, char** argv) {
    const bool chase_only = argc > 1 && std::string(argv[1]) == "chase";
    const long long kMax = 1ll << 26;  // floats: 256 MiB per array
    float *x = nullptr, *y = nullptr;
    CHECK(cudaMalloc(&x, sizeof(float) * kMax));
    CHECK(cudaMalloc(&y, sizeof(float) * kMax));
    CHECK(cudaMemset(x, 0, sizeof(float) * kMax));
    CHECK(cudaMemset(y, 0, sizeof(float) * kMax));

    struct Shape {
        int blocks, threads, iters;
    };
    // Few blocks with long loops (footprint 0.5-32 MiB: L2-resident between launches), then one wave of one or
    // eight warps per SM over 66-132 MiB (DRAM).
    const Shape shapes[] = {{1, 32, 4096}, {1, 256, 1024}, {2, 256, 1024}, {4, 256, 1024}, {8, 256, 1024},
                            {16, 256, 1024}, {32, 256, 1024}, {1, 1024, 1024}, {132, 32, 4096}, {132, 256, 1024}};
    const struct {
        const char* name;
        int u;
        SumFn f;
    } sums[] = {{"sum", 0, sum_u0}, {"sum", 1, sum_u1}, {"sum", 2, sum_u2}, {"sum", 4, sum_u4}, {"sum", 8, sum_u8}};
    const struct {
        const char* name;
        int u;
        SumkFn f;
    } sumks[] = {{"sumk", 0, sumk_u0}, {"sumk", 1, sumk_u1}, {"sumk", 2, sumk_u2}, {"sumk", 4, sumk_u4},
                 {"sumk", 8, sumk_u8}, {"sumk", 16, sumk_u16}, {"sumk", 32, sumk_u32}};
    const struct {
        const char* name;
        int u;
        SaxpyFn f;
    } saxpys[] = {{"saxpy", 0, saxpy_u0}, {"saxpy", 1, saxpy_u1}, {"saxpy", 4, saxpy_u4}, {"saxpyr", 0, saxpyr_u0},
                  {"saxpyr", 4, saxpyr_u4}};
    for (const auto& s : shapes) {
        if (chase_only) break;
        long long n = (long long)s.blocks * s.threads * s.iters;
        for (const auto& k : sums) {
            float us = median_us([&] { k.f<<<s.blocks, s.threads>>>(x, y, int(n)); });
            std::printf("%s %d %d %d %lld %d %.2f %.3f\n", k.name, k.u, s.blocks, s.threads, n, s.iters, us,
                        1e3 * us / s.iters);
        }
        for (const auto& k : sumks) {
            float us = median_us([&] { k.f<<<s.blocks, s.threads>>>(x, y, s.iters); });
            std::printf("%s %d %d %d %lld %d %.2f %.3f\n", k.name, k.u, s.blocks, s.threads, n, s.iters, us,
                        1e3 * us / s.iters);
        }
        for (const auto& k : saxpys) {
            float us = median_us([&] { k.f<<<s.blocks, s.threads>>>(x, y, 1.5f, int(n)); });
            std::printf("%s %d %d %d %lld %d %.2f %.3f\n", k.name, k.u, s.blocks, s.threads, n, s.iters, us,
                        1e3 * us / s.iters);
        }
        std::fflush(stdout);
    }

    // Bare latency of one dependent load, a step of 16 KiB + 68 B (a new line every step): 16 KiB (the step is then
    // 68 B: L1-resident), 4 MiB, every launch from the same start (L2-resident after the warm-ups), and 256 MiB,
    // every launch going on where the last one stopped (8192 new lines each: DRAM). `mlp chase` runs these alone.
    int* next = reinterpret_cast<int*>(x);
    int* end = reinterpret_cast<int*>(y);
    long long* cycles = nullptr;
    CHECK(cudaMalloc(&cycles, sizeof(long long)));
    const long long step = 4096 + 17;
    const int steps = 8192;
    for (long long n : {1ll << 12, 1ll << 20, 1ll << 26}) {
        chase_init<<<1024, 256>>>(next, n, step);
        CHECK(cudaDeviceSynchronize());
        long long start = 0;
        float us = median_us([&] {
            chase<<<1, 1>>>(next, end, cycles, steps, int(start));
            if (n > (1ll << 20)) start = (start + steps * step) % n;
        });
        long long c = 0;
        CHECK(cudaMemcpy(&c, cycles, sizeof c, cudaMemcpyDeviceToHost));
        std::printf("chase %lld %d %.2f %.3f %.1f\n", n * 4, steps, us, 1e3 * us / steps, double(c) / steps);
    }
    return 0;
}
