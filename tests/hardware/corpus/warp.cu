// Warp-level kernels: butterfly all-reduce, broadcast, segmented scan, vote-based counting, a warp-wide
// bitonic sort of 32 keys in registers, and a matrix-row dot product with shuffles.

// Every lane ends with its warp's max and sum (xor butterfly); lane 0 writes both.
__global__ void warp_allreduce(const float* in, float* max_out, float* sum_out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    float m = v, s = v;
    for (int o = 16; o > 0; o >>= 1) {
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
        s += __shfl_xor_sync(0xffffffffu, s, o);
    }
    if (threadIdx.x % 32 == 0) {
        max_out[i / 32] = m;
        sum_out[i / 32] = s;
    }
}

// Each warp sorts 32 keys held one per lane with a bitonic network of shuffles.
__global__ void warp_bitonic_sort(const int* in, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int v = in[i];
    for (int size = 2; size <= 32; size <<= 1) {
        for (int stride = size / 2; stride > 0; stride >>= 1) {
            int other = __shfl_xor_sync(0xffffffffu, v, stride);
            bool up = ((lane & size) == 0);
            bool lower = (lane & stride) == 0;
            v = (lower == up) ? min(v, other) : max(v, other);
        }
    }
    out[i] = v;
}

// Segmented inclusive scan: flags mark the first element of each segment.
__global__ void warp_segmented_scan(const int* values, const int* flags, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int v = (i < n) ? values[i] : 0;
    int f = (i < n) ? (flags[i] & 1) : 1;
    unsigned heads = __ballot_sync(0xffffffffu, f != 0);
    // The segment of this lane starts at the highest head at or below it.
    unsigned below = heads & ((lane == 31) ? 0xffffffffu : ((2u << lane) - 1));
    int start = below ? 31 - __clz(below) : 0;
    for (int o = 1; o < 32; o <<= 1) {
        int t = __shfl_up_sync(0xffffffffu, v, o);
        if (lane - o >= start) v += t;
    }
    if (i < n) out[i] = v;
}

// Broadcast of each warp's first element and a vote: how many lanes hold a value above the leader's.
__global__ void warp_vote_count(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    int leader = __shfl_sync(0xffffffffu, v, 0);
    unsigned above = __ballot_sync(0xffffffffu, v > leader);
    bool all_nonneg = __all_sync(0xffffffffu, v >= 0);
    bool any_zero = __any_sync(0xffffffffu, v == 0);
    if (threadIdx.x % 32 == 0) out[i / 32] = __popc(above) + (all_nonneg ? 1000 : 0) + (any_zero ? 100000 : 0);
}

// Dot products of many short vectors (length 32, one warp each) with a shuffle reduction.
__global__ void warp_dot32(const float* a, const float* b, float* out, int vectors) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i / 32 >= vectors) return;
    float p = a[i] * b[i];
    for (int o = 16; o > 0; o >>= 1) p += __shfl_down_sync(0xffffffffu, p, o);
    if (threadIdx.x % 32 == 0) out[i / 32] = p;
}
