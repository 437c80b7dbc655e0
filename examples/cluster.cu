// Thread block clusters (Hopper): two blocks co-scheduled on one GPC read each other's shared
// memory (distributed shared memory). Each block writes its partner's slice: out swaps pairs of
// blocks. Launch with a grid that is a multiple of 2 and blockDim.x * 4 dynamic shared bytes.
#include <cooperative_groups.h>

__global__ void __cluster_dims__(2, 1, 1) cluster_swap(const float* input, float* output) {
    namespace cg = cooperative_groups;
    cg::cluster_group cluster = cg::this_cluster();

    extern __shared__ float smem[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    smem[threadIdx.x] = input[i];

    cluster.sync();                     // every peer exists and its SMEM is initialized
    float* peer = cluster.map_shared_rank(smem, cluster.block_rank() ^ 1);
    float v = peer[threadIdx.x];        // ~180 cycles, no L2 round trip
    output[i] = v;
    cluster.sync();                     // no block exits while a peer still reads its SMEM
}
