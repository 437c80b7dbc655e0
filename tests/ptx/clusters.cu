// Thread-block clusters (sm_90): cluster special registers, distributed shared memory (mapa, ld/st/atom on
// shared::cluster, generic pointers from map_shared_rank) and barrier.cluster over several phases.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ unsigned sreg_u32(int which) {
    unsigned v = 0;
    switch (which) {
    case 0: asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(v)); break;
    case 1: asm volatile("mov.u32 %0, %%clusterid.y;" : "=r"(v)); break;
    case 2: asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(v)); break;
    case 3: asm volatile("mov.u32 %0, %%nclusterid.y;" : "=r"(v)); break;
    case 4: asm volatile("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(v)); break;
    case 5: asm volatile("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(v)); break;
    case 6: asm volatile("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(v)); break;
    case 7: asm volatile("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(v)); break;
    case 8: asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(v)); break;
    case 9: asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(v)); break;
    default: asm volatile("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(v)); break;
    }
    return v;
}

// Thread 0 of every block writes the eleven cluster registers (launch with or without a cluster shape).
extern "C" __global__ void cluster_ids(unsigned* out) {
    if (threadIdx.x != 0) return;
    const unsigned block = blockIdx.x + blockIdx.y * gridDim.x;
    for (int i = 0; i < 11; ++i) out[block * 11 + i] = sreg_u32(i);
}

// A ring of 4 CTAs: each fills its shared array, then reads its successor's through map_shared_rank (generic
// DSMEM loads), stores into its predecessor's inbox with st.shared::cluster, and adds into rank 0's counter
// with atom.shared::cluster; the arrive/wait pair is split around a fence.
extern "C" __global__ void __cluster_dims__(4, 1, 1) cluster_ring(const int* in, int* out) {
    __shared__ int data[128];
    __shared__ int inbox[4];
    __shared__ int counter;
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    data[threadIdx.x] = in[i] * 3 + static_cast<int>(rank);
    if (threadIdx.x < 4) inbox[threadIdx.x] = -1;
    if (threadIdx.x == 0) counter = 1000 * static_cast<int>(rank);
    cluster.sync();
    const int* next = cluster.map_shared_rank(data, (rank + 1) % 4);
    const int v = next[(threadIdx.x * 5) % 128];
    if (threadIdx.x == 0) {
        unsigned remote;
        const unsigned local = static_cast<unsigned>(__cvta_generic_to_shared(&inbox[rank]));
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"((rank + 3) % 4));
        asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(remote), "r"(static_cast<int>(rank) * 11 + 7) : "memory");
    }
    unsigned counter0;
    asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(counter0) : "r"(static_cast<unsigned>(__cvta_generic_to_shared(&counter))));
    int old;
    asm volatile("atom.shared::cluster.add.u32 %0, [%1], %2;" : "=r"(old) : "r"(counter0), "r"(1) : "memory");
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
    asm volatile("fence.acq_rel.cluster;" ::: "memory");
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    int peer;
    unsigned peer_addr;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(peer_addr) : "r"(static_cast<unsigned>(__cvta_generic_to_shared(&data[threadIdx.x]))), "r"((rank + 2) % 4));
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(peer) : "r"(peer_addr) : "memory");
    out[i] = v + peer;
    if (threadIdx.x < 4) out[gridDim.x * blockDim.x + blockIdx.x * 4 + threadIdx.x] = inbox[threadIdx.x];
    if (threadIdx.x == 0) out[gridDim.x * blockDim.x + gridDim.x * 4 + blockIdx.x] = rank == 0 ? counter : old >= 0;
    cluster.sync();  // no CTA leaves while another still reads its shared memory
}

// Phases of barrier.cluster with early exits: threads 48.. of each block return at once (exited threads do
// not hold the barrier up); the others pass a running sum around the pair four times.
extern "C" __global__ void cluster_phases(int* out) {
    __shared__ int cell[64];
    if (threadIdx.x >= 48) return;
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank();
    int acc = static_cast<int>(threadIdx.x + 100 * blockIdx.x + 1000 * blockIdx.y);
    for (int round = 0; round < 4; ++round) {
        cell[threadIdx.x] = acc;
        cluster.sync();
        const int* other = cluster.map_shared_rank(cell, rank ^ 1);
        acc = acc * 3 + other[(threadIdx.x + round) % 48];
        cluster.sync();
    }
    out[(blockIdx.x + blockIdx.y * gridDim.x) * 48 + threadIdx.x] = acc;
}

// mapa to a CTA rank given at run time (a rank outside the cluster is a bug the simulator reports).
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_bad_rank(int* out, unsigned rank) {
    __shared__ int data[32];
    data[threadIdx.x] = threadIdx.x;
    cg::this_cluster().sync();
    unsigned remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(static_cast<unsigned>(__cvta_generic_to_shared(&data[threadIdx.x]))), "r"(rank));
    int v;
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(remote) : "memory");
    out[blockIdx.x * 32 + threadIdx.x] = v;
    cg::this_cluster().sync();
}
