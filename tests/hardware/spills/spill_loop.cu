// Register spills inside a loop: 48 live accumulators under __maxnreg__(32), so ptxas spills to local
// memory in the loop body and the spill traffic grows with `iters` (the timing model scales ptxas's static
// spill bytes by how often the code runs).
__global__ void __maxnreg__(32) spill_loop(const float* in, float* out, int n, int iters) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc[48];
#pragma unroll
    for (int k = 0; k < 48; ++k) acc[k] = in[(i + k) % n];
    for (int r = 0; r < iters; ++r) {
#pragma unroll
        for (int k = 0; k < 48; ++k) acc[k] = acc[k] * acc[(k + 7) % 48] + 1.0f;
    }
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 48; ++k) s += acc[k];
    if (i < n) out[i] = s;
}
