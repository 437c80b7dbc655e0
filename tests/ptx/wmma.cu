// Warp matrix functions of CUDA's mma.h (nvcuda::wmma), which nvcc compiles to wmma.load / wmma.mma /
// wmma.store: fragment probes that write out every fragment element of every lane (the H200's fragment
// layouts are read off them: PTX leaves them unspecified), tile multiplies over every layout combination of
// each shape and type sm_90 has, and a small GEMM staged through shared memory.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdint>
#include <type_traits>

using namespace nvcuda;

namespace {

constexpr int kPad = 16;  // every leading dimension is the matrix's own plus kPad (a legal ldm for every type)

template <class T>
__device__ unsigned raw_bits(T v) {
    if constexpr (sizeof(T) == 1) {
        unsigned char u;
        memcpy(&u, &v, 1);
        return u;
    } else if constexpr (sizeof(T) == 2) {
        unsigned short u;
        memcpy(&u, &v, 2);
        return u;
    } else {
        unsigned u;
        memcpy(&u, &v, 4);
        return u;
    }
}

// Lane l's elements of f go to out[l * n + i] (n = f.num_elements); with `print`, also one line per lane
// and 8 elements: "what lane first-index bits...". Returns the next free output slot.
template <class Frag>
__device__ unsigned* put(const Frag& f, unsigned* out, int print, const char* what) {
    const unsigned lane = threadIdx.x;
    constexpr int n = Frag::num_elements;
    for (int i = 0; i < n; ++i) out[lane * n + i] = raw_bits(f.x[i]);
    if (print)
        for (int i = 0; i < n; i += 8) {
            unsigned v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
            for (int j = 0; j < 8 && i + j < n; ++j) v[j] = raw_bits(f.x[i + j]);
            printf("%s %u %d %x %x %x %x %x %x %x %x\n", what, lane, i, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
        }
    return out + 32 * n;
}

// A (M x K) and B (K x N) of element type T (memory type Mem) loaded from `src` in both layouts.
template <int M, int N, int K, class T, class Mem>
__device__ unsigned* probe_ab(const Mem* src, unsigned* out, int print, const char* a_row, const char* a_col,
                              const char* b_row, const char* b_col) {
    wmma::fragment<wmma::matrix_a, M, N, K, T, wmma::row_major> ar;
    wmma::fragment<wmma::matrix_a, M, N, K, T, wmma::col_major> ac;
    wmma::fragment<wmma::matrix_b, M, N, K, T, wmma::row_major> br;
    wmma::fragment<wmma::matrix_b, M, N, K, T, wmma::col_major> bc;
    wmma::load_matrix_sync(ar, src, K + kPad);
    wmma::load_matrix_sync(ac, src, M + kPad);
    wmma::load_matrix_sync(br, src, N + kPad);
    wmma::load_matrix_sync(bc, src, K + kPad);
    out = put(ar, out, print, a_row);
    out = put(ac, out, print, a_col);
    out = put(br, out, print, b_row);
    return put(bc, out, print, b_col);
}

// The accumulator of type Acc loaded from `src` in both layouts, and a fragment whose element i of lane l
// holds the bits (l << 8 | i) stored in both layouts: row-major at st, column-major at st + M * (N + kPad).
template <int M, int N, int K, class Acc, class Bits>
__device__ unsigned* probe_acc(const Acc* src, Acc* st, unsigned* out, int print, const char* c_row, const char* c_col) {
    wmma::fragment<wmma::accumulator, M, N, K, Acc> cr, cc, d;
    wmma::load_matrix_sync(cr, src, N + kPad, wmma::mem_row_major);
    wmma::load_matrix_sync(cc, src, M + kPad, wmma::mem_col_major);
    out = put(cr, out, print, c_row);
    out = put(cc, out, print, c_col);
    for (int i = 0; i < d.num_elements; ++i) {
        const Bits b = static_cast<Bits>(threadIdx.x << 8 | i);
        memcpy(&d.x[i], &b, sizeof(Bits));
    }
    wmma::store_matrix_sync(st, d, N + kPad, wmma::mem_row_major);
    wmma::store_matrix_sync(st + M * (N + kPad), d, M + kPad, wmma::mem_col_major);
    return out;
}

// Every operand of one shape: src16 holds the 16-bit pattern k at element k, src8lo / src8hi the low and high
// byte of k, src32 the word (k << 20 | k); st16 / st32 receive the stores.
template <int M, int N, int K>
__device__ void probe_shape(const unsigned short* src16, const uint8_t* src8lo, const uint8_t* src8hi,
                            const unsigned* src32, unsigned* out, unsigned short* st16, unsigned* st32, int print) {
    out = probe_ab<M, N, K, __half>(reinterpret_cast<const __half*>(src16), out, print, "f16.a.row", "f16.a.col",
                                    "f16.b.row", "f16.b.col");
    out = probe_ab<M, N, K, __nv_bfloat16>(reinterpret_cast<const __nv_bfloat16*>(src16), out, print, "bf16.a.row",
                                           "bf16.a.col", "bf16.b.row", "bf16.b.col");
    out = probe_ab<M, N, K, signed char>(reinterpret_cast<const signed char*>(src8lo), out, print, "s8lo.a.row",
                                         "s8lo.a.col", "s8lo.b.row", "s8lo.b.col");
    out = probe_ab<M, N, K, signed char>(reinterpret_cast<const signed char*>(src8hi), out, print, "s8hi.a.row",
                                         "s8hi.a.col", "s8hi.b.row", "s8hi.b.col");
    out = probe_ab<M, N, K, unsigned char>(src8lo, out, print, "u8lo.a.row", "u8lo.a.col", "u8lo.b.row", "u8lo.b.col");
    out = probe_acc<M, N, K, __half, unsigned short>(reinterpret_cast<const __half*>(src16),
                                                     reinterpret_cast<__half*>(st16), out, print, "f16.c.row", "f16.c.col");
    out = probe_acc<M, N, K, float, unsigned>(reinterpret_cast<const float*>(src32), reinterpret_cast<float*>(st32), out,
                                              print, "f32.c.row", "f32.c.col");
    probe_acc<M, N, K, int, int>(reinterpret_cast<const int*>(src32), reinterpret_cast<int*>(st32) + 2 * M * (N + kPad) + 64,
                                 out, print, "s32.c.row", "s32.c.col");
}

}  // namespace

extern "C" __global__ void wmma_probe_m16n16k16(const unsigned short* src16, const uint8_t* src8lo, const uint8_t* src8hi,
                                                const unsigned* src32, unsigned* out, unsigned short* st16, unsigned* st32,
                                                int print) {
    probe_shape<16, 16, 16>(src16, src8lo, src8hi, src32, out, st16, st32, print);
}

extern "C" __global__ void wmma_probe_m32n8k16(const unsigned short* src16, const uint8_t* src8lo, const uint8_t* src8hi,
                                               const unsigned* src32, unsigned* out, unsigned short* st16, unsigned* st32,
                                               int print) {
    probe_shape<32, 8, 16>(src16, src8lo, src8hi, src32, out, st16, st32, print);
}

extern "C" __global__ void wmma_probe_m8n32k16(const unsigned short* src16, const uint8_t* src8lo, const uint8_t* src8hi,
                                               const unsigned* src32, unsigned* out, unsigned short* st16, unsigned* st32,
                                               int print) {
    probe_shape<8, 32, 16>(src16, src8lo, src8hi, src32, out, st16, st32, print);
}

// tf32 m16n16k8: A and B from src32 (no conversion: the loaded bits as they are), the f32 accumulator.
extern "C" __global__ void wmma_probe_m16n16k8(const unsigned* src32, unsigned* out, unsigned* st32, int print) {
    out = probe_ab<16, 16, 8, wmma::precision::tf32>(reinterpret_cast<const float*>(src32), out, print, "tf32.a.row",
                                                       "tf32.a.col", "tf32.b.row", "tf32.b.col");
    probe_acc<16, 16, 8, float, unsigned>(reinterpret_cast<const float*>(src32), reinterpret_cast<float*>(st32), out, print,
                                          "f32.c.row", "f32.c.col");
}

// ---- D = A * B + C over every layout combination -------------------------------------------------------
// Block b works on its own region of kRegion elements of each matrix: A row-major when b & 1 is 0 (else
// column-major), B row-major when b & 2 is 0, C and D row-major when b & 4 is 0; leading dimensions padded.

namespace {

constexpr int kRegion = 2048;


template <int M, int N, int K, class T, class Acc, class LA, class LB, class Mem, bool Tf32 = false, bool Sat = false>
__device__ void tile_mma(const Mem* a, const Mem* b, const Acc* c, Acc* d, bool c_col) {
    wmma::fragment<wmma::matrix_a, M, N, K, T, LA> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, T, LB> fb;
    wmma::fragment<wmma::accumulator, M, N, K, Acc> fc;
    wmma::load_matrix_sync(fa, a, (std::is_same_v<LA, wmma::row_major> ? K : M) + kPad);
    wmma::load_matrix_sync(fb, b, (std::is_same_v<LB, wmma::row_major> ? N : K) + kPad);
    if constexpr (Tf32)  // A rounded to tf32 as CUDA's documentation asks; B left as loaded (its low bits unused)
        for (int i = 0; i < fa.num_elements; ++i) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    const auto layout = c_col ? wmma::mem_col_major : wmma::mem_row_major;
    const int ldc = (c_col ? M : N) + kPad;
    wmma::load_matrix_sync(fc, c, ldc, layout);
    if constexpr (Sat) wmma::mma_sync(fc, fa, fb, fc, true);
    else wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, ldc, layout);
}

template <int M, int N, int K, class T, class Acc, class Mem, bool Tf32 = false, bool Sat = false>
__device__ void all_layouts(const Mem* a, const Mem* b, const Acc* c, Acc* d, unsigned which) {
    using R = wmma::row_major;
    using C = wmma::col_major;
    const bool c_col = which & 4;
    switch (which & 3) {
    case 0: tile_mma<M, N, K, T, Acc, R, R, Mem, Tf32, Sat>(a, b, c, d, c_col); break;
    case 1: tile_mma<M, N, K, T, Acc, C, R, Mem, Tf32, Sat>(a, b, c, d, c_col); break;
    case 2: tile_mma<M, N, K, T, Acc, R, C, Mem, Tf32, Sat>(a, b, c, d, c_col); break;
    default: tile_mma<M, N, K, T, Acc, C, C, Mem, Tf32, Sat>(a, b, c, d, c_col); break;
    }
}

// f16 inputs with an f32 accumulator (blocks 0-7) and with an f16 accumulator (blocks 8-15).
template <int M, int N, int K>
__device__ void mma_f16(const __half* a, const __half* b, const float* c32, const __half* c16, float* d32, __half* d16) {
    const unsigned blk = blockIdx.x, off = blk * kRegion;
    if (blk < 8) all_layouts<M, N, K, __half, float>(a + off, b + off, c32 + off, d32 + off, blk);
    else all_layouts<M, N, K, __half, __half>(a + off, b + off, c16 + off, d16 + off, blk);
}

// s8 (blocks 0-7), u8 (8-15) and s8 with saturation (16-23).
template <int M, int N, int K>
__device__ void mma_int8(const uint8_t* a, const uint8_t* b, const int* c, int* d) {
    const unsigned blk = blockIdx.x, off = blk * kRegion;
    const signed char* as = reinterpret_cast<const signed char*>(a + off);
    const signed char* bs = reinterpret_cast<const signed char*>(b + off);
    if (blk < 8) all_layouts<M, N, K, signed char, int>(as, bs, c + off, d + off, blk);
    else if (blk < 16) all_layouts<M, N, K, unsigned char, int>(a + off, b + off, c + off, d + off, blk);
    else all_layouts<M, N, K, signed char, int, signed char, false, true>(as, bs, c + off, d + off, blk);
}

}  // namespace

