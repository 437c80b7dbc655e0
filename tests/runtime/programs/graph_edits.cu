// Graph calls that change a graph's shape or an instantiated graph's behaviour, each printing one line whose
// expected value follows from the CUDA runtime API's documentation (tests/runtime/exec_programs.sh holds it):
// nodes disabled and enabled again in an instantiated graph, nodes added and changed through the tagged
// union cudaGraphNodeParams, and edges from nodes added after the node that depends on them, with cycles
// refused.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#include "check_call.h"

__global__ void add_const(float* v, float c) { v[threadIdx.x] += c; }

static char order[16];
static int order_len = 0;
static void CUDART_CB append(void* letter) {
    if (order_len < 15) order[order_len++] = *static_cast<const char*>(letter);
}
static int host_calls = 0;
static void CUDART_CB count_call(void*) { ++host_calls; }

static cudaError_t launch_and_wait(cudaGraphExec_t exec, cudaStream_t s) {
    cudaError_t e = cudaGraphLaunch(exec, s);
    return e == cudaSuccess ? cudaStreamSynchronize(s) : e;
}

int main() {
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    float* v;
    CHECK(cudaMalloc(&v, 32 * sizeof(float)));
    float h[32];

    // 1. memset(v, 0) -> v += 1 -> v += 10 -> copy to h, with a host node beside them.
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t ms, k1, k10, down, host;
    cudaMemsetParams zero = {};
    zero.dst = v;
    zero.elementSize = 4;
    zero.width = 32;
    zero.height = 1;
    CHECK(cudaGraphAddMemsetNode(&ms, g, nullptr, 0, &zero));
    float one = 1.0f, ten = 10.0f;
    void* args1[] = {&v, &one};
    void* args10[] = {&v, &ten};
    cudaKernelNodeParams kp = {};
    kp.func = reinterpret_cast<void*>(add_const);
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(32);
    kp.kernelParams = args1;
    CHECK(cudaGraphAddKernelNode(&k1, g, &ms, 1, &kp));
    kp.kernelParams = args10;
    CHECK(cudaGraphAddKernelNode(&k10, g, &k1, 1, &kp));
    CHECK(cudaGraphAddMemcpyNode1D(&down, g, &k10, 1, h, v, sizeof h, cudaMemcpyDeviceToHost));
    cudaHostNodeParams hp = {count_call, nullptr};
    CHECK(cudaGraphAddHostNode(&host, g, nullptr, 0, &hp));
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphNodeSetEnabled(exec, k10, 0));
    unsigned enabled = 7;
    CHECK(cudaGraphNodeGetEnabled(exec, k10, &enabled));
    CHECK(launch_and_wait(exec, s));
    printf("the += 10 kernel disabled: h[0] %g, enabled %u\n", h[0], enabled);
    CHECK(cudaGraphNodeSetEnabled(exec, k10, 1));
    CHECK(cudaGraphNodeGetEnabled(exec, k10, &enabled));
    CHECK(launch_and_wait(exec, s));
    printf("enabled again: h[0] %g, enabled %u\n", h[0], enabled);
    CHECK(cudaGraphNodeSetEnabled(exec, ms, 0));
    CHECK(launch_and_wait(exec, s));
    printf("the memset disabled: h[31] %g\n", h[31]);
    CHECK(cudaGraphNodeSetEnabled(exec, down, 0));
    h[5] = -1.0f;
    CHECK(launch_and_wait(exec, s));
    printf("the copy disabled too: h[5] %g, host node calls %d\n", h[5], host_calls);
    cudaGraphExec_t fresh;
    CHECK(cudaGraphInstantiate(&fresh, g, 0));
    CHECK(cudaGraphNodeGetEnabled(fresh, k10, &enabled));
    const cudaError_t host_refused = cudaGraphNodeSetEnabled(exec, host, 0);
    cudaGetLastError();
    printf("a new instantiation: enabled %u; disabling a host node %s\n", enabled, cudaGetErrorName(host_refused));
    CHECK(cudaGraphExecDestroy(fresh));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));

    // 2. The same kinds of node through cudaGraphAddNode: memset v to 3.0f (4-byte elements), v += 2, copy
    // to h, count a host call.
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNodeParams np = {};
    np.type = cudaGraphNodeTypeMemset;
    np.memset.dst = v;
    np.memset.value = 0x40400000u;  // 3.0f
    np.memset.elementSize = 4;
    np.memset.width = 32;
    np.memset.height = 1;
    cudaGraphNode_t n_ms, n_k, n_cp, n_host;
    CHECK(cudaGraphAddNode(&n_ms, g, nullptr, nullptr, 0, &np));
    float two = 2.0f;
    void* args2[] = {&v, &two};
    np = {};
    np.type = cudaGraphNodeTypeKernel;
    np.kernel.func = reinterpret_cast<void*>(add_const);
    np.kernel.gridDim = dim3(1);
    np.kernel.blockDim = dim3(32);
    np.kernel.kernelParams = args2;
    CHECK(cudaGraphAddNode(&n_k, g, &n_ms, nullptr, 1, &np));
    cudaGraphNodeParams kernel_np = np;
    np = {};
    np.type = cudaGraphNodeTypeMemcpy;
    np.memcpy.copyParams.srcPtr = make_cudaPitchedPtr(v, sizeof h, sizeof h, 1);
    np.memcpy.copyParams.dstPtr = make_cudaPitchedPtr(h, sizeof h, sizeof h, 1);
    np.memcpy.copyParams.extent = make_cudaExtent(sizeof h, 1, 1);
    np.memcpy.copyParams.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaGraphAddNode(&n_cp, g, &n_k, nullptr, 1, &np));
    np = {};
    np.type = cudaGraphNodeTypeHost;
    np.host.fn = count_call;
    CHECK(cudaGraphAddNode(&n_host, g, &n_cp, nullptr, 1, &np));
    cudaGraphNodeType types[4];
    CHECK(cudaGraphNodeGetType(n_ms, &types[0]));
    CHECK(cudaGraphNodeGetType(n_k, &types[1]));
    CHECK(cudaGraphNodeGetType(n_cp, &types[2]));
    CHECK(cudaGraphNodeGetType(n_host, &types[3]));
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    host_calls = 0;
    CHECK(launch_and_wait(exec, s));
    printf("cudaGraphAddNode: types %d %d %d %d, h[31] %g, host calls %d\n", int(types[0]), int(types[1]),
           int(types[2]), int(types[3]), h[31], host_calls);
    np = {};
    np.type = cudaGraphNodeTypeEmpty;
    np.reserved0[1] = 1;
    cudaGraphNode_t bad;
    const cudaError_t reserved = cudaGraphAddNode(&bad, g, nullptr, nullptr, 0, &np);
    np = {};
    np.type = cudaGraphNodeTypeExtSemaphoreSignal;
    const cudaError_t semaphore = cudaGraphAddNode(&bad, g, nullptr, nullptr, 0, &np);
    np = {};
    np.type = static_cast<cudaGraphNodeType>(0x0c);  // no node type has this value
    const cudaError_t unknown = cudaGraphAddNode(&bad, g, nullptr, nullptr, 0, &np);
    cudaGetLastError();
    printf("refused: reserved bytes %s, a semaphore node %s, type 0x0c %s\n", cudaGetErrorName(reserved),
           cudaGetErrorName(semaphore), cudaGetErrorName(unknown));

    // The kernel's constant changed through the union: in the graph (2 -> 4) and in the instantiated graph
    // (-> 6); a union of another type is refused.
    float four = 4.0f, six = 6.0f;
    void* args4[] = {&v, &four};
    void* args6[] = {&v, &six};
    kernel_np.kernel.kernelParams = args6;
    CHECK(cudaGraphExecNodeSetParams(exec, n_k, &kernel_np));
    CHECK(launch_and_wait(exec, s));
    const float after_exec = h[31];
    kernel_np.kernel.kernelParams = args4;
    CHECK(cudaGraphNodeSetParams(n_k, &kernel_np));
    cudaGraphExec_t again;
    CHECK(cudaGraphInstantiate(&again, g, 0));
    CHECK(launch_and_wait(again, s));
    const cudaError_t mismatch = cudaGraphNodeSetParams(n_cp, &kernel_np);
    cudaGetLastError();
    printf("set through the union: exec h[31] %g, graph h[31] %g, a kernel's union on a memcpy node %s\n",
           after_exec, h[31], cudaGetErrorName(mismatch));
    CHECK(cudaGraphExecDestroy(again));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));

    // 3. Edges from nodes added later: A, B, C added in that order with no edges, then A after C and C after
    // B: a launch runs B, C, A.
    CHECK(cudaGraphCreate(&g, 0));
    static const char letters[] = "ABCD";
    cudaGraphNode_t a, b, c, d;
    cudaHostNodeParams pa = {append, const_cast<char*>(&letters[0])};
    cudaHostNodeParams pb = {append, const_cast<char*>(&letters[1])};
    cudaHostNodeParams pc = {append, const_cast<char*>(&letters[2])};
    cudaHostNodeParams pd = {append, const_cast<char*>(&letters[3])};
    CHECK(cudaGraphAddHostNode(&a, g, nullptr, 0, &pa));
    CHECK(cudaGraphAddHostNode(&b, g, nullptr, 0, &pb));
    CHECK(cudaGraphAddHostNode(&c, g, nullptr, 0, &pc));
    cudaGraphNode_t from[] = {c, b}, to[] = {a, c};
    CHECK(cudaGraphAddDependencies(g, from, to, nullptr, 2));
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    order_len = 0;
    CHECK(launch_and_wait(exec, s));
    order[order_len] = '\0';
    cudaGraphNode_t roots[3] = {};
    size_t nroots = 3;
    CHECK(cudaGraphGetRootNodes(g, roots, &nroots));
    printf("later edges: ran %s, %zu root, it is B %s\n", order, nroots, roots[0] == b ? "yes" : "no");
    CHECK(cudaGraphExecDestroy(exec));

    // A cycle is refused: B after A (A is after C, C after B); and a call of two edges whose second closes a
    // cycle (D after A, then B after D) adds neither.
    const cudaError_t cycle = cudaGraphAddDependencies(g, &a, &b, nullptr, 1);
    CHECK(cudaGraphAddHostNode(&d, g, nullptr, 0, &pd));
    cudaGraphNode_t from2[] = {a, d}, to2[] = {d, b};
    const cudaError_t cycle2 = cudaGraphAddDependencies(g, from2, to2, nullptr, 2);
    cudaGetLastError();
    size_t edges = 0;
    CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges));
    printf("cycles: %s, in a pair %s; %zu edges\n", cudaGetErrorName(cycle), cudaGetErrorName(cycle2), edges);

    // A clone keeps the edges: of the roots B and D, B was added first; D runs once nothing added before it
    // is ready.
    cudaGraph_t copy;
    CHECK(cudaGraphClone(&copy, g));
    CHECK(cudaGraphInstantiate(&exec, copy, 0));
    order_len = 0;
    CHECK(launch_and_wait(exec, s));
    order[order_len] = '\0';
    printf("the clone ran %s\n", order);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(copy));
    CHECK(cudaGraphDestroy(g));

    CHECK(cudaFree(v));
    CHECK(cudaStreamDestroy(s));
    printf("done\n");
    return 0;
}
