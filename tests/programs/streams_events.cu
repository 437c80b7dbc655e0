// Streams and events: work split over four streams, a cross-stream dependency with cudaStreamWaitEvent,
// host callbacks with cudaLaunchHostFunc, event timing and queries, the legacy default stream ordering
// blocking streams, and a non-blocking stream that it does not order.
#include <atomic>
#include <vector>
#include "common.h"

__global__ void scale_add(float* x, int n, float a, float b) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * a + b;
}

__global__ void combine(const float* x, const float* y, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + y[i];
}

struct CallbackLog {
    std::atomic<int> calls{0};
};

static void CUDART_CB on_done(void* arg) { static_cast<CallbackLog*>(arg)->calls.fetch_add(1); }

int main() {
    const int n = 1 << 18, nstreams = 4, chunk = n / nstreams;
    float *h, *d_x, *d_y, *d_out;
    CHECK(cudaMallocHost(&h, n * sizeof(float)));
    for (int i = 0; i < n; ++i) h[i] = (float)(i % 100);
    CHECK(cudaMalloc(&d_x, n * sizeof(float)));
    CHECK(cudaMalloc(&d_y, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));

    cudaStream_t s[nstreams];
    for (auto& st : s) CHECK(cudaStreamCreate(&st));
    cudaEvent_t start, stop, x_ready;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventCreateWithFlags(&x_ready, cudaEventDisableTiming));
    CallbackLog log;

    CHECK(cudaEventRecord(start, s[0]));
    for (int k = 0; k < nstreams; ++k) {
        float* part = d_x + k * chunk;
        CHECK(cudaMemcpyAsync(part, h + k * chunk, chunk * sizeof(float), cudaMemcpyHostToDevice, s[k]));
        scale_add<<<chunk / 256, 256, 0, s[k]>>>(part, chunk, 2.0f, 1.0f);
        CHECK(cudaGetLastError());
        CHECK(cudaLaunchHostFunc(s[k], on_done, &log));
    }
    // d_y = h * 3 in stream 0, after all four chunks of d_x: stream 0 waits for streams 1..3 by events.
    for (int k = 1; k < nstreams; ++k) {
        CHECK(cudaEventRecord(x_ready, s[k]));
        CHECK(cudaStreamWaitEvent(s[0], x_ready, 0));
    }
    CHECK(cudaMemcpyAsync(d_y, h, n * sizeof(float), cudaMemcpyHostToDevice, s[0]));
    scale_add<<<n / 256, 256, 0, s[0]>>>(d_y, n, 3.0f, 0.0f);
    combine<<<n / 256, 256, 0, s[0]>>>(d_x, d_y, d_out, n);
    CHECK(cudaEventRecord(stop, s[0]));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    cudaError_t q = cudaEventQuery(stop);
    printf("cudaEventQuery after cudaEventSynchronize: %s\n", cudaGetErrorName(q));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    printf("time: four streams and the combine %.3f ms\n", ms);
    for (auto& st : s) CHECK(cudaStreamSynchronize(st));
    for (auto& st : s) {
        cudaError_t sq = cudaStreamQuery(st);
        if (sq != cudaSuccess) printf("cudaStreamQuery of an idle stream: %s\n", cudaGetErrorName(sq));
    }
    printf("host callbacks run: %d\n", log.calls.load());

    std::vector<float> out(n);
    CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += out[i] != (h[i] * 2.0f + 1.0f) + h[i] * 3.0f;
    printf("combined result: out[1] = %g, out[n-1] = %g, %d wrong\n", out[1], out[n - 1], wrong);

    // The legacy default stream waits for blocking streams and they wait for it.
    CHECK(cudaMemsetAsync(d_x, 0, n * sizeof(float), s[1]));
    scale_add<<<n / 256, 256>>>(d_x, n, 1.0f, 5.0f);  // default stream: after the memset in s[1]
    scale_add<<<n / 256, 256, 0, s[2]>>>(d_x, n, 2.0f, 0.0f);  // s[2]: after the default-stream kernel
    CHECK(cudaStreamSynchronize(s[2]));
    CHECK(cudaMemcpy(out.data(), d_x, n * sizeof(float), cudaMemcpyDeviceToHost));
    int wrong_order = 0;
    for (int i = 0; i < n; ++i) wrong_order += out[i] != 10.0f;
    printf("legacy default stream ordering: x[0] = %g, %d wrong\n", out[0], wrong_order);

    // A non-blocking stream is not ordered by the default stream: it must synchronise itself.
    cudaStream_t nb;
    CHECK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
    unsigned flags = 0;
    CHECK(cudaStreamGetFlags(nb, &flags));
    printf("non-blocking stream flags: %u\n", flags);
    CHECK(cudaMemcpyAsync(d_y, h, n * sizeof(float), cudaMemcpyHostToDevice, nb));
    scale_add<<<n / 256, 256, 0, nb>>>(d_y, n, 1.0f, 1.0f);
    CHECK(cudaStreamSynchronize(nb));
    CHECK(cudaMemcpy(out.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
    int wrong_nb = 0;
    for (int i = 0; i < n; ++i) wrong_nb += out[i] != h[i] + 1.0f;
    printf("non-blocking stream: %d wrong\n", wrong_nb);

    CHECK(cudaStreamDestroy(nb));
    for (auto& st : s) CHECK(cudaStreamDestroy(st));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaEventDestroy(x_ready));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    CHECK(cudaFree(d_out));
    CHECK(cudaFreeHost(h));
    return finish(wrong == 0 && wrong_order == 0 && wrong_nb == 0 && log.calls.load() == nstreams &&
                  q == cudaSuccess && ms > 0);
}
