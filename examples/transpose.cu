// out = in^T, in is M x N (row-major), out is N x M. All three kernels launch with block (32, 8)
// and grid ((N + 31) / 32, (M + 31) / 32); each thread moves TILE / 8 = 4 elements.
#define TILE 32

// Naive: coalesced reads, writes 4 * M bytes apart (one sector per lane).
__global__ void transpose_naive(const float* in, float* out, int M, int N) {
    int x = blockIdx.x * TILE + threadIdx.x;         // column in `in`
    int y = blockIdx.y * TILE + threadIdx.y;         // row in `in`
    for (int j = 0; j < TILE; j += blockDim.y)
        if (x < N && y + j < M) out[x * M + (y + j)] = in[(y + j) * N + x];
}

// Tiled through shared memory, [32][32]: both global sides coalesced, column reads of the tile
// are 32-way bank conflicts.
__global__ void transpose_tiled(const float* in, float* out, int M, int N) {
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (x < N && y + j < M) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (x < M && y + j < N) out[(y + j) * M + x] = tile[threadIdx.x][threadIdx.y + j];
}

// The seed's kernel (named `transpose` there): tiled and padded to [32][33].
__global__ void transpose_padded(const float* in, float* out, int M, int N) {
    __shared__ float tile[TILE][TILE + 1];           // +1 column: no bank conflicts on column reads
    int x = blockIdx.x * TILE + threadIdx.x;         // column in `in`
    int y = blockIdx.y * TILE + threadIdx.y;         // row in `in`
    for (int j = 0; j < TILE; j += blockDim.y)
        if (x < N && y + j < M) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;             // column in `out`
    y = blockIdx.x * TILE + threadIdx.y;             // row in `out`
    for (int j = 0; j < TILE; j += blockDim.y)
        if (x < M && y + j < N) out[(y + j) * M + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Copy with the same access pattern: the bandwidth a transpose can hope for.
__global__ void copy_tiles(const float* in, float* out, int M, int N) {
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (x < N && y + j < M) out[(y + j) * N + x] = in[(y + j) * N + x];
}
