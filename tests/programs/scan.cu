// Prefix sums: an inclusive Hillis-Steele scan within a block, and an exclusive multi-block scan of a large
// array (block scans, a scan of the block totals, then the totals added back), checked against the host.
#include <vector>
#include "common.h"

constexpr int BLOCK = 512;

__global__ void scan_hillis_steele(const int* in, int* out, int n) {
    __shared__ int buf[2][BLOCK];
    int t = threadIdx.x;
    int cur = 0;
    buf[cur][t] = t < n ? in[t] : 0;
    __syncthreads();
    for (int offset = 1; offset < BLOCK; offset *= 2) {
        int next = 1 - cur;
        buf[next][t] = buf[cur][t] + (t >= offset ? buf[cur][t - offset] : 0);
        __syncthreads();
        cur = next;
    }
    if (t < n) out[t] = buf[cur][t];
}

// Blelloch's work-efficient exclusive scan of 2*BLOCK elements per block; writes the block's total.
__global__ void scan_blelloch(const int* in, int* out, int* block_totals, int n) {
    __shared__ int s[2 * BLOCK];
    int t = threadIdx.x, base = blockIdx.x * 2 * BLOCK;
    s[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0;
    s[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;
    int offset = 1;
    for (int d = BLOCK; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            s[bi] += s[ai];
        }
        offset *= 2;
    }
    if (t == 0) {
        if (block_totals) block_totals[blockIdx.x] = s[2 * BLOCK - 1];
        s[2 * BLOCK - 1] = 0;
    }
    for (int d = 1; d <= BLOCK; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (t < d) {
            int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            int tmp = s[ai];
            s[ai] = s[bi];
            s[bi] += tmp;
        }
    }
    __syncthreads();
    if (base + 2 * t < n) out[base + 2 * t] = s[2 * t];
    if (base + 2 * t + 1 < n) out[base + 2 * t + 1] = s[2 * t + 1];
}

__global__ void add_block_offsets(int* data, const int* offsets, int n) {
    int i = blockIdx.x * 2 * BLOCK + threadIdx.x;
    int add = offsets[blockIdx.x];
    if (i < n) data[i] += add;
    if (i + BLOCK < n) data[i + BLOCK] += add;
}

int main() {
    bool ok = true;
    // Inclusive scan of one block.
    {
        const int n = 500;
        std::vector<int> h(n), got(n);
        for (int i = 0; i < n; ++i) h[i] = i % 13 - 6;
        int *in, *out;
        CHECK(cudaMalloc(&in, n * sizeof(int)));
        CHECK(cudaMalloc(&out, n * sizeof(int)));
        CHECK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
        scan_hillis_steele<<<1, BLOCK>>>(in, out, n);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
        int run = 0, wrong = 0;
        for (int i = 0; i < n; ++i) {
            run += h[i];
            wrong += got[i] != run;
        }
        printf("inclusive scan of %d: last = %d, %d wrong\n", n, got[n - 1], wrong);
        ok = ok && wrong == 0;
        CHECK(cudaFree(in));
        CHECK(cudaFree(out));
    }
    // Exclusive scan of many blocks (the totals of at most 2*BLOCK blocks are scanned by one block).
    {
        const int n = 300000, per_block = 2 * BLOCK, blocks = (n + per_block - 1) / per_block;
        std::vector<int> h(n), got(n);
        for (int i = 0; i < n; ++i) h[i] = (i * 11) % 9;
        int *in, *out, *totals, *offsets;
        CHECK(cudaMalloc(&in, n * sizeof(int)));
        CHECK(cudaMalloc(&out, n * sizeof(int)));
        CHECK(cudaMalloc(&totals, blocks * sizeof(int)));
        CHECK(cudaMalloc(&offsets, blocks * sizeof(int)));
        CHECK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
        scan_blelloch<<<blocks, BLOCK>>>(in, out, totals, n);
        CHECK_LAUNCH();
        scan_blelloch<<<1, BLOCK>>>(totals, offsets, nullptr, blocks);
        CHECK_LAUNCH();
        add_block_offsets<<<blocks, BLOCK>>>(out, offsets, n);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
        long long run = 0;
        int wrong = 0;
        for (int i = 0; i < n; ++i) {
            wrong += got[i] != run;
            run += h[i];
        }
        printf("exclusive scan of %d in %d blocks: last = %d, %d wrong\n", n, blocks, got[n - 1], wrong);
        ok = ok && wrong == 0;
        CHECK(cudaFree(in));
        CHECK(cudaFree(out));
        CHECK(cudaFree(totals));
        CHECK(cudaFree(offsets));
    }
    return finish(ok);
}
