// Tensor-core instructions for the parser (no launch specs): nvcuda::wmma (wmma.load/mma/store),
// ldmatrix + mma.sync via inline PTX, and stmatrix (sm_90 only).
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

// One warp computes a 16x16 tile: C = A (16x16, row-major) * B (16x16, col-major).
extern "C" __global__ void wmma_f16_16x16x16(const __half* a, const __half* b, float* c) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

extern "C" __global__ void wmma_tf32_16x16x8(const float* a, const float* b, float* c) {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 8);
    wmma::load_matrix_sync(fb, b, 16);
    for (int k = 0; k < fa.num_elements; ++k) fa.x[k] = wmma::__float_to_tf32(fa.x[k]);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_col_major);
}

// m16n8k16 with operands staged in shared memory and loaded with ldmatrix.
extern "C" __global__ void mma_ldmatrix_m16n8k16(const __half* a, const __half* b, float* c) {
    __shared__ __align__(16) __half sa[16 * 16];
    __shared__ __align__(16) __half sb[8 * 16];
    int lane = threadIdx.x & 31;
    for (int k = lane; k < 256; k += 32) sa[k] = a[k];
    for (int k = lane; k < 128; k += 32) sb[k] = b[k];
    __syncwarp();
    unsigned a0, a1, a2, a3, b0, b1;
    unsigned pa = (unsigned)__cvta_generic_to_shared(&sa[(lane % 16) * 16 + (lane / 16) * 8]);
    unsigned pb = (unsigned)__cvta_generic_to_shared(&sb[(lane % 8) * 16 + ((lane / 8) % 2) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(pa));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(b0), "=r"(b1) : "r"(pb));
    float d0 = 0.0f, d1 = 0.0f, d2 = 0.0f, d3 = 0.0f;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    c[lane * 4 + 0] = d0; c[lane * 4 + 1] = d1; c[lane * 4 + 2] = d2; c[lane * 4 + 3] = d3;
}

// Integer MMA and stmatrix (the latter only where the architecture has it).
extern "C" __global__ void mma_int8_stmatrix(const int* a, const int* b, int* c) {
    int lane = threadIdx.x & 31;
    int d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    unsigned a0 = (unsigned)a[lane], a1 = (unsigned)a[lane + 32], b0 = (unsigned)b[lane];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 "
                 "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};\n"
                 : "+r"(d0), "+r"(d1), "+r"(d2), "+r"(d3) : "r"(a0), "r"(a1), "r"(b0));
#if __CUDA_ARCH__ >= 900
    __shared__ __align__(16) unsigned short out_tile[8 * 8];
    unsigned p = (unsigned)__cvta_generic_to_shared(&out_tile[(lane % 8) * 8]);
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};\n" :: "r"(p), "r"((unsigned)d0) : "memory");
    __syncwarp();
    d1 += out_tile[lane];
#endif
    c[lane * 4 + 0] = d0; c[lane * 4 + 1] = d1; c[lane * 4 + 2] = d2; c[lane * 4 + 3] = d3;
}
