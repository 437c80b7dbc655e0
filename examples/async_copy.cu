// Global -> shared copies that bypass registers: cp.async (Ampere) in a two-stage pipeline, and a
// Hopper bulk copy (the TMA engine without a tensor map) completing on an mbarrier.
#include <cstdint>

// Each block streams `nchunks` chunks of blockDim.x * 4 floats; every thread copies 16 bytes per
// chunk with cp.async while the previous chunk is being used. out = 2 * in. blockDim.x == 256.
__global__ void cp_async_pipeline(const float* gmem, float* out, int nchunks) {
    __shared__ __align__(16) float smem[2][256 * 4];
    int tid = threadIdx.x;
    int chunk = blockDim.x * 4;
    const float* src = gmem + (size_t)blockIdx.x * nchunks * chunk;
    float* dst = out + (size_t)blockIdx.x * nchunks * chunk;

    unsigned smem_addr = (unsigned)__cvta_generic_to_shared(&smem[0][tid * 4]);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(smem_addr), "l"(src + tid * 4));
    asm volatile("cp.async.commit_group;\n");       // close stage 0
    for (int c = 0; c < nchunks; ++c) {
        if (c + 1 < nchunks) {
            smem_addr = (unsigned)__cvta_generic_to_shared(&smem[(c + 1) & 1][tid * 4]);
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n"
                         :: "r"(smem_addr), "l"(src + (c + 1) * chunk + tid * 4));
        }
        asm volatile("cp.async.commit_group;\n");   // possibly empty: keeps the group count simple
        asm volatile("cp.async.wait_group 1;\n");   // stage c has landed, c + 1 may be in flight
        __syncthreads();
        for (int k = 0; k < 4; ++k) {
            int j = k * blockDim.x + tid;           // read other threads' bytes: needs the barrier
            dst[c * chunk + j] = 2.0f * smem[c & 1][j];
        }
        __syncthreads();                             // stage c & 1 is overwritten two steps later
    }
}

// One thread issues a 4 KiB bulk copy; everyone waits on the mbarrier's phase bit.
// blockDim.x == 256, each block copies 1024 floats and writes in + 1.
__global__ void bulk_copy_mbarrier(const float* in, float* out) {
#if __CUDA_ARCH__ >= 900
    __shared__ __align__(128) float smem[1024];
    __shared__ __align__(8) uint64_t bar;
    unsigned bar_addr = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned smem_addr = (unsigned)__cvta_generic_to_shared(smem);
    const float* src = in + blockIdx.x * 1024;
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" :: "r"(bar_addr), "r"(1));
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
                     :: "r"(bar_addr), "r"(4096) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"
                     :: "r"(smem_addr), "l"(src), "r"(4096), "r"(bar_addr) : "memory");
    }
    unsigned done = 0;
    while (!done) {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}\n"
                     : "=r"(done) : "r"(bar_addr), "r"(0) : "memory");
    }
    for (int k = threadIdx.x; k < 1024; k += blockDim.x)
        out[blockIdx.x * 1024 + k] = smem[k] + 1.0f;
#endif
}
