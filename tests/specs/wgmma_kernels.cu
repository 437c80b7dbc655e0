// tests/specs/wgmma_kernels.cu — Hopper warpgroup MMA (wgmma.mma_async, sm_90a) on seeded random inputs of
// both signs: one warpgroup (128 threads) per block builds A and B in shared memory in the canonical layouts
// of the PTX ISA ("Shared Memory Matrix Layout": K- or MN-major, no swizzle or 32/64/128-byte swizzle),
// makes the matrix descriptors, runs wgmma and stores the accumulator fragments as raw f32/s32 bits,
// row-major (64 x N). The inputs come from random u32 buffers, mapped in the kernel onto finite values
// whose exponents lie in a range given by the launch, so the buffers test the tensor-core rounding.
// Compiled with `nvcc -ptx -arch=sm_90a -lineinfo` into wgmma_kernels.sm_90a.lineinfo.ptx (see README.md).
#include <cstdint>
#include <cstdio>

namespace {

// ---- inputs: random bits -> finite values, about 1 in 64 a signed zero ------------------------------------
__device__ uint32_t exponent_pick(uint32_t r, uint32_t lo, uint32_t span) { return lo + ((r * 2654435761u) >> 20) % span; }
__device__ bool zero_pick(uint32_t r) { return ((r * 2246822519u) >> 26) == 0; }

__device__ uint16_t f16_from(uint32_t r, uint32_t lo, uint32_t span) {
    if (zero_pick(r)) return static_cast<uint16_t>(r & 0x8000u);
    return static_cast<uint16_t>((r & 0x83ffu) | (exponent_pick(r, lo, span) << 10));
}
__device__ uint16_t bf16_from(uint32_t r, uint32_t lo, uint32_t span) {
    if (zero_pick(r)) return static_cast<uint16_t>(r & 0x8000u);
    return static_cast<uint16_t>((r & 0x807fu) | (exponent_pick(r, lo, span) << 7));
}
__device__ uint32_t f32_from(uint32_t r, uint32_t lo, uint32_t span) {
    if (zero_pick(r)) return r & 0x80000000u;
    return (r & 0x807fffffu) | (exponent_pick(r, lo, span) << 23);
}

// ---- shared-memory layouts ------------------------------------------------------------------------------
// Descriptor swizzle field: 0 none, 1 128-byte, 2 64-byte, 3 32-byte. The row width W of the swizzle atom.
__device__ uint32_t swizzle_width(uint32_t mode) { return mode == 0 ? 16u : mode == 1 ? 128u : mode == 2 ? 64u : 32u; }

// Byte offset of element (mn, k) before the swizzle, in the canonical layouts (PTX ISA, "Canonical Layouts",
// elements normalised to 16-byte units): K-major none ((8,m),(T,2k)):((1T,SBO),(1,LBO)), K-major swizzled
// ((8,m),(T,2k)):((W/16 T,SBO),(1,T)), MN-major none ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO)), MN-major swizzled
// ((T,W/16,m),(8,k)):((1,T,LBO),(W/16 T,SBO)).
__device__ uint32_t canonical_offset(uint32_t mn, uint32_t k, uint32_t esize, uint32_t mode, bool mn_major,
                                     uint32_t lbo, uint32_t sbo) {
    const uint32_t w = swizzle_width(mode);
    if (!mn_major) {
        const uint32_t kb = k * esize;
        if (mode == 0) return (mn % 8) * 16 + (mn / 8) * sbo + kb % 16 + (kb / 16) * lbo;
        return (mn % 8) * w + (mn / 8) * sbo + kb;
    }
    const uint32_t mb = mn * esize;
    if (mode == 0) return mb % 16 + (mb / 16) * sbo + (k % 8) * 16 + (k / 8) * lbo;
    return mb % w + (mb / w) * lbo + (k % 8) * w + (k / 8) * sbo;
}

// The swizzle acts on the shared-memory address: its 16-byte chunk bits 4.. are XORed with bits 7...
__device__ uint32_t swizzle(uint32_t addr, uint32_t mode) { return addr ^ (((addr >> 7) & (swizzle_width(mode) / 16 - 1)) << 4); }

struct Tile {
    uint32_t mode, lbo, sbo;
    bool mn_major;
};

// Strides for an MN x K tile (K counted in elements of `esize` bytes) that the kernels below use.
__device__ Tile tile_for(uint32_t mn, uint32_t kbytes, uint32_t esize, uint32_t mode, bool mn_major) {
    const uint32_t w = swizzle_width(mode);
    Tile t{mode, 0, 0, mn_major};
    if (!mn_major && mode == 0) t.lbo = mn / 8 * 128, t.sbo = 128;
    else if (!mn_major) t.lbo = 16, t.sbo = 8 * w;  // LBO unused by swizzled K-major layouts ("assumed 1")
    else if (mode == 0) t.sbo = 128, t.lbo = mn * esize / 16 * 128;
    else t.lbo = 8 * w, t.sbo = mn * esize / w * 8 * w;
    (void)kbytes;
    return t;
}

__device__ uint32_t shared_address(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

// Writes element (mn, k) of a tile at its swizzled place in `base` (1024-byte aligned).
template <class T>
__device__ void put(uint8_t* base, const Tile& t, uint32_t mn, uint32_t k, T value) {
    const uint32_t s = shared_address(base);
    const uint32_t a = swizzle(s + canonical_offset(mn, k, sizeof(T), t.mode, t.mn_major, t.lbo, t.sbo), t.mode);
    *reinterpret_cast<T*>(base + (a - s)) = value;
}

// Matrix descriptor (PTX ISA "Matrix Descriptor Format"): start, LBO, SBO encoded as (x & 0x3ffff) >> 4,
// base offset 0 (every tile starts on a 1024-byte boundary), swizzle mode in bits 62-63.
__device__ uint64_t descriptor(const void* p, const Tile& t) {
    auto enc = [](uint32_t x) { return static_cast<uint64_t>((x & 0x3ffffu) >> 4); };
    return enc(shared_address(p)) | enc(t.lbo) << 16 | enc(t.sbo) << 32 | static_cast<uint64_t>(t.mode) << 62;
}

// Accumulator fragment of m64nNk*: register i of thread `tid` holds row 16*warp + lane/4 + 8*((i/2)%2) and
// column 8*(i/4) + 2*(lane%4) + i%2.
__device__ uint32_t frag_row(uint32_t tid, uint32_t i) { return 16 * (tid / 32) + (tid % 32) / 4 + 8 * ((i / 2) % 2); }
__device__ uint32_t frag_col(uint32_t tid, uint32_t i) { return 8 * (i / 4) + 2 * (tid % 4) + i % 2; }

__device__ void async_proxy_fence() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
__device__ void wg_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ void wg_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N>
__device__ void wg_wait() { asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory"); }

template <int Regs>
__device__ void print_fragment(const char* what, const uint32_t (&d)[Regs]) {
    for (int i = 0; i < Regs; i += 8)
        printf("%s %u %u %d %08x %08x %08x %08x %08x %08x %08x %08x\n", what, blockIdx.x, threadIdx.x, i, d[i], d[i + 1],
               d[i + 2], d[i + 3], d[i + 4], d[i + 5], d[i + 6], d[i + 7]);
}

}  // namespace

#define WG_R32                                                                                                  \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, " \
    "%23, %24, %25, %26, %27, %28, %29, %30, %31}"
#define WG_R64                                                                                                    \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, "   \
    "%23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, " \
    "%45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}"
#define WG_D8(d, i) \
    "+r"(d[i]), "+r"(d[i + 1]), "+r"(d[i + 2]), "+r"(d[i + 3]), "+r"(d[i + 4]), "+r"(d[i + 5]), "+r"(d[i + 6]), "+r"(d[i + 7])
#define WG_D32(d) WG_D8(d, 0), WG_D8(d, 8), WG_D8(d, 16), WG_D8(d, 24)
#define WG_D64(d) WG_D32(d), WG_D8(d, 32), WG_D8(d, 40), WG_D8(d, 48), WG_D8(d, 56)

// D (64 x 128) = A (64 x 16) * B (16 x 128) + C, A and B from shared memory. `variant` picks the types and
// immediates: 0 f16 K/K-major, 1 f16 MN/MN-major with A negated, 2 bf16 A K-major, B N-major, B negated,
// 3 bf16 A M-major, B K-major. `mode_a`/`mode_b`: descriptor swizzle modes; scale_d 0: D = A * B.
extern "C" __global__ void wgmma_ss_m64n128k16(const uint32_t* a_rand, const uint32_t* b_rand, const uint32_t* c_rand,
                                               uint32_t* out, int variant, int mode_a, int mode_b, int scale_d,
                                               uint32_t in_lo, uint32_t in_span, uint32_t c_lo, uint32_t c_span,
                                               int print) {
    __shared__ __align__(1024) uint8_t sa[8192];
    __shared__ __align__(1024) uint8_t sb[16384];
    const uint32_t tid = threadIdx.x, blk = blockIdx.x;
    const bool bf16 = variant >= 2;
    const bool ta = variant == 1 || variant == 3, tb = variant == 1 || variant == 2;
    const Tile tile_a = tile_for(64, 32, 2, mode_a, ta), tile_b = tile_for(128, 32, 2, mode_b, tb);
    a_rand += blk * 64 * 16, b_rand += blk * 128 * 16, c_rand += blk * 64 * 128, out += blk * 64 * 128;
    for (uint32_t e = tid; e < 64 * 16; e += 128) {  // A row-major (m, k)
        const uint32_t r = a_rand[e];
        put<uint16_t>(sa, tile_a, e / 16, e % 16, bf16 ? bf16_from(r, in_lo, in_span) : f16_from(r, in_lo, in_span));
    }
    for (uint32_t e = tid; e < 128 * 16; e += 128) {  // B column-major: element (n, k) at n * 16 + k
        const uint32_t r = b_rand[e];
        put<uint16_t>(sb, tile_b, e / 16, e % 16, bf16 ? bf16_from(r, in_lo, in_span) : f16_from(r, in_lo, in_span));
    }
    async_proxy_fence();
    __syncthreads();
    uint32_t d[64];
    for (uint32_t i = 0; i < 64; ++i) d[i] = f32_from(c_rand[frag_row(tid, i) * 128 + frag_col(tid, i)], c_lo, c_span);
    const uint64_t da = descriptor(sa, tile_a), db = descriptor(sb, tile_b);
    wg_fence();
    switch (variant) {
    case 0:
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " WG_R64 ", %64, %65, p, 1, 1, 0, 0;\n}\n"
                     : WG_D64(d)
                     : "l"(da), "l"(db), "r"(scale_d));
        break;
    case 1:
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " WG_R64 ", %64, %65, p, -1, 1, 1, 1;\n}\n"
                     : WG_D64(d)
                     : "l"(da), "l"(db), "r"(scale_d));
        break;
    case 2:
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 " WG_R64 ", %64, %65, p, 1, -1, 0, 1;\n}\n"
                     : WG_D64(d)
                     : "l"(da), "l"(db), "r"(scale_d));
        break;
    default:
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 " WG_R64 ", %64, %65, p, 1, 1, 1, 0;\n}\n"
                     : WG_D64(d)
                     : "l"(da), "l"(db), "r"(scale_d));
        break;
    }
    wg_commit();
    wg_wait<0>();
    for (uint32_t i = 0; i < 64; ++i) out[frag_row(tid, i) * 128 + frag_col(tid, i)] = d[i];
    if (print) print_fragment("D", d);
}

