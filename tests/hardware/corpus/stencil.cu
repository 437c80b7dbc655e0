// Stencils: a 1-D 7-point stencil with a shared halo, a 2-D 5-point Jacobi step with a shared tile, and a
// 3-D 7-point stencil that marches along z with the planes in registers.
#define RADIUS 3

__global__ void stencil1d_shared(const float* in, float* out, int n) {
    extern __shared__ float tile[];  // blockDim.x + 2 * RADIUS
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int lid = threadIdx.x + RADIUS;
    tile[lid] = (gid < n) ? in[gid] : 0.0f;
    if (threadIdx.x < RADIUS) {
        int l = gid - RADIUS, r = gid + blockDim.x;
        tile[lid - RADIUS] = (l >= 0) ? in[l] : 0.0f;
        tile[lid + blockDim.x] = (r < n) ? in[r] : 0.0f;
    }
    __syncthreads();
    if (gid >= n) return;
    float s = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) s += tile[lid + k];
    out[gid] = s * (1.0f / (2 * RADIUS + 1));
}

#define JT 16

// One Jacobi sweep of the Laplace equation: interior points become the mean of their 4 neighbours.
__global__ void jacobi2d_shared(const float* in, float* out, int nx, int ny) {
    __shared__ float tile[JT + 2][JT + 2];
    int x = blockIdx.x * JT + threadIdx.x;
    int y = blockIdx.y * JT + threadIdx.y;
    int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
    tile[ty][tx] = in[y * nx + x];
    if (threadIdx.x == 0) tile[ty][0] = (x > 0) ? in[y * nx + x - 1] : 0.0f;
    if (threadIdx.x == JT - 1) tile[ty][JT + 1] = (x + 1 < nx) ? in[y * nx + x + 1] : 0.0f;
    if (threadIdx.y == 0) tile[0][tx] = (y > 0) ? in[(y - 1) * nx + x] : 0.0f;
    if (threadIdx.y == JT - 1) tile[JT + 1][tx] = (y + 1 < ny) ? in[(y + 1) * nx + x] : 0.0f;
    __syncthreads();
    float v = tile[ty][tx];
    if (x > 0 && y > 0 && x < nx - 1 && y < ny - 1)
        v = 0.25f * (tile[ty][tx - 1] + tile[ty][tx + 1] + tile[ty - 1][tx] + tile[ty + 1][tx]);
    out[y * nx + x] = v;
}

// Naive 2-D 5-point stencil straight from global memory (the L1 serves the neighbours).
__global__ void stencil2d_global(const float* in, float* out, int nx, int ny) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
    int i = y * nx + x;
    out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
}

// 3-D 7-point stencil: each thread walks z, keeping the previous, current and next values in registers.
__global__ void stencil3d_march(const float* in, float* out, int nx, int ny, int nz) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
    int plane = nx * ny;
    int i = y * nx + x;
    float below = in[i], cur = in[i + plane];
    for (int z = 1; z < nz - 1; ++z) {
        int c = i + z * plane;
        float above = in[c + plane];
        out[c] = 0.4f * cur + 0.1f * (below + above + in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx]);
        below = cur;
        cur = above;
    }
}