extern "C" __global__ void wmma_f16_m16n16k16(const __half* a, const __half* b, const float* c32, const __half* c16,
                                              float* d32, __half* d16) {
    mma_f16<16, 16, 16>(a, b, c32, c16, d32, d16);
}
extern "C" __global__ void wmma_f16_m32n8k16(const __half* a, const __half* b, const float* c32, const __half* c16,
                                             float* d32, __half* d16) {
    mma_f16<32, 8, 16>(a, b, c32, c16, d32, d16);
}
extern "C" __global__ void wmma_f16_m8n32k16(const __half* a, const __half* b, const float* c32, const __half* c16,
                                             float* d32, __half* d16) {
    mma_f16<8, 32, 16>(a, b, c32, c16, d32, d16);
}

extern "C" __global__ void wmma_bf16(const __nv_bfloat16* a, const __nv_bfloat16* b, const float* c, float* d) {
    // blocks 0-7 m16n16k16, 8-15 m32n8k16, 16-23 m8n32k16
    const unsigned blk = blockIdx.x, off = blk * kRegion;
    if (blk < 8) all_layouts<16, 16, 16, __nv_bfloat16, float>(a + off, b + off, c + off, d + off, blk);
    else if (blk < 16) all_layouts<32, 8, 16, __nv_bfloat16, float>(a + off, b + off, c + off, d + off, blk);
    else all_layouts<8, 32, 16, __nv_bfloat16, float>(a + off, b + off, c + off, d + off, blk);
}

