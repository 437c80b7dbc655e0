// tests/programs/capture_implicit.cu: what the CUDA runtime answers when the legacy default stream gets work
// (a launch, memset and copies, an event record and wait, a stream synchronisation) while a stream captures:
// cudaErrorStreamCaptureImplicit and the capture invalidated when that stream is blocking, in relaxed and global
// mode; nothing when it is non-blocking. One line per case, recorded on the H200
// (tests/hardware/programs/h200/results.json, run capture_implicit).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void touch(int* p) { p[threadIdx.x] += 1; }

static const char* name(cudaError_t e) { return cudaGetErrorName(e); }

static void trial(const char* what, unsigned flags, cudaStreamCaptureMode mode, int op) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, flags);
    int* d = nullptr;
    cudaMalloc(&d, 256);
    int h[64] = {};
    cudaEvent_t ev;
    cudaEventCreate(&ev);
    cudaError_t b = cudaStreamBeginCapture(s, mode);
    touch<<<1, 32, 0, s>>>(d);
    cudaError_t r = cudaSuccess;
    switch (op) {
        case 0: touch<<<1, 32>>>(d); r = cudaGetLastError(); break;
        case 1: r = cudaMemsetAsync(d, 0, 256, 0); break;
        case 2: r = cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost); break;
        case 3: r = cudaEventRecord(ev, 0); break;
        case 4: r = cudaMemcpyAsync(d, h, 256, cudaMemcpyHostToDevice, 0); break;
        case 5: r = cudaStreamWaitEvent(0, ev, 0); break;
        case 6: r = cudaMemset(d, 0, 256); break;
        case 7: r = cudaStreamSynchronize(0); break;
    }
    cudaError_t after = cudaGetLastError();
    cudaStreamCaptureStatus st;
    cudaError_t q = cudaStreamIsCapturing(s, &st);
    cudaGraph_t g = reinterpret_cast<cudaGraph_t>(0x1);
    cudaError_t end = cudaStreamEndCapture(s, &g);
    printf("%s op%d: begin %s, op %s, last %s, is_capturing %s status %d, end %s graph %s\n", what, op, name(b),
           name(r), name(after), name(q), int(st), name(end), g == nullptr ? "null" : (g == (cudaGraph_t)0x1 ? "unchanged" : "set"));
    cudaGetLastError();
    cudaDeviceSynchronize();
    cudaGetLastError();
    if (g && g != (cudaGraph_t)0x1) cudaGraphDestroy(g);
    cudaEventDestroy(ev);
    cudaFree(d);
    cudaStreamDestroy(s);
}

int main() {
    for (int op = 0; op < 8; ++op) trial("blocking relaxed", cudaStreamDefault, cudaStreamCaptureModeRelaxed, op);
    for (int op = 0; op < 8; ++op) trial("blocking global", cudaStreamDefault, cudaStreamCaptureModeGlobal, op);
    for (int op = 0; op < 8; ++op) trial("nonblocking relaxed", cudaStreamNonBlocking, cudaStreamCaptureModeRelaxed, op);
    printf("final %s\n", name(cudaDeviceSynchronize()));
    return 0;
}
