// tests/hardware/approx_scaling/launch_cubin.cu: loads the cubin ptxas made of tests/sass/cases/approx_scaling.ptx
// and launches each kernel named on the command line once, one block of 64 threads, one float per thread
// (for Nsight Compute's instruction totals; the outputs are not looked at).
#include <cstdio>
#include <cuda.h>

#include "cuda_check.h"

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: launch_cubin CUBIN KERNEL...\n");
        return 2;
    }
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUdeviceptr out;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuCtxCreate(&ctx, nullptr, 0, dev));
    CHECK(cuModuleLoad(&mod, argv[1]));
    CHECK(cuMemAlloc(&out, 64 * sizeof(float)));
    for (int k = 2; k < argc; ++k) {
        CUfunction f;
        CHECK(cuModuleGetFunction(&f, mod, argv[k]));
        void* args[] = {&out};
        CHECK(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nullptr, args, nullptr));
        CHECK(cuCtxSynchronize());
    }
    CHECK(cuMemFree(out));
    CHECK(cuCtxDestroy(ctx));
    return 0;
}
