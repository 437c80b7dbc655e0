// Conditional graph nodes, each line's expected value following from the CUDA runtime API's documentation
// (tests/runtime/exec_programs.sh holds them): IF with an else body, WHILE, SWITCH, the condition set by
// kernels with cudaGraphSetConditional or by the handle's default value at each launch, a body filled by
// stream capture, and what the documentation refuses.
#include <cstdio>
#include <cuda_runtime.h>

#include "check_call.h"

__global__ void add_const(float* v, float c) { v[threadIdx.x] += c; }
__global__ void set_from(cudaGraphConditionalHandle h, const unsigned* value) {
    if (threadIdx.x == 0) cudaGraphSetConditional(h, *value);
}
// One iteration of a loop: v += 1, and the loop goes on while the count down stays above zero.
__global__ void loop_body(cudaGraphConditionalHandle h, int* counter, float* v) {
    v[threadIdx.x] += 1.0f;
    __syncthreads();
    if (threadIdx.x == 0) cudaGraphSetConditional(h, --*counter > 0);
}

static cudaError_t add_kernel(cudaGraphNode_t* node, cudaGraph_t g, const cudaGraphNode_t* dep, void* func,
                              void** args) {
    cudaKernelNodeParams kp = {};
    kp.func = func;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(32);
    kp.kernelParams = args;
    return cudaGraphAddKernelNode(node, g, dep, dep ? 1 : 0, &kp);
}

static cudaGraphNodeParams conditional(cudaGraphConditionalHandle h, cudaGraphConditionalNodeType type,
                                       unsigned size) {
    cudaGraphNodeParams np = {};
    np.type = cudaGraphNodeTypeConditional;
    np.conditional.handle = h;
    np.conditional.type = type;
    np.conditional.size = size;
    return np;
}

static cudaError_t launch_and_wait(cudaGraphExec_t exec, cudaStream_t s) {
    cudaError_t e = cudaGraphLaunch(exec, s);
    return e == cudaSuccess ? cudaStreamSynchronize(s) : e;
}

