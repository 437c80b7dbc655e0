// tests/examples/patterns/access_patterns.cu — one warp-level address pattern per kernel, for the tests of the
// explanations (tests/examples/access_pattern_test.cpp): lanes that share addresses, worked out by hand.
// Regenerate the PTX with: nvcc -ptx -arch=sm_90 -lineinfo -o access_patterns.ptx access_patterns.cu
// (then strip the folder from the .file directive, as examples/regen.sh does).

// Every lane adds 1 to the same shared bin: 32 updates of one word, one after another.
__global__ void shared_one_bin(unsigned* out) {
    __shared__ unsigned bins[32];
    bins[threadIdx.x % 32] = 0;
    __syncthreads();
    atomicAdd(&bins[3], 1u);
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = bins[threadIdx.x % 32];
}

// Every lane takes a ticket from one global counter (the old value is used, so no warp-wide reduction).
__global__ void global_one_counter(unsigned* counter, unsigned* ticket) {
    ticket[blockIdx.x * blockDim.x + threadIdx.x] = atomicAdd(&counter[0], 1u);
}

// Every lane reads in[0]: a broadcast.
__global__ void broadcast_read(const float* in, float* out) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = in[0];
}

// Lanes 2k and 2k+1 read in[k]: 16 distinct floats, 64 contiguous bytes.
__global__ void pair_read(const float* in, float* out) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = in[threadIdx.x / 2];
}

// Lanes 0-15 read in[0], lanes 16-31 read in[n]: two distinct floats in two sectors.
__global__ void two_rows_read(const float* in, float* out, int n) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = in[(threadIdx.x / 16) * n];
}
