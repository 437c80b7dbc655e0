// 2D indexing: x is the column, y the row (coalesced); the swapped mapping reads down columns.

// A is M x N, row-major. Launch: dim3 block(32, 8); dim3 grid((N + 31) / 32, (M + 7) / 8).
__global__ void scale_matrix(float* A, float alpha, int M, int N) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        A[row * N + col] *= alpha;
    }
}

// Roles swapped: x indexes rows, so the 32 lanes of a warp touch 32 different rows (32 sectors).
// Launch: dim3 block(32, 8); dim3 grid((M + 31) / 32, (N + 7) / 8).
__global__ void scale_matrix_swapped(float* A, float alpha, int M, int N) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        A[row * N + col] *= alpha;
    }
}
