// Separable 2-D convolution (a row pass then a column pass) with the filter in constant memory and
// shared-memory tiles with halos, plus a direct 2-D convolution for comparison.
#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)

__constant__ float c_filter[KERNEL_LENGTH] = {
    0.0010f, 0.0030f, 0.0080f, 0.0180f, 0.0350f, 0.0590f, 0.0860f, 0.1100f, 0.1200f,
    0.1100f, 0.0860f, 0.0590f, 0.0350f, 0.0180f, 0.0080f, 0.0030f, 0.0010f};

#define ROW_TILE_W 128
#define ROW_BLOCK_Y 4

// Row pass: a block of 128 x 4 threads, each row tile loaded with its halo (clamped at the edges).
__global__ void convolve_rows(const float* in, float* out, int width, int height) {
    __shared__ float tile[ROW_BLOCK_Y][ROW_TILE_W + 2 * KERNEL_RADIUS];
    int x = blockIdx.x * ROW_TILE_W + threadIdx.x;
    int y = blockIdx.y * ROW_BLOCK_Y + threadIdx.y;
    const float* row = in + y * width;
    tile[threadIdx.y][threadIdx.x + KERNEL_RADIUS] = row[x];
    if (threadIdx.x < KERNEL_RADIUS) {
        int left = max(x - KERNEL_RADIUS, 0);
        int right = min(x + ROW_TILE_W, width - 1);
        tile[threadIdx.y][threadIdx.x] = row[left];
        tile[threadIdx.y][threadIdx.x + ROW_TILE_W + KERNEL_RADIUS] = row[right];
    }
    __syncthreads();
    float sum = 0.0f;
#pragma unroll
    for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; ++k)
        sum += c_filter[KERNEL_RADIUS - k] * tile[threadIdx.y][threadIdx.x + KERNEL_RADIUS + k];
    out[y * width + x] = sum;
}

#define COL_BLOCK_X 16
#define COL_TILE_H 64

// Column pass: a block of 16 x 16 threads covers a 16 x 64 tile, 4 outputs per thread.
__global__ void convolve_columns(const float* in, float* out, int width, int height) {
    __shared__ float tile[COL_TILE_H + 2 * KERNEL_RADIUS][COL_BLOCK_X];
    int x = blockIdx.x * COL_BLOCK_X + threadIdx.x;
    int y0 = blockIdx.y * COL_TILE_H;
    for (int r = threadIdx.y; r < COL_TILE_H + 2 * KERNEL_RADIUS; r += blockDim.y) {
        int y = min(max(y0 + r - KERNEL_RADIUS, 0), height - 1);
        tile[r][threadIdx.x] = in[y * width + x];
    }
    __syncthreads();
    for (int r = threadIdx.y; r < COL_TILE_H; r += blockDim.y) {
        float sum = 0.0f;
#pragma unroll
        for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; ++k)
            sum += c_filter[KERNEL_RADIUS - k] * tile[r + KERNEL_RADIUS + k][threadIdx.x];
        out[(y0 + r) * width + x] = sum;
    }
}

// Direct 5x5 convolution from global memory (clamped edges), the baseline the tiled passes beat.
__global__ void convolve_direct_5x5(const float* in, const float* weights, float* out, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    float sum = 0.0f;
    for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx) {
            int xx = min(max(x + dx, 0), width - 1);
            int yy = min(max(y + dy, 0), height - 1);
            sum += weights[(dy + 2) * 5 + dx + 2] * in[yy * width + xx];
        }
    out[y * width + x] = sum;
}
