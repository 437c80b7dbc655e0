// Tensor-core data movement and matrix multiply through inline PTX: ldmatrix / stmatrix (.x1 .x2 .x4, .trans)
// and mma.sync.aligned m16n8k16 (f16, bf16 -> f32), m16n8k8 (tf32 -> f32), m16n8k32 (s8/u8 -> s32).
// Fragments are loaded straight from global memory with the PTX ISA's layouts (g = lane / 4, t = lane % 4).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstdint>

// One warp: 4 matrices of 8x8 b16 in shared memory (from `in`), loaded with every ldmatrix form and
// stored back with every stmatrix form; out gets, per form, each lane's registers.
extern "C" __global__ void ldmatrix_forms(const unsigned short* in, unsigned* out, unsigned short* back) {
    __shared__ __align__(16) unsigned short tile[4 * 64];
    __shared__ __align__(16) unsigned short dst[8][4 * 64];
    const unsigned lane = threadIdx.x;
    for (unsigned k = lane; k < 256; k += 32) tile[k] = in[k];
    for (unsigned k = lane; k < 8 * 256; k += 32) dst[k / 256][k % 256] = 0;
    __syncwarp();
    // Lane l gives row l % 8 of matrix l / 8.
    const unsigned row = static_cast<unsigned>(__cvta_generic_to_shared(&tile[(lane / 8) * 64 + (lane % 8) * 8]));
    unsigned r[4];
    unsigned* o = out;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(row));
    o[lane] = r[0]; o += 32;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(row));
    o[lane] = r[0]; o += 32;
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(row));
    o[lane] = r[0]; o[32 + lane] = r[1]; o += 64;
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(row));
    o[lane] = r[0]; o[32 + lane] = r[1]; o += 64;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(row));
    for (int i = 0; i < 4; ++i) o[32 * i + lane] = r[i];
    o += 128;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(row));
    for (int i = 0; i < 4; ++i) o[32 * i + lane] = r[i];
    // stmatrix: the registers just loaded (plus the lane number, so every lane's data differs) go back.
    for (int i = 0; i < 4; ++i) r[i] ^= lane * 0x00010001u;
    unsigned s[8];
    for (int f = 0; f < 6; ++f) s[f] = static_cast<unsigned>(__cvta_generic_to_shared(&dst[f][(lane / 8) * 64 + (lane % 8) * 8]));
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(s[0]), "r"(r[0]) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" :: "r"(s[1]), "r"(r[1]) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" :: "r"(s[2]), "r"(r[0]), "r"(r[1]) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" :: "r"(s[3]), "r"(r[2]), "r"(r[3]) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                 :: "r"(s[4]), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};"
                 :: "r"(s[5]), "r"(r[3]), "r"(r[2]), "r"(r[1]), "r"(r[0]) : "memory");
    __syncwarp();
    for (unsigned k = lane; k < 6 * 256; k += 32) back[k] = dst[k / 256][k % 256];
}

// A (16 x K) row-major and B (K x 8) stored column by column (b[n * K + k]); C and D 16 x 8 row-major.
// Block b multiplies tile b. With `print` set, every lane prints its four results as hex (the GPU's exact
// outputs, for measuring the floating-point model).
template <class T>
__device__ unsigned pack2(const T* p) {
    unsigned short lo, hi;
    memcpy(&lo, p, 2);
    memcpy(&hi, p + 1, 2);
    return lo | (static_cast<unsigned>(hi) << 16);
}

__device__ void store_d(float* d, const float* c4, int print, const char* what) {
    const unsigned lane = threadIdx.x, g = lane / 4, t = lane % 4;
    for (int j = 0; j < 4; ++j) d[(g + 8 * (j / 2)) * 8 + 2 * t + j % 2] = c4[j];
    if (print)
        printf("%s %u %u %08x %08x %08x %08x\n", what, blockIdx.x, lane, __float_as_uint(c4[0]), __float_as_uint(c4[1]),
               __float_as_uint(c4[2]), __float_as_uint(c4[3]));
}

__device__ void load_c(const float* c, float* c4) {
    const unsigned lane = threadIdx.x, g = lane / 4, t = lane % 4;
    for (int j = 0; j < 4; ++j) c4[j] = c[(g + 8 * (j / 2)) * 8 + 2 * t + j % 2];
}

