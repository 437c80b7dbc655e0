// tests/counts/h200/probe_counts.cu — one-warp memory-access probes whose ncu counters fix the counting rules.
// Each launch is one block of 32 threads doing exactly one warp-level access; run.sh profiles every launch
// with ncu and pairs its counters with the label this program prints (same order).
#include <cstdio>
#include <cstdint>

template <int W> __device__ void sld(uint32_t a, uint4* out) {
    uint4 v{0, 0, 0, 0};
    if constexpr (W == 1) { unsigned short t; asm volatile("ld.shared.u8 %0, [%1];" : "=h"(t) : "r"(a)); v.x = t; }
    if constexpr (W == 2) { unsigned short t; asm volatile("ld.shared.u16 %0, [%1];" : "=h"(t) : "r"(a)); v.x = t; }
    if constexpr (W == 4) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v.x) : "r"(a));
    if constexpr (W == 8) asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(v.x), "=r"(v.y) : "r"(a));
    if constexpr (W == 16)
        asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(a));
    *out = v;
}

template <int W> __device__ void sst(uint32_t a, uint32_t x) {
    if constexpr (W == 1) asm volatile("st.shared.u8 [%0], %1;" ::"r"(a), "h"((unsigned short)x));
    if constexpr (W == 2) asm volatile("st.shared.u16 [%0], %1;" ::"r"(a), "h"((unsigned short)x));
    if constexpr (W == 4) asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(x));
    if constexpr (W == 8) asm volatile("st.shared.v2.u32 [%0], {%1,%1};" ::"r"(a), "r"(x));
    if constexpr (W == 16) asm volatile("st.shared.v4.u32 [%0], {%1,%1,%1,%1};" ::"r"(a), "r"(x));
}

// op: 0 load, 1 store, 2 atom.add.u32
template <int W, int OP> __global__ void shared_probe(uint32_t offset, uint32_t stride, uint32_t mask, uint4* out) {
    __shared__ __align__(16) unsigned char smem[40 * 1024];
    const uint32_t lane = threadIdx.x;
    const uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(smem)) + (offset + lane * stride) % (32 * 1024);
    if ((mask >> lane) & 1u) {
        if constexpr (OP == 0) sld<W>(a, out + lane);
        if constexpr (OP == 1) sst<W>(a, lane);
        if constexpr (OP == 2) { uint32_t r; asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(r) : "r"(a)); out[lane].x = r; }
    }
}

