// Tiled matrix multiply C = A B through shared memory, for square and non-multiple-of-tile shapes,
// checked against the host's product.
#include <cmath>
#include <vector>
#include "common.h"

template <int TILE>
__global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int ka = t * TILE + threadIdx.x, kb = t * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = sum;
}

template <int TILE>
static bool run(int M, int N, int K) {
    std::vector<float> a(M * K), b(K * N), c(M * N), ref(M * N, 0.0f);
    // Small integers: every partial sum is exact in float, so the result must equal the host's exactly.
    for (int i = 0; i < M * K; ++i) a[i] = (float)((i * 7) % 5 - 2);
    for (int i = 0; i < K * N; ++i) b[i] = (float)((i * 3) % 7 - 3);
    for (int i = 0; i < M; ++i)
        for (int k = 0; k < K; ++k)
            for (int j = 0; j < N; ++j) ref[i * N + j] += a[i * K + k] * b[k * N + j];
    float *dA, *dB, *dC;
    CHECK(cudaMalloc(&dA, a.size() * sizeof(float)));
    CHECK(cudaMalloc(&dB, b.size() * sizeof(float)));
    CHECK(cudaMalloc(&dC, c.size() * sizeof(float)));
    CHECK(cudaMemcpy(dA, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matmul_tiled<TILE><<<grid, block>>>(dA, dB, dC, M, N, K);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(c.data(), dC, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < M * N; ++i) wrong += c[i] != ref[i];
    printf("matmul %dx%dx%d tile %d: C[0] = %g, C[last] = %g, %d wrong\n", M, N, K, TILE, c[0], c[M * N - 1],
           wrong);
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
    return wrong == 0;
}

int main() {
    bool ok = run<16>(128, 128, 128);
    ok = run<32>(96, 160, 64) && ok;
    ok = run<16>(100, 75, 33) && ok;
    return finish(ok);
}
