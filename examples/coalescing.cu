// Global-memory access patterns: each thread reads in[i * stride + offset] and writes out[i].
// Sectors per warp request for 4-byte loads: stride 1 -> 4, offset 1 -> 5, stride 2 -> 8,
// stride 8 -> 32, stride 32 -> 32; float4 -> 16 sectors for 512 bytes.

__global__ void read_stride1(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

__global__ void read_offset1(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i + 1];                  // misaligned by one element: 5 sectors
}

__global__ void read_stride2(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i * 2];
}

__global__ void read_stride8(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i * 8];                  // 32 bytes apart: one sector per lane
}

__global__ void read_stride32(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i * 32];                 // a column of a 32-wide row-major matrix
}

// Stride and offset as run-time arguments, for sweeping.
__global__ void read_strided(const float* in, float* out, int n, int stride, int offset) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i * stride + offset];
}

// 16 bytes per lane in one instruction (LDG.E.128): n4 = number of float4 elements.
__global__ void read_float4(const float4* in, float4* out, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) out[i] = in[i];
}

// The second seed's block-shape example: dim3 block(32, 8), A is row-major with N columns.
// Coalesced: within a warp threadIdx.y is fixed and threadIdx.x runs 0..31.
__global__ void block_shape_coalesced(const float* A, float* out, int N) {
    int row = blockIdx.y * 8 + threadIdx.y;
    int colM = blockIdx.x * 32 + threadIdx.x;
    float v = A[row * N + colM];
    out[row * N + colM] = v;
}

// Uncoalesced: the roles swapped, the 32 lanes read addresses N * 4 bytes apart.
__global__ void block_shape_uncoalesced(const float* A, float* out, int N) {
    int row = blockIdx.y * 8 + threadIdx.y;
    int colM = blockIdx.x * 32 + threadIdx.x;
    float w = A[colM * N + row];
    out[row * N + colM] = w;
}
