// Graph memory, each line's expected value following from the CUDA runtime API's documentation
// (tests/runtime/exec_programs.sh holds them): allocation and free nodes added by hand, through
// cudaGraphAddNode and by cudaMallocAsync/cudaFreeAsync in a capture; an allocation's address fixed across
// launches; a relaunch with the last allocation unfreed refused unless instantiated with
// cudaGraphInstantiateFlagAutoFreeOnLaunch; the restrictions on graphs with memory nodes; instantiation flags.
#include <cstdio>
#include <cuda_runtime.h>

#include "check_call.h"

__global__ void twice_index(float* p) { p[threadIdx.x] = 2.0f * threadIdx.x; }

static cudaError_t launch_and_wait(cudaGraphExec_t exec, cudaStream_t s) {
    cudaError_t e = cudaGraphLaunch(exec, s);
    return e == cudaSuccess ? cudaStreamSynchronize(s) : e;
}

static cudaMemAllocNodeParams alloc_params(size_t bytes) {
    cudaMemAllocNodeParams p = {};
    p.poolProps.allocType = cudaMemAllocationTypePinned;
    p.poolProps.location.type = cudaMemLocationTypeDevice;
    p.poolProps.location.id = 0;
    p.bytesize = bytes;
    return p;
}

int main() {
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    float h[64];

    // 1. alloc -> kernel -> copy to h -> free, launched twice.
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams ap = alloc_params(64 * sizeof(float));
    cudaGraphNode_t alloc, kernel, down, free_node;
    CHECK(cudaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap));
    float* p = static_cast<float*>(ap.dptr);
    void* args[] = {&p};
    cudaKernelNodeParams kp = {};
    kp.func = reinterpret_cast<void*>(twice_index);
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(64);
    kp.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&kernel, g, &alloc, 1, &kp));
    CHECK(cudaGraphAddMemcpyNode1D(&down, g, &kernel, 1, h, p, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaGraphAddMemFreeNode(&free_node, g, &down, 1, p));
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(launch_and_wait(exec, s));
    h[5] = 0.0f;
    CHECK(launch_and_wait(exec, s));
    cudaMemAllocNodeParams back = {};
    CHECK(cudaGraphMemAllocNodeGetParams(alloc, &back));
    void* freed = nullptr;
    CHECK(cudaGraphMemFreeNodeGetParams(free_node, &freed));
    cudaGraphNodeType ta, tf;
    CHECK(cudaGraphNodeGetType(alloc, &ta));
    CHECK(cudaGraphNodeGetType(free_node, &tf));
    printf("alloc and free nodes: types %d %d, two launches h[5] %g, size %zu, device location %s, the free node "
           "frees it %s\n",
           int(ta), int(tf), h[5], back.bytesize, back.poolProps.location.type == cudaMemLocationTypeDevice ? "yes" : "no",
           back.dptr == p && freed == p ? "yes" : "no");

    // 2. What a graph with memory nodes refuses: a second instantiation, a clone, a child node, deleting a
    // node or an edge; a free node twice for one allocation, or for memory cudaMalloc gave.
    cudaGraphExec_t second;
    cudaGraph_t copy, parent;
    cudaGraphNode_t child, bad;
    CHECK(cudaGraphCreate(&parent, 0));
    float* plain;
    CHECK(cudaMalloc(&plain, 64));
    printf("refused: second instantiation %s, clone %s, child %s, destroy node %s, remove edge %s\n",
           cudaGetErrorName(cudaGraphInstantiate(&second, g, 0)), cudaGetErrorName(cudaGraphClone(&copy, g)),
           cudaGetErrorName(cudaGraphAddChildGraphNode(&child, parent, nullptr, 0, g)),
           cudaGetErrorName(cudaGraphDestroyNode(kernel)),
           cudaGetErrorName(cudaGraphRemoveDependencies(g, &kernel, &down, nullptr, 1)));
    printf("refused free nodes: the same allocation again %s, cudaMalloc's memory %s\n",
           cudaGetErrorName(cudaGraphAddMemFreeNode(&bad, g, nullptr, 0, p)),
           cudaGetErrorName(cudaGraphAddMemFreeNode(&bad, parent, nullptr, 0, plain)));
    cudaGetLastError();
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(parent));
    CHECK(cudaGraphDestroy(g));

    // 3. An allocation the graph does not free: the relaunch fails until it is freed; with
    // cudaGraphInstantiateFlagAutoFreeOnLaunch each launch frees it first.
    CHECK(cudaGraphCreate(&g, 0));
    ap = alloc_params(64 * sizeof(float));
    CHECK(cudaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap));
    p = static_cast<float*>(ap.dptr);
    CHECK(cudaGraphAddKernelNode(&kernel, g, &alloc, 1, &kp));
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    const cudaError_t first = launch_and_wait(exec, s);
    CHECK(cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost));  // live after the launch
    const cudaError_t relaunch = cudaGraphLaunch(exec, s);
    cudaGetLastError();
    CHECK(cudaFree(p));
    const cudaError_t after_free = launch_and_wait(exec, s);
    printf("unfreed: first launch %s, h[63] %g, relaunch %s, after cudaFree %s\n", cudaGetErrorName(first), h[63],
           cudaGetErrorName(relaunch), cudaGetErrorName(after_free));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphInstantiateWithFlags(&exec, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    const cudaError_t auto1 = launch_and_wait(exec, s);  // frees the last launch's allocation first
    const cudaError_t auto2 = launch_and_wait(exec, s);
    unsigned long long flags = 0;
    CHECK(cudaGraphExecGetFlags(exec, &flags));
    printf("auto free on launch: %s %s, flags %llu\n", cudaGetErrorName(auto1), cudaGetErrorName(auto2), flags);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaFreeAsync(p, s));
    CHECK(cudaStreamSynchronize(s));

    // 4. Instantiation flags: device launch is not simulated; it cannot go with auto free; a bit no flag
    // has is refused; upload and node priority are accepted.
    printf("flags: device launch %s, with auto free %s, bit 16 %s\n",
           cudaGetErrorName(cudaGraphInstantiateWithFlags(&exec, g, cudaGraphInstantiateFlagDeviceLaunch)),
           cudaGetErrorName(cudaGraphInstantiateWithFlags(
               &exec, g, cudaGraphInstantiateFlagDeviceLaunch | cudaGraphInstantiateFlagAutoFreeOnLaunch)),
           cudaGetErrorName(cudaGraphInstantiateWithFlags(&exec, g, 16)));
    cudaGetLastError();
    cudaGraphInstantiateParams ip = {};
    ip.flags = cudaGraphInstantiateFlagUpload | cudaGraphInstantiateFlagUseNodePriority;
    ip.uploadStream = s;
    CHECK(cudaGraphInstantiateWithParams(&exec, g, &ip));
    CHECK(cudaGraphExecGetFlags(exec, &flags));
    printf("upload and node priority: result %d, flags %llu\n", int(ip.result_out), flags);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));

    // 5. Captured: cudaMallocAsync and cudaFreeAsync become allocation and free nodes.
    float* q = nullptr;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaMallocAsync(reinterpret_cast<void**>(&q), 64 * sizeof(float), s));
    twice_index<<<1, 64, 0, s>>>(q);
    CHECK(cudaMemcpyAsync(h, q, sizeof h, cudaMemcpyDeviceToHost, s));
    CHECK(cudaFreeAsync(q, s));
    CHECK(cudaStreamEndCapture(s, &g));
    size_t n = 0;
    CHECK(cudaGraphGetNodes(g, nullptr, &n));
    cudaGraphNode_t nodes[4] = {};
    CHECK(cudaGraphGetNodes(g, nodes, &n));
    int types[4] = {-1, -1, -1, -1};
    for (size_t i = 0; i < n && i < 4; ++i) {
        cudaGraphNodeType t;
        CHECK(cudaGraphNodeGetType(nodes[i], &t));
        types[i] = int(t);
    }
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    h[10] = 0.0f;
    CHECK(launch_and_wait(exec, s));
    const float once = h[10];
    h[10] = 0.0f;
    CHECK(launch_and_wait(exec, s));
    printf("captured: %zu nodes of types %d %d %d %d, h[10] %g and %g\n", n, types[0], types[1], types[2], types[3],
           once, h[10]);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));

    // 6. Through cudaGraphAddNode: the allocation's address comes back in the union.
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNodeParams np = {};
    np.type = cudaGraphNodeTypeMemAlloc;
    np.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
    np.alloc.poolProps.location.type = cudaMemLocationTypeDevice;
    np.alloc.bytesize = 256;
    CHECK(cudaGraphAddNode(&alloc, g, nullptr, nullptr, 0, &np));
    void* got = np.alloc.dptr;
    np = {};
    np.type = cudaGraphNodeTypeMemFree;
    np.free.dptr = got;
    CHECK(cudaGraphAddNode(&free_node, g, &alloc, nullptr, 1, &np));
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(launch_and_wait(exec, s));
    CHECK(launch_and_wait(exec, s));
    printf("cudaGraphAddNode: an address %s, two launches fine\n", got ? "yes" : "no");
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));

    CHECK(cudaFree(plain));
    CHECK(cudaStreamDestroy(s));
    printf("done\n");
    return 0;
}
