// tests/sass/cases/measure_cases.cu — launches every kernel of the SASS case cubins (made by ptxas from
// sass_cases.ptx and lds_merge.ptx, the very code the corpus disassembles) once each through the driver
// API, so Nsight Compute can count them: `measure_cases CUBIN_DIR`. Inputs as the launch specs of
// tests/sass/specs give them: in = iota over 1<<22 f32, out = zero over 1<<22 f32.
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuda_check.h"

struct Launch {
    const char* cubin;
    const char* kernel;
    unsigned grid[3], block[3];
    int n;     // the third argument of (in, out, n) kernels; -1: (out) only; -2: (out, trips=n2)
    int n2;
};

static const Launch kLaunches[] = {
    {"sass_cases", "reduce_interleaved", {64, 1, 1}, {256, 1, 1}, 16384, 0},
    {"sass_cases", "reduce_strided_index", {64, 1, 1}, {256, 1, 1}, 16384, 0},
    {"sass_cases", "reduce_sequential", {64, 1, 1}, {256, 1, 1}, 16384, 0},
    {"sass_cases", "reduce_warp_unrolled", {32, 1, 1}, {256, 1, 1}, 16384, 0},
    {"sass_cases", "matmul_tile16", {16, 16, 1}, {16, 16, 1}, 256, 0},
    {"sass_cases", "matmul_tile32", {8, 8, 1}, {32, 32, 1}, 256, 0},
    {"sass_cases", "matmul_tile8", {32, 32, 1}, {8, 8, 1}, 256, 0},
    {"sass_cases", "shared_widths", {16, 1, 1}, {256, 1, 1}, 4096, 0},
    {"sass_cases", "global_widths", {16, 1, 1}, {256, 1, 1}, 4096, 0},
    {"sass_cases", "local_array", {16, 1, 1}, {256, 1, 1}, 4096, 0},
    {"sass_cases", "atomics", {16, 1, 1}, {256, 1, 1}, 4096, 0},
    {"sass_cases", "warp_ops", {16, 1, 1}, {256, 1, 1}, 4096, 0},
    {"sass_cases", "branches", {16, 1, 1}, {256, 1, 1}, 4096, 0},
    {"sass_cases", "transpose_padded", {8, 8, 1}, {32, 8, 1}, 256, 0},
    {"sass_cases", "histogram_shared", {16, 1, 1}, {256, 1, 1}, 65536, 0},
    {"lds_merge", "merge4", {4, 1, 1}, {256, 1, 1}, -1, 0},
    {"lds_merge", "merge2", {4, 1, 1}, {256, 1, 1}, -1, 0},
    {"lds_merge", "nomerge_unaligned", {4, 1, 1}, {256, 1, 1}, -1, 0},
    {"lds_merge", "merge_store4", {4, 1, 1}, {256, 1, 1}, -1, 0},
    {"lds_merge", "predicated_step", {4, 1, 1}, {256, 1, 1}, -1, 0},
    {"lds_merge", "counted_loop", {4, 1, 1}, {256, 1, 1}, -2, 10},
};

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: measure_cases CUBIN_DIR\n");
        return 2;
    }
    const size_t count = size_t(1) << 22;
    CHECK(cuInit(0));
    CUdevice dev;
    CHECK(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));
    std::vector<float> host(count);
    for (size_t k = 0; k < count; ++k) host[k] = float(k);
    CUdeviceptr in, out;
    CHECK(cuMemAlloc(&in, count * 4));
    CHECK(cuMemAlloc(&out, count * 4));
    CHECK(cuMemcpyHtoD(in, host.data(), count * 4));
    for (const Launch& l : kLaunches) {
        std::string path = std::string(argv[1]) + "/" + l.cubin + ".cubin";
        CUmodule mod;
        CHECK(cuModuleLoad(&mod, path.c_str()));
        CUfunction f;
        CHECK(cuModuleGetFunction(&f, mod, l.kernel));
        CHECK(cuMemsetD8(out, 0, count * 4));
        int n = l.n, trips = l.n2;
        void* args3[] = {&in, &out, &n};
        void* args1[] = {&out};
        void* args2[] = {&out, &trips};
        void** args = l.n >= 0 ? args3 : l.n == -1 ? args1 : args2;
        CHECK(cuLaunchKernel(f, l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2], 0, nullptr, args,
                             nullptr));
        CHECK(cuCtxSynchronize());
        std::vector<unsigned char> back(count * 4);
        CHECK(cuMemcpyDtoH(back.data(), out, count * 4));
        unsigned long long h = 14695981039346656037ull;
        for (unsigned char b : back) h = (h ^ b) * 1099511628211ull;
        std::printf("%s %s out_fnv1a=%016llx\n", l.cubin, l.kernel, h);
        CHECK(cuModuleUnload(mod));
    }
    return 0;
}
