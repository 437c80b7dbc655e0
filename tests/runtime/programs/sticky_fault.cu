// A launch-configuration error that is not sticky, then a kernel fault that is: the seed's launch-error
// program. <<<1, 2048>>> is refused by the launch itself and cudaGetLastError clears it; a write through
// pointer 0x10 launches fine, cudaDeviceSynchronize reports the illegal address, and every later call fails
// (cudaGetLastError returns the fault once, then cudaSuccess).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void writeTo(int* p) { p[threadIdx.x] = 1; }

int main() {
    int* d = nullptr;
    cudaMalloc(&d, 4096);
    writeTo<<<1, 2048>>>(d);
    cudaError_t e = cudaGetLastError();
    printf("oversized launch: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    printf("last error after reading it: %s\n", cudaGetErrorName(cudaGetLastError()));
    writeTo<<<1, 32>>>(d);
    printf("good launch then sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    writeTo<<<1, 32>>>(reinterpret_cast<int*>(0x10));
    printf("bad launch: %s\n", cudaGetErrorName(cudaGetLastError()));
    e = cudaDeviceSynchronize();
    printf("sync: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    int* d2 = nullptr;
    printf("malloc after the fault: %s\n", cudaGetErrorName(cudaMalloc(&d2, 16)));
    printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("last error again: %s\n", cudaGetErrorName(cudaGetLastError()));
    return 0;
}
