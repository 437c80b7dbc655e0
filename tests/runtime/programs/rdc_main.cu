// A -rdc=true program of two translation units: the kernel here calls a __device__ function and reads a
// __device__ variable that rdc_lib.cu defines (h[31] = 63 + 100 = 163).
#include <cstdio>
#include <cuda_runtime.h>

extern __device__ int twice_plus_one(int);
extern __device__ int offset;

__global__ void apply(int* p) { p[threadIdx.x] = twice_plus_one(threadIdx.x) + offset; }

int main() {
    int* d;
    cudaMalloc(&d, 32 * sizeof(int));
    apply<<<1, 32>>>(d);
    int h[32];
    cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        return 1;
    }
    printf("h[31] = %d\n", h[31]);
    return 0;
}
