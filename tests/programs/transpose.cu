// Three matrix transposes (naive, shared-memory tile, padded tile against bank conflicts) on a matrix whose
// sides are not multiples of the tile, each checked element by element.
#include <vector>
#include "common.h"

constexpr int TILE = 32, ROWS = 8;

__global__ void transpose_naive(const float* in, float* out, int M, int N) {
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < N && y + j < M) out[x * M + y + j] = in[(y + j) * N + x];
}

template <int PAD>
__global__ void transpose_tiled(const float* in, float* out, int M, int N) {
    __shared__ float tile[TILE][TILE + PAD];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < N && y + j < M) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < M && y + j < N) out[(y + j) * M + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
    const int M = 300, N = 200;
    std::vector<float> h(M * N), t(M * N);
    for (int i = 0; i < M * N; ++i) h[i] = (float)i;
    float *in, *out;
    CHECK(cudaMalloc(&in, M * N * sizeof(float)));
    CHECK(cudaMalloc(&out, M * N * sizeof(float)));
    CHECK(cudaMemcpy(in, h.data(), M * N * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(TILE, ROWS), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    const char* names[] = {"naive", "tiled", "padded"};
    bool ok = true;
    for (int v = 0; v < 3; ++v) {
        CHECK(cudaMemset(out, 0xff, M * N * sizeof(float)));
        if (v == 0) transpose_naive<<<grid, block>>>(in, out, M, N);
        if (v == 1) transpose_tiled<0><<<grid, block>>>(in, out, M, N);
        if (v == 2) transpose_tiled<1><<<grid, block>>>(in, out, M, N);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(t.data(), out, M * N * sizeof(float), cudaMemcpyDeviceToHost));
        int wrong = 0;
        for (int r = 0; r < N; ++r)
            for (int c = 0; c < M; ++c) wrong += t[r * M + c] != h[c * N + r];
        printf("transpose %s %dx%d: %d wrong\n", names[v], M, N, wrong);
        ok = ok && wrong == 0;
    }
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return finish(ok);
}