extern "C" __global__ void wmma_tf32_m16n16k8(const float* a, const float* b, const float* c, float* d) {
    const unsigned off = blockIdx.x * kRegion;
    all_layouts<16, 16, 8, wmma::precision::tf32, float, float, true>(a + off, b + off, c + off, d + off, blockIdx.x);
}

extern "C" __global__ void wmma_int8_m16n16k16(const uint8_t* a, const uint8_t* b, const int* c, int* d) {
    mma_int8<16, 16, 16>(a, b, c, d);
}
extern "C" __global__ void wmma_int8_m32n8k16(const uint8_t* a, const uint8_t* b, const int* c, int* d) {
    mma_int8<32, 8, 16>(a, b, c, d);
}
extern "C" __global__ void wmma_int8_m8n32k16(const uint8_t* a, const uint8_t* b, const int* c, int* d) {
    mma_int8<8, 32, 16>(a, b, c, d);
}

// ---- a small GEMM -----------------------------------------------------------------------------------------
// C = alpha * A * B + beta * C, A (M x K) row-major, B (K x N) column-major, C (M x N) row-major, all
// dimensions multiples of 32. A block of 4 warps computes a 32 x 32 tile of C (warp w: rows 16 (w / 2),
// columns 16 (w % 2)), staging 32 x 16 slices of A and 16 x 32 slices of B in shared memory.
extern "C" __global__ void wmma_gemm(const __half* A, const __half* B, float* C, int M, int N, int K, float alpha,
                                     float beta) {
    constexpr int kLd = 16 + 8;  // shared leading dimension in halves (a multiple of 8)
    __shared__ __align__(32) __half as[32 * kLd];
    __shared__ __align__(32) __half bs[32 * kLd];
    const int warp = threadIdx.x / 32, row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k0 = 0; k0 < K; k0 += 16) {
        for (int i = threadIdx.x; i < 32 * 16; i += blockDim.x) {
            const int r = i / 16, k = i % 16;
            as[r * kLd + k] = A[(row0 + r) * K + k0 + k];
            bs[r * kLd + k] = B[(col0 + r) * K + k0 + k];  // column r of the slice
        }
        __syncthreads();
        wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
        wmma::load_matrix_sync(fa, as + (warp / 2) * 16 * kLd, kLd);
        wmma::load_matrix_sync(fb, bs + (warp % 2) * 16 * kLd, kLd);
        wmma::mma_sync(acc, fa, fb, acc);
        __syncthreads();
    }
    float* c = C + (row0 + (warp / 2) * 16) * N + col0 + (warp % 2) * 16;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> old;
    wmma::load_matrix_sync(old, c, N, wmma::mem_row_major);
    for (int i = 0; i < acc.num_elements; ++i) acc.x[i] = alpha * acc.x[i] + beta * old.x[i];
    wmma::store_matrix_sync(c, acc, N, wmma::mem_row_major);
}

