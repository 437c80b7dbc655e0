// Block and warp synchronisation: __syncthreads_count/_and/_or, __syncwarp with masks, memory
// fences with the last-block pattern, named barriers (bar.sync id, count / bar.arrive).

extern "C" __global__ void syncthreads_reductions(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : -1;
    int count = __syncthreads_count(v % 3 == 0);
    int all = __syncthreads_and(v >= 0);
    int any = __syncthreads_or(v == 77);
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x + 0] = count;
        out[3 * blockIdx.x + 1] = all;
        out[3 * blockIdx.x + 2] = any;
    }
}

// Lanes exchange through shared memory ordered by __syncwarp (full and half-warp masks).
extern "C" __global__ void syncwarp_exchange(const int* in, int* out, int n) {
    __shared__ int buf[1024];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int base = threadIdx.x & ~31;
    buf[threadIdx.x] = (i < n) ? in[i] : 0;
    __syncwarp();
    int r = buf[base + (31 - lane)];
    __syncwarp();
    if (lane < 16) {
        buf[threadIdx.x] = r * 2;
        __syncwarp(0x0000ffffu);
        r += buf[base + (15 - lane)];
    }
    if (i < n) out[i] = r;
}

// Each block writes a partial sum, fences, and counts itself in; the last block adds the partials
// in a fixed order (deterministic).
extern "C" __global__ void threadfence_last_block(const int* in, int* partials, unsigned* done, int* total, int n) {
    __shared__ int block_sum;
    __shared__ bool is_last;
    if (threadIdx.x == 0) block_sum = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&block_sum, in[i]);
    __syncthreads();
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = block_sum;
        __threadfence();                                // the partial is visible before the count
        unsigned ticket = atomicInc(done, gridDim.x);
        is_last = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (is_last && threadIdx.x == 0) {
        int s = 0;
        for (unsigned b = 0; b < gridDim.x; ++b) s += ((volatile int*)partials)[b];
        *total = s;
        __threadfence_system();
    }
    __threadfence_block();
}

// Warps 0-1 meet at barrier 1 (64 threads), warps 2-3 at barrier 2; bar.arrive does not wait.
// Launch with 128 threads per block.
extern "C" __global__ void named_barriers(const int* in, int* out, int n) {
    __shared__ int s[128];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = (i < n) ? in[i] : 0;
    if (t < 64) {
        asm volatile("bar.sync 1, 64;" ::: "memory");
        out[i] = s[63 - t];
    } else {
        asm volatile("bar.sync 2, 64;" ::: "memory");
        out[i] = s[64 + (127 - t)];
    }
    __syncthreads();
    if (t < 32) s[t] = -s[t];
    if (t < 32) asm volatile("bar.arrive 3, 64;" ::: "memory");
    else if (t < 64) { asm volatile("bar.sync 3, 64;" ::: "memory"); out[i] += s[t - 32]; }
}
