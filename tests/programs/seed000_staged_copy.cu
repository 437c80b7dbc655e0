// The staged copy of seed 000 (BPG's pattern): copy everything then compute, against nStreams chunks whose
// copies hide behind the other chunks' kernels. Usage: seed000_staged_copy [n] [iters] (defaults 2^20, 100).
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
    do {                                                                              \
        cudaError_t e_ = (call);                                                      \
        if (e_ != cudaSuccess) {                                                      \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call,              \
                    cudaGetErrorString(e_));                                          \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

static int iters = 100;
__constant__ int c_iters;

// Work per element heavy enough to compare with the copy: a chain of c_iters dependent steps.
__global__ void process(float* x, size_t n) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        for (int k = 0; k < c_iters; ++k) v = __sinf(v) * 0.5f + 1.0f;
        x[i] = v;
    }
}

static float host_process(float v) {
    for (int k = 0; k < iters; ++k) v = sinf(v) * 0.5f + 1.0f;
    return v;
}

int main(int argc, char** argv) {
    size_t n = argc > 1 ? strtoull(argv[1], nullptr, 10) : (size_t)1 << 20;
    if (argc > 2) iters = atoi(argv[2]);
    const int nStreams = 4;
    if (n == 0 || n % (nStreams * 256) != 0) {
        fprintf(stderr, "n must be a positive multiple of %d\n", nStreams * 256);
        return 2;
    }
    printf("staged copy: n = %zu floats (%zu MB), %d steps per element, %d streams\n", n,
           n * sizeof(float) >> 20, iters, nStreams);

    float *h_x, *d_x;
    CHECK(cudaMallocHost(&h_x, n * sizeof(float)));
    CHECK(cudaMalloc(&d_x, n * sizeof(float)));
    CHECK(cudaMemcpyToSymbol(c_iters, &iters, sizeof(int)));
    for (size_t i = 0; i < n; ++i) h_x[i] = (float)(i % 1000) * 0.001f;

    cudaStream_t stream[nStreams];
    for (int s = 0; s < nStreams; ++s) CHECK(cudaStreamCreate(&stream[s]));
    cudaEvent_t t0, t1, t2;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    CHECK(cudaEventCreate(&t2));
    float ms_copy = 0, ms_kernel = 0, ms_seq = 0, ms_streams = 0;

    // Warm-up: the first launch and the first copy pay one-time costs.
    CHECK(cudaMemcpy(d_x, h_x, 1024 * sizeof(float), cudaMemcpyHostToDevice));
    process<<<4, 256>>>(d_x, 1024);
    CHECK(cudaDeviceSynchronize());

    // Sequential: the whole copy, then the whole computation (t_T + t_E).
    CHECK(cudaEventRecord(t0, 0));
    CHECK(cudaMemcpyAsync(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice, 0));
    CHECK(cudaEventRecord(t1, 0));
    process<<<n / 256, 256>>>(d_x, n);
    CHECK(cudaEventRecord(t2, 0));
    CHECK(cudaEventSynchronize(t2));
    CHECK(cudaGetLastError());
    CHECK(cudaEventElapsedTime(&ms_copy, t0, t1));
    CHECK(cudaEventElapsedTime(&ms_kernel, t1, t2));
    CHECK(cudaEventElapsedTime(&ms_seq, t0, t2));

    // Staged, as in the seed: each chunk's copy and kernel in its own stream.
    CHECK(cudaEventRecord(t0, 0));
    // --- the seed's code, unmodified ---
size_t chunk = n / nStreams;
for (int s = 0; s < nStreams; ++s) {
    size_t off = s * chunk;
    cudaMemcpyAsync(d_x + off, h_x + off, chunk * sizeof(float),
                    cudaMemcpyHostToDevice, stream[s]);
    process<<<chunk / 256, 256, 0, stream[s]>>>(d_x + off, chunk);
}
cudaDeviceSynchronize();
    // --- end of the seed's code ---
    CHECK(cudaEventRecord(t1, 0));
    CHECK(cudaEventSynchronize(t1));
    CHECK(cudaGetLastError());
    CHECK(cudaEventElapsedTime(&ms_streams, t0, t1));

    float* result = (float*)malloc(n * sizeof(float));
    CHECK(cudaMemcpy(result, d_x, n * sizeof(float), cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t i = 0; i < n && bad < 10; i += 997) {
        float want = host_process((float)(i % 1000) * 0.001f);
        if (!(fabsf(result[i] - want) <= 1e-3f)) {
            if (bad == 0) fprintf(stderr, "x[%zu] = %f, want %f\n", i, result[i], want);
            ++bad;
        }
    }
    printf("time: copy alone %.3f ms, kernel alone %.3f ms\n", ms_copy, ms_kernel);
    printf("time: sequential %.3f ms, %d streams %.3f ms (estimate t_E + t_T/%d = %.3f ms)\n", ms_seq,
           nStreams, ms_streams, nStreams, ms_kernel + ms_copy / nStreams);
    printf("%s\n", bad == 0 ? "PASS" : "FAIL");

    free(result);
    for (int s = 0; s < nStreams; ++s) CHECK(cudaStreamDestroy(stream[s]));
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    CHECK(cudaEventDestroy(t2));
    CHECK(cudaFree(d_x));
    CHECK(cudaFreeHost(h_x));
    return bad == 0 ? 0 : 1;
}