// ---- the mixed accumulators of f16 wmma.mma, which mma.h does not emit ---------------------------------------
// m16n16k16 with A row-major and B column-major: block 0 takes an f16 C and gives an f32 D (.f32.f16), block 1
// an f32 C and an f16 D (.f16.f32). The fragments come from wmma::load_matrix_sync; the multiply is inline PTX.
extern "C" __global__ void wmma_f16_mixed(const __half* a, const __half* b, const float* c32, const __half* c16,
                                          float* d32, __half* d16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
    wmma::load_matrix_sync(fa, a + blockIdx.x * 256, 16);
    wmma::load_matrix_sync(fb, b + blockIdx.x * 256, 16);
    const unsigned* ra = reinterpret_cast<const unsigned*>(fa.x);
    const unsigned* rb = reinterpret_cast<const unsigned*>(fb.x);
    if (blockIdx.x == 0) {
        wmma::fragment<wmma::accumulator, 16, 16, 16, __half> c;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> d;
        wmma::load_matrix_sync(c, c16, 16, wmma::mem_row_major);
        const unsigned* rc = reinterpret_cast<const unsigned*>(c.x);
        asm volatile("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, "
                     "{%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, "
                     "{%24, %25, %26, %27};"
                     : "=f"(d.x[0]), "=f"(d.x[1]), "=f"(d.x[2]), "=f"(d.x[3]), "=f"(d.x[4]), "=f"(d.x[5]), "=f"(d.x[6]),
                       "=f"(d.x[7])
                     : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(ra[4]), "r"(ra[5]), "r"(ra[6]), "r"(ra[7]),
                       "r"(rb[0]), "r"(rb[1]), "r"(rb[2]), "r"(rb[3]), "r"(rb[4]), "r"(rb[5]), "r"(rb[6]), "r"(rb[7]),
                       "r"(rc[0]), "r"(rc[1]), "r"(rc[2]), "r"(rc[3]));
        wmma::store_matrix_sync(d32, d, 16, wmma::mem_row_major);
    } else {
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
        wmma::fragment<wmma::accumulator, 16, 16, 16, __half> d;
        wmma::load_matrix_sync(c, c32, 16, wmma::mem_row_major);
        unsigned* rd = reinterpret_cast<unsigned*>(d.x);
        asm volatile("wmma.mma.sync.aligned.row.col.m16n16k16.f16.f32 {%0, %1, %2, %3}, "
                     "{%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, "
                     "{%20, %21, %22, %23, %24, %25, %26, %27};"
                     : "=r"(rd[0]), "=r"(rd[1]), "=r"(rd[2]), "=r"(rd[3])
                     : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(ra[4]), "r"(ra[5]), "r"(ra[6]), "r"(ra[7]),
                       "r"(rb[0]), "r"(rb[1]), "r"(rb[2]), "r"(rb[3]), "r"(rb[4]), "r"(rb[5]), "r"(rb[6]), "r"(rb[7]),
                       "f"(c.x[0]), "f"(c.x[1]), "f"(c.x[2]), "f"(c.x[3]), "f"(c.x[4]), "f"(c.x[5]), "f"(c.x[6]),
                       "f"(c.x[7]));
        wmma::store_matrix_sync(d16, d, 16, wmma::mem_row_major);
    }
}
