// Cooperative groups: thread_block, tiled_partition<16> with tile.shfl_down, cg::reduce,
// tile votes, and coalesced_threads() inside a branch.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cg_tile_reduce(const int* in, int* out, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    int s = v;
    for (int off = tile.size() / 2; off > 0; off /= 2) s += tile.shfl_down(s, off);
    int r = cg::reduce(tile, v, cg::plus<int>());
    int m = cg::reduce(tile, v, cg::greater<int>());
    if (tile.thread_rank() == 0 && i < n) {
        int t = i / 16;
        out[3 * t + 0] = s;
        out[3 * t + 1] = r;
        out[3 * t + 2] = m;
    }
}

extern "C" __global__ void cg_block_and_votes(const int* in, unsigned* out, int n) {
    __shared__ int stage[256];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    stage[block.thread_rank()] = v;
    block.sync();
    int neighbour = stage[(block.thread_rank() + 1) % block.size()];
    unsigned ballot = warp.ballot(neighbour & 1);
    int any8 = tile8.any(v % 5 == 0);
    int all8 = tile8.all(v >= 0);
    int from0 = tile8.shfl(v, 0);
    if (i < n) {
        out[4 * i + 0] = (unsigned)neighbour;
        out[4 * i + 1] = ballot;
        out[4 * i + 2] = (unsigned)(any8 | (all8 << 1));
        out[4 * i + 3] = (unsigned)from0 + tile8.meta_group_rank() * 1000u;
    }
}

extern "C" __global__ void cg_coalesced(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    int r = -1;
    if (v % 3 == 0) {                                  // divergent branch
        cg::coalesced_group active = cg::coalesced_threads();
        int leader_value = active.shfl(v, 0);
        r = (int)active.size() * 10000 + (int)active.thread_rank() * 100 + (leader_value & 63);
    }
    if (i < n) out[i] = r;
}
