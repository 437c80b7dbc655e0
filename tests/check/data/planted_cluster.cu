// Planted bugs for `warpsim check` in thread-block clusters (sm_90): distributed shared memory between the two
// CTAs of a cluster. Line numbers are part of the tests.
// Regenerate the PTX with: nvcc -ptx -arch=sm_90 -lineinfo planted_cluster.cu -o planted_cluster.ptx
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// racecheck: each CTA writes its partner's buf through distributed shared memory, then reads its own buf with
// no cluster barrier between: the partner's write races with the read (which may see -1 or the partner's value).
extern "C" __global__ void __cluster_dims__(2, 1, 1) dsmem_exchange_nosync(const int* in, int* out) {
    __shared__ int buf[64];
    cg::cluster_group cluster = cg::this_cluster();
    int* partner = cluster.map_shared_rank(buf, cluster.block_rank() ^ 1);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = -1;
    cluster.sync();  // both CTAs run and have set their own buf
    partner[threadIdx.x] = in[i];
    out[i] = buf[threadIdx.x];
    cluster.sync();  // no CTA exits while its partner may still write its buf
}

// The same exchange with the cluster barrier between the partner's write and the read: correct.
extern "C" __global__ void __cluster_dims__(2, 1, 1) dsmem_exchange(const int* in, int* out) {
    __shared__ int buf[64];
    cg::cluster_group cluster = cg::this_cluster();
    int* partner = cluster.map_shared_rank(buf, cluster.block_rank() ^ 1);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = -1;
    cluster.sync();  // both CTAs run and have set their own buf
    partner[threadIdx.x] = in[i];
    cluster.sync();  // the partner's writes are done and visible
    out[i] = buf[threadIdx.x];
}
