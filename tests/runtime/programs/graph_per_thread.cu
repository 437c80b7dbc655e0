// Stream capture of the per-thread default stream, each line's expected value following from the CUDA runtime
// API's documentation (tests/runtime/exec_programs.sh holds them): its work is recorded, not run; another host
// thread's per-thread stream is not capturing; the graph replays the work. Built twice: naming
// cudaStreamPerThread, and with --default-stream per-thread naming stream 0, which is then the same stream.
#include <cstdio>
#include <thread>
#include <cuda_runtime.h>

#include "check_call.h"

#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
static const cudaStream_t kPerThread = 0;  // stream 0 is the per-thread default stream
#else
static const cudaStream_t kPerThread = cudaStreamPerThread;
#endif

__global__ void add_const(float* v, float c) { v[threadIdx.x] += c; }

int main() {
    float* v;
    float* h;
    CHECK(cudaMalloc(&v, 32 * sizeof(float)));
    CHECK(cudaMallocHost(&h, 32 * sizeof(float)));
    h[0] = -1.0f;
    CHECK(cudaStreamBeginCapture(kPerThread, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus mine = cudaStreamCaptureStatusNone, theirs = cudaStreamCaptureStatusActive;
    CHECK(cudaStreamIsCapturing(kPerThread, &mine));
    CHECK(cudaMemsetAsync(v, 0, 32 * sizeof(float), kPerThread));
    add_const<<<1, 32, 0, kPerThread>>>(v, 3.0f);
    CHECK(cudaMemcpyAsync(h, v, 32 * sizeof(float), cudaMemcpyDeviceToHost, kPerThread));
    cudaError_t other = cudaSuccess;
    std::thread t([&] { other = cudaStreamIsCapturing(kPerThread, &theirs); });
    t.join();
    cudaGraph_t g;
    CHECK(cudaStreamEndCapture(kPerThread, &g));
    size_t n = 0;
    CHECK(cudaGraphGetNodes(g, nullptr, &n));
    printf("captured the per-thread stream: status %d, another thread's %d (%s), %zu nodes, h[0] %g before the "
           "launch\n",
           int(mine), int(theirs), cudaGetErrorName(other), n, h[0]);
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphLaunch(exec, kPerThread));
    CHECK(cudaStreamSynchronize(kPerThread));
    cudaStreamCaptureStatus after = cudaStreamCaptureStatusActive;
    CHECK(cudaStreamIsCapturing(kPerThread, &after));
    printf("launched: h[0] %g, h[31] %g, capturing after the end %d\n", h[0], h[31], int(after));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaFreeHost(h));
    CHECK(cudaFree(v));
    printf("done\n");
    return 0;
}