// D (64 x 64) = -A (64 x 16, f16, from registers) * B (16 x 64, N-major in shared memory) + C.
extern "C" __global__ void wgmma_rs_m64n64k16(const uint32_t* a_rand, const uint32_t* b_rand, const uint32_t* c_rand,
                                              uint32_t* out, int mode_b, uint32_t in_lo, uint32_t in_span, uint32_t c_lo,
                                              uint32_t c_span, int print) {
    __shared__ __align__(1024) uint8_t sb[8192];
    const uint32_t tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    const Tile tile_b = tile_for(64, 32, 2, mode_b, true);
    for (uint32_t e = tid; e < 64 * 16; e += 128) put<uint16_t>(sb, tile_b, e / 16, e % 16, f16_from(b_rand[e], in_lo, in_span));
    async_proxy_fence();
    __syncthreads();
    // A fragment (PTX ISA figure "WGMMA .m64nNk16 register fragment layout for matrix A"): register j holds
    // row 16*warp + lane/4 + 8*(j%2), columns 2*(lane%4) + 8*(j/2) and the next one (low half first).
    uint32_t a[4];
    for (uint32_t j = 0; j < 4; ++j) {
        const uint32_t row = 16 * warp + lane / 4 + 8 * (j % 2), col = 2 * (lane % 4) + 8 * (j / 2);
        a[j] = f16_from(a_rand[row * 16 + col], in_lo, in_span) |
               static_cast<uint32_t>(f16_from(a_rand[row * 16 + col + 1], in_lo, in_span)) << 16;
    }
    uint32_t d[32];
    for (uint32_t i = 0; i < 32; ++i) d[i] = f32_from(c_rand[frag_row(tid, i) * 64 + frag_col(tid, i)], c_lo, c_span);
    const uint64_t db = descriptor(sb, tile_b);
    wg_fence();
    asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 " WG_R32 ", {%32, %33, %34, %35}, %36, 1, -1, 1, 1;\n"
                 : WG_D32(d)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
    wg_commit();
    wg_wait<0>();
    for (uint32_t i = 0; i < 32; ++i) out[frag_row(tid, i) * 64 + frag_col(tid, i)] = d[i];
    if (print) print_fragment("D", d);
}

