// sim/runtime/api_stream.cpp — streams on the simulated clock.
// Not implemented yet: each entry point says so once and returns cudaErrorNotSupported (runtime.hpp).
#include "sim/runtime/runtime.hpp"

using warpsim::runtime::not_supported;

extern "C" {

cudaError_t cudaStreamCreate(cudaStream_t*) { return not_supported("cudaStreamCreate"); }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t*, unsigned int) { return not_supported("cudaStreamCreateWithFlags"); }
cudaError_t cudaStreamCreateWithPriority(cudaStream_t*, unsigned int, int) { return not_supported("cudaStreamCreateWithPriority"); }
cudaError_t cudaStreamDestroy(cudaStream_t) { return not_supported("cudaStreamDestroy"); }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return not_supported("cudaStreamSynchronize"); }
cudaError_t cudaStreamQuery(cudaStream_t) { return not_supported("cudaStreamQuery"); }
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int) { return not_supported("cudaStreamWaitEvent"); }
cudaError_t cudaLaunchHostFunc(cudaStream_t, cudaHostFn_t, void*) { return not_supported("cudaLaunchHostFunc"); }
cudaError_t cudaStreamAddCallback(cudaStream_t, cudaStreamCallback_t, void*, unsigned int) { return not_supported("cudaStreamAddCallback"); }
cudaError_t cudaDeviceGetStreamPriorityRange(int*, int*) { return not_supported("cudaDeviceGetStreamPriorityRange"); }
cudaError_t cudaStreamGetFlags(cudaStream_t, unsigned int*) { return not_supported("cudaStreamGetFlags"); }
cudaError_t cudaStreamGetPriority(cudaStream_t, int*) { return not_supported("cudaStreamGetPriority"); }

}  // extern "C"
