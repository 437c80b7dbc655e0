// What a written byte costs the H200's L2 between launches, against a read one: four streams of footprint F,
// each launched again and again (CUDA events, median of 20 launches after 3 warm-ups): read-only (F read),
// copy (F/2 read, F/2 written), in-place scale (F read and written back) and fill (F written).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuda_check.h"

__global__ void read_only(const float4* in, size_t n, float* out) {
    float acc = 0.0f;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        float4 v = in[i];
        acc += v.x + v.y + v.z + v.w;
    }
    if (acc == -1.2345f) out[0] = acc;
}
__global__ void copy(const float4* in, float4* out, size_t n) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        out[i] = in[i];
}
__global__ void scale(float4* a, size_t n) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        float4 v = a[i];
        a[i] = make_float4(v.x * 0.5f, v.y * 0.5f, v.z * 0.5f, v.w * 0.5f);
    }
}
__global__ void fill(float4* a, size_t n, float x) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        a[i] = make_float4(x, x, x, x);
}

int main() {
    const int mib[] = {16, 24, 32, 36, 40, 44, 48, 50, 52, 54, 56, 60, 64, 72, 96};
    size_t max_bytes = size_t(96) << 20;
    float4 *a = nullptr, *b = nullptr;
    float* out = nullptr;
    CHECK(cudaMalloc(&a, max_bytes));
    CHECK(cudaMalloc(&b, max_bytes));
    CHECK(cudaMalloc(&out, sizeof(float)));
    std::vector<float> host(max_bytes / sizeof(float));
    for (size_t i = 0; i < host.size(); ++i) host[i] = float(i % 1000) * 0.001f + 1.0f;
    CHECK(cudaMemcpy(a, host.data(), max_bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, host.data(), max_bytes, cudaMemcpyHostToDevice));
    int blocks = 132 * 8, threads = 256;
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    std::printf("mib read_only copy scale fill (median us)\n");
    for (int m : mib) {
        size_t n = (size_t(m) << 20) / sizeof(float4);
        std::printf("%d", m);
        for (int k = 0; k < 4; ++k) {
            auto launch = [&] {
                if (k == 0) read_only<<<blocks, threads>>>(a, n, out);
                if (k == 1) copy<<<blocks, threads>>>(a, b, n / 2);
                if (k == 2) scale<<<blocks, threads>>>(a, n);
                if (k == 3) fill<<<blocks, threads>>>(b, n, 1.5f);
            };
            for (int r = 0; r < 3; ++r) launch();
            CHECK(cudaGetLastError());
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
            std::sort(t.begin(), t.end());
            std::printf(" %.3f", 0.5 * (t[9] + t[10]));
        }
        std::printf("\n");
    }
    return 0;
}
