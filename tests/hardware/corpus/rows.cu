// Row-wise reductions as in neural-network layers: softmax (a block per row, and a warp per row) and
// layer normalisation (mean and variance with shuffles, then scale and shift).

__device__ float warp_max(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ float warp_add(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// Block-wide reduction through one shared word per warp; every thread gets the result.
__device__ float block_reduce(float v, float* scratch, bool is_max) {
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    v = is_max ? warp_max(v) : warp_add(v);
    __syncthreads();
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    v = (lane < warps) ? scratch[lane] : (is_max ? -INFINITY : 0.0f);
    v = is_max ? warp_max(v) : warp_add(v);
    return v;
}

// Softmax of each row of `cols` values, one block per row.
__global__ void softmax_block_per_row(const float* in, float* out, int cols) {
    __shared__ float scratch[32];
    const float* row = in + blockIdx.x * cols;
    float* dst = out + blockIdx.x * cols;
    float m = -INFINITY;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, row[c]);
    m = block_reduce(m, scratch, true);
    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) s += expf(row[c] - m);
    s = block_reduce(s, scratch, false);
    float inv = 1.0f / s;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) dst[c] = expf(row[c] - m) * inv;
}

// Softmax with one warp per row (short rows), values kept in registers between the passes.
__global__ void softmax_warp_per_row(const float* in, float* out, int rows, int cols) {
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (row >= rows) return;
    float v[4];
    float m = -INFINITY;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        int c = lane + 32 * k;
        v[k] = (c < cols) ? in[row * cols + c] : -INFINITY;
        m = fmaxf(m, v[k]);
    }
    m = warp_max(m);
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        v[k] = (lane + 32 * k < cols) ? expf(v[k] - m) : 0.0f;
        s += v[k];
    }
    s = warp_add(s);
#pragma unroll
    for (int k = 0; k < 4; ++k)
        if (lane + 32 * k < cols) out[row * cols + lane + 32 * k] = v[k] / s;
}

// Layer normalisation of each row: y = (x - mean) / sqrt(var + eps) * gamma + beta, one block per row.
__global__ void layernorm_block_per_row(const float* in, const float* gamma, const float* beta, float* out, int cols,
                                        float eps) {
    __shared__ float scratch[32];
    const float* row = in + blockIdx.x * cols;
    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) s += row[c];
    float mean = block_reduce(s, scratch, false) / cols;
    float q = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        float d = row[c] - mean;
        q += d * d;
    }
    float var = block_reduce(q, scratch, false) / cols;
    float inv = rsqrtf(var + eps);
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        out[blockIdx.x * cols + c] = (row[c] - mean) * inv * gamma[c] + beta[c];
}

// Row sums of a matrix with one thread per row (uncoalesced: neighbouring threads read rows apart).
__global__ void row_sum_thread_per_row(const float* in, float* out, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float s = 0.0f;
    for (int c = 0; c < cols; ++c) s += in[r * cols + c];
    out[r] = s;
}

// Column sums with one thread per column (coalesced).
__global__ void col_sum_thread_per_col(const float* in, float* out, int rows, int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    float s = 0.0f;
    for (int r = 0; r < rows; ++r) s += in[r * cols + c];
    out[c] = s;
}