template <int W> __global__ void global_probe(const unsigned char* base, uint32_t offset, uint32_t stride, uint32_t mask, uint4* out) {
    const uint32_t lane = threadIdx.x;
    const unsigned char* p = base + offset + static_cast<uint64_t>(lane) * stride;
    if ((mask >> lane) & 1u) {
        uint4 v{0, 0, 0, 0};
        if constexpr (W == 1) { unsigned short t; asm volatile("ld.global.u8 %0, [%1];" : "=h"(t) : "l"(p)); v.x = t; }
        if constexpr (W == 2) { unsigned short t; asm volatile("ld.global.u16 %0, [%1];" : "=h"(t) : "l"(p)); v.x = t; }
        if constexpr (W == 4) asm volatile("ld.global.u32 %0, [%1];" : "=r"(v.x) : "l"(p));
        if constexpr (W == 8) asm volatile("ld.global.v2.u32 {%0,%1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(p));
        if constexpr (W == 16)
            asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
        out[lane] = v;
    }
}

// DRAM probes: every thread reads one float of a 128-byte line (1 sector per line) / streams / writes.
__global__ void one_sector_per_line(const float* in, float* out, size_t lines) {
    size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    if (i < lines) out[i] = in[i * 32];
}
__global__ void stream_read(const float4* in, float* out, size_t n) {
    size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    float4 v = in[i];
    if (i < n && v.x == 12345.f) out[0] = v.y;
}
__global__ void stream_write(float4* out, size_t n) {
    size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    if (i < n) out[i] = make_float4(1, 2, 3, 4);
}
__global__ void read_twice_in_block(const float* in, float* out) {
    const float a = in[threadIdx.x];
    __syncthreads();
    const float b = __ldca(in + threadIdx.x);
    out[threadIdx.x] = a + b;
}

static uint4* g_out;
static unsigned char* g_buf;

template <int W, int OP> void shared_case(const char* what, uint32_t offset, uint32_t stride, uint32_t mask) {
    if (stride % W != 0 || offset % W != 0) return;  // would fault as misaligned
    printf("shared %s w%d %s off=%u stride=%u mask=%08x\n", OP == 0 ? "ld" : OP == 1 ? "st" : "atom", W, what, offset, stride, mask);
    shared_probe<W, OP><<<1, 32>>>(offset, stride, mask, g_out);
}
template <int W> void global_case(const char* what, uint32_t offset, uint32_t stride, uint32_t mask) {
    printf("global ld w%d %s off=%u stride=%u mask=%08x\n", W, what, offset, stride, mask);
    global_probe<W><<<1, 32>>>(g_buf, offset, stride, mask, g_out);
}

template <int W, int OP> void shared_width_set() {
    constexpr uint32_t all = 0xffffffffu;
    shared_case<W, OP>("contig", 0, W, all);
    shared_case<W, OP>("broadcast", 64, 0, all);
    shared_case<W, OP>("word-per-lane", 0, 4, all);
    shared_case<W, OP>("stride8", 0, 8, all);
    shared_case<W, OP>("stride16", 0, 16, all);
    shared_case<W, OP>("stride32", 0, 32, all);
    shared_case<W, OP>("stride128", 0, 128, all);
    shared_case<W, OP>("stride132", 0, 132, all);
    shared_case<W, OP>("stride136", 0, 136, all);
    shared_case<W, OP>("stride144", 0, 144, all);
    shared_case<W, OP>("lanes0-15", 0, W, 0xffffu);
    shared_case<W, OP>("lanes0-7", 0, W < 4 ? 4 : W, 0xffu);
    shared_case<W, OP>("lanes15-16", 0, W < 4 ? 4 : W, 0x18000u);
    shared_case<W, OP>("lanes0+31", 0, W < 4 ? 4 : W, 0x80000001u);
}

int main() {
    cudaMalloc(&g_out, 32 * sizeof(uint4));
    cudaMalloc(&g_buf, 1 << 20);
    cudaMemset(g_buf, 0, 1 << 20);
    shared_width_set<1, 0>(); shared_width_set<2, 0>(); shared_width_set<4, 0>(); shared_width_set<8, 0>(); shared_width_set<16, 0>();
    shared_width_set<1, 1>(); shared_width_set<2, 1>(); shared_width_set<4, 1>(); shared_width_set<8, 1>(); shared_width_set<16, 1>();
    shared_width_set<4, 2>();
    constexpr uint32_t all = 0xffffffffu;
    global_case<4>("stride1", 0, 4, all);
    global_case<4>("misaligned1", 4, 4, all);
    global_case<4>("stride2", 0, 8, all);
    global_case<4>("stride8", 0, 32, all);
    global_case<4>("stride31", 0, 124, all);
    global_case<4>("stride32", 0, 128, all);
    global_case<4>("stride33", 0, 132, all);
    global_case<4>("partial8", 0, 4, 0xffu);
    global_case<4>("broadcast", 100, 0, all);
    global_case<1>("u8", 0, 1, all);
    global_case<1>("u8-stride31", 0, 31, all);
    global_case<1>("u8-stride32", 0, 32, all);
    global_case<1>("u8-stride33", 0, 33, all);
    global_case<2>("u16", 0, 2, all);
    global_case<8>("u64", 0, 8, all);
    global_case<16>("v4", 0, 16, all);
    // DRAM: 16 MiB footprint of lines, one sector each; 64 MiB stream read; 16 MiB write.
    float *in, *out;
    const size_t big = 256ull << 20;
    cudaMalloc(&in, big);
    cudaMalloc(&out, big);
    cudaMemset(in, 0, big);
    const size_t lines = (16ull << 20) / 128;
    printf("dram one-sector-per-line lines=%zu\n", lines);
    one_sector_per_line<<<(lines + 255) / 256, 256>>>(in, out, lines);
    const size_t n4 = (64ull << 20) / 16;
    printf("dram stream-read bytes=%zu\n", n4 * 16);
    stream_read<<<n4 / 256, 256>>>(reinterpret_cast<const float4*>(in), out, n4);
    const size_t w4 = (16ull << 20) / 16;
    printf("dram stream-write bytes=%zu\n", w4 * 16);
    stream_write<<<w4 / 256, 256>>>(reinterpret_cast<float4*>(out), w4);
    const size_t w4b = (256ull << 20) / 16;
    printf("dram stream-write bytes=%zu\n", w4b * 16);
    stream_write<<<w4b / 256, 256>>>(reinterpret_cast<float4*>(out), w4b);
    printf("l1 read-twice-in-block\n");
    read_twice_in_block<<<1, 128>>>(in, out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("done %s\n", cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
}
