// sim/runtime/api_event.cpp — events on the simulated clock.
// Not implemented yet: each entry point says so once and returns cudaErrorNotSupported (runtime.hpp).
#include "sim/runtime/runtime.hpp"

using warpsim::runtime::not_supported;

extern "C" {

cudaError_t cudaEventCreate(cudaEvent_t*) { return not_supported("cudaEventCreate"); }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t*, unsigned int) { return not_supported("cudaEventCreateWithFlags"); }
cudaError_t cudaEventDestroy(cudaEvent_t) { return not_supported("cudaEventDestroy"); }
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t) { return not_supported("cudaEventRecord"); }
cudaError_t cudaEventRecordWithFlags(cudaEvent_t, cudaStream_t, unsigned int) { return not_supported("cudaEventRecordWithFlags"); }
cudaError_t cudaEventSynchronize(cudaEvent_t) { return not_supported("cudaEventSynchronize"); }
cudaError_t cudaEventQuery(cudaEvent_t) { return not_supported("cudaEventQuery"); }
cudaError_t cudaEventElapsedTime(float*, cudaEvent_t, cudaEvent_t) { return not_supported("cudaEventElapsedTime"); }

}  // extern "C"
