// CUDA graphs: a stream's work captured once (cudaStreamBeginCapture/EndCapture) and replayed with
// cudaGraphLaunch; a graph built node by node (cudaGraphAddKernelNode, memset and memcpy nodes with
// dependencies); a host node. Kernel arguments are copied when a node is made: changing the host variable
// afterwards changes nothing. Self-checking; the time line is the replays timed with events.
#include <vector>
#include "common.h"

__global__ void scale(float* v, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] *= s;
}

__global__ void add(float* v, const float* w, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += w[i];
}

static void CUDART_CB count_calls(void* data) { ++*static_cast<int*>(data); }

static const char* capture_status(cudaStream_t s) {
    cudaStreamCaptureStatus st;
    CHECK(cudaStreamIsCapturing(s, &st));
    return st == cudaStreamCaptureStatusNone ? "none" : st == cudaStreamCaptureStatusActive ? "active" : "invalidated";
}

// What the runtime refuses while a stream captures, printed by name (the H200's answers are the test's).
static int illegal_calls() {
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    printf("capture the legacy stream: %s\n", cudaGetErrorName(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal)));
    printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    printf("begin twice: %s\n", cudaGetErrorName(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal)));
    printf("status: %s\n", capture_status(s));
    printf("synchronize the capturing stream: %s\n", cudaGetErrorName(cudaStreamSynchronize(s)));
    printf("status: %s\n", capture_status(s));
    cudaGraph_t g = reinterpret_cast<cudaGraph_t>(1);
    printf("end capture: %s, graph %s\n", cudaGetErrorName(cudaStreamEndCapture(s, &g)), g ? "set" : "null");
    printf("status: %s\n", capture_status(s));
    printf("end without begin: %s\n", cudaGetErrorName(cudaStreamEndCapture(s, &g)));
    printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
    CHECK(cudaStreamDestroy(s));
    return finish(true);
}

int main(int argc, char** argv) {
    if (argc > 1) return illegal_calls();
    const int n = 1 << 16, threads = 256, blocks = (n + threads - 1) / threads;
    std::vector<float> host(n), w(n);
    for (int i = 0; i < n; ++i) {
        host[i] = float(i % 100);
        w[i] = 1.0f;
    }
    float *dv, *dw;
    CHECK(cudaMalloc(&dv, n * sizeof(float)));
    CHECK(cudaMalloc(&dw, n * sizeof(float)));
    CHECK(cudaMemcpy(dw, w.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    // 1. Stream capture: upload, v = 2v, v += w, download; nothing runs until the graph is launched.
    printf("before capture: %s\n", capture_status(s));
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    printf("during capture: %s\n", capture_status(s));
    float factor = 2.0f;
    int host_calls = 0;
    CHECK(cudaMemcpyAsync(dv, host.data(), n * sizeof(float), cudaMemcpyHostToDevice, s));
    scale<<<blocks, threads, 0, s>>>(dv, factor, n);
    CHECK(cudaGetLastError());
    factor = 100.0f;  // the captured launch keeps 2
    add<<<blocks, threads, 0, s>>>(dv, dw, n);
    CHECK(cudaLaunchHostFunc(s, count_calls, &host_calls));
    std::vector<float> out(n, -1.0f);
    CHECK(cudaMemcpyAsync(out.data(), dv, n * sizeof(float), cudaMemcpyDeviceToHost, s));
    cudaGraph_t graph;
    CHECK(cudaStreamEndCapture(s, &graph));
    printf("after capture: %s\n", capture_status(s));
    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
    printf("captured nodes: %zu\n", nodes);
    printf("host calls before launch: %d, out[7] = %.1f\n", host_calls, out[7]);
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    CHECK(cudaEventRecord(t0, s));
    const int replays = 5;
    for (int r = 0; r < replays; ++r) CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaEventRecord(t1, s));
    CHECK(cudaStreamSynchronize(s));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
    printf("time: %d replays %.3f ms\n", replays, ms);
    bool ok = host_calls == replays;
    for (int i = 0; i < n; ++i) ok = ok && out[i] == 2.0f * float(i % 100) + 1.0f;
    printf("host calls: %d, out[7] = %.1f, out[n-1] = %.1f\n", host_calls, out[7], out[n - 1]);

    // 2. A graph built by hand: memset v to 0 -> v += w (twice, a chain) -> copy v to w's second half.
    cudaGraph_t g2;
    CHECK(cudaGraphCreate(&g2, 0));
    cudaGraphNode_t zero, first, second, copy;
    cudaMemsetParams ms_params = {};
    ms_params.dst = dv;
    ms_params.value = 0;
    ms_params.elementSize = 1;
    ms_params.width = n * sizeof(float);
    ms_params.height = 1;
    CHECK(cudaGraphAddMemsetNode(&zero, g2, nullptr, 0, &ms_params));
    int count = n;
    void* add_args[] = {&dv, &dw, &count};
    cudaKernelNodeParams kp = {};
    kp.func = reinterpret_cast<void*>(add);
    kp.gridDim = dim3(blocks);
    kp.blockDim = dim3(threads);
    kp.sharedMemBytes = 0;
    kp.kernelParams = add_args;
    CHECK(cudaGraphAddKernelNode(&first, g2, &zero, 1, &kp));
    CHECK(cudaGraphAddKernelNode(&second, g2, &first, 1, &kp));
    CHECK(cudaGraphAddMemcpyNode1D(&copy, g2, &second, 1, dw + n / 2, dv, (n / 2) * sizeof(float),
                                   cudaMemcpyDeviceToDevice));
    CHECK(cudaGraphGetNodes(g2, nullptr, &nodes));
    printf("built nodes: %zu\n", nodes);
    cudaGraphExec_t exec2;
    CHECK(cudaGraphInstantiate(&exec2, g2, 0));
    CHECK(cudaGraphLaunch(exec2, s));
    CHECK(cudaStreamSynchronize(s));
    std::vector<float> v2(n), w2(n);
    CHECK(cudaMemcpy(v2.data(), dv, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(w2.data(), dw, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) ok = ok && v2[i] == 2.0f && w2[i] == (i < n / 2 ? 1.0f : 2.0f);
    printf("built graph: v[0] = %.1f, w[0] = %.1f, w[n-1] = %.1f\n", v2[0], w2[0], w2[n - 1]);

    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphExecDestroy(exec2));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaGraphDestroy(g2));
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(dv));
    CHECK(cudaFree(dw));
    return finish(ok);
}
