// The latency of one warp's dependent global load whose 32 lanes touch k distinct sectors (k = 1..32), from the
// L1 and from the L2, and the SM clock under a full-GPU load. CUDA events and clock64().
//   chase  one warp: p = a[p + (lane % k) * stride], `steps` times. Every one of the k words of a node holds the
//          next node, so p stays the same in all lanes. stride 32 words (128 B): k sectors in k distinct lines;
//          stride 8 words (32 B): k sectors packed four to a line (k/4 lines). Nodes of max(k * stride, 32) words
//          follow one another `hop` nodes apart over the footprint. Prints
//            chase layout k footprint_bytes steps cycles_per_step
//          (median of 11 launches after 2 warm-ups; the L2 keeps the footprint between launches).
//   chase_z the same walk over zeros (scatter_chase_z: p += a[p + off] + hop, wrapped), timed with CUDA events:
//            chase_z layout k footprint_bytes steps hop_words n_words median_us
//   clock  every SM busy for about a second: an FMA loop (burn_fma) and a streaming copy (burn_mem); each block's
//          first thread reads clock64() and %globaltimer at its start and end. Prints
//            clock kind launch blocks seconds median_mhz min_mhz max_mhz
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cuda_check.h"

extern "C" __global__ void scatter_chase(const int* a, int* end, long long* cycles, int steps, int k, int stride) {
    const int off = (threadIdx.x % k) * stride;
    int p = 0;
    long long t0 = clock64();
    for (int s = 0; s < steps; ++s) p = a[p + off];
    long long t1 = clock64();
    end[threadIdx.x] = p;
    if (threadIdx.x == 0) cycles[0] = t1 - t0;
}

// The same walk over a buffer of zeros, for launch specs ("init": "zero"): the next node is p + v + hop, v the
// loaded word (0), so every load still waits for the previous one.
extern "C" __global__ void scatter_chase_z(const int* a, int* end, int steps, int k, int stride, int hop_words,
                                           int n_words) {
    const int off = (threadIdx.x % k) * stride;
    int p = 0;
    for (int s = 0; s < steps; ++s) {
        p += a[p + off] + hop_words;
        if (p >= n_words) p -= n_words;
    }
    end[threadIdx.x] = p;
}

extern "C" __global__ void scatter_init(int* a, long long nodes, long long node_words, long long hop, int k,
                                        int stride) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < nodes;
         i += (long long)blockDim.x * gridDim.x) {
        const int next = int(((i + hop) % nodes) * node_words);
        for (int j = 0; j < k; ++j) a[i * node_words + j * stride] = next;
    }
}

__device__ __forceinline__ unsigned long long globaltimer() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

extern "C" __global__ void burn_fma(float* out, long long iters, long long* clk, unsigned long long* ns) {
    unsigned long long g0 = globaltimer();
    long long c0 = clock64();
    float x = threadIdx.x * 1e-3f, y = 1.0f, z = 0.5f, w = 0.25f;
    for (long long i = 0; i < iters; ++i) {
        x = fmaf(x, 0.999f, 1e-4f);
        y = fmaf(y, 0.998f, 2e-4f);
        z = fmaf(z, 0.997f, 3e-4f);
        w = fmaf(w, 0.996f, 4e-4f);
    }
    long long c1 = clock64();
    unsigned long long g1 = globaltimer();
    out[blockIdx.x * blockDim.x + threadIdx.x] = x + y + z + w;
    if (threadIdx.x == 0) clk[blockIdx.x] = c1 - c0, ns[blockIdx.x] = g1 - g0;
}

extern "C" __global__ void burn_mem(const float4* in, float4* out, long long n, int reps, long long* clk,
                                    unsigned long long* ns) {
    unsigned long long g0 = globaltimer();
    long long c0 = clock64();
    for (int r = 0; r < reps; ++r)
        for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
             i += (long long)blockDim.x * gridDim.x) {
            float4 v = in[i];
            v.x += 1.0f;
            out[i] = v;
        }
    long long c1 = clock64();
    unsigned long long g1 = globaltimer();
    if (threadIdx.x == 0) clk[blockIdx.x] = c1 - c0, ns[blockIdx.x] = g1 - g0;
}

static void report_clock(const char* kind, int launch, int blocks, float ms, const long long* clk,
                         const unsigned long long* ns) {
    std::vector<double> mhz;
    for (int b = 0; b < blocks; ++b)
        if (ns[b] > 0) mhz.push_back(double(clk[b]) / double(ns[b]) * 1000.0);
    std::sort(mhz.begin(), mhz.end());
    std::printf("clock %s %d %d %.3f %.1f %.1f %.1f\n", kind, launch, blocks, ms / 1000.0, mhz[mhz.size() / 2],
                mhz.front(), mhz.back());
    std::fflush(stdout);
}

