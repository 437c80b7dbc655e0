// sim/runtime/api_error.cpp — the runtime's errors: per-thread last error, sticky faults, names and strings
// (error_table.def, NVIDIA's own words for every code).
#include "sim/runtime/runtime.hpp"

#include <string_view>

namespace warpsim::runtime {
namespace {

struct ErrorEntry {
    int code;
    const char* name;
    const char* text;
};

constexpr ErrorEntry kErrors[] = {
#define WARPSIM_CUDA_ERROR(code, name, text) {code, #name, text},
#include "sim/runtime/error_table.def"
#undef WARPSIM_CUDA_ERROR
};

const ErrorEntry* find_error(int code) {
    for (const auto& e : kErrors)
        if (e.code == code) return &e;
    return nullptr;
}

}  // namespace

cudaError_t error_code(const std::string& name) {
    for (const auto& e : kErrors)
        if (name == e.name) return static_cast<cudaError_t>(e.code);
    return cudaErrorUnknown;
}

const char* error_name(cudaError_t code) {
    const ErrorEntry* e = find_error(static_cast<int>(code));
    return e ? e->name : "unrecognized error code";
}

const char* error_string(cudaError_t code) {
    const ErrorEntry* e = find_error(static_cast<int>(code));
    return e ? e->text : "unrecognized error code";
}

}  // namespace warpsim::runtime

extern "C" {

// The last error of this host thread, reset to cudaSuccess. A sticky fault is no exception: the call that
// reported it set it as the last error, cudaGetLastError returns it once and then cudaSuccess, while every
// other call keeps failing with it and sets it again (as the H200 answered: tests/hardware/programs,
// error.bad_pointer and the other fault cases).
cudaError_t cudaGetLastError(void) {
    cudaError_t& last = warpsim::runtime::thread_last_error();
    const cudaError_t e = last;
    last = cudaSuccess;
    return e;
}

cudaError_t cudaPeekAtLastError(void) {
    return warpsim::runtime::thread_last_error();
}

const char* cudaGetErrorName(cudaError_t error) {
    return warpsim::runtime::error_name(error);
}

const char* cudaGetErrorString(cudaError_t error) {
    return warpsim::runtime::error_string(error);
}

}  // extern "C"
