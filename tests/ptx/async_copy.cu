// Asynchronous copies: __pipeline_memcpy_async (cp.async via cuda_pipeline.h), inline cp.async
// of 4/8/16 bytes with zero fill, mbarrier arrive/wait, and the sm_90 bulk copy (cp.async.bulk)
// completing on an mbarrier transaction count.
#include <cuda_pipeline.h>
#include <cstdint>

extern "C" __global__ void pipeline_memcpy_async(const float* in, float* out, int n) {
    __shared__ __align__(16) float stage[256 * 4];
    int t = threadIdx.x;
    size_t base = (size_t)blockIdx.x * blockDim.x * 4;
    __pipeline_memcpy_async(&stage[t * 4], &in[base + t * 4], 16);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    for (int k = 0; k < 4; ++k) out[base + k * blockDim.x + t] = stage[k * blockDim.x + t] + 1.0f;
}

extern "C" __global__ void cp_async_sizes(const int* in, int* out, int n) {
    __shared__ __align__(16) int s4[256];
    __shared__ __align__(16) int s8[512];
    __shared__ __align__(16) int s16[1024];
    int t = threadIdx.x;
    const int* src = in + (size_t)blockIdx.x * 1024;
    unsigned a4 = (unsigned)__cvta_generic_to_shared(&s4[t]);
    unsigned a8 = (unsigned)__cvta_generic_to_shared(&s8[2 * t]);
    unsigned a16 = (unsigned)__cvta_generic_to_shared(&s16[4 * t]);
    int valid = (t % 4 == 3) ? 8 : 16;                   // zero fill the tail of some copies
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" :: "r"(a4), "l"(src + t));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" :: "r"(a8), "l"(src + 2 * t));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" :: "r"(a16), "l"(src + 4 * t), "r"(valid));
    asm volatile("cp.async.commit_group;\n" ::: "memory");
    asm volatile("cp.async.wait_group 0;\n" ::: "memory");
    __syncthreads();
    int* o = out + (size_t)blockIdx.x * 1024;
    for (int k = t; k < 1024; k += blockDim.x) o[k] = s16[k] + (k < 512 ? s8[k] : 0) + (k < 256 ? s4[k] : 0);
    asm volatile("cp.async.wait_all;\n" ::: "memory");
}

// All threads arrive on a block-wide mbarrier twice (phases 0 and 1) and wait on each phase.
extern "C" __global__ void mbarrier_phases(const int* in, int* out, int n) {
    __shared__ __align__(8) uint64_t bar;
    __shared__ int buf[256];
    unsigned bar_addr = (unsigned)__cvta_generic_to_shared(&bar);
    int t = threadIdx.x;
    if (t == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;\n" :: "r"(bar_addr), "r"(blockDim.x) : "memory");
    __syncthreads();
    int i = blockIdx.x * blockDim.x + t;
    for (int phase = 0; phase < 2; ++phase) {
        buf[t] = (i < n ? in[i] : 0) * (phase + 1);
        uint64_t state;
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1];\n" : "=l"(state) : "r"(bar_addr) : "memory");
        unsigned done = 0;
        while (!done) {
            asm volatile("{\n\t.reg .pred p;\n\t"
                         "mbarrier.test_wait.shared.b64 p, [%1], %2;\n\t"
                         "selp.u32 %0, 1, 0, p;\n\t}\n"
                         : "=r"(done) : "r"(bar_addr), "l"(state) : "memory");
        }
        if (i < n) out[2 * i + phase] = buf[blockDim.x - 1 - t];
        __syncthreads();                                  // buf is rewritten in the next phase
    }
    if (t == 0) asm volatile("mbarrier.inval.shared.b64 [%0];\n" :: "r"(bar_addr) : "memory");
}

// Hopper: one thread issues a 4 KiB bulk copy; all threads wait on the mbarrier phase parity.
extern "C" __global__ void bulk_copy_tx(const float* in, float* out, int n) {
#if __CUDA_ARCH__ >= 900
    __shared__ __align__(128) float smem[1024];
    __shared__ __align__(8) uint64_t bar;
    unsigned bar_addr = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned smem_addr = (unsigned)__cvta_generic_to_shared(smem);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" :: "r"(bar_addr), "r"(1));
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" :: "r"(bar_addr), "r"(4096) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"
                     :: "r"(smem_addr), "l"(in + (size_t)blockIdx.x * 1024), "r"(4096), "r"(bar_addr) : "memory");
    }
    unsigned done = 0;
    while (!done) {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}\n"
                     : "=r"(done) : "r"(bar_addr), "r"(0) : "memory");
    }
    for (int k = threadIdx.x; k < 1024; k += blockDim.x)
        if (blockIdx.x * 1024 + k < n) out[blockIdx.x * 1024 + k] = smem[k] * 3.0f;
#endif
}
