// initcheck across launches for `warpsim exec --check`: a two-pass sum whose second pass reads the partials the
// first pass wrote into an uninitialised cudaMalloc buffer (initialised: no finding), then a kernel that reads
// a buffer nothing has written (one finding, at its line).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void partial_sums(const int* in, int* partial) {
    __shared__ int s[64];
    s[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        int t = 0;
        for (int i = 0; i < 64; ++i) t += s[i];
        partial[blockIdx.x] = t;
    }
}

__global__ void final_sum(const int* partial, int blocks, int* out) {
    int t = 0;
    for (int i = 0; i < blocks; ++i) t += partial[i];
    *out = t;
}

__global__ void read_unwritten(const int* never_written, int* out) {
    out[threadIdx.x] = never_written[threadIdx.x] + 1;
}

int main() {
    const int blocks = 8, n = blocks * 64;
    int h[n];
    for (int i = 0; i < n; ++i) h[i] = i;
    int *in, *partial, *out, *unwritten;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&partial, blocks * sizeof(int));
    cudaMalloc(&out, 32 * sizeof(int));
    cudaMalloc(&unwritten, 32 * sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    partial_sums<<<blocks, 64>>>(in, partial);
    final_sum<<<1, 1>>>(partial, blocks, out);
    int sum = 0;
    cudaMemcpy(&sum, out, sizeof sum, cudaMemcpyDeviceToHost);
    printf("sum %d (expected %d)\n", sum, n * (n - 1) / 2);
    read_unwritten<<<1, 32>>>(unwritten, out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorName(e));
    return e == cudaSuccess && sum == n * (n - 1) / 2 ? 0 : 1;
}
