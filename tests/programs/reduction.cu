// Sum reductions of an integer array four ways: interleaved shared-memory tree, sequential addressing,
// warp shuffles, and one atomicAdd per block, with a second pass over the block sums; all exact.
#include <vector>
#include "common.h"

__global__ void reduce_interleaved(const int* in, int* out, int n) {
    extern __shared__ int s[];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        if (t % (2 * stride) == 0) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void reduce_sequential(const int* in, int* out, int n) {
    extern __shared__ int s[];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x * 2 + t;
    int v = i < n ? in[i] : 0;
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    s[t] = v;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__device__ int warp_sum(int v) {
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void reduce_shuffle(const int* in, int* out, int n) {
    __shared__ int warp_sums[32];
    int v = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
    v = warp_sum(v);
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < blockDim.x / 32 ? warp_sums[lane] : 0;
        v = warp_sum(v);
        if (lane == 0) out[blockIdx.x] = v;
    }
}

__global__ void reduce_atomic(const int* in, int* total, int n) {
    int v = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
    v = warp_sum(v);
    if (threadIdx.x % 32 == 0) atomicAdd(total, v);
}

int main() {
    const int n = 1 << 20, threads = 256;
    std::vector<int> h(n);
    long long want = 0;
    for (int i = 0; i < n; ++i) {
        h[i] = (i * 37) % 101 - 50;
        want += h[i];
    }
    int *in, *partial, *total;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&partial, n / threads * sizeof(int)));
    CHECK(cudaMalloc(&total, sizeof(int)));
    CHECK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    printf("reduce %d ints, expected sum %lld\n", n, want);
    bool ok = true;
    for (int v = 0; v < 4; ++v) {
        int got = 0;
        const char* name = "";
        if (v == 0 || v == 1) {
            int blocks = v == 0 ? n / threads : n / (2 * threads);
            if (v == 0) reduce_interleaved<<<blocks, threads, threads * sizeof(int)>>>(in, partial, n);
            else reduce_sequential<<<blocks, threads, threads * sizeof(int)>>>(in, partial, n);
            CHECK_LAUNCH();
            reduce_shuffle<<<1, 1024>>>(partial, total, blocks);
            name = v == 0 ? "interleaved" : "sequential";
        } else if (v == 2) {
            reduce_shuffle<<<264, 512>>>(in, partial, n);
            CHECK_LAUNCH();
            reduce_shuffle<<<1, 1024>>>(partial, total, 264);
            name = "shuffle";
        } else {
            CHECK(cudaMemset(total, 0, sizeof(int)));
            reduce_atomic<<<264, 256>>>(in, total, n);
            name = "atomic";
        }
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(&got, total, sizeof(int), cudaMemcpyDeviceToHost));
        printf("%-12s sum = %d\n", name, got);
        ok = ok && got == want;
    }
    CHECK(cudaFree(in));
    CHECK(cudaFree(partial));
    CHECK(cudaFree(total));
    return finish(ok);
}
