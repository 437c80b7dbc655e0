// sim/runtime/api_sync.cpp — cudaDeviceSynchronize and cudaDeviceReset: where device printf output appears
// and where a fault of an earlier kernel is reported (kernels run to completion when they are launched).
#include "sim/runtime/runtime.hpp"

using warpsim::runtime::Runtime;

extern "C" {

cudaError_t cudaDeviceSynchronize(void) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    return Runtime::finish(rt.synchronize());
}

// Destroys the context in CUDA: printf output is flushed; the sticky state stays here, since the simulated
// memory would have to be released under the program's live pointers (a new context would not know them).
cudaError_t cudaDeviceReset(void) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    rt.flush_printf();
    return cudaSuccess;
}

}  // extern "C"
