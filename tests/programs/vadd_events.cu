// A vector add timed with CUDA events in the seeds' style: warm-up launches, then timed launches, each
// result checked on the host. Usage: vadd_events [n] [warmup] [timed] (defaults 2^26, 150, 51).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
    do {                                                                       \
        cudaError_t err_ = (call);                                             \
        if (err_ != cudaSuccess) {                                             \
            fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__,                  \
                    cudaGetErrorString(err_));                                 \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

__global__ void vadd(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char** argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 1 << 26;
    const int warmup = argc > 2 ? atoi(argv[2]) : 150;
    const int timed = argc > 3 ? atoi(argv[3]) : 51;
    const size_t bytes = (size_t)n * sizeof(float);
    printf("vadd: n = %d, %d warm-up and %d timed launches\n", n, warmup, timed);

    std::vector<float> h_a(n), h_b(n), h_c(n);
    for (int i = 0; i < n; ++i) { h_a[i] = (float)(i % 4096); h_b[i] = 0.5f * (float)(i % 1024); }
    float *d_a, *d_b, *d_c;
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMalloc(&d_b, bytes));
    CUDA_CHECK(cudaMalloc(&d_c, bytes));
    CUDA_CHECK(cudaMemcpy(d_a, h_a.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, h_b.data(), bytes, cudaMemcpyHostToDevice));

    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    for (int r = 0; r < warmup; ++r) vadd<<<blocks, threads>>>(d_a, d_b, d_c, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    std::vector<float> ms(timed);
    long wrong = 0;
    for (int r = 0; r < timed; ++r) {
        CUDA_CHECK(cudaMemset(d_c, 0, bytes));
        CUDA_CHECK(cudaEventRecord(start));
        vadd<<<blocks, threads>>>(d_a, d_b, d_c, n);
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventElapsedTime(&ms[r], start, stop));
        CUDA_CHECK(cudaMemcpy(h_c.data(), d_c, bytes, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; ++i)
            if (h_c[i] != h_a[i] + h_b[i]) ++wrong;
    }
    std::vector<float> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    if (timed > 0) {
        float med = sorted[timed / 2];
        printf("time: median %.4f ms, min %.4f ms, max %.4f ms, %.1f GB/s\n", med, sorted[0],
               sorted[timed - 1], 3.0 * bytes / (med * 1e-3) / 1e9);
    }
    printf("c[%d] = %f\n", n - 1, h_c[n - 1]);
    printf("wrong elements: %ld\n", wrong);
    printf("%s\n", wrong == 0 ? "PASS" : "FAIL");
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    cudaFree(d_a); cudaFree(d_b); cudaFree(d_c);
    return wrong == 0 ? 0 : 1;
}
