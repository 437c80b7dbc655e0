// tests/hardware/slowpath/slowpath_probe.cu — which operands send an IEEE f32 division (div.rn.f32, `a / b`)
// and reciprocal (rcp.rn.f32, `__frcp_rn`) down the slow-path subroutine ptxas calls (the CALL after FCHK
// for the division, after an exponent test for the reciprocal). Every warp computes one operand pair on all
// lanes and times it with %clock64; the slow path costs a call and tens of instructions more, so the cycle
// counts fall into two clear groups. Each block is one warp and asks for 200 KB of shared memory, so one warp
// runs per SM and no other warp's instructions lie between its clock reads. Printed per operand class: the
// exponents that took the slow path.
//
// Build and run (on the GPU machine): nvcc -O3 -arch=sm_90 slowpath_probe.cu -o probe && ./probe
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <algorithm>

#include "cuda_check.h"

// The operands are loaded, then the warp sleeps 2 us so that the loads have arrived before the first clock
// read; the operands depend on that read (t0 >> 62 is 0 while the clock is below 2^62) and the second read
// takes the result as an input, so the division, and only it, lies between the two reads.
__device__ __forceinline__ long long clock_after_loads() {
    __nanosleep(2000);
    long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
    return t;
}

__global__ void div_probe(const unsigned* a, const unsigned* b, unsigned* cycles, unsigned* q, int n) {
    const int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (w >= n) return;
    const unsigned ua = a[w], ub = b[w];
    const long long t0 = clock_after_loads();
    const float x = __uint_as_float(ua ^ unsigned(t0 >> 62)), y = __uint_as_float(ub ^ unsigned(t0 >> 62));
    const float r = x / y;
    long long t1;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1) : "f"(r) : "memory");
    if ((threadIdx.x & 31) == 0) {
        cycles[w] = unsigned(t1 - t0);
        q[w] = __float_as_uint(r);
    }
}

__global__ void rcp_probe(const unsigned* a, unsigned* cycles, unsigned* q, int n) {
    const int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (w >= n) return;
    const unsigned ua = a[w];
    const long long t0 = clock_after_loads();
    const float x = __uint_as_float(ua ^ unsigned(t0 >> 62));
    const float r = __frcp_rn(x);
    long long t1;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1) : "f"(r) : "memory");
    if ((threadIdx.x & 31) == 0) {
        cycles[w] = unsigned(t1 - t0);
        q[w] = __float_as_uint(r);
    }
}

// Runs of exponents (0-255) whose flag is set, as "lo-hi,lo-hi".
static std::string runs(const std::vector<bool>& slow) {
    std::string out;
    for (int e = 0; e < 256;) {
        if (!slow[e]) { ++e; continue; }
        int f = e;
        while (f + 1 < 256 && slow[f + 1]) ++f;
        char buf[32];
        std::snprintf(buf, sizeof buf, "%s%d-%d", out.empty() ? "" : ",", e, f);
        out += buf;
        e = f + 1;
    }
    return out.empty() ? "none" : out;
}

static unsigned threshold(std::vector<unsigned> c) {
    std::sort(c.begin(), c.end());
    return c[c.size() / 100] + 40;  // the fastest inputs run the fast sequence; the slow path adds well over 40
}

constexpr int kAlone = 200 * 1024;  // dynamic shared bytes: one block per SM

