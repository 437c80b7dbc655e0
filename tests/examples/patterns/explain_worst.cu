// tests/examples/patterns/explain_worst.cu — kernels whose warps differ on one line, for `warpsim explain
// --worst` and the names explain gives addresses (tests/examples/explain_test.cpp), worked out by hand.
// Regenerate the PTX with: nvcc -ptx -arch=sm_90 -lineinfo -o explain_worst.ptx explain_worst.cu
// (then strip the folder from the .file directive, as examples/regen.sh does).

// Every warp copies 32 aligned floats, but the last warp of the last block reads one element further on:
// 128 bytes from 4 bytes past a sector boundary, 5 sectors where 4 would do.
__global__ void last_warp_shifted(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool last = blockIdx.x == gridDim.x - 1 && threadIdx.x / 32 == blockDim.x / 32 - 1;
    int shift = last ? 1 : 0;
    out[i] = in[i + shift];
}

// Each lane writes its own word of a shared array, then reads the mirrored word (lane l of warp w reads
// row[63 - 32 w - l]) and writes it out.
__global__ void shared_row(float* out) {
    __shared__ float row[64];
    row[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = row[63 - threadIdx.x];
}

// Only warp 3 (threads 96-127) of a 128-thread block splits at the if: its lanes 16-31 (threads 112-127) go
// in, lanes 0-15 do not; warps 0-2 all skip it together.
__global__ void last_warp_branch(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x >= 112) {
        out[i] = in[i] * in[i] + 1.0f;
    }
}
