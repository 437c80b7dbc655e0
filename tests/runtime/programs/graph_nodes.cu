// Graph calls the program corpus does not reach, each printing one line whose expected value follows from
// the CUDA runtime API's documentation (tests/runtime/exec_programs.sh holds it): capture dependencies set by
// hand, external event record and wait nodes in a capture, updates of memcpy, host and child-graph nodes
// in an instantiated graph, changes made through a child node's own graph, clones, root-node lists, edges
// added and removed, nodes destroyed and found in clones, host and memset node parameters, capture into an
// existing graph.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#include "check_call.h"

__global__ void add_const(float* v, float c) { v[threadIdx.x] += c; }

static int calls_a = 0, calls_b = 0;
static void CUDART_CB host_a(void*) { ++calls_a; }
static void CUDART_CB host_b(void*) { ++calls_b; }

static cudaKernelNodeParams add_params(void** args) {
    cudaKernelNodeParams kp = {};
    kp.func = reinterpret_cast<void*>(add_const);
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(32);
    kp.kernelParams = args;
    return kp;
}

static const char* yes(bool b) { return b ? "yes" : "no"; }

int main() {
    float* v;
    CHECK(cudaMalloc(&v, 32 * sizeof(float)));
    float* h1;
    float* h2;
    CHECK(cudaMallocHost(&h1, 32 * sizeof(float)));
    CHECK(cudaMallocHost(&h2, 32 * sizeof(float)));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    // 1. Dependencies set by hand: the second kernel depends on the memset only.
    cudaStreamCaptureStatus st;
    size_t nd = 7;
    CHECK(cudaStreamGetCaptureInfo(s, &st, nullptr, nullptr, nullptr, nullptr, &nd));
    printf("not capturing: status %d\n", int(st));
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaMemsetAsync(v, 0, 32 * sizeof(float), s));
    const cudaGraphNode_t* deps = nullptr;
    CHECK(cudaStreamGetCaptureInfo(s, &st, nullptr, nullptr, &deps, nullptr, &nd));
    cudaGraphNode_t memset_node = deps[0];
    add_const<<<1, 32, 0, s>>>(v, 1.0f);
    CHECK(cudaStreamUpdateCaptureDependencies(s, &memset_node, nullptr, 1, cudaStreamSetCaptureDependencies));
    add_const<<<1, 32, 0, s>>>(v, 2.0f);
    cudaGraph_t g;
    CHECK(cudaStreamEndCapture(s, &g));
    cudaGraphNode_t from[4], to[4];
    size_t edges = 4;
    CHECK(cudaGraphGetEdges(g, from, to, nullptr, &edges));
    printf("edges %zu, both from the memset %s\n", edges,
           yes(edges == 2 && from[0] == memset_node && from[1] == memset_node && to[0] != to[1]));
    cudaGraphNode_t roots[3] = {nullptr, nullptr, nullptr};
    roots[1] = roots[2] = reinterpret_cast<cudaGraphNode_t>(1);
    size_t nroots = 3;
    CHECK(cudaGraphGetRootNodes(g, roots, &nroots));
    printf("roots %zu, the memset %s, the rest null %s\n", nroots, yes(roots[0] == memset_node),
           yes(!roots[1] && !roots[2]));
    CHECK(cudaGraphDestroy(g));

    // 2. External event nodes in a capture: a record node and a wait node.
    cudaEvent_t rec, other;
    CHECK(cudaEventCreate(&rec));
    CHECK(cudaEventCreate(&other));
    CHECK(cudaEventRecord(other, s));
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaStreamWaitEvent(s, other, cudaEventWaitExternal));
    add_const<<<1, 32, 0, s>>>(v, 1.0f);
    CHECK(cudaEventRecordWithFlags(rec, s, cudaEventRecordExternal));
    CHECK(cudaStreamEndCapture(s, &g));
    size_t n = 0;
    CHECK(cudaGraphGetNodes(g, nullptr, &n));
    cudaGraphNode_t nodes[3];
    CHECK(cudaGraphGetNodes(g, nodes, &n));
    int waits = 0, records = 0, kernels = 0;
    cudaEvent_t got = nullptr;
    for (size_t i = 0; i < n && i < 3; ++i) {
        cudaGraphNodeType t;
        CHECK(cudaGraphNodeGetType(nodes[i], &t));
        waits += t == cudaGraphNodeTypeWaitEvent;
        kernels += t == cudaGraphNodeTypeKernel;
        if (t == cudaGraphNodeTypeEventRecord) {
            ++records;
            CHECK(cudaGraphEventRecordNodeGetEvent(nodes[i], &got));
        }
    }
    printf("external events: %zu nodes, %d wait, %d kernel, %d record, records rec %s\n", n, waits, kernels,
           records, yes(got == rec));
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    printf("after the launch: query %s\n", cudaGetErrorName(cudaEventQuery(rec)));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));

    // 3. Updates of memcpy and host nodes in the instantiated graph: v = 0 + 5, downloaded to h2, host_b.
    CHECK(cudaGraphCreate(&g, 0));
    cudaMemsetParams mp = {};
    mp.dst = v;
    mp.elementSize = 1;
    mp.width = 32 * sizeof(float);
    mp.height = 1;
    float five = 5.0f;
    void* args5[] = {&v, &five};
    cudaKernelNodeParams kp5 = add_params(args5);
    cudaHostNodeParams hp = {host_a, nullptr};
    cudaGraphNode_t zero, add, down, host;
    CHECK(cudaGraphAddMemsetNode(&zero, g, nullptr, 0, &mp));
    CHECK(cudaGraphAddKernelNode(&add, g, &zero, 1, &kp5));
    CHECK(cudaGraphAddMemcpyNode1D(&down, g, &add, 1, h1, v, 32 * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaGraphAddHostNode(&host, g, &down, 1, &hp));
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphExecMemcpyNodeSetParams1D(exec, down, h2, v, 32 * sizeof(float), cudaMemcpyDeviceToHost));
    cudaHostNodeParams hpb = {host_b, nullptr};
    CHECK(cudaGraphExecHostNodeSetParams(exec, host, &hpb));
    h1[3] = h2[3] = -1.0f;
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    printf("exec updates: h1[3] %.1f, h2[3] %.1f, host_a %d, host_b %d\n", h1[3], h2[3], calls_a, calls_b);
    printf("memcpy params of the kernel node: %s\n",
           cudaGetErrorName(cudaGraphExecMemcpyNodeSetParams1D(exec, add, h2, v, 4, cudaMemcpyDeviceToHost)));
    cudaGetLastError();
    CHECK(cudaGraphExecDestroy(exec));

    // 4. A clone does not see later changes of the original.
    cudaGraph_t copy;
    CHECK(cudaGraphClone(&copy, g));
    float seven = 7.0f;
    void* args7[] = {&v, &seven};
    cudaKernelNodeParams kp7 = add_params(args7);
    CHECK(cudaGraphKernelNodeSetParams(add, &kp7));
    CHECK(cudaGraphInstantiate(&exec, copy, 0));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    printf("clone: h1[3] %.1f\n", h1[3]);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(copy));
    CHECK(cudaGraphDestroy(g));

    // 5. Child graphs: changed through the node's own graph (seen by the parent), and in an instantiated
    // parent by cudaGraphExecChildGraphNodeSetParams (same topology only).
    cudaGraph_t child, parent;
    CHECK(cudaGraphCreate(&child, 0));
    float one = 1.0f;
    void* args1[] = {&v, &one};
    cudaKernelNodeParams kp1 = add_params(args1);
    cudaGraphNode_t k, c, z, d;
    CHECK(cudaGraphAddKernelNode(&k, child, nullptr, 0, &kp1));
    CHECK(cudaGraphCreate(&parent, 0));
    CHECK(cudaGraphAddMemsetNode(&z, parent, nullptr, 0, &mp));
    CHECK(cudaGraphAddChildGraphNode(&c, parent, &z, 1, child));
    CHECK(cudaGraphAddMemcpyNode1D(&d, parent, &c, 1, h1, v, 32 * sizeof(float), cudaMemcpyDeviceToHost));
    cudaGraph_t inner;
    CHECK(cudaGraphChildGraphNodeGetGraph(c, &inner));
    cudaGraphNode_t inner_kernel;
    size_t one_node = 1;
    CHECK(cudaGraphGetNodes(inner, &inner_kernel, &one_node));
    CHECK(cudaGraphKernelNodeSetParams(inner_kernel, &kp5));
    CHECK(cudaGraphInstantiate(&exec, parent, 0));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    printf("child changed through its node: h1[3] %.1f\n", h1[3]);
    cudaGraph_t child7;
    CHECK(cudaGraphCreate(&child7, 0));
    CHECK(cudaGraphAddKernelNode(&k, child7, nullptr, 0, &kp7));
    CHECK(cudaGraphExecChildGraphNodeSetParams(exec, c, child7));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    printf("exec child set: h1[3] %.1f\n", h1[3]);
    cudaGraphNode_t k2;
    CHECK(cudaGraphAddKernelNode(&k2, child7, &k, 1, &kp1));
    printf("exec child set, another topology: %s\n",
           cudaGetErrorName(cudaGraphExecChildGraphNodeSetParams(exec, c, child7)));
    cudaGetLastError();
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(child7));
    CHECK(cudaGraphDestroy(parent));
    CHECK(cudaGraphDestroy(child));

    // 6. Edges added and removed, a node destroyed, a node found in a clone, host and memset node
    // parameters, instantiation with parameters, upload.
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t e1, e2, e3;
    CHECK(cudaGraphAddEmptyNode(&e1, g, nullptr, 0));
    CHECK(cudaGraphAddEmptyNode(&e2, g, nullptr, 0));
    CHECK(cudaGraphAddHostNode(&e3, g, nullptr, 0, &hp));
    cudaGraphNode_t froms[] = {e1, e2}, tos[] = {e3, e3};
    CHECK(cudaGraphAddDependencies(g, froms, tos, nullptr, 2));
    printf("add an edge twice: %s\n", cudaGetErrorName(cudaGraphAddDependencies(g, froms, tos, nullptr, 1)));
    cudaGetLastError();
    CHECK(cudaGraphRemoveDependencies(g, &e1, &e3, nullptr, 1));
    size_t ndeps = 0;
    CHECK(cudaGraphNodeGetDependencies(e3, nullptr, nullptr, &ndeps));
    printf("remove a missing edge: %s, the host node now has %zu dependency\n",
           cudaGetErrorName(cudaGraphRemoveDependencies(g, &e1, &e3, nullptr, 1)), ndeps);
    cudaGetLastError();
    CHECK(cudaGraphDestroyNode(e2));
    CHECK(cudaGraphNodeGetDependencies(e3, nullptr, nullptr, &ndeps));
    CHECK(cudaGraphGetNodes(g, nullptr, &n));
    printf("after destroying a node: %zu nodes, the host node has %zu dependencies\n", n, ndeps);
    CHECK(cudaGraphHostNodeSetParams(e3, &hpb));
    cudaHostNodeParams hq = {};
    CHECK(cudaGraphHostNodeGetParams(e3, &hq));
    CHECK(cudaGraphClone(&copy, g));
    cudaGraphNode_t found = nullptr;
    CHECK(cudaGraphNodeFindInClone(&found, e3, copy));
    cudaHostNodeParams hc = {};
    CHECK(cudaGraphHostNodeGetParams(found, &hc));
    printf("host node: fn is host_b %s; in the clone: a node of its own %s, fn host_b %s\n",
           yes(hq.fn == host_b), yes(found != e3), yes(hc.fn == host_b));
    cudaGraphNode_t again = nullptr;
    printf("find a node of the clone itself in the clone: %s\n",
           cudaGetErrorName(cudaGraphNodeFindInClone(&again, found, copy)));
    cudaGetLastError();
    cudaGraphNode_t ms;
    mp.value = 0x3f;
    CHECK(cudaGraphAddMemsetNode(&ms, copy, nullptr, 0, &mp));
    cudaMemsetParams mq = {};
    CHECK(cudaGraphMemsetNodeGetParams(ms, &mq));
    printf("memset node: value 0x%x, width %zu, element size %u\n", mq.value, mq.width, mq.elementSize);
    cudaGraphInstantiateParams ip = {};
    ip.result_out = cudaGraphInstantiateError;
    CHECK(cudaGraphInstantiateWithParams(&exec, copy, &ip));
    CHECK(cudaGraphUpload(exec, s));
    int before = calls_b;
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    unsigned long long flags = 1;
    CHECK(cudaGraphExecGetFlags(exec, &flags));
    float bytes[32];
    CHECK(cudaMemcpy(bytes, v, sizeof(bytes), cudaMemcpyDeviceToHost));
    unsigned word;
    memcpy(&word, &bytes[0], 4);
    printf("instantiated with params: result %d, flags %llu, host_b calls %d, v word 0x%08x\n",
           int(ip.result_out), flags, calls_b - before, word);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(copy));

    // 7. Capture into an existing graph, after one of its nodes: the captured kernel depends on it.
    CHECK(cudaStreamBeginCaptureToGraph(s, g, &e1, nullptr, 1, cudaStreamCaptureModeGlobal));
    add_const<<<1, 32, 0, s>>>(v, 1.0f);
    cudaGraph_t same = nullptr;
    CHECK(cudaStreamEndCapture(s, &same));
    CHECK(cudaGraphGetNodes(g, nullptr, &n));
    size_t after_e1 = 0;
    CHECK(cudaGraphNodeGetDependentNodes(e1, nullptr, nullptr, &after_e1));
    printf("capture into a graph: the same graph %s, %zu nodes, the first empty node has %zu dependents\n",
           yes(same == g), n, after_e1);
    CHECK(cudaGraphDestroy(g));

    CHECK(cudaEventDestroy(rec));
    CHECK(cudaEventDestroy(other));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFreeHost(h1));
    CHECK(cudaFreeHost(h2));
    CHECK(cudaFree(v));
    printf("done\n");
    return 0;
}
