// Planted bugs for `warpsim check`: one kernel per kind of finding. Line numbers are part of the tests.
// Regenerate the PTX with: nvcc -ptx -arch=sm_90 -lineinfo planted.cu -o planted.ptx

// synccheck: the shuffle names all 32 lanes but only lanes 0..15 execute it.
extern "C" __global__ void shfl_wrong_mask(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if ((threadIdx.x & 31) < 16) {
        v += __shfl_down_sync(0xffffffffu, v, 8);
    }
    out[i] = v;
}

// synccheck: threads past n return, then the rest shuffle with a full mask (lanes named have exited).
extern "C" __global__ void shfl_after_return(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = in[i];
    v += __shfl_xor_sync(0xffffffffu, v, 1);
    out[i] = v;
}

// initcheck: only the first half of the tile is written; the second half of the block reads the rest.
extern "C" __global__ void unwritten_tile(const float* in, float* out) {
    __shared__ float tile[64];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (t < 32) tile[t] = in[i];
    __syncthreads();
    out[i] = tile[63 - t];
}

// racecheck: a tiled sum with one barrier per iteration: the next iteration's write of the tile races
// with slower warps still reading the previous one (write-after-read across the loop).
extern "C" __global__ void tile_loop_one_sync(const float* in, float* out, int tiles) {
    __shared__ float tile[128];
    int t = threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < tiles; ++k) {
        tile[t] = in[k * blockDim.x + t];
        __syncthreads();
        acc += tile[(t + 32) % blockDim.x];
    }
    out[blockIdx.x * blockDim.x + t] = acc;
}

// synccheck: threads past n return early, the others meet at a __syncthreads() the leavers never reach.
extern "C" __global__ void return_before_barrier(const float* in, float* out, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (i >= n) return;
    s[t] = in[i];
    __syncthreads();
    out[i] = s[t] + s[t ^ 1];
}

// racecheck (global): thread 0 of each block writes a value that the block's other warps read, no barrier.
extern "C" __global__ void global_flag_no_sync(const float* in, float* partial, float* out) {
    int t = threadIdx.x;
    if (t == 0) partial[blockIdx.x] = in[blockIdx.x] + 1.0f;
    out[blockIdx.x * blockDim.x + t] = partial[blockIdx.x];
}

// synccheck (per-lane masks): groups of 16 lanes shuffle within their group, but the mask forgets to scale
// the group number: lanes 16..31 pass 0xffff << 1 = 0x0001fffe (lanes 1..16) instead of 0xffff0000.
extern "C" __global__ void shfl_group_mask(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned mask = 0xffffu << (lane / 16);  // should be 0xffffu << (lane / 16 * 16)
    float v = in[i];
    out[i] = v + __shfl_xor_sync(mask, v, 1, 16);
}

// synccheck: threads past n return, then the others __syncwarp() with the full mask (naming exited lanes).
extern "C" __global__ void syncwarp_after_return(const float* in, float* out, int n) {
    __shared__ float s[64];
    int t = threadIdx.x;
    if (t >= n) return;
    s[t] = in[t];
    __syncwarp();
    out[t] = s[t ^ 1];
}
