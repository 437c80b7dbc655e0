// CUB's block- and warp-wide primitives in kernels of one's own (BlockReduce, BlockScan, WarpReduce,
// BlockRadixSort, BlockLoad/BlockStore), then device-wide calls with the two-phase temporary-storage protocol
// (DeviceHistogram::HistogramEven, DeviceSegmentedReduce::Sum, DeviceRunLengthEncode::Encode), each result
// checked on the host.
#include <cub/cub.cuh>

#include <algorithm>
#include <numeric>
#include <vector>

#include "common.h"

constexpr int kThreads = 128, kItems = 4;

struct max_op {
    __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

__global__ void block_primitives(const int* in, int* block_sums, int* scanned, int* warp_maxes, int* sorted) {
    using Load = cub::BlockLoad<int, kThreads, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using Store = cub::BlockStore<int, kThreads, kItems, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    using Reduce = cub::BlockReduce<int, kThreads>;
    using Scan = cub::BlockScan<int, kThreads>;
    using WarpReduce = cub::WarpReduce<int>;
    using Sort = cub::BlockRadixSort<int, kThreads, kItems>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
        typename Reduce::TempStorage reduce;
        typename Scan::TempStorage scan;
        typename WarpReduce::TempStorage warp[kThreads / 32];
        typename Sort::TempStorage sort;
    } tmp;
    const int tile = blockIdx.x * kThreads * kItems;
    int v[kItems];
    Load(tmp.load).Load(in + tile, v);
    __syncthreads();
    int total = Reduce(tmp.reduce).Sum(v);
    if (threadIdx.x == 0) block_sums[blockIdx.x] = total;
    __syncthreads();
    int x[kItems];
    Scan(tmp.scan).ExclusiveSum(v, x);
    __syncthreads();
    Store(tmp.store).Store(scanned + tile, x);
    __syncthreads();
    int m = v[0];
    for (int i = 1; i < kItems; ++i) m = max(m, v[i]);
    int wm = WarpReduce(tmp.warp[threadIdx.x / 32]).Reduce(m, max_op());
    if (threadIdx.x % 32 == 0) warp_maxes[blockIdx.x * (kThreads / 32) + threadIdx.x / 32] = wm;
    __syncthreads();
    Sort(tmp.sort).SortBlockedToStriped(v);
    for (int i = 0; i < kItems; ++i) sorted[tile + i * kThreads + threadIdx.x] = v[i];
}

