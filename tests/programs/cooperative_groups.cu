// Cooperative groups: thread_block sync, tiled_partition<32> with cg::reduce, a coalesced group of the
// active lanes, and a grid-wide barrier (grid.sync) in a cooperative launch sized from the occupancy API.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <vector>
#include "common.h"

namespace cg = cooperative_groups;

__global__ void block_and_tile_sums(const int* in, int* block_sums, int* tile_sums, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int tile_sum = cg::reduce(tile, v, cg::plus<int>());
    __shared__ int partial[32];
    if (tile.thread_rank() == 0) {
        partial[tile.meta_group_rank()] = tile_sum;
        tile_sums[blockIdx.x * tile.meta_group_size() + tile.meta_group_rank()] = tile_sum;
    }
    block.sync();
    if (block.thread_rank() == 0) {
        int s = 0;
        for (unsigned w = 0; w < tile.meta_group_size(); ++w) s += partial[w];
        block_sums[blockIdx.x] = s;
    }
}

// Lanes with odd values form a coalesced group; each group's leader counts its members.
__global__ void odd_lanes(const int* in, int* counts) {
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (v & 1) {
        cg::coalesced_group active = cg::coalesced_threads();
        if (active.thread_rank() == 0) atomicAdd(&counts[blockIdx.x], (int)active.size());
    }
}

// Two phases separated by a grid-wide barrier: every block's phase-2 reads phase-1 results of all blocks.
__global__ void two_phase(int* data, int* out, int n) {
    cg::grid_group grid = cg::this_grid();
    for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] = i % 17;
    grid.sync();
    for (int i = grid.thread_rank(); i < n; i += grid.size()) out[i] = data[n - 1 - i] + data[i];
}

int main() {
    int coop = 0;
    CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
    printf("cooperativeLaunch: %d\n", coop);
    const int n = 1 << 16, threads = 256, blocks = n / threads;
    std::vector<int> h(n);
    for (int i = 0; i < n; ++i) h[i] = (i * 13) % 29 - 14;
    int *in, *bsums, *tsums, *counts;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&bsums, blocks * sizeof(int)));
    CHECK(cudaMalloc(&tsums, n / 32 * sizeof(int)));
    CHECK(cudaMalloc(&counts, blocks * sizeof(int)));
    CHECK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    block_and_tile_sums<<<blocks, threads>>>(in, bsums, tsums, n);
    CHECK_LAUNCH();
    std::vector<int> b(blocks), t(n / 32);
    CHECK(cudaMemcpy(b.data(), bsums, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(t.data(), tsums, n / 32 * sizeof(int), cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int k = 0; k < blocks; ++k) {
        int s = 0;
        for (int j = 0; j < threads; ++j) s += h[k * threads + j];
        wrong += b[k] != s;
    }
    for (int k = 0; k < n / 32; ++k) {
        int s = 0;
        for (int j = 0; j < 32; ++j) s += h[k * 32 + j];
        wrong += t[k] != s;
    }
    printf("block and tile sums: block[0] = %d, tile[1] = %d, %d wrong\n", b[0], t[1], wrong);

    CHECK(cudaMemset(counts, 0, blocks * sizeof(int)));
    odd_lanes<<<blocks, threads>>>(in, counts);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(b.data(), counts, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    int wrong_odd = 0;
    for (int k = 0; k < blocks; ++k) {
        int c = 0;
        for (int j = 0; j < threads; ++j) c += (h[k * threads + j] & 1) != 0;
        wrong_odd += b[k] != c;
    }
    printf("coalesced groups of odd lanes: block[0] has %d, %d wrong\n", b[0], wrong_odd);

    int per_sm = 0, sms = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, two_phase, threads, 0));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int grid_blocks = per_sm * sms;
    const int m = 1 << 20;
    int *data, *out;
    CHECK(cudaMalloc(&data, m * sizeof(int)));
    CHECK(cudaMalloc(&out, m * sizeof(int)));
    int mm = m;
    void* args[] = {&data, &out, &mm};
    CHECK(cudaLaunchCooperativeKernel((void*)two_phase, dim3(grid_blocks), dim3(threads), args, 0, 0));
    CHECK_LAUNCH();
    std::vector<int> o(m);
    CHECK(cudaMemcpy(o.data(), out, m * sizeof(int), cudaMemcpyDeviceToHost));
    int wrong_grid = 0;
    for (int i = 0; i < m; ++i) wrong_grid += o[i] != (m - 1 - i) % 17 + i % 17;
    printf("grid.sync over %d blocks (%d per SM x %d SMs): %d wrong\n", grid_blocks, per_sm, sms, wrong_grid);
    CHECK(cudaFree(in));
    CHECK(cudaFree(bsums));
    CHECK(cudaFree(tsums));
    CHECK(cudaFree(counts));
    CHECK(cudaFree(data));
    CHECK(cudaFree(out));
    return finish(coop == 1 && wrong == 0 && wrong_odd == 0 && wrong_grid == 0);
}
