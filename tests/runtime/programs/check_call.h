// tests/runtime/programs/check_call.h: CHECK(call) for the graph programs: a call that fails prints where,
// what and the error's name, and main returns 1.
#pragma once
#include <cuda_runtime.h>
#include <cstdio>

#define CHECK(call)                                                                     \
    do {                                                                                \
        cudaError_t e_ = (call);                                                        \
        if (e_ != cudaSuccess) {                                                        \
            printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_)); \
            return 1;                                                                   \
        }                                                                               \
    } while (0)
