// Device printf: lines from a single thread, from lanes of one warp, and from sequential one-block
// launches, flushed at the synchronising calls; the host's own lines interleave at those points. Each
// printf's return value (the number of arguments, negative on failure) is checked on the host.
#include "common.h"

__device__ int printf_results[8];

__global__ void hello(int launch) {
    if (threadIdx.x == 0) {
        int r = printf("launch %d: hello from block %d of %d\n", launch, blockIdx.x, gridDim.x);
        printf_results[launch] = r;
    }
}

__global__ void lanes(const int* values) {
    int lane = threadIdx.x;
    if (lane < 4) {
        int r = printf("lane %d of warp 0 reads %d (%.2f)\n", lane, values[lane], values[lane] * 0.5);
        if (lane == 0) printf_results[3] = r;
    }
}

__global__ void formats() {
    printf_results[4] =
        printf("formats: %d %u %ld %x %c %s %5.1f %e\n", -7, 7u, 123456789012L, 255, 'z', "str", 3.14159, 1.5e-3);
    printf_results[5] = printf("no arguments\n");
}

int main() {
    size_t fifo = 0;
    CHECK(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
    printf("printf FIFO: %zu bytes\n", fifo);
    int h[4] = {10, 20, 30, 40};
    int* d;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    printf("host: before the kernels\n");
    for (int k = 0; k < 3; ++k) {
        hello<<<1, 32>>>(k);
        CHECK_LAUNCH();
    }
    lanes<<<1, 32>>>(d);
    CHECK_LAUNCH();
    printf("host: between the kernels\n");
    formats<<<1, 1>>>();
    CHECK_LAUNCH();
    printf("host: after the kernels\n");
    int r[8];
    CHECK(cudaMemcpyFromSymbol(r, printf_results, sizeof r));
    printf("printf returned %d %d %d %d %d %d\n", r[0], r[1], r[2], r[3], r[4], r[5]);
    CHECK(cudaFree(d));
    return finish(fifo > 0 && r[0] == 3 && r[1] == 3 && r[2] == 3 && r[3] == 3 && r[4] == 8 && r[5] == 0);
}
