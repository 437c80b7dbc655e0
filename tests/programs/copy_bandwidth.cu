// Host-device copy times for the copy model: pinned and pageable memory, both directions, device to
// device, sizes 4 KB to 256 MB (median of several copies timed with events), and whether an H2D and a
// D2H copy in two streams overlap (more than one copy engine). Usage: copy_bandwidth [max_mb]
#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>
#include "common.h"

static float median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main(int argc, char** argv) {
    size_t max_bytes = (size_t)(argc > 1 ? atoi(argv[1]) : 256) << 20;
    char *pinned, *pageable, *dev, *dev2;
    CHECK(cudaMallocHost(&pinned, max_bytes));
    pageable = (char*)malloc(max_bytes);
    memset(pageable, 1, max_bytes);
    memset(pinned, 1, max_bytes);
    CHECK(cudaMalloc(&dev, max_bytes));
    CHECK(cudaMalloc(&dev2, max_bytes));
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    struct Kind {
        const char* name;
        char* dst;
        const char* src;
        cudaMemcpyKind kind;
    };
    const Kind kinds[] = {{"pinned H2D", dev, pinned, cudaMemcpyHostToDevice},
                          {"pinned D2H", pinned, dev, cudaMemcpyDeviceToHost},
                          {"pageable H2D", dev, pageable, cudaMemcpyHostToDevice},
                          {"pageable D2H", pageable, dev, cudaMemcpyDeviceToHost},
                          {"D2D", dev2, dev, cudaMemcpyDeviceToDevice}};
    for (const Kind& k : kinds) {
        for (size_t bytes = 4096; bytes <= max_bytes; bytes *= 4) {
            int reps = bytes <= (1 << 20) ? 21 : 7;
            std::vector<float> ev, wall;
            CHECK(cudaMemcpy(k.dst, k.src, bytes, k.kind));
            for (int r = 0; r < reps; ++r) {
                auto t0 = std::chrono::steady_clock::now();
                CHECK(cudaEventRecord(a));
                CHECK(cudaMemcpyAsync(k.dst, k.src, bytes, k.kind));
                CHECK(cudaEventRecord(b));
                CHECK(cudaEventSynchronize(b));
                auto t1 = std::chrono::steady_clock::now();
                float ms = 0;
                CHECK(cudaEventElapsedTime(&ms, a, b));
                ev.push_back(ms * 1000.0f);
                wall.push_back(std::chrono::duration<float, std::micro>(t1 - t0).count());
            }
            float us = median(ev);
            printf("copy %-12s %10zu B: events %10.2f us (%7.2f GB/s), host wall %10.2f us\n", k.name, bytes, us,
                   bytes / (us * 1e-6) / 1e9, median(wall));
        }
    }
    // Overlap of the two directions: the same bytes each way, alone and together.
    size_t bytes = std::min(max_bytes, (size_t)64 << 20);
    cudaStream_t s1, s2;
    CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    auto timed = [&](bool h2d, bool d2h) {
        CHECK(cudaDeviceSynchronize());
        auto t0 = std::chrono::steady_clock::now();
        if (h2d) CHECK(cudaMemcpyAsync(dev, pinned, bytes, cudaMemcpyHostToDevice, s1));
        if (d2h) CHECK(cudaMemcpyAsync(pinned + bytes, dev2, bytes, cudaMemcpyDeviceToHost, s2));
        CHECK(cudaDeviceSynchronize());
        return std::chrono::duration<float, std::micro>(std::chrono::steady_clock::now() - t0).count();
    };
    if (2 * bytes <= max_bytes) {
        timed(true, true);
        printf("copy overlap %zu B: H2D alone %.1f us, D2H alone %.1f us, both at once %.1f us\n", bytes,
               timed(true, false), timed(false, true), timed(true, true));
    }
    int engines = 0;
    CHECK(cudaDeviceGetAttribute(&engines, cudaDevAttrAsyncEngineCount, 0));
    printf("asyncEngineCount %d\n", engines);
    CHECK(cudaFreeHost(pinned));
    free(pageable);
    CHECK(cudaFree(dev));
    CHECK(cudaFree(dev2));
    return 0;
}
