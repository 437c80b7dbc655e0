// Launch shapes: 2D and 3D grids and blocks, blocks that are not multiples of 32, many small
// blocks, dynamic shared memory, __launch_bounds__.

extern "C" __global__ void grid_2d_ids(int* out, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        out[y * width + x] = (int)(blockIdx.y * gridDim.x + blockIdx.x) * 10000 +
                             (int)(threadIdx.y * blockDim.x + threadIdx.x);
}

extern "C" __global__ void grid_3d_ids(int* out, int nx, int ny, int nz) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < nx && y < ny && z < nz)
        out[(z * ny + y) * nx + x] = x + 100 * y + 10000 * z + (int)(threadIdx.z * 1000000);
}

// One thread per element with any block size (e.g. 100: partial warps in every block).
extern "C" __global__ void partial_warps(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * (float)(threadIdx.x % 32 + 1) + (float)(threadIdx.x / 32);
}

// Dynamic shared memory sized by the launch: a block-wide tree reduction (blockDim a power of 2).
extern "C" __global__ void dynamic_smem_reduce(const int* in, int* out, int n) {
    extern __shared__ int sdata[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x * 2 + t;
    int v = (i < n ? in[i] : 0) + (i + (int)blockDim.x < n ? in[i + blockDim.x] : 0);
    sdata[t] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < (int)s) sdata[t] += sdata[t + s];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = sdata[0];
}

// Two dynamic shared arrays carved from one extern buffer (floats then ints).
extern "C" __global__ void dynamic_smem_two_arrays(const float* in, float* out, int n, int count) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    float* fs = reinterpret_cast<float*>(smem_raw);
    int* is = reinterpret_cast<int*>(smem_raw + count * sizeof(float));
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    fs[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    is[threadIdx.x] = i;
    __syncthreads();
    int j = (threadIdx.x * 5 + 3) % blockDim.x;
    if (i < n) out[i] = fs[j] + (float)is[j];
}

extern "C" __global__ void __launch_bounds__(128, 4) launch_bounded(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = sqrtf(in[i]) + 1.0f;
}

// Many tiny blocks: one warp each.
extern "C" __global__ void many_blocks(int* out) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = (int)(blockIdx.x ^ threadIdx.x);
}
