// Cooperative groups: reductions over thread-block tiles of 32 and of 128 threads (tiles larger than a
// warp keep their scratch in the block's reserved shared memory), and a grid-stride sum with tile sync.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// Each 32-thread tile reduces with cg::reduce; tile leaders add into one global total (integer).
__global__ void cg_reduce_tile32(const int* in, int* total, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int v = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
    v = cg::reduce(tile, v, cg::plus<int>());
    if (tile.thread_rank() == 0) atomicAdd(total, v);
}

// The same with 128-thread tiles: four warps per tile, one partial per tile.
__global__ void cg_reduce_tile128(const int* in, int* partial, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<128> tile = cg::tiled_partition<128>(block);
    int v = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
    v = cg::reduce(tile, v, cg::plus<int>());
    if (tile.thread_rank() == 0) partial[blockIdx.x * (blockDim.x / 128) + tile.meta_group_rank()] = v;
}