// D (64 x 64) = A (64 x 64) * B (64 x 64) (+ C when scale_d), f16, both K-major with the 128-byte swizzle: four
// k-steps of 16, each advancing the descriptors' start address by 32 bytes, in two commit groups.
extern "C" __global__ void wgmma_gemm_m64n64k64_sw128(const uint32_t* a_rand, const uint32_t* b_rand,
                                                      const uint32_t* c_rand, uint32_t* out, int scale_d, uint32_t in_lo,
                                                      uint32_t in_span, uint32_t c_lo, uint32_t c_span, int print) {
    __shared__ __align__(1024) uint8_t sa[8192];
    __shared__ __align__(1024) uint8_t sb[8192];
    const uint32_t tid = threadIdx.x, blk = blockIdx.x;
    const Tile tile = tile_for(64, 128, 2, 1, false);
    a_rand += blk * 64 * 64, b_rand += blk * 64 * 64, c_rand += blk * 64 * 64, out += blk * 64 * 64;
    for (uint32_t e = tid; e < 64 * 64; e += 128) {
        put<uint16_t>(sa, tile, e / 64, e % 64, f16_from(a_rand[e], in_lo, in_span));
        put<uint16_t>(sb, tile, e / 64, e % 64, f16_from(b_rand[e], in_lo, in_span));
    }
    async_proxy_fence();
    __syncthreads();
    uint32_t d[32];
    for (uint32_t i = 0; i < 32; ++i) d[i] = f32_from(c_rand[frag_row(tid, i) * 64 + frag_col(tid, i)], c_lo, c_span);
    const uint64_t da = descriptor(sa, tile), db = descriptor(sb, tile);
    wg_fence();
    for (uint32_t s = 0; s < 4; ++s) {
        const uint32_t first = s == 0 ? static_cast<uint32_t>(scale_d) : 1u;
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 " WG_R32 ", %32, %33, p, 1, 1, 0, 0;\n}\n"
                     : WG_D32(d)
                     : "l"(da + 2 * s), "l"(db + 2 * s), "r"(first));
        if (s % 2 == 1) wg_commit();
    }
    wg_wait<1>();
    wg_wait<0>();
    for (uint32_t i = 0; i < 32; ++i) out[frag_row(tid, i) * 64 + frag_col(tid, i)] = d[i];
    if (print) print_fragment("D", d);
}

