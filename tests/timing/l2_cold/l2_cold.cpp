// The launch time of examples/vector_add.ptx and examples/saxpy.ptx with the L2 warm (the launch repeated,
// as CUDA-event timing does) and cold (a 512 MiB write flushes the L2 before every timed launch, as Nsight
// Compute's --cache-control all does): median of 20 CUDA-event timings after 3 warm-ups. The PTX is loaded
// with the driver API, so the code timed is the code warpsim runs. Prints one line per launch:
//   kernel n blocks warm_us cold_dirty_us cold_clean_us
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cuda_check.h"

static std::string read_file(const char* path) {
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", path);
        std::exit(1);
    }
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Reads n float4 and keeps one sum per thread: fills the L2 with clean lines.
__global__ void read_all(const float4* in, long long n, float* sink) {
    float v = 0.0f;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)blockDim.x * gridDim.x)
        v += in[i].x;
    sink[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

static float median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: l2_cold VECTOR_ADD_PTX SAXPY_PTX\n");
        return 2;
    }
    CHECK(cudaFree(nullptr));
    std::string vadd_ptx = read_file(argv[1]), saxpy_ptx = read_file(argv[2]);
    CUmodule mv, ms;
    CHECK(cuModuleLoadData(&mv, vadd_ptx.c_str()));
    CHECK(cuModuleLoadData(&ms, saxpy_ptx.c_str()));
    CUfunction vadd, saxpy;
    CHECK(cuModuleGetFunction(&vadd, mv, "_Z10vector_addPKfS0_Pfi"));
    CHECK(cuModuleGetFunction(&saxpy, ms, "_Z5saxpyfPKfPfi"));

    const size_t max_n = size_t(1) << 24;
    float *a, *b, *c;
    CHECK(cudaMalloc(&a, max_n * 4));
    CHECK(cudaMalloc(&b, max_n * 4));
    CHECK(cudaMalloc(&c, max_n * 4));
    std::vector<float> host(max_n);
    for (size_t i = 0; i < max_n; ++i) host[i] = float(i % 977) * 0.01f;
    CHECK(cudaMemcpy(a, host.data(), max_n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, host.data(), max_n * 4, cudaMemcpyHostToDevice));
    const size_t flush_bytes = size_t(512) << 20;
    void *flush, *flush2;
    float* sink;
    CHECK(cudaMalloc(&flush, flush_bytes));
    CHECK(cudaMalloc(&flush2, flush_bytes));
    CHECK(cudaMemset(flush2, 0, flush_bytes));
    CHECK(cudaMalloc(&sink, 1024 * 256 * sizeof(float)));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));

    // cold 1: the flush writes 512 MiB (the L2 then holds dirty lines of it, written back during the launch);
    // cold 2: it also reads another 512 MiB (the L2 then holds clean lines only). Both wait for the flush to
    // end before the first event, so that the launch starts on an idle GPU as the warm one does.
    auto time_one = [&](CUfunction f, void** params, unsigned blocks, int cold) {
        if (cold >= 1) CHECK(cudaMemsetAsync(flush, 0x5a, flush_bytes));
        if (cold >= 2) {
            read_all<<<1024, 256>>>(static_cast<const float4*>(flush2), flush_bytes / 16, sink);
            CHECK(cudaGetLastError());
        }
        if (cold >= 1) CHECK(cudaDeviceSynchronize());
        CHECK(cudaEventRecord(e0));
        CHECK(cuLaunchKernel(f, blocks, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        float ms_ = 0;
        CHECK(cudaEventElapsedTime(&ms_, e0, e1));
        return ms_ * 1000.0f;
    };
    auto measure = [&](const char* name, CUfunction f, void** params, int n) {
        unsigned blocks = unsigned((n + 255) / 256);
        float out[3];
        for (int cold = 0; cold < 3; ++cold) {
            std::vector<float> t;
            for (int r = 0; r < 23; ++r) {
                float us = time_one(f, params, blocks, cold);
                if (r >= 3) t.push_back(us);
            }
            out[cold] = median(t);
        }
        std::printf("%s %d %u %.3f %.3f %.3f\n", name, n, blocks, out[0], out[1], out[2]);
    };
    for (int log_n : {16, 18, 20, 21, 22, 23, 24}) {
        int n = 1 << log_n;
        void* params[] = {&a, &b, &c, &n};
        measure("vector_add", vadd, params, n);
    }
    for (int log_n : {20, 22, 24}) {
        int n = 1 << log_n;
        float alpha = 3.0f;
        void* params[] = {&alpha, &a, &c, &n};
        measure("saxpy", saxpy, params, n);
    }
    int driver = 0;
    CHECK(cudaDriverGetVersion(&driver));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("# %s, driver API %d\n", prop.name, driver);
    return 0;
}
