// Separate compilation (nvcc -rdc=true): the kernels here call device functions and use a __device__
// variable that rdc_link_device.cu defines; nvlink joins them. Also a static __device__ variable of the
// same name in both files (each file's own), and a device function only this file has.
#include "common.h"

extern __device__ float saxpy_element(float a, float x, float y);  // rdc_link_device.cu
extern __device__ int calls;                                        // rdc_link_device.cu
__device__ int bump_calls();                                        // rdc_link_device.cu
static __device__ int local_count;                                  // this file's own

__device__ __noinline__ float twice(float v) { return 2.0f * v; }

__global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = twice(saxpy_element(a, x[i], y[i])) * 0.5f;
        if (i % 100 == 0) {
            bump_calls();
            atomicAdd(&local_count, 1);
        }
    }
}

__global__ void read_counts(int* out) {
    out[0] = calls;
    out[1] = local_count;
}

int main() {
    const int n = 1000;
    float hx[n], hy[n];
    for (int i = 0; i < n; ++i) {
        hx[i] = float(i);
        hy[i] = 1.0f;
    }
    float *x, *y;
    int* counts;
    CHECK(cudaMalloc(&x, n * sizeof(float)));
    CHECK(cudaMalloc(&y, n * sizeof(float)));
    CHECK(cudaMalloc(&counts, 2 * sizeof(int)));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice));
    saxpy<<<(n + 127) / 128, 128>>>(3.0f, x, y, n);
    CHECK_LAUNCH();
    read_counts<<<1, 1>>>(counts);
    CHECK_LAUNCH();
    int hc[2];
    CHECK(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hc, counts, sizeof hc, cudaMemcpyDeviceToHost));
    bool ok = hc[0] == 10 && hc[1] == 10;
    for (int i = 0; i < n; ++i) ok = ok && hy[i] == 3.0f * float(i) + 1.0f;
    printf("y[999] = %.1f, calls = %d, local_count = %d\n", hy[999], hc[0], hc[1]);
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    CHECK(cudaFree(counts));
    return finish(ok);
}
