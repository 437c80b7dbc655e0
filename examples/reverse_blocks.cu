// Reverse each block's slice through shared memory; the barrier orders the two phases.

__global__ void reverse_blocks(const float* in, float* out, int n) {   // assumes n % blockDim.x == 0
    extern __shared__ float s[];                     // size set at launch (third <<< >>> argument)
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = in[i];                                    // phase 1: every thread writes one element
    __syncthreads();                                 // wait until the whole block has written
    out[i] = s[blockDim.x - 1 - t];                  // phase 2: read an element another thread wrote
}
// reverse_blocks<<<n / 256, 256, 256 * sizeof(float)>>>(in, out, n);

// The race: without the barrier a warp may read slots that other warps have not written yet.
__global__ void reverse_blocks_nosync(const float* in, float* out, int n) {
    extern __shared__ float s[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = in[i];
    out[i] = s[blockDim.x - 1 - t];                  // no __syncthreads(): a data race
}
