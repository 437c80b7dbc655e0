// C = A * B for n x n row-major matrices: naive (2n^3 global reads) and tiled through shared
// memory (2n^3 / TILE). Tiled kernels assume n % TILE == 0 and launch with block (TILE, TILE),
// grid (n / TILE, n / TILE).

__global__ void matmul_naive(const float* A, const float* B, float* C, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; ++k)
            sum += A[row * n + k] * B[k * n + col];
        C[row * n + col] = sum;
    }
}

template <int TILE>
__device__ void tiled_matmul_body(const float* A, const float* B, float* C, int n) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < n / TILE; ++t) {
        As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * n + col] = sum;
}

// The seed's kernel with TILE 32 (n = 4096: grid (128, 128), block (32, 32)).
__global__ void tiledMatMul(const float* A, const float* B, float* C, int n) {
    tiled_matmul_body<32>(A, B, C, n);
}

// TILE 2: the seed's 4x4 worked example, grid (2, 2), block (2, 2), two phases.
__global__ void tiledMatMul_tile2(const float* A, const float* B, float* C, int n) {
    tiled_matmul_body<2>(A, B, C, n);
}

__global__ void tiledMatMul_tile16(const float* A, const float* B, float* C, int n) {
    tiled_matmul_body<16>(A, B, C, n);
}
