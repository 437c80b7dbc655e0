// __constant__ and __device__ symbols: coefficients copied to constant memory with cudaMemcpyToSymbol
// (also at an offset), a device counter read back with cudaMemcpyFromSymbol, a symbol's address and size.
#include "common.h"

__constant__ float coeffs[8];
__constant__ int scale_offset;
__device__ int hits;
__device__ float table[256];

__global__ void polynomial(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = 0.0f;
    for (int k = 7; k >= 0; --k) v = v * x[i] + coeffs[k];
    y[i] = v + (float)scale_offset;
    if (v > 10.0f) atomicAdd(&hits, 1);
}

__global__ void fill_table() { table[threadIdx.x] = (float)threadIdx.x * 0.5f; }

int main() {
    const int n = 1000;
    float c[8] = {1, 0.5f, 0.25f, 0, 0, 0, 0, 0};
    CHECK(cudaMemcpyToSymbol(coeffs, c, sizeof c));
    float c3 = 0.125f;
    CHECK(cudaMemcpyToSymbol(coeffs, &c3, sizeof c3, 3 * sizeof(float)));  // coeffs[3] = 0.125
    int off = 100;
    CHECK(cudaMemcpyToSymbol(scale_offset, &off, sizeof off));
    int zero = 0;
    CHECK(cudaMemcpyToSymbol(hits, &zero, sizeof zero));

    float h_x[n], h_y[n];
    for (int i = 0; i < n; ++i) h_x[i] = (float)(i % 8) * 0.5f;
    float *x, *y;
    CHECK(cudaMalloc(&x, sizeof h_x));
    CHECK(cudaMalloc(&y, sizeof h_y));
    CHECK(cudaMemcpy(x, h_x, sizeof h_x, cudaMemcpyHostToDevice));
    polynomial<<<(n + 127) / 128, 128>>>(x, y, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h_y, y, sizeof h_y, cudaMemcpyDeviceToHost));
    int got_hits = -1;
    CHECK(cudaMemcpyFromSymbol(&got_hits, hits, sizeof got_hits));
    int wrong = 0, want_hits = 0;
    for (int i = 0; i < n; ++i) {
        float t = h_x[i];
        float v = ((0.125f * t + 0.25f) * t + 0.5f) * t + 1.0f;
        wrong += h_y[i] != v + 100.0f;
        want_hits += v > 10.0f;
    }
    printf("polynomial from __constant__ coefficients: y[7] = %g, %d wrong; hits %d (host %d)\n", h_y[7], wrong,
           got_hits, want_hits);

    fill_table<<<1, 256>>>();
    CHECK_LAUNCH();
    float* table_addr = nullptr;
    size_t table_size = 0;
    CHECK(cudaGetSymbolAddress((void**)&table_addr, table));
    CHECK(cudaGetSymbolSize(&table_size, table));
    float back[256];
    CHECK(cudaMemcpy(back, table_addr, sizeof back, cudaMemcpyDeviceToHost));
    float from_symbol[4];
    CHECK(cudaMemcpyFromSymbol(from_symbol, table, sizeof from_symbol, 252 * sizeof(float)));
    int wrong_table = 0;
    for (int i = 0; i < 256; ++i) wrong_table += back[i] != (float)i * 0.5f;
    for (int i = 0; i < 4; ++i) wrong_table += from_symbol[i] != (float)(252 + i) * 0.5f;
    printf("__device__ table: size %zu bytes, table[255] = %g, %d wrong\n", table_size, back[255], wrong_table);
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    return finish(wrong == 0 && got_hits == want_hits && table_size == sizeof back && wrong_table == 0);
}