// D (64 x 64) = A (64 x 8) * B (8 x 64) + C, tf32 (f32 bits, the low 13 left random), both K-major.
extern "C" __global__ void wgmma_tf32_m64n64k8(const uint32_t* a_rand, const uint32_t* b_rand, const uint32_t* c_rand,
                                               uint32_t* out, int mode, uint32_t in_lo, uint32_t in_span, uint32_t c_lo,
                                               uint32_t c_span, int print) {
    __shared__ __align__(1024) uint8_t sa[8192];
    __shared__ __align__(1024) uint8_t sb[8192];
    const uint32_t tid = threadIdx.x;
    const Tile tile = tile_for(64, 32, 4, mode, false);
    for (uint32_t e = tid; e < 64 * 8; e += 128) {
        put<uint32_t>(sa, tile, e / 8, e % 8, f32_from(a_rand[e], in_lo, in_span));
        put<uint32_t>(sb, tile, e / 8, e % 8, f32_from(b_rand[e], in_lo, in_span));
    }
    async_proxy_fence();
    __syncthreads();
    uint32_t d[32];
    for (uint32_t i = 0; i < 32; ++i) d[i] = f32_from(c_rand[frag_row(tid, i) * 64 + frag_col(tid, i)], c_lo, c_span);
    const uint64_t da = descriptor(sa, tile), db = descriptor(sb, tile);
    wg_fence();
    asm volatile("wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 " WG_R32 ", %32, %33, 1, 1, 1;\n"
                 : WG_D32(d)
                 : "l"(da), "l"(db));
    wg_commit();
    wg_wait<0>();
    for (uint32_t i = 0; i < 32; ++i) out[frag_row(tid, i) * 64 + frag_col(tid, i)] = d[i];
    if (print) print_fragment("D", d);
}

