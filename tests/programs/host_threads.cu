// Several host threads at once, each with its own stream, allocations, launches, stream callback and a
// launch error of its own: the runtime is thread-safe and the last error belongs to the thread.
#include <atomic>
#include <thread>
#include <vector>
#include "common.h"

__global__ void fill_index(int* p, int n, int base) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = base + i;
}

static std::atomic<int> callbacks{0};
static void CUDART_CB count_callback(void*) { callbacks.fetch_add(1); }

struct Result {
    int wrong = -1;
    cudaError_t own_error = cudaSuccess;
    cudaError_t after_clear = cudaErrorUnknown;
};

static void worker(int id, Result* r) {
    const int n = 10000 + 1000 * id;
    cudaStream_t s;
    if (cudaStreamCreate(&s) != cudaSuccess) return;
    int* d = nullptr;
    int* h = nullptr;
    if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess || cudaMallocHost(&h, n * sizeof(int)) != cudaSuccess) return;
    for (int round = 0; round < 5; ++round) {
        fill_index<<<(n + 127) / 128, 128, 0, s>>>(d, n, id * 1000000 + round);
        cudaLaunchHostFunc(s, count_callback, nullptr);
    }
    // Thread 2 makes a launch error; the others must not see it.
    if (id == 2) fill_index<<<1, 2048, 0, s>>>(d, n, 0);
    r->own_error = cudaGetLastError();
    r->after_clear = cudaGetLastError();
    cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += h[i] != id * 1000000 + 4 + i;
    r->wrong = wrong;
    cudaFreeHost(h);
    cudaFree(d);
    cudaStreamDestroy(s);
}

int main() {
    const int nthreads = 4;
    std::vector<Result> results(nthreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < nthreads; ++t) threads.emplace_back(worker, t, &results[t]);
    for (auto& t : threads) t.join();
    bool ok = true;
    for (int t = 0; t < nthreads; ++t) {
        printf("thread %d: %d wrong, its last error %s, then %s\n", t, results[t].wrong,
               cudaGetErrorName(results[t].own_error), cudaGetErrorName(results[t].after_clear));
        ok = ok && results[t].wrong == 0 && results[t].after_clear == cudaSuccess &&
             ((t == 2) == (results[t].own_error != cudaSuccess));
    }
    printf("stream callbacks: %d\n", callbacks.load());
    CHECK(cudaGetLastError());
    return finish(ok && callbacks.load() == nthreads * 5);
}
