// Waves and the tail: blocks of equal work. With 256 threads and few registers, 8 blocks fit per
// SM, so 132 SMs run 1056 blocks in one wave; 1057 blocks need a second, almost empty wave.

__global__ void fixed_work(const float* in, float* out, int iters) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i];
    for (int k = 0; k < iters; ++k) x = x * 0.9999f + 0.0001f;
    out[i] = x;
}
