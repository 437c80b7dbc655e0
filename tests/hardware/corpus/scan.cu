// Prefix sums (scans) within a block, and the uniform add that turns block scans into a global scan.

// Hillis-Steele inclusive scan, double-buffered in shared memory (one element per thread).
__global__ void scan_hillis_steele(const int* in, int* out, int n) {
    extern __shared__ int temp[];  // 2 * blockDim.x
    int tid = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + tid;
    int pout = 0, pin = 1;
    temp[tid] = (gid < n) ? in[gid] : 0;
    __syncthreads();
    for (int offset = 1; offset < blockDim.x; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        int v = temp[pin * blockDim.x + tid];
        if (tid >= offset) v += temp[pin * blockDim.x + tid - offset];
        temp[pout * blockDim.x + tid] = v;
        __syncthreads();
    }
    if (gid < n) out[gid] = temp[pout * blockDim.x + tid];
}

// Blelloch work-efficient exclusive scan of 2 * blockDim.x elements per block; block sums out.
__global__ void scan_blelloch(const int* in, int* out, int* block_sums, int n) {
    extern __shared__ int temp[];  // 2 * blockDim.x
    int tid = threadIdx.x;
    int m = 2 * blockDim.x;
    int base = blockIdx.x * m;
    temp[2 * tid] = (base + 2 * tid < n) ? in[base + 2 * tid] : 0;
    temp[2 * tid + 1] = (base + 2 * tid + 1 < n) ? in[base + 2 * tid + 1] : 0;
    int offset = 1;
    for (int d = m >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (tid == 0) {
        block_sums[blockIdx.x] = temp[m - 1];
        temp[m - 1] = 0;
    }
    for (int d = 1; d < m; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    if (base + 2 * tid < n) out[base + 2 * tid] = temp[2 * tid];
    if (base + 2 * tid + 1 < n) out[base + 2 * tid + 1] = temp[2 * tid + 1];
}

#define CONFLICT_FREE_OFFSET(i) ((i) >> 5)

// The same scan with one padding word every 32 to avoid bank conflicts.
__global__ void scan_blelloch_padded(const int* in, int* out, int* block_sums, int n) {
    extern __shared__ int temp[];  // 2 * blockDim.x + 2 * blockDim.x / 32
    int tid = threadIdx.x;
    int m = 2 * blockDim.x;
    int base = blockIdx.x * m;
    int ai = tid, bi = tid + blockDim.x;
    temp[ai + CONFLICT_FREE_OFFSET(ai)] = (base + ai < n) ? in[base + ai] : 0;
    temp[bi + CONFLICT_FREE_OFFSET(bi)] = (base + bi < n) ? in[base + bi] : 0;
    int offset = 1;
    for (int d = m >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int a = offset * (2 * tid + 1) - 1;
            int b = offset * (2 * tid + 2) - 1;
            temp[b + CONFLICT_FREE_OFFSET(b)] += temp[a + CONFLICT_FREE_OFFSET(a)];
        }
        offset *= 2;
    }
    if (tid == 0) {
        block_sums[blockIdx.x] = temp[m - 1 + CONFLICT_FREE_OFFSET(m - 1)];
        temp[m - 1 + CONFLICT_FREE_OFFSET(m - 1)] = 0;
    }
    for (int d = 1; d < m; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int a = offset * (2 * tid + 1) - 1 ;
            int b = offset * (2 * tid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            int t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();
    if (base + ai < n) out[base + ai] = temp[ai + CONFLICT_FREE_OFFSET(ai)];
    if (base + bi < n) out[base + bi] = temp[bi + CONFLICT_FREE_OFFSET(bi)];
}

// Inclusive scan with warp shuffles: each warp scans, warp totals scanned by warp 0.
__global__ void scan_warp_shuffle(const int* in, int* out, int* block_sums, int n) {
    __shared__ int warp_totals[32];
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int v = (gid < n) ? in[gid] : 0;
    for (int offset = 1; offset < 32; offset *= 2) {
        int t = __shfl_up_sync(0xffffffffu, v, offset);
        if (lane >= offset) v += t;
    }
    if (lane == 31) warp_totals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int w = (lane < blockDim.x / 32) ? warp_totals[lane] : 0;
        for (int offset = 1; offset < 32; offset *= 2) {
            int t = __shfl_up_sync(0xffffffffu, w, offset);
            if (lane >= offset) w += t;
        }
        warp_totals[lane] = w;
    }
    __syncthreads();
    if (warp > 0) v += warp_totals[warp - 1];
    if (gid < n) out[gid] = v;
    if (threadIdx.x == blockDim.x - 1) block_sums[blockIdx.x] = v;
}

// Adds each block's scanned offset to its elements (the last step of a multi-block scan).
__global__ void scan_add_uniform(int* data, const int* block_offsets, int n) {
    __shared__ int offset;
    if (threadIdx.x == 0) offset = block_offsets[blockIdx.x];
    __syncthreads();
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (gid < n) data[gid] += offset;
}

// Stream compaction within each block: keep the positive values in order, ballots per warp, the warps'
// counts scanned in shared memory; each block writes its kept values from out[blockIdx.x * blockDim.x].
__global__ void compact_positive(const int* in, int* out, int* counts, int n) {
    __shared__ int warp_base[33];
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int v = (gid < n) ? in[gid] : 0;
    bool keep = v > 0;
    unsigned mask = __ballot_sync(0xffffffffu, keep);
    if (lane == 0) warp_base[warp + 1] = __popc(mask);
    __syncthreads();
    if (threadIdx.x == 0) {
        warp_base[0] = 0;
        for (int w = 1; w <= blockDim.x / 32; ++w) warp_base[w] += warp_base[w - 1];
        counts[blockIdx.x] = warp_base[blockDim.x / 32];
    }
    __syncthreads();
    if (keep) out[blockIdx.x * blockDim.x + warp_base[warp] + __popc(mask & ((1u << lane) - 1))] = v;
}
