// Device printf appears at the synchronising call, after the host's own earlier output; a failed device
// assert is reported as cudaErrorAssert at the next synchronisation and stays.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void say(int v) { printf("device says %d from thread %d\n", v, threadIdx.x); }
__global__ void check_positive(const int* p) { assert(p[threadIdx.x] > 0); }

int main() {
    say<<<1, 2>>>(42);
    printf("host before sync\n");
    fflush(stdout);
    cudaDeviceSynchronize();
    printf("host after sync\n");
    int* d;
    cudaMalloc(&d, 4 * sizeof(int));
    cudaMemset(d, 0, 4 * sizeof(int));
    check_positive<<<1, 4>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("assert: %s\n", cudaGetErrorName(e));
    printf("later: %s\n", cudaGetErrorName(cudaMemset(d, 0, 4)));
    return 0;
}
