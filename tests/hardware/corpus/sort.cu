// Sorting networks and merges: bitonic sort of a shared-memory tile per block, one global bitonic merge
// step (the kernel a host loop launches log^2 n times), and a block merge sort with binary-search ranks.

// Each block sorts 2 * blockDim.x keys ascending in shared memory.
__global__ void bitonic_sort_shared(const unsigned* in, unsigned* out) {
    extern __shared__ unsigned keys[];
    unsigned tid = threadIdx.x;
    unsigned m = 2 * blockDim.x;
    unsigned base = blockIdx.x * m;
    keys[tid] = in[base + tid];
    keys[tid + blockDim.x] = in[base + tid + blockDim.x];
    for (unsigned size = 2; size <= m; size <<= 1) {
        for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            unsigned pos = 2 * tid - (tid & (stride - 1));
            bool ascending = ((pos & size) == 0) || size == m;
            unsigned a = keys[pos], b = keys[pos + stride];
            if ((a > b) == ascending) {
                keys[pos] = b;
                keys[pos + stride] = a;
            }
        }
    }
    __syncthreads();
    out[base + tid] = keys[tid];
    out[base + tid + blockDim.x] = keys[tid + blockDim.x];
}

// One compare-exchange step of the global bitonic network: partner = i ^ j, direction from bit k.
__global__ void bitonic_merge_global(unsigned* keys, unsigned j, unsigned k) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned partner = i ^ j;
    if (partner > i) {
        unsigned a = keys[i], b = keys[partner];
        bool ascending = (i & k) == 0;
        if ((a > b) == ascending) {
            keys[i] = b;
            keys[partner] = a;
        }
    }
}

// Block merge sort of blockDim.x keys: runs of width 1, 2, 4, ... merged by computing each key's rank
// in the other run with a binary search (lower bound from the left run, upper bound from the right: stable).
__global__ void merge_sort_block(const int* in, int* out) {
    extern __shared__ int buf[];  // 2 * blockDim.x
    int* src = buf;
    int* dst = buf + blockDim.x;
    unsigned tid = threadIdx.x;
    unsigned base = blockIdx.x * blockDim.x;
    src[tid] = in[base + tid];
    __syncthreads();
    for (unsigned width = 1; width < blockDim.x; width *= 2) {
        unsigned run = tid / width;
        unsigned start = (run ^ 1) * width;  // the other run of the pair
        unsigned pair_start = (run & ~1u) * width;
        int key = src[tid];
        unsigned lo = 0, hi = width;
        bool left = (run & 1) == 0;
        while (lo < hi) {
            unsigned mid = (lo + hi) / 2;
            int other = src[start + mid];
            if (left ? (other < key) : (other <= key)) lo = mid + 1;
            else hi = mid;
        }
        dst[pair_start + (tid - run * width) + lo] = key;
        __syncthreads();
        int* t = src; src = dst; dst = t;
    }
    out[base + tid] = src[tid];
}

// Odd-even transposition sort: a block of 64 threads sorts one 128-key segment in 128 phases.
__global__ void odd_even_sort_block(const int* in, int* out) {
    __shared__ int keys[128];
    unsigned tid = threadIdx.x;
    unsigned base = blockIdx.x * 128;
    keys[tid] = in[base + tid];
    keys[tid + 64] = in[base + tid + 64];
    for (int phase = 0; phase < 128; ++phase) {
        __syncthreads();
        unsigned i = 2 * tid + (phase & 1);
        if (i + 1 < 128) {
            int a = keys[i], b = keys[i + 1];
            if (a > b) { keys[i] = b; keys[i + 1] = a; }
        }
    }
    __syncthreads();
    out[base + tid] = keys[tid];
    out[base + tid + 64] = keys[tid + 64];
}
