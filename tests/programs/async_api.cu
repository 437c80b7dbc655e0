// The asynchronous API in one stream: cudaMallocAsync / cudaFreeAsync from the default pool, cudaMemsetAsync,
// cudaMemcpyAsync both ways and device to device, cudaMemcpy2DAsync of a sub-matrix, then one synchronise.
#include <vector>
#include "common.h"

__global__ void add_one(int* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}

int main() {
    const int n = 100000;
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    int *h_in, *h_out;
    CHECK(cudaMallocHost(&h_in, n * sizeof(int)));
    CHECK(cudaMallocHost(&h_out, n * sizeof(int)));
    for (int i = 0; i < n; ++i) h_in[i] = i;

    int *a = nullptr, *b = nullptr;
    CHECK(cudaMallocAsync(&a, n * sizeof(int), s));
    CHECK(cudaMallocAsync(&b, n * sizeof(int), s));
    CHECK(cudaMemsetAsync(b, 0, n * sizeof(int), s));
    CHECK(cudaMemcpyAsync(a, h_in, n * sizeof(int), cudaMemcpyHostToDevice, s));
    add_one<<<(n + 255) / 256, 256, 0, s>>>(a, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(b, a, n / 2 * sizeof(int), cudaMemcpyDeviceToDevice, s));
    add_one<<<(n + 255) / 256, 256, 0, s>>>(b, n);
    CHECK(cudaMemcpyAsync(h_out, b, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    CHECK(cudaFreeAsync(a, s));
    CHECK(cudaFreeAsync(b, s));
    CHECK(cudaStreamSynchronize(s));
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += h_out[i] != (i < n / 2 ? i + 2 : 1);
    printf("async chain: out[0] = %d, out[n/2] = %d, %d wrong\n", h_out[0], h_out[n / 2], wrong);

    // A 2D copy: rows 2..5, columns 3..10 of a 16 x 16 host matrix into a pitched device allocation and back.
    const int W = 16, H = 16;
    std::vector<int> m(W * H), back(8 * 4, -1);
    for (int i = 0; i < W * H; ++i) m[i] = i;
    int* pitched = nullptr;
    size_t pitch = 0;
    CHECK(cudaMallocPitch(&pitched, &pitch, 8 * sizeof(int), 4));
    printf("pitch of an 8-int row: %s\n", pitch >= 8 * sizeof(int) && pitch % 128 == 0 ? "ok" : "unexpected");
    CHECK(cudaMemcpy2DAsync(pitched, pitch, m.data() + 2 * W + 3, W * sizeof(int), 8 * sizeof(int), 4,
                            cudaMemcpyHostToDevice, s));
    CHECK(cudaMemcpy2DAsync(back.data(), 8 * sizeof(int), pitched, pitch, 8 * sizeof(int), 4,
                            cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    int wrong2d = 0;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 8; ++c) wrong2d += back[r * 8 + c] != m[(r + 2) * W + c + 3];
    printf("2D copy: back[0] = %d, back[31] = %d, %d wrong\n", back[0], back[31], wrong2d);
    CHECK(cudaFree(pitched));
    CHECK(cudaFreeHost(h_in));
    CHECK(cudaFreeHost(h_out));
    CHECK(cudaStreamDestroy(s));
    return finish(wrong == 0 && wrong2d == 0);
}
