// tests/hardware/sanitizer_planted.cu — the planted bugs of `warpsim check` as one CUDA program to run under
// compute-sanitizer: `sanitizer_planted CASE` launches one kernel with the shape and data of its launch spec
// (inputs iota, outputs zero, both written from the host as warpsim's specs are) and prints whether the
// launch failed and the FNV-1a 64 hash of each buffer. Built by sanitizer_planted.sh with
// nvcc -arch=sm_90 -lineinfo, so the tools name the .cu lines the checker tests use.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "../../examples/launch_errors.cu"
#include "../../examples/reverse_blocks.cu"
#include "../check/data/planted.cu"

namespace {

struct Buffers {
    std::vector<float*> device;
    std::vector<size_t> counts;

    float* iota(size_t n) {
        std::vector<float> h(n);
        for (size_t k = 0; k < n; ++k) h[k] = static_cast<float>(k);
        float* d = nullptr;
        cudaMalloc(&d, n * sizeof(float));
        cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
        device.push_back(d);
        counts.push_back(n);
        return d;
    }
    float* zero(size_t n) {
        float* d = nullptr;
        cudaMalloc(&d, n * sizeof(float));
        cudaMemset(d, 0, n * sizeof(float));
        device.push_back(d);
        counts.push_back(n);
        return d;
    }
    void print_hashes() {
        for (size_t b = 0; b < device.size(); ++b) {
            std::vector<unsigned char> h(counts[b] * sizeof(float));
            if (cudaMemcpy(h.data(), device[b], h.size(), cudaMemcpyDeviceToHost) != cudaSuccess) {
                std::printf("buffer %zu: not read back\n", b);
                continue;
            }
            uint64_t x = 0xcbf29ce484222325ull;
            for (unsigned char c : h) x = (x ^ c) * 0x100000001b3ull;
            std::printf("buffer %zu: fnv1a %016llx\n", b, static_cast<unsigned long long>(x));
        }
    }
};

// Launches case `name` (the spec's file name without .json); false when the name is unknown.
bool launch(const char* name, Buffers& b) {
    auto is = [&](const char* n) { return std::strcmp(name, n) == 0; };
    if (is("launch_error_off_by_one")) {
        float *a = b.iota(1000), *x = b.iota(1000), *c = b.zero(1000);
        vecAdd_off_by_one<<<4, 256>>>(a, x, c, 1000);
    } else if (is("launch_error_barrier_in_branch")) {
        barrier_in_branch<<<1, 256>>>(b.zero(256));
    } else if (is("reverse_blocks_nosync_4096") || is("reverse_blocks_4096")) {
        float *in = b.iota(4096), *out = b.zero(4096);
        if (is("reverse_blocks_4096")) reverse_blocks<<<16, 256, 1024>>>(in, out, 4096);
        else reverse_blocks_nosync<<<16, 256, 1024>>>(in, out, 4096);
    } else if (is("shfl_wrong_mask")) {
        float *in = b.iota(128), *out = b.zero(128);
        shfl_wrong_mask<<<2, 64>>>(in, out);
    } else if (is("shfl_after_return")) {
        float *in = b.iota(64), *out = b.zero(64);
        shfl_after_return<<<1, 64>>>(in, out, 40);
    } else if (is("unwritten_tile")) {
        float *in = b.iota(128), *out = b.zero(128);
        unwritten_tile<<<2, 64>>>(in, out);
    } else if (is("tile_loop_one_sync")) {
        float *in = b.iota(512), *out = b.zero(128);
        tile_loop_one_sync<<<1, 128>>>(in, out, 4);
    } else if (is("return_before_barrier")) {
        float *in = b.iota(256), *out = b.zero(256);
        return_before_barrier<<<1, 256>>>(in, out, 200);
    } else if (is("global_flag_no_sync")) {
        float *in = b.iota(4), *partial = b.zero(4), *out = b.zero(512);
        global_flag_no_sync<<<4, 128>>>(in, partial, out);
    } else if (is("shfl_group_mask")) {
        float *in = b.iota(128), *out = b.zero(128);
        shfl_group_mask<<<2, 64>>>(in, out);
    } else if (is("syncwarp_after_return")) {
        float *in = b.iota(64), *out = b.zero(64);
        syncwarp_after_return<<<1, 64>>>(in, out, 40);
    } else {
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: sanitizer_planted CASE (a spec name, e.g. shfl_wrong_mask)\n");
        return 2;
    }
    Buffers b;
    if (!launch(argv[1], b)) {
        std::fprintf(stderr, "sanitizer_planted: unknown case '%s'\n", argv[1]);
        return 2;
    }
    const cudaError_t launched = cudaGetLastError();
    const cudaError_t synced = cudaDeviceSynchronize();
    std::printf("%s: launch %s, synchronize %s\n", argv[1], cudaGetErrorName(launched), cudaGetErrorName(synced));
    if (synced == cudaSuccess) b.print_hashes();
    return synced == cudaSuccess ? 0 : 1;
}
