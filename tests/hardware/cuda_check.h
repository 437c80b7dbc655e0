// tests/hardware/cuda_check.h — CHECK(call) for the probe programs that measure the GPU (tests/timing/*,
// tests/hardware/*, tests/sass/cases): a CUDA runtime or driver API call that fails prints the file, line,
// call and CUDA's words, and the program exits with 1. The measure.sh scripts compile them with
// -I tests/hardware.
#pragma once

#include <cstdio>
#include <cstdlib>

#include <cuda.h>
#include <cuda_runtime.h>

namespace probe {

inline void check_result(cudaError_t e, const char* file, int line, const char* call) {
    if (e == cudaSuccess) return;
    std::fprintf(stderr, "%s:%d: %s: %s\n", file, line, call, cudaGetErrorString(e));
    std::exit(1);
}

// Only a program that calls the driver API uses this one (and links -lcuda).
inline void check_result(CUresult r, const char* file, int line, const char* call) {
    if (r == CUDA_SUCCESS) return;
    const char* words = nullptr;
    cuGetErrorString(r, &words);
    std::fprintf(stderr, "%s:%d: %s: %s\n", file, line, call, words ? words : "?");
    std::exit(1);
}

}  // namespace probe

#define CHECK(call) probe::check_result((call), __FILE__, __LINE__, #call)
