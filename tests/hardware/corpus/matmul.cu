// Dense matrix multiply C = A * B (n x n, row-major, n a multiple of the tile): the naive kernel and
// shared-memory tiled kernels with 8, 16 and 32 tiles, each with and without a padded row.

__global__ void matmul_naive(const float* A, const float* B, float* C, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n) return;
    float acc = 0.0f;
    for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
}

template <int kTile, int kPad>
__device__ void matmul_tiled_body(const float* A, const float* B, float* C, int n) {
    __shared__ float As[kTile][kTile + kPad];
    __shared__ float Bs[kTile][kTile + kPad];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * kTile + ty;
    int col = blockIdx.x * kTile + tx;
    float acc = 0.0f;
    for (int t = 0; t < n / kTile; ++t) {
        As[ty][tx] = A[row * n + t * kTile + tx];
        Bs[ty][tx] = B[(t * kTile + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < kTile; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

__global__ void matmul_tiled8(const float* A, const float* B, float* C, int n) { matmul_tiled_body<8, 0>(A, B, C, n); }
__global__ void matmul_tiled8_padded(const float* A, const float* B, float* C, int n) { matmul_tiled_body<8, 1>(A, B, C, n); }
__global__ void matmul_tiled16(const float* A, const float* B, float* C, int n) { matmul_tiled_body<16, 0>(A, B, C, n); }
__global__ void matmul_tiled16_padded(const float* A, const float* B, float* C, int n) { matmul_tiled_body<16, 1>(A, B, C, n); }
__global__ void matmul_tiled32(const float* A, const float* B, float* C, int n) { matmul_tiled_body<32, 0>(A, B, C, n); }
__global__ void matmul_tiled32_padded(const float* A, const float* B, float* C, int n) { matmul_tiled_body<32, 1>(A, B, C, n); }

// Register tiling: each thread of a 16x16 block computes a 4x1 column strip of a 64x16 C tile.
__global__ void matmul_tiled16_4x1(const float* A, const float* B, float* C, int n) {
    __shared__ float As[64][16];
    __shared__ float Bs[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * 64 + ty;
    int col = blockIdx.x * 16 + tx;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int t = 0; t < n / 16; ++t) {
#pragma unroll
        for (int r = 0; r < 4; ++r) As[ty + 16 * r][tx] = A[(row0 + 16 * r) * n + t * 16 + tx];
        Bs[ty][tx] = B[(t * 16 + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 16; ++k) {
            float b = Bs[k][tx];
#pragma unroll
            for (int r = 0; r < 4; ++r) acc[r] += As[ty + 16 * r][k] * b;
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) C[(row0 + 16 * r) * n + col] = acc[r];
}

// Matrix-vector product y = A x, one warp per row with a shuffle reduction.
__global__ void matvec_warp_per_row(const float* A, const float* x, float* y, int rows, int cols) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (warp >= rows) return;
    float acc = 0.0f;
    for (int c = lane; c < cols; c += 32) acc += A[warp * cols + c] * x[c];
    for (int offset = 16; offset > 0; offset >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, offset);
    if (lane == 0) y[warp] = acc;
}
