// tests/examples/patterns/look_at.cu — kernels for the tests of "look at" (tests/examples/look_at_test.cpp):
// two costly accesses of one kind on two lines, a reduction's intended single-lane result, a single lane
// doing a whole loop, and a grid one block longer than a wave. Every count is worked out by hand there.
// Regenerate the PTX with: nvcc -ptx -arch=sm_90 -lineinfo -o look_at.ptx look_at.cu
// (then strip the folder from the .file directive, as examples/regen.sh does).

// Two shared accesses with bank conflicts, on two lines: the store's words 32 t are all in bank 0 (32-way),
// the load's words 4 t fill 8 banks with 4 words each (4-way).
__global__ void two_conflicts(float* out, int n) {
    __shared__ float s[32 * 32];
    float acc = 0.0f;
    for (int i = 0; i < n; ++i) {
        s[threadIdx.x * 32] = acc + i;
        __syncthreads();
        acc += s[threadIdx.x * 4];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// A warp's shuffle reduction; lane 0 adds the warp's sum to the result, once per warp (intended).
__global__ void warp_sum(const float* in, float* out) {
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}

// Thread 0 of each block writes the whole row by itself while 31 lanes wait (not intended).
__global__ void serial_row(float* out, int n) {
    if (threadIdx.x == 0)
        for (int i = 0; i < n; ++i) out[blockIdx.x * n + i] = i * 0.5f;
}

// A dependent chain per thread, long enough that the launch overhead is not the time.
__global__ void chain(float* out, int n) {
    float v = threadIdx.x;
    for (int i = 0; i < n; ++i) v = v * 0.999f + 0.5f;
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