// D (64 x 64) = A (64 x 32, s8) * B (32 x 64, u8) + C (s32, wrapping), both K-major.
extern "C" __global__ void wgmma_s8u8_m64n64k32(const uint32_t* a_rand, const uint32_t* b_rand, const uint32_t* c_rand,
                                                uint32_t* out, int mode) {
    __shared__ __align__(1024) uint8_t sa[8192];
    __shared__ __align__(1024) uint8_t sb[8192];
    const uint32_t tid = threadIdx.x;
    const Tile tile = tile_for(64, 32, 1, mode, false);
    for (uint32_t e = tid; e < 64 * 32; e += 128) {
        put<uint8_t>(sa, tile, e / 32, e % 32, static_cast<uint8_t>(a_rand[e] >> 7));
        put<uint8_t>(sb, tile, e / 32, e % 32, static_cast<uint8_t>(b_rand[e] >> 11));
    }
    async_proxy_fence();
    __syncthreads();
    uint32_t d[32];
    for (uint32_t i = 0; i < 32; ++i) d[i] = c_rand[frag_row(tid, i) * 64 + frag_col(tid, i)];
    const uint64_t da = descriptor(sa, tile), db = descriptor(sb, tile);
    wg_fence();
    asm volatile("wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.u8 " WG_R32 ", %32, %33, 1;\n"
                 : WG_D32(d)
                 : "l"(da), "l"(db));
    wg_commit();
    wg_wait<0>();
    for (uint32_t i = 0; i < 32; ++i) out[frag_row(tid, i) * 64 + frag_col(tid, i)] = d[i];
}