int main() {
    const unsigned mant[] = {0x000000u, 0x7fffffu, 0x400000u, 0x123457u};
    const int classes = 4;
    // Division: (ma, mb) pairs of the four mantissas on the diagonal and two off it.
    const unsigned pairs[][2] = {{0, 0}, {1, 1}, {0, 1}, {1, 0}, {2, 3}, {3, 2}};
    const int npairs = 6, n = npairs * 256 * 256;
    std::vector<unsigned> ha(n), hb(n);
    for (int p = 0; p < npairs; ++p)
        for (int ea = 0; ea < 256; ++ea)
            for (int eb = 0; eb < 256; ++eb) {
                const int i = (p * 256 + ea) * 256 + eb;
                ha[i] = unsigned(ea) << 23 | mant[pairs[p][0]];
                hb[i] = unsigned(eb) << 23 | mant[pairs[p][1]];
            }
    unsigned *da, *db, *dc, *dq;
    CHECK(cudaMalloc(&da, n * 4));
    CHECK(cudaMalloc(&db, n * 4));
    CHECK(cudaMalloc(&dc, n * 4));
    CHECK(cudaMalloc(&dq, n * 4));
    CHECK(cudaMemcpy(da, ha.data(), n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb.data(), n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaFuncSetAttribute(div_probe, cudaFuncAttributeMaxDynamicSharedMemorySize, kAlone));
    CHECK(cudaFuncSetAttribute(rcp_probe, cudaFuncAttributeMaxDynamicSharedMemorySize, kAlone));
    // Each operand pair's fastest of three launches (a first launch fetches the code into each SM's caches).
    std::vector<unsigned> hc(n, ~0u), once(n);
    for (int k = 0; k < 3; ++k) {
        div_probe<<<n, 32, kAlone>>>(da, db, dc, dq, n);
        CHECK(cudaMemcpy(once.data(), dc, n * 4, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; ++i) hc[i] = std::min(hc[i], once[i]);
    }
    unsigned thr = threshold(hc);
    std::vector<unsigned> fast, slowc;
    for (unsigned c : hc) (c < thr ? fast : slowc).push_back(c);
    std::sort(fast.begin(), fast.end());
    std::sort(slowc.begin(), slowc.end());
    std::printf("div.rn.f32 threshold %u cycles; fast %zu (median %u, max %u), slow %zu (min %u, median %u)\n",
                thr, fast.size(), fast[fast.size() / 2], fast.back(), slowc.size(),
                slowc.empty() ? 0 : slowc.front(), slowc.empty() ? 0 : slowc[slowc.size() / 2]);
    for (int p = 0; p < npairs; ++p)
        for (int ea = 0; ea < 256; ++ea) {
            std::vector<bool> s(256);
            for (int eb = 0; eb < 256; ++eb) s[eb] = hc[(p * 256 + ea) * 256 + eb] >= thr;
            std::printf("div ma=%06x mb=%06x ea=%d slow_eb=%s\n", mant[pairs[p][0]], mant[pairs[p][1]], ea,
                        runs(s).c_str());
        }
    // Reciprocal: every exponent with the four mantissas.
    const int nr = classes * 256;
    std::vector<unsigned> hr(nr);
    for (int m = 0; m < classes; ++m)
        for (int e = 0; e < 256; ++e) hr[m * 256 + e] = unsigned(e) << 23 | mant[m];
    CHECK(cudaMemcpy(da, hr.data(), nr * 4, cudaMemcpyHostToDevice));
    std::vector<unsigned> rc(nr, ~0u);
    for (int k = 0; k < 3; ++k) {
        rcp_probe<<<nr, 32, kAlone>>>(da, dc, dq, nr);
        CHECK(cudaMemcpy(once.data(), dc, nr * 4, cudaMemcpyDeviceToHost));
        for (int i = 0; i < nr; ++i) rc[i] = std::min(rc[i], once[i]);
    }
    thr = threshold(rc);
    std::printf("rcp.rn.f32 threshold %u cycles\n", thr);
    for (int m = 0; m < classes; ++m) {
        std::vector<bool> s(256);
        for (int e = 0; e < 256; ++e) s[e] = rc[m * 256 + e] >= thr;
        std::printf("rcp m=%06x slow_e=%s\n", mant[m], runs(s).c_str());
    }
    // Zero dividends, negative operands and the signed zero divisor: a few single cases.
    const unsigned cases[][2] = {{0x00000000u, 0x3f800000u}, {0x80000000u, 0x3f800000u}, {0xbf800000u, 0x40000000u},
                                 {0x3f800000u, 0xc0000000u}, {0x3f800000u, 0x80000000u}, {0x7f800000u, 0x3f800000u},
                                 {0x7fc00000u, 0x3f800000u}, {0x00000001u, 0x3f800000u}};
    const int nc = 8;
    std::vector<unsigned> ca(nc), cb(nc);
    for (int i = 0; i < nc; ++i) ca[i] = cases[i][0], cb[i] = cases[i][1];
    CHECK(cudaMemcpy(da, ca.data(), nc * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, cb.data(), nc * 4, cudaMemcpyHostToDevice));
    div_probe<<<nc, 32, kAlone>>>(da, db, dc, dq, nc);
    CHECK(cudaDeviceSynchronize());
    std::vector<unsigned> cc(nc);
    CHECK(cudaMemcpy(cc.data(), dc, nc * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < nc; ++i) std::printf("div case %08x / %08x: %u cycles\n", ca[i], cb[i], cc[i]);
    return 0;
}