int main() {
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));

    // Pointer chases.
    const long long max_bytes = 64ll << 20;
    int* a;
    int* end;
    long long* cycles;
    CHECK(cudaMalloc(&a, max_bytes));
    CHECK(cudaMalloc(&end, 32 * sizeof(int)));
    CHECK(cudaMalloc(&cycles, sizeof(long long)));
    const int steps = 4096;
    const int ks[] = {1, 2, 4, 8, 16, 32};
    const int strides[] = {32, 8};
    const long long footprints[] = {48ll << 10, 4ll << 20, 16ll << 20};
    for (long long fp : footprints)
        for (int stride : strides)
            for (int k : ks) {
                if (stride == 8 && k == 1) continue;  // the same as stride 32
                const long long node_words = std::max<long long>(32, (long long)k * stride);
                const long long nodes = fp / 4 / node_words;
                long long hop = nodes / 2 + 1;
                while (hop > 1 && (nodes % hop == 0 || (hop % 2 == 0 && nodes % 2 == 0))) --hop;
                // hop coprime with nodes: a full cycle (nodes is a power of two here, hop odd).
                CHECK(cudaMemset(a, 0, fp));
                scatter_init<<<256, 256>>>(a, nodes, node_words, hop, k, stride);
                CHECK(cudaGetLastError());
                std::vector<long long> c;
                for (int r = 0; r < 13; ++r) {
                    scatter_chase<<<1, 32>>>(a, end, cycles, steps, k, stride);
                    CHECK(cudaGetLastError());
                    long long h;
                    CHECK(cudaMemcpy(&h, cycles, sizeof h, cudaMemcpyDeviceToHost));
                    if (r >= 2) c.push_back(h);
                }
                std::sort(c.begin(), c.end());
                std::printf("chase %s %d %lld %d %.1f\n", stride == 32 ? "lines" : "sectors", k, fp, steps,
                            double(c[c.size() / 2]) / steps);
                CHECK(cudaMemset(a, 0, fp));
                std::vector<float> t;
                const int hop_words = int(hop * node_words), n_words = int(nodes * node_words);
                for (int r = 0; r < 13; ++r) {
                    CHECK(cudaEventRecord(e0));
                    scatter_chase_z<<<1, 32>>>(a, end, steps, k, stride, hop_words, n_words);
                    CHECK(cudaEventRecord(e1));
                    CHECK(cudaEventSynchronize(e1));
                    float ms;
                    CHECK(cudaEventElapsedTime(&ms, e0, e1));
                    if (r >= 2) t.push_back(ms * 1000.0f);
                }
                std::sort(t.begin(), t.end());
                std::printf("chase_z %s %d %lld %d %d %d %.3f\n", stride == 32 ? "lines" : "sectors", k, fp, steps,
                            hop_words, n_words, t[t.size() / 2]);
                std::fflush(stdout);
            }

    // Clock under load.
    const int blocks = sms * 8, threads = 256;
    float* out;
    long long* clk;
    unsigned long long* ns;
    CHECK(cudaMalloc(&out, sizeof(float) * blocks * threads));
    CHECK(cudaMalloc(&clk, sizeof(long long) * blocks));
    CHECK(cudaMalloc(&ns, sizeof(unsigned long long) * blocks));
    std::vector<long long> hclk(blocks);
    std::vector<unsigned long long> hns(blocks);
    long long iters = 1 << 16;
    for (int launch = 0; launch < 6; ++launch) {
        CHECK(cudaEventRecord(e0));
        burn_fma<<<blocks, threads>>>(out, iters, clk, ns);
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        CHECK(cudaMemcpy(hclk.data(), clk, sizeof(long long) * blocks, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(hns.data(), ns, sizeof(unsigned long long) * blocks, cudaMemcpyDeviceToHost));
        report_clock("fma", launch, blocks, ms, hclk.data(), hns.data());
        if (ms < 800.0f) iters = (long long)(iters * std::min(64.0, 1000.0 / std::max(ms, 0.01f)));
    }
    const long long n4 = (256ll << 20) / 16;  // 256 MiB in, 256 MiB out
    float4 *in4, *out4;
    CHECK(cudaMalloc(&in4, n4 * 16));
    CHECK(cudaMalloc(&out4, n4 * 16));
    CHECK(cudaMemset(in4, 0, n4 * 16));
    int reps = 1;
    for (int launch = 0; launch < 4; ++launch) {
        CHECK(cudaEventRecord(e0));
        burn_mem<<<blocks, threads>>>(in4, out4, n4, reps, clk, ns);
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        CHECK(cudaMemcpy(hclk.data(), clk, sizeof(long long) * blocks, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(hns.data(), ns, sizeof(unsigned long long) * blocks, cudaMemcpyDeviceToHost));
        report_clock("mem", launch, blocks, ms, hclk.data(), hns.data());
        if (ms < 800.0f) reps = std::max(1, int(reps * std::min(64.0, 1000.0 / std::max(ms, 0.01f))));
    }
    return 0;
}