template <class T>
__device__ void load_ab_16(const T* a, const T* b, unsigned* ra, unsigned* rb) {
    const unsigned lane = threadIdx.x, g = lane / 4, t = lane % 4;
    for (int j = 0; j < 4; ++j) ra[j] = pack2(&a[(g + 8 * (j % 2)) * 16 + 2 * t + (j / 2) * 8]);
    for (int j = 0; j < 2; ++j) rb[j] = pack2(&b[g * 16 + 2 * t + j * 8]);
}

extern "C" __global__ void mma_f16_m16n8k16(const __half* a, const __half* b, const float* c, float* d, int print) {
    a += blockIdx.x * 256; b += blockIdx.x * 128; c += blockIdx.x * 128; d += blockIdx.x * 128;
    unsigned ra[4], rb[2];
    float acc[4];
    load_ab_16(a, b, ra, rb);
    load_c(c, acc);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
    store_d(d, acc, print, "f16");
}

extern "C" __global__ void mma_bf16_m16n8k16(const __nv_bfloat16* a, const __nv_bfloat16* b, const float* c, float* d,
                                             int print) {
    a += blockIdx.x * 256; b += blockIdx.x * 128; c += blockIdx.x * 128; d += blockIdx.x * 128;
    unsigned ra[4], rb[2];
    float acc[4];
    load_ab_16(a, b, ra, rb);
    load_c(c, acc);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
    store_d(d, acc, print, "bf16");
}

// m16n8k8 tf32: A 16 x 8, B 8 x 8 (b[n * 8 + k]); the f32 inputs are rounded to tf32 with cvt.rna.tf32.f32.
extern "C" __global__ void mma_tf32_m16n8k8(const float* a, const float* b, const float* c, float* d, int print) {
    a += blockIdx.x * 128; b += blockIdx.x * 64; c += blockIdx.x * 128; d += blockIdx.x * 128;
    const unsigned lane = threadIdx.x, g = lane / 4, t = lane % 4;
    unsigned ra[4], rb[2];
    for (int j = 0; j < 4; ++j) asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(ra[j]) : "f"(a[(g + 8 * (j % 2)) * 8 + t + (j / 2) * 4]));
    for (int j = 0; j < 2; ++j) asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(rb[j]) : "f"(b[g * 8 + t + j * 4]));
    float acc[4];
    load_c(c, acc);
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
    store_d(d, acc, print, "tf32");
}

// m16n8k32 integer: A 16 x 32 bytes row-major, B 32 x 8 bytes column by column; s8 x s8, u8 x s8 and
// s8 x s8 with .satfinite, each into its own third of d (16 x 8 s32 each).
extern "C" __global__ void mma_int8_m16n8k32(const uint8_t* a, const uint8_t* b, const int* c, int* d) {
    const unsigned lane = threadIdx.x, g = lane / 4, t = lane % 4;
    unsigned ra[4], rb[2];
    for (int j = 0; j < 4; ++j) memcpy(&ra[j], &a[(g + 8 * (j % 2)) * 32 + 4 * t + (j / 2) * 16], 4);
    for (int j = 0; j < 2; ++j) memcpy(&rb[j], &b[g * 32 + 4 * t + j * 16], 4);
    int acc[3][4];
    for (int j = 0; j < 4; ++j) acc[0][j] = acc[1][j] = acc[2][j] = c[(g + 8 * (j / 2)) * 8 + 2 * t + j % 2];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};"
                 : "+r"(acc[0][0]), "+r"(acc[0][1]), "+r"(acc[0][2]), "+r"(acc[0][3])
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};"
                 : "+r"(acc[1][0]), "+r"(acc[1][1]), "+r"(acc[1][2]), "+r"(acc[1][3])
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
    asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                 "{%8, %9}, {%0, %1, %2, %3};"
                 : "+r"(acc[2][0]), "+r"(acc[2][1]), "+r"(acc[2][2]), "+r"(acc[2][3])
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
    for (int m = 0; m < 3; ++m)
        for (int j = 0; j < 4; ++j) d[m * 128 + (g + 8 * (j / 2)) * 8 + 2 * t + j % 2] = acc[m][j];
}