int main() {
    const int blocks = 16, tile = kThreads * kItems, n = blocks * tile;
    std::vector<int> h(n);
    unsigned s = 2024;
    for (int& v : h) {
        s = s * 1103515245u + 12345u;
        v = static_cast<int>((s >> 8) % 1000);
    }
    int *in, *sums, *scanned, *maxes, *sorted;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&sums, blocks * sizeof(int)));
    CHECK(cudaMalloc(&scanned, n * sizeof(int)));
    CHECK(cudaMalloc(&maxes, blocks * (kThreads / 32) * sizeof(int)));
    CHECK(cudaMalloc(&sorted, n * sizeof(int)));
    CHECK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    block_primitives<<<blocks, kThreads>>>(in, sums, scanned, maxes, sorted);
    CHECK_LAUNCH();
    std::vector<int> gs(blocks), gx(n), gm(blocks * (kThreads / 32)), gsort(n);
    CHECK(cudaMemcpy(gs.data(), sums, gs.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(gx.data(), scanned, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(gm.data(), maxes, gm.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(gsort.data(), sorted, n * sizeof(int), cudaMemcpyDeviceToHost));
    int bad_sum = 0, bad_scan = 0, bad_max = 0, bad_sort = 0;
    for (int b = 0; b < blocks; ++b) {
        const int* t = h.data() + b * tile;
        bad_sum += gs[b] != std::accumulate(t, t + tile, 0);
        int run = 0;
        for (int i = 0; i < tile; ++i) {
            bad_scan += gx[b * tile + i] != run;
            run += t[i];
        }
        for (int w = 0; w < kThreads / 32; ++w) {   // warp w holds items [w*32*kItems, (w+1)*32*kItems)
            const int* wt = t + w * 32 * kItems;
            bad_max += gm[b * (kThreads / 32) + w] != *std::max_element(wt, wt + 32 * kItems);
        }
        std::vector<int> st(t, t + tile);
        std::sort(st.begin(), st.end());
        for (int i = 0; i < tile; ++i) bad_sort += gsort[b * tile + i] != st[i];
    }
    printf("block sums %d wrong, scans %d wrong, warp maxima %d wrong, sorted tiles %d wrong\n", bad_sum, bad_scan,
           bad_max, bad_sort);

    // Device-wide: a histogram of 10 bins over [0, 1000), per-tile sums as a segmented reduction, and the
    // run-length encoding of the sorted tiles.
    int *hist, *seg_sums, *offsets, *uniq, *counts, *runs;
    CHECK(cudaMalloc(&hist, 10 * sizeof(int)));
    CHECK(cudaMalloc(&seg_sums, blocks * sizeof(int)));
    CHECK(cudaMalloc(&offsets, (blocks + 1) * sizeof(int)));
    CHECK(cudaMalloc(&uniq, n * sizeof(int)));
    CHECK(cudaMalloc(&counts, n * sizeof(int)));
    CHECK(cudaMalloc(&runs, sizeof(int)));
    std::vector<int> hoff(blocks + 1);
    for (int b = 0; b <= blocks; ++b) hoff[b] = b * tile;
    CHECK(cudaMemcpy(offsets, hoff.data(), hoff.size() * sizeof(int), cudaMemcpyHostToDevice));
    size_t bytes_hist = 0, bytes_seg = 0, bytes_rle = 0;
    CHECK(cub::DeviceHistogram::HistogramEven(nullptr, bytes_hist, in, hist, 11, 0, 1000, n));
    CHECK(cub::DeviceSegmentedReduce::Sum(nullptr, bytes_seg, in, seg_sums, blocks, offsets, offsets + 1));
    CHECK(cub::DeviceRunLengthEncode::Encode(nullptr, bytes_rle, sorted, uniq, counts, runs, n));
    void* temp;
    const size_t bytes = std::max({bytes_hist, bytes_seg, bytes_rle});
    CHECK(cudaMalloc(&temp, bytes));
    CHECK(cub::DeviceHistogram::HistogramEven(temp, bytes_hist, in, hist, 11, 0, 1000, n));
    CHECK(cub::DeviceSegmentedReduce::Sum(temp, bytes_seg, in, seg_sums, blocks, offsets, offsets + 1));
    CHECK(cub::DeviceRunLengthEncode::Encode(temp, bytes_rle, sorted, uniq, counts, runs, n));
    CHECK(cudaDeviceSynchronize());
    std::vector<int> ghist(10), gseg(blocks), hh(10, 0);
    int gruns = 0;
    CHECK(cudaMemcpy(ghist.data(), hist, 10 * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(gseg.data(), seg_sums, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&gruns, runs, sizeof(int), cudaMemcpyDeviceToHost));
    for (int v : h) ++hh[v / 100];
    int hruns = 0;
    for (int i = 0; i < n; ++i) hruns += i == 0 || gsort[i] != gsort[i - 1];
    printf("histogram bin 0 %d, bin 9 %d, %s\n", ghist[0], ghist[9], ghist == hh ? "ok" : "WRONG");
    printf("segmented sums %s, runs %d (host %d)\n", gseg == gs ? "ok" : "WRONG", gruns, hruns);
    const bool ok = !bad_sum && !bad_scan && !bad_max && !bad_sort && ghist == hh && gseg == gs && gruns == hruns;
    return finish(ok);
}
