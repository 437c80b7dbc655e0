// Managed (unified) memory: cudaMallocManaged arrays and a __managed__ variable, touched by the host
// before and after kernels, with cudaDeviceSynchronize before every host access.
#include "common.h"

__managed__ int total;

__global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void count_positive(const float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && y[i] > 0.0f) atomicAdd(&total, 1);
}

int main() {
    int managed = 0;
    CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, 0));
    printf("managedMemory: %d\n", managed);
    const int n = 50000;
    float *x, *y;
    CHECK(cudaMallocManaged(&x, n * sizeof(float)));
    CHECK(cudaMallocManaged(&y, n * sizeof(float)));
    for (int i = 0; i < n; ++i) {
        x[i] = (float)(i % 10);
        y[i] = -(float)(i % 7);
    }
    total = 0;
    saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
    count_positive<<<(n + 255) / 256, 256>>>(y, n);
    CHECK_LAUNCH();
    int want = 0, wrong = 0;
    for (int i = 0; i < n; ++i) {
        float v = 2.0f * (float)(i % 10) - (float)(i % 7);
        wrong += y[i] != v;
        want += v > 0.0f;
    }
    printf("managed saxpy: y[9] = %g, %d wrong; positive: %d (host counts %d)\n", y[9], wrong, total, want);
    cudaPointerAttributes attr;
    CHECK(cudaPointerGetAttributes(&attr, x));
    printf("cudaPointerGetAttributes(managed).type = %d (cudaMemoryTypeManaged = %d)\n", (int)attr.type,
           (int)cudaMemoryTypeManaged);
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    return finish(managed == 1 && wrong == 0 && total == want);
}
