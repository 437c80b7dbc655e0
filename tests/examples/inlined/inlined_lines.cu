// tests/examples/inlined/inlined_lines.cu — kernels whose work nvcc inlines from device functions (the
// user's own helpers, atomicAdd, cooperative groups), for the inlining chains of .loc ... inlined_at.
// PTX (CUDA 13.0): nvcc -arch=sm_90 -lineinfo -ptx inlined_lines.cu -o inlined_lines.ptx
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ __forceinline__ void add_pair(int* total, int v) {
    atomicAdd(total, v);
    atomicAdd(total + 1, 2 * v);
}

__device__ __forceinline__ int load_scaled(const int* in, int i) {
    return in[i] * 3;
}

extern "C" __global__ void sum_pairs(int* total, const int* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = load_scaled(in, i);
        add_pair(total, v);
    }
}

__device__ __forceinline__ void store_at(int* out, int i, int v) {
    out[i] = v;
}

extern "C" __global__ void store_past_end(int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) store_at(out, i, i);
}

__device__ __forceinline__ void wait_for_block() {
    cg::this_thread_block().sync();
}

extern "C" __global__ void sync_in_branch(int* out) {
    if (threadIdx.x < 32) {
        wait_for_block();
    } else {
        asm volatile("bar.sync 1, 64;");
    }
    out[threadIdx.x] = 1;
}

__device__ __forceinline__ void wait_for_flag(volatile int* flag) {
    while (*flag == 0) {
    }
}

extern "C" __global__ void wait_forever(int* flag) {
    wait_for_flag(flag);
}

__device__ __forceinline__ void publish(int* tile, int v) {
    tile[threadIdx.x] = v;
}

extern "C" __global__ void read_neighbour(int* out) {
    __shared__ int tile[64];
    publish(tile, threadIdx.x);
    out[threadIdx.x] = tile[63 - threadIdx.x];
}
