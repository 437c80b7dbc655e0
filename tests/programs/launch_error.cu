// Launch errors as a program meets them: a block too big (reported by cudaGetLastError, not sticky), then
// a write through a bad pointer (the launch says nothing, the next synchronisation reports the fault, and
// the fault is sticky: every later call fails).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(int* p, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}

static void show(const char* what, cudaError_t e) {
    printf("%-34s -> %d %s: %s\n", what, (int)e, cudaGetErrorName(e), cudaGetErrorString(e));
}

int main() {
    int* d = nullptr;
    show("cudaMalloc", cudaMalloc(&d, 1024 * sizeof(int)));

    fill<<<1, 2048>>>(d, 1024, 1);
    show("fill<<<1, 2048>>> cudaGetLastError", cudaGetLastError());
    show("cudaGetLastError again", cudaGetLastError());
    show("cudaDeviceSynchronize", cudaDeviceSynchronize());

    fill<<<4, 256>>>(d, 1024, 7);
    show("fill<<<4, 256>>> cudaGetLastError", cudaGetLastError());
    show("cudaDeviceSynchronize", cudaDeviceSynchronize());
    int h[1024] = {};
    show("cudaMemcpy D2H", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("h[1023] = %d\n", h[1023]);

    fill<<<1, 32>>>((int*)0x10, 32, 3);
    show("fill(0x10) cudaGetLastError", cudaGetLastError());
    show("cudaDeviceSynchronize", cudaDeviceSynchronize());
    show("cudaGetLastError", cudaGetLastError());
    show("cudaDeviceSynchronize again", cudaDeviceSynchronize());
    int* d2 = nullptr;
    show("cudaMalloc after the fault", cudaMalloc(&d2, 64));
    show("cudaMemcpy after the fault", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    fill<<<4, 256>>>(d, 1024, 9);
    show("launch after the fault", cudaGetLastError());
    show("cudaFree after the fault", cudaFree(d));
    return 0;
}
