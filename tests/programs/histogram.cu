// A 256-bin byte histogram: global atomics, then per-block privatised bins in shared memory merged with one
// atomic per bin and block; both compared with the host's counts.
#include <vector>
#include "common.h"

__global__ void histogram_global(const unsigned char* data, int n, unsigned* bins) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[data[i]], 1u);
}

__global__ void histogram_shared(const unsigned char* data, int n, unsigned* bins) {
    __shared__ unsigned local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        if (local[b]) atomicAdd(&bins[b], local[b]);
}

int main() {
    const int n = 1 << 20;
    std::vector<unsigned char> h(n);
    unsigned state = 12345;
    for (int i = 0; i < n; ++i) {
        state = state * 1664525u + 1013904223u;
        h[i] = (unsigned char)((state >> 24) % 64 + (i % 3) * 64);
    }
    std::vector<unsigned> want(256, 0), got(256);
    for (int i = 0; i < n; ++i) ++want[h[i]];
    unsigned char* data;
    unsigned* bins;
    CHECK(cudaMalloc(&data, n));
    CHECK(cudaMalloc(&bins, 256 * sizeof(unsigned)));
    CHECK(cudaMemcpy(data, h.data(), n, cudaMemcpyHostToDevice));
    bool ok = true;
    for (int v = 0; v < 2; ++v) {
        CHECK(cudaMemset(bins, 0, 256 * sizeof(unsigned)));
        if (v == 0) histogram_global<<<132, 256>>>(data, n, bins);
        else histogram_shared<<<132, 256>>>(data, n, bins);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(got.data(), bins, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost));
        int wrong = 0;
        for (int b = 0; b < 256; ++b) wrong += got[b] != want[b];
        printf("histogram (%s atomics): bin[0] = %u, bin[255] = %u, %d bins wrong\n", v == 0 ? "global" : "shared",
               got[0], got[255], wrong);
        ok = ok && wrong == 0;
    }
    CHECK(cudaFree(data));
    CHECK(cudaFree(bins));
    return finish(ok);
}
