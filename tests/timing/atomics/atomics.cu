// What atomics on few addresses cost the H200: a grid of 1056 blocks x 256 threads, each thread doing ITERS
// atomic adds, to K distinct words chosen four ways; CUDA events, median of 20 launches after 3 warm-ups.
//   lane    global atomicAdd(u32), result unused (RED), word = global thread index % K
//   warp    the same, word = global warp index % K (all lanes of a warp on one word)
//   used    lane, with the result used (ATOM: the old value is summed and stored)
//   f32     lane, atomicAdd(float)
//   shared  shared-memory atomicAdd(u32), word = threadIdx.x % K, then one store per block
// Prints one line per case: kind K median_us ns_per_warp_op ns_per_lane_op.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuda_check.h"

constexpr int kIters = 16;

__global__ void lane_red(unsigned* bins, unsigned k) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < kIters; ++i) atomicAdd(&bins[(t + i * 977u) % k], 1u);
}
__global__ void warp_red(unsigned* bins, unsigned k) {
    unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32u;
    for (int i = 0; i < kIters; ++i) atomicAdd(&bins[(w + i * 977u) % k], 1u);
}
__global__ void lane_atom(unsigned* bins, unsigned k, unsigned* out) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = 0;
    for (int i = 0; i < kIters; ++i) s += atomicAdd(&bins[(t + i * 977u) % k], 1u);
    out[t] = s;
}
__global__ void lane_f32(float* bins, unsigned k) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < kIters; ++i) atomicAdd(&bins[(t + i * 977u) % k], 1.0f);
}
__global__ void shared_red(unsigned* out, unsigned k) {
    __shared__ unsigned bins[1024];
    for (unsigned i = threadIdx.x; i < 1024; i += blockDim.x) bins[i] = 0;
    __syncthreads();
    for (int i = 0; i < kIters; ++i) atomicAdd(&bins[(threadIdx.x + i * 977u) % k], 1u);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = bins[0];
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
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int main() {
    const int blocks = 1056, threads = 256;
    const double lanes = double(blocks) * threads * kIters, warps = lanes / 32;
    unsigned *bins = nullptr, *out = nullptr;
    CHECK(cudaMalloc(&bins, sizeof(unsigned) << 20));
    CHECK(cudaMalloc(&out, sizeof(unsigned) * blocks * threads));
    CHECK(cudaMemset(bins, 0, sizeof(unsigned) << 20));
    const unsigned ks[] = {1, 2, 4, 8, 16, 32, 64, 256, 1024, 4096, 65536, 1u << 20};
    std::printf("kind K median_us ns_per_warp_op ns_per_lane_op (%d blocks x %d threads x %d atomics)\n", blocks,
                threads, kIters);
    auto line = [&](const char* kind, unsigned k, float us) {
        std::printf("%s %u %.2f %.4f %.5f\n", kind, k, us, us * 1000.0 / warps, us * 1000.0 / lanes);
    };
    for (unsigned k : ks) line("lane", k, median_us([&] { lane_red<<<blocks, threads>>>(bins, k); }));
    for (unsigned k : ks) line("warp", k, median_us([&] { warp_red<<<blocks, threads>>>(bins, k); }));
    for (unsigned k : ks) line("used", k, median_us([&] { lane_atom<<<blocks, threads>>>(bins, k, out); }));
    for (unsigned k : ks)
        line("f32", k, median_us([&] { lane_f32<<<blocks, threads>>>(reinterpret_cast<float*>(bins), k); }));
    for (unsigned k : {1u, 2u, 4u, 8u, 16u, 32u, 64u, 256u, 1024u})
        line("shared", k, median_us([&] { shared_red<<<blocks, threads>>>(out, k); }));
    // Grid size at K = 1 and K = 32: is one word's rate fixed, or does it depend on how many SMs ask?
    for (int g : {1, 8, 33, 132, 264, 528}) {
        float us1 = median_us([&] { lane_red<<<g, threads>>>(bins, 1); });
        float us32 = median_us([&] { lane_red<<<g, threads>>>(bins, 32); });
        double l = double(g) * threads * kIters;
        std::printf("grid %d K1 %.2f us %.5f ns/lane  K32 %.2f us %.5f ns/lane\n", g, us1, us1 * 1000 / l, us32,
                    us32 * 1000 / l);
    }
    return 0;
}
