// Sparse matrix-vector products y = A x in CSR (one thread per row; one warp per row) and ELL formats.

__global__ void spmv_csr_scalar(const int* row_ptr, const int* cols, const float* vals, const float* x, float* y,
                                int rows) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    float sum = 0.0f;
    for (int k = row_ptr[row]; k < row_ptr[row + 1]; ++k) sum += vals[k] * x[cols[k]];
    y[row] = sum;
}

__global__ void spmv_csr_vector(const int* row_ptr, const int* cols, const float* vals, const float* x, float* y,
                                int rows) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (warp >= rows) return;
    float sum = 0.0f;
    for (int k = row_ptr[warp] + lane; k < row_ptr[warp + 1]; k += 32) sum += vals[k] * x[cols[k]];
    for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) y[warp] = sum;
}

// ELL: width entries per row stored column-major (entry k of row r at k * rows + r); col -1 pads.
__global__ void spmv_ell(const int* cols, const float* vals, const float* x, float* y, int rows, int width) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    float sum = 0.0f;
    for (int k = 0; k < width; ++k) {
        int c = cols[k * rows + row];
        if (c >= 0) sum += vals[k * rows + row] * x[c];
    }
    y[row] = sum;
}
