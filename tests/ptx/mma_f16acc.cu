// mma.sync.aligned m16n8k16 and m16n8k8 on f16 inputs with f16 and with f32 accumulators (.f16.f16.f16.f16 and
// .f32.f16.f16.f32; ptxas rejects the mixed forms .f32.f16.f16.f16 and .f16.f16.f16.f32 for these shapes), and
// movmatrix.sync.aligned.m8n8.trans.b16. Fragments are loaded straight from global memory with the PTX ISA's
// layouts (g = lane / 4, t = lane % 4); with `print` set every lane prints its results' bits (the GPU's exact
// outputs, for reading the f16 accumulation off the H200).
#include <cstdint>

namespace {

__device__ unsigned pack2(const unsigned short* p) { return p[0] | (static_cast<unsigned>(p[1]) << 16); }

// C / D of 16 x 8 row-major; an f16 fragment holds row g (register 0) and row g + 8 (register 1), columns 2t and
// 2t + 1; an f32 fragment register j holds row g + 8 (j / 2), column 2t + j % 2.
__device__ void load_c(const unsigned short* c16, const float* c32, unsigned* h, float* f) {
    const unsigned lane = threadIdx.x, g = lane / 4, t = lane % 4;
    for (int j = 0; j < 2; ++j) h[j] = pack2(&c16[(g + 8 * j) * 8 + 2 * t]);
    for (int j = 0; j < 4; ++j) f[j] = c32[(g + 8 * (j / 2)) * 8 + 2 * t + j % 2];
}

__device__ void store_d(const unsigned* h, const float* f, unsigned short* d16, float* d32) {
    const unsigned lane = threadIdx.x, g = lane / 4, t = lane % 4;
    for (int j = 0; j < 2; ++j) {
        d16[(g + 8 * j) * 8 + 2 * t] = static_cast<unsigned short>(h[j]);
        d16[(g + 8 * j) * 8 + 2 * t + 1] = static_cast<unsigned short>(h[j] >> 16);
    }
    for (int j = 0; j < 4; ++j) d32[(g + 8 * (j / 2)) * 8 + 2 * t + j % 2] = f[j];
}

__device__ void print_lane(int print, const char* what, const unsigned* hh, const float* ff) {
    if (!print) return;
    printf("%s %u %u %08x %08x %08x %08x %08x %08x\n", what, blockIdx.x, threadIdx.x, hh[0], hh[1], __float_as_uint(ff[0]),
           __float_as_uint(ff[1]), __float_as_uint(ff[2]), __float_as_uint(ff[3]));
}

}  // namespace

// Tile b: A 16 x 16 (a + 256 b, row-major), B 16 x 8 (b + 128 b, column n at b[n * 16]), C 16 x 8 as f16 (c16)
// and as f32 (c32). Results: d16 = f16 D from f16 C, d32 = f32 D from f32 C.
extern "C" __global__ void mma_f16acc_m16n8k16(const unsigned short* a, const unsigned short* b, const unsigned short* c16,
                                               const float* c32, unsigned short* d16, float* d32, int print) {
    const unsigned tile = blockIdx.x, lane = threadIdx.x, g = lane / 4, t = lane % 4;
    a += tile * 256, b += tile * 128, c16 += tile * 128, c32 += tile * 128;
    d16 += tile * 128, d32 += tile * 128;
    unsigned ra[4], rb[2], ch[2], hh[2];
    float cf[4], ff[4];
    for (int j = 0; j < 4; ++j) ra[j] = pack2(&a[(g + 8 * (j % 2)) * 16 + 2 * t + (j / 2) * 8]);
    for (int j = 0; j < 2; ++j) rb[j] = pack2(&b[g * 16 + 2 * t + j * 8]);
    load_c(c16, c32, ch, cf);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
                 : "=r"(hh[0]), "=r"(hh[1])
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]), "r"(ch[0]), "r"(ch[1]));
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%10, %11, %12, %13};"
                 : "=f"(ff[0]), "=f"(ff[1]), "=f"(ff[2]), "=f"(ff[3])
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]), "f"(cf[0]), "f"(cf[1]),
                   "f"(cf[2]), "f"(cf[3]));
    store_d(hh, ff, d16, d32);
    print_lane(print, "k16", hh, ff);
}

// The same with m16n8k8: A 16 x 8 (a + 128 b), B 8 x 8 (b + 64 b, column n at b[n * 8]).
extern "C" __global__ void mma_f16acc_m16n8k8(const unsigned short* a, const unsigned short* b, const unsigned short* c16,
                                              const float* c32, unsigned short* d16, float* d32, int print) {
    const unsigned tile = blockIdx.x, lane = threadIdx.x, g = lane / 4, t = lane % 4;
    a += tile * 128, b += tile * 64, c16 += tile * 128, c32 += tile * 128;
    d16 += tile * 128, d32 += tile * 128;
    unsigned ra[2], rb, ch[2], hh[2];
    float cf[4], ff[4];
    for (int j = 0; j < 2; ++j) ra[j] = pack2(&a[(g + 8 * j) * 8 + 2 * t]);
    rb = pack2(&b[g * 8 + 2 * t]);
    load_c(c16, c32, ch, cf);
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3}, {%4}, {%5, %6};"
                 : "=r"(hh[0]), "=r"(hh[1])
                 : "r"(ra[0]), "r"(ra[1]), "r"(rb), "r"(ch[0]), "r"(ch[1]));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=f"(ff[0]), "=f"(ff[1]), "=f"(ff[2]), "=f"(ff[3])
                 : "r"(ra[0]), "r"(ra[1]), "r"(rb), "f"(cf[0]), "f"(cf[1]), "f"(cf[2]), "f"(cf[3]));
    store_d(hh, ff, d16, d32);
    print_lane(print, "k8", hh, ff);
}

// movmatrix: block b's 8 x 8 b16 matrix (in + 64 b, row-major) in the ldmatrix fragment layout (lane l: row
// l / 4, columns 2 (l % 4) and 2 (l % 4) + 1), transposed; out gets every lane's register before (out[l]) and
// after (out[32 + l]), and the transposed matrix written back through the same layout (out16 + 64 b).
extern "C" __global__ void movmatrix_trans(const unsigned short* in, unsigned* out, unsigned short* out16) {
    const unsigned lane = threadIdx.x, r = lane / 4, c = 2 * (lane % 4);
    in += blockIdx.x * 64, out += blockIdx.x * 64, out16 += blockIdx.x * 64;
    const unsigned x = pack2(&in[r * 8 + c]);
    unsigned y;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(y) : "r"(x));
    out[lane] = x;
    out[32 + lane] = y;
    out16[r * 8 + c] = static_cast<unsigned short>(y);
    out16[r * 8 + c + 1] = static_cast<unsigned short>(y >> 16);
}
