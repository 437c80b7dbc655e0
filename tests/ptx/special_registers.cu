// Special registers: the deterministic ones (%tid, %ntid, %ctaid, %nctaid, %laneid, %lanemask_*,
// %dynamic_smem_size) and those that vary from run to run (%smid, %warpid, %clock64, %globaltimer).

__device__ __forceinline__ unsigned sreg_laneid() { unsigned r; asm("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned sreg_lanemask_lt() { unsigned r; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned sreg_lanemask_ge() { unsigned r; asm("mov.u32 %0, %%lanemask_ge;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned sreg_lanemask_eq() { unsigned r; asm("mov.u32 %0, %%lanemask_eq;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned sreg_dynamic_smem() { unsigned r; asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r)); return r; }

// 3D launch: every thread writes its coordinates packed into one word, plus lane information.
extern "C" __global__ void special_regs_deterministic(unsigned* out) {
    unsigned block_linear = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned thread_linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    unsigned g = block_linear * threads + thread_linear;
    unsigned* o = out + 6 * g;
    o[0] = threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16 | (unsigned)warpSize << 24;
    o[1] = blockIdx.x | blockIdx.y << 8 | blockIdx.z << 16;
    o[2] = blockDim.x | blockDim.y << 8 | blockDim.z << 16 | gridDim.x << 24;
    o[3] = sreg_laneid() | (thread_linear & 31) << 8 | gridDim.y << 16 | gridDim.z << 24;
    o[4] = sreg_lanemask_lt() ^ sreg_lanemask_ge() ^ sreg_lanemask_eq();
    o[5] = sreg_dynamic_smem();
}

// Results depend on scheduling and on the device: the spec marks this kernel non-deterministic.
extern "C" __global__ void special_regs_varying(unsigned* ids, unsigned long long* times, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned smid, nsmid, warpid, nwarpid;
    unsigned long long gtime;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
    asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(nwarpid));
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gtime));
    long long t0 = clock64();
    unsigned c0 = (unsigned)clock();
    ids[4 * i + 0] = smid;
    ids[4 * i + 1] = nsmid;
    ids[4 * i + 2] = warpid;
    ids[4 * i + 3] = nwarpid;
    times[3 * i + 0] = (unsigned long long)t0;
    times[3 * i + 1] = gtime;
    times[3 * i + 2] = (unsigned long long)(clock64() - t0) + ((unsigned)clock() - c0);
}

// Deterministic use of the clocks: only whether they move forward is stored.
extern "C" __global__ void clock_monotonic(const float* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long t0 = clock64();
    float x = in[i];
    for (int k = 0; k < 16; ++k) x = x * 1.0001f + 0.5f;
    long long t1 = clock64();
    out[i] = (t1 >= t0 ? 1 : 0) + (x > -1.0e30f ? 2 : 0);
}