int main() {
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    float* v;
    unsigned* value;
    int* counter;
    CHECK(cudaMalloc(&v, 32 * sizeof(float)));
    CHECK(cudaMalloc(&value, sizeof(unsigned)));
    CHECK(cudaMalloc(&counter, sizeof(int)));
    float h = 0;
    float one = 1.0f, hundred = 100.0f, ten = 10.0f, twenty = 20.0f, thirty = 30.0f;

    // 1. IF with an else body: a kernel sets the condition from *value; body 0 adds 1, body 1 adds 100.
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle hif;
    CHECK(cudaGraphConditionalHandleCreate(&hif, g, 0, 0));
    cudaGraphNode_t setter, node, inner;
    void* set_args[] = {&hif, &value};
    CHECK(add_kernel(&setter, g, nullptr, reinterpret_cast<void*>(set_from), set_args));
    cudaGraphNodeParams np = conditional(hif, cudaGraphCondTypeIf, 2);
    CHECK(cudaGraphAddNode(&node, g, &setter, nullptr, 1, &np));
    cudaGraph_t then_body = np.conditional.phGraph_out[0], else_body = np.conditional.phGraph_out[1];
    void* add1[] = {&v, &one};
    void* add100[] = {&v, &hundred};
    CHECK(add_kernel(&inner, then_body, nullptr, reinterpret_cast<void*>(add_const), add1));
    CHECK(add_kernel(&inner, else_body, nullptr, reinterpret_cast<void*>(add_const), add100));
    cudaGraphNodeType type;
    CHECK(cudaGraphNodeGetType(node, &type));
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaMemset(v, 0, 32 * sizeof(float)));
    unsigned cond = 1;
    CHECK(cudaMemcpy(value, &cond, sizeof cond, cudaMemcpyHostToDevice));
    CHECK(launch_and_wait(exec, s));
    CHECK(cudaMemcpy(&h, v, sizeof h, cudaMemcpyDeviceToHost));
    const float after_then = h;
    cond = 0;
    CHECK(cudaMemcpy(value, &cond, sizeof cond, cudaMemcpyHostToDevice));
    CHECK(launch_and_wait(exec, s));
    CHECK(cudaMemcpy(&h, v, sizeof h, cudaMemcpyDeviceToHost));
    printf("IF: node type %d, two bodies %s; condition 1: v %g; condition 0: v %g\n", int(type),
           then_body && else_body && then_body != else_body ? "yes" : "no", after_then, h);
    cudaGraph_t copy;
    const cudaError_t clone = cudaGraphClone(&copy, g);
    cudaGraphExec_t second;
    const cudaError_t twice = cudaGraphInstantiate(&second, g, 0);
    cudaGetLastError();
    printf("refused: clone %s, a second instantiation %s\n", cudaGetErrorName(clone), cudaGetErrorName(twice));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));

    // 2. WHILE: the default value 1 starts the loop at each launch; the body counts *counter down from 5.
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle hwhile;
    CHECK(cudaGraphConditionalHandleCreate(&hwhile, g, 1, cudaGraphCondAssignDefault));
    np = conditional(hwhile, cudaGraphCondTypeWhile, 1);
    CHECK(cudaGraphAddNode(&node, g, nullptr, nullptr, 0, &np));
    void* loop_args[] = {&hwhile, &counter, &v};
    CHECK(add_kernel(&inner, np.conditional.phGraph_out[0], nullptr, reinterpret_cast<void*>(loop_body), loop_args));
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaMemset(v, 0, 32 * sizeof(float)));
    int count = 5;
    CHECK(cudaMemcpy(counter, &count, sizeof count, cudaMemcpyHostToDevice));
    CHECK(launch_and_wait(exec, s));
    CHECK(cudaMemcpy(&h, v, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&count, counter, sizeof count, cudaMemcpyDeviceToHost));
    const float first = h;
    const int left = count;
    count = 2;
    CHECK(cudaMemcpy(counter, &count, sizeof count, cudaMemcpyHostToDevice));
    CHECK(launch_and_wait(exec, s));  // the default 1 again: two more iterations
    CHECK(cudaMemcpy(&h, v, sizeof h, cudaMemcpyDeviceToHost));
    printf("WHILE: from 5 the body ran %g times, counter %d; again from 2: v %g\n", first, left, h);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));

    // 3. SWITCH of 3 bodies adding 10, 20 and 30 (the last filled by stream capture): condition 2 runs the
    // third; condition 7 none.
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle hswitch;
    CHECK(cudaGraphConditionalHandleCreate(&hswitch, g, 0, 0));
    void* sw_args[] = {&hswitch, &value};
    CHECK(add_kernel(&setter, g, nullptr, reinterpret_cast<void*>(set_from), sw_args));
    np = conditional(hswitch, cudaGraphCondTypeSwitch, 3);
    CHECK(cudaGraphAddNode(&node, g, &setter, nullptr, 1, &np));
    void* add10[] = {&v, &ten};
    void* add20[] = {&v, &twenty};
    CHECK(add_kernel(&inner, np.conditional.phGraph_out[0], nullptr, reinterpret_cast<void*>(add_const), add10));
    CHECK(add_kernel(&inner, np.conditional.phGraph_out[1], nullptr, reinterpret_cast<void*>(add_const), add20));
    CHECK(cudaStreamBeginCaptureToGraph(s, np.conditional.phGraph_out[2], nullptr, nullptr, 0,
                                        cudaStreamCaptureModeGlobal));
    add_const<<<1, 32, 0, s>>>(v, thirty);
    cudaGraph_t captured;
    CHECK(cudaStreamEndCapture(s, &captured));
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaMemset(v, 0, 32 * sizeof(float)));
    cond = 2;
    CHECK(cudaMemcpy(value, &cond, sizeof cond, cudaMemcpyHostToDevice));
    CHECK(launch_and_wait(exec, s));
    CHECK(cudaMemcpy(&h, v, sizeof h, cudaMemcpyDeviceToHost));
    const float third = h;
    cond = 7;
    CHECK(cudaMemcpy(value, &cond, sizeof cond, cudaMemcpyHostToDevice));
    CHECK(launch_and_wait(exec, s));
    CHECK(cudaMemcpy(&h, v, sizeof h, cudaMemcpyDeviceToHost));
    printf("SWITCH: condition 2: v %g; condition 7: v %g; the captured body is the node's %s\n", third, h,
           captured == np.conditional.phGraph_out[2] ? "yes" : "no");
    CHECK(cudaGraphExecDestroy(exec));

    // 4. What the documentation refuses: a WHILE of 2 bodies, a handle of another graph, a flag no handle has.
    cudaGraph_t other;
    CHECK(cudaGraphCreate(&other, 0));
    cudaGraphNodeParams wide = conditional(hwhile, cudaGraphCondTypeWhile, 2);
    cudaGraphNodeParams foreign = conditional(hswitch, cudaGraphCondTypeIf, 1);
    cudaGraphConditionalHandle bad_handle;
    cudaGraphNode_t bad;
    wide.conditional.handle = hswitch;
    printf("refused: WHILE of 2 %s, another graph's handle %s, flag 2 %s\n",
           cudaGetErrorName(cudaGraphAddNode(&bad, g, nullptr, nullptr, 0, &wide)),
           cudaGetErrorName(cudaGraphAddNode(&bad, other, nullptr, nullptr, 0, &foreign)),
           cudaGetErrorName(cudaGraphConditionalHandleCreate(&bad_handle, g, 0, 2)));
    cudaGetLastError();
    CHECK(cudaGraphDestroy(other));
    CHECK(cudaGraphDestroy(g));

    // 5. A WHILE whose body never sets the condition to zero (an empty node): stopped, not hung.
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle hspin;
    CHECK(cudaGraphConditionalHandleCreate(&hspin, g, 1, cudaGraphCondAssignDefault));
    np = conditional(hspin, cudaGraphCondTypeWhile, 1);
    CHECK(cudaGraphAddNode(&node, g, nullptr, nullptr, 0, &np));
    CHECK(cudaGraphAddEmptyNode(&inner, np.conditional.phGraph_out[0], nullptr, 0));
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    printf("a WHILE that never ends: %s\n", cudaGetErrorName(cudaGraphLaunch(exec, s)));
    cudaGetLastError();
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));

    CHECK(cudaFree(v));
    CHECK(cudaFree(value));
    CHECK(cudaFree(counter));
    CHECK(cudaStreamDestroy(s));
    printf("done\n");
    return 0;
}
