// Error checking as careful programs do it: every call checked, recoverable errors (an allocation too
// large, a bad copy direction, a launch configuration error) reported with their names and cleared, and
// the program carrying on; cudaPeekAtLastError leaves the error, cudaGetLastError clears it.
#include "common.h"

__global__ void increment(int* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}

static bool expect(const char* what, cudaError_t got, cudaError_t want) {
    printf("%-40s %s (%s)\n", what, cudaGetErrorName(got), cudaGetErrorString(got));
    return got == want;
}

int main() {
    bool ok = true;
    int* d = nullptr;
    CHECK(cudaMalloc(&d, 256 * sizeof(int)));
    CHECK(cudaMemset(d, 0, 256 * sizeof(int)));

    void* huge = nullptr;
    ok = expect("cudaMalloc(1 PiB)", cudaMalloc(&huge, (size_t)1 << 50), cudaErrorMemoryAllocation) && ok;
    ok = expect("cudaGetLastError after it", cudaGetLastError(), cudaErrorMemoryAllocation) && ok;
    ok = expect("cudaGetLastError again", cudaGetLastError(), cudaSuccess) && ok;

    int h[256];
    ok = expect("cudaMemcpy with kind 42", cudaMemcpy(h, d, sizeof h, (cudaMemcpyKind)42), cudaErrorInvalidMemcpyDirection) && ok;
    cudaGetLastError();

    increment<<<1, 4096>>>(d, 256);
    cudaError_t launch = cudaPeekAtLastError();
    printf("%-40s %s\n", "increment<<<1, 4096>>> peek", cudaGetErrorName(launch));
    ok = ok && launch != cudaSuccess;
    ok = expect("cudaPeekAtLastError keeps it", cudaPeekAtLastError(), launch) && ok;
    ok = expect("cudaGetLastError returns it", cudaGetLastError(), launch) && ok;
    ok = expect("and then it is cleared", cudaGetLastError(), cudaSuccess) && ok;

    // The device still works after all of these.
    increment<<<1, 256>>>(d, 256);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int v : h) wrong += v != 1;
    printf("after the recoverable errors: h[255] = %d, %d wrong\n", h[255], wrong);
    printf("cudaGetErrorName(cudaErrorInvalidValue) = %s\n", cudaGetErrorName(cudaErrorInvalidValue));
    printf("cudaGetErrorString(cudaErrorIllegalAddress) = %s\n", cudaGetErrorString(cudaErrorIllegalAddress));
    CHECK(cudaFree(d));
    return finish(ok && wrong == 0);
}
