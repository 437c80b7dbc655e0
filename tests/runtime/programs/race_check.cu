// A shared-memory race for `warpsim exec --check`: each thread writes its slot and reads another warp's slot
// with no barrier in between. The result may even come out right; racecheck must still report the hazard.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void reverse_no_sync(int* out) {
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    out[threadIdx.x] = s[63 - threadIdx.x];
}

int main() {
    int* d;
    cudaMalloc(&d, 64 * sizeof(int));
    reverse_no_sync<<<1, 64>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 1;
}
