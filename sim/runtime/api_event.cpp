// sim/runtime/api_event.cpp — events on the simulated clock: a record is the time at which its stream's
// earlier work ends (sim/timing/stream_clock.hpp); elapsed times, queries and waits read that clock.
// The answers for events never recorded or made without timing are the H200's (tests/hardware/programs).
#include "sim/runtime/runtime.hpp"

#include "sim/runtime/graph.hpp"

#include "sim/runtime/streams.hpp"

using warpsim::runtime::Runtime;
using warpsim::runtime::Streams;

namespace {

cudaError_t create(cudaEvent_t* event, unsigned flags) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    constexpr unsigned known = cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
    if (!event || (flags & ~known) != 0) return Runtime::finish(cudaErrorInvalidValue);
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    *event = rt.streams().create_event(flags);
    return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t cudaEventCreate(cudaEvent_t* event) {
    return create(event, cudaEventDefault);
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
    return create(event, flags);
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().destroy_event(event)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    return cudaSuccess;
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().valid_event(event) || !rt.streams().valid_stream(stream))
        return Runtime::finish(cudaErrorInvalidResourceHandle);
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    if (cudaError_t e = warpsim::runtime::refuse_implicit_sync(rt, stream)) return Runtime::finish(e);
    if (auto captured = warpsim::runtime::capture_event_record(rt, event, stream, flags))
        return Runtime::finish(*captured);
    event->time_us = rt.clock().marker(Runtime::stream_id(stream));
    event->recorded = true;
    event->capture_id = 0;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
    return cudaEventRecordWithFlags(event, stream, 0);
}

// An event never recorded has nothing to wait for: success, as the H200 answered.
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().valid_event(event)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    if (event->recorded) rt.clock().host_wait(event->time_us);
    return Runtime::finish(rt.synchronized());
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().valid_event(event)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    if (event->recorded && !rt.clock().host_poll(event->time_us)) return cudaErrorNotReady;
    return Runtime::finish(rt.synchronized());
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!ms) return Runtime::finish(cudaErrorInvalidValue);
    auto& s = rt.streams();
    if (!s.valid_event(start) || !s.valid_event(end)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    // Unrecorded, or made with cudaEventDisableTiming: cudaErrorInvalidResourceHandle on the H200.
    if (!start->recorded || !end->recorded || ((start->flags | end->flags) & cudaEventDisableTiming) != 0)
        return Runtime::finish(cudaErrorInvalidResourceHandle);
    const double now = rt.clock().host_now();
    if (start->time_us > now || end->time_us > now) return Runtime::finish(cudaErrorNotReady);
    *ms = static_cast<float>((end->time_us - start->time_us) / 1000.0);
    return cudaSuccess;
}

}  // extern "C"
