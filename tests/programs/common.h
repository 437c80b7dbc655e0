// What every program of the corpus shares: CHECK() on each runtime call, and the PASS/FAIL ending.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                          \
    do {                                                                                     \
        cudaError_t check_err_ = (call);                                                     \
        if (check_err_ != cudaSuccess) {                                                     \
            fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call,        \
                    cudaGetErrorString(check_err_), cudaGetErrorName(check_err_));           \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

// Checks the launch just made and waits for it, so that a fault is reported at the kernel that caused it.
#define CHECK_LAUNCH()                      \
    do {                                    \
        CHECK(cudaGetLastError());          \
        CHECK(cudaDeviceSynchronize());     \
    } while (0)

inline int finish(bool ok) {
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
