// A 32x32 shared tile written by rows and read by columns: [32][32] (32-way conflicts on the
// column read), [32][33] (padding, conflict-free) and an XOR swizzle tile[r][c ^ r] (conflict-free,
// no padding). Launch with block (32, 32); each block transposes one 32x32 tile of in into out.

__global__ void tile_32x32(const float* in, float* out) {
    __shared__ float tile[32][32];
    int base = blockIdx.x * 1024;
    int r = threadIdx.y, c = threadIdx.x;
    tile[r][c] = in[base + r * 32 + c];             // row write: bank c, conflict-free
    __syncthreads();
    out[base + r * 32 + c] = tile[c][r];            // column read: every lane in bank r, 32-way
}

__global__ void tile_32x33(const float* in, float* out) {
    __shared__ float tile[32][33];
    int base = blockIdx.x * 1024;
    int r = threadIdx.y, c = threadIdx.x;
    tile[r][c] = in[base + r * 32 + c];
    __syncthreads();
    out[base + r * 32 + c] = tile[c][r];            // bank (33c + r) mod 32: all distinct
}

__global__ void tile_swizzle(const float* in, float* out) {
    __shared__ float tile[32][32];
    int base = blockIdx.x * 1024;
    int r = threadIdx.y, c = threadIdx.x;
    tile[r][c ^ r] = in[base + r * 32 + c];         // element (r, c) lives at column c ^ r
    __syncthreads();
    out[base + r * 32 + c] = tile[c][r ^ c];        // element (c, r): bank r ^ c, all distinct
}
