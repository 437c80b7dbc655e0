// Branch divergence: the same work split by lane parity (each warp runs both paths one after the
// other, half its lanes idle) or by warp parity (every warp takes one path with all lanes active).

__device__ float heavy_path_a(float x, int iters) {
    for (int k = 0; k < iters; ++k) x = x * 0.999f + 0.5f;
    return x;
}

__device__ float heavy_path_b(float x, int iters) {
    for (int k = 0; k < iters; ++k) x = x * 1.001f - 0.25f;
    return x;
}

__global__ void divergent_lanes(const float* in, float* out, int iters) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i];
    if ((threadIdx.x & 1) == 0)                      // even and odd lanes of one warp split
        x = heavy_path_a(x, iters);
    else
        x = heavy_path_b(x, iters);
    out[i] = x;
}

__global__ void uniform_warps(const float* in, float* out, int iters) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i];
    if (((threadIdx.x / 32) & 1) == 0)               // whole warps take the same side
        x = heavy_path_a(x, iters);
    else
        x = heavy_path_b(x, iters);
    out[i] = x;
}
