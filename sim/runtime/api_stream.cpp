// sim/runtime/api_stream.cpp — streams on the simulated clock (sim/timing/stream_clock.hpp): creation and
// destruction, synchronisation and queries, cross-stream waits on events, host functions in stream order.
// Work runs when the program asks for it (the simulator executes in call order); the clock says when it
// would have run on the GPU.
#include "sim/runtime/runtime.hpp"

#include "sim/runtime/graph.hpp"
#include "sim/runtime/streams.hpp"

using warpsim::runtime::Runtime;
using warpsim::runtime::Streams;

namespace {

cudaError_t create(cudaStream_t* out, unsigned flags, int priority) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!out || (flags & ~unsigned{cudaStreamNonBlocking}) != 0)
        return Runtime::finish(cudaErrorInvalidValue);
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    *out = rt.streams().create_stream(flags, priority, rt.clock());
    return cudaSuccess;
}

// A host function in stream order: it runs now (everything before it in the stream has run), outside the
// runtime's lock, since CUDA runs it on a thread of its own.
template <class Call>
cudaError_t host_function(cudaStream_t stream, Call call) {
    Runtime& rt = Runtime::get();
    {
        auto guard = rt.lock();
        if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
        if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
        rt.clock().marker(Runtime::stream_id(stream));
    }
    call();
    return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t cudaStreamCreate(cudaStream_t* stream) {
    return create(stream, cudaStreamDefault, 0);
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
    return create(stream, flags, 0);
}
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority) {
    return create(stream, flags, priority);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().destroy_stream(stream, rt.clock()))
        return Runtime::finish(cudaErrorInvalidResourceHandle);
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    if (cudaError_t e = warpsim::runtime::refuse_while_capturing(rt, stream)) return Runtime::finish(e);
    if (cudaError_t e = warpsim::runtime::refuse_implicit_sync(rt, stream)) return Runtime::finish(e);
    auto& clock = rt.clock();
    clock.host_wait(clock.stream_end(Runtime::stream_id(stream)));
    return Runtime::finish(rt.synchronized());
}

// cudaErrorNotReady is an answer, not an error: it does not become the thread's last error (as measured).
cudaError_t cudaStreamQuery(cudaStream_t stream) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    if (cudaError_t e = warpsim::runtime::refuse_while_capturing(rt, stream)) return Runtime::finish(e);
    auto& clock = rt.clock();
    if (!clock.host_poll(clock.stream_end(Runtime::stream_id(stream)))) return cudaErrorNotReady;
    return Runtime::finish(rt.synchronized());
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().valid_stream(stream) || !rt.streams().valid_event(event))
        return Runtime::finish(cudaErrorInvalidResourceHandle);
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    if (cudaError_t e = warpsim::runtime::refuse_implicit_sync(rt, stream)) return Runtime::finish(e);
    if (auto captured = warpsim::runtime::capture_event_wait(rt, stream, event, flags))
        return Runtime::finish(*captured);
    if (event->recorded) rt.clock().wait_until(Runtime::stream_id(stream), event->time_us);
    return cudaSuccess;
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* data) {
    if (!fn) return Runtime::finish(cudaErrorInvalidValue);
    {
        Runtime& rt = Runtime::get();
        auto guard = rt.lock();
        if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
        if (cudaError_t e = warpsim::runtime::refuse_implicit_sync(rt, stream)) return Runtime::finish(e);
        if (CUstream_st* capturing = warpsim::runtime::capture_target(rt, stream))
            return Runtime::finish(
                warpsim::runtime::capture_add(*capturing, warpsim::runtime::GraphStep::host(fn, data)));
    }
    return host_function(stream, [&] { fn(data); });
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* data,
                                  unsigned int flags) {
    if (!callback || flags != 0) return Runtime::finish(cudaErrorInvalidValue);
    return host_function(stream, [&] { callback(stream, cudaSuccess, data); });
}

// Stream priorities order nothing on the simulated clock; the range is the one CUDA documents for devices
// with priorities (0 = lowest, -5 = highest on compute capability 7.0 and later).
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
    if (least) *least = 0;
    if (greatest) *greatest = -5;
    return cudaSuccess;
}

cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int* flags) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!flags) return Runtime::finish(cudaErrorInvalidValue);
    if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    const bool own = stream != nullptr && stream != cudaStreamLegacy && stream != cudaStreamPerThread;
    *flags = own ? stream->flags : cudaStreamDefault;
    return cudaSuccess;
}

cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!priority) return Runtime::finish(cudaErrorInvalidValue);
    if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    const bool own = stream != nullptr && stream != cudaStreamLegacy && stream != cudaStreamPerThread;
    *priority = own ? stream->priority : 0;
    return cudaSuccess;
}

}  // extern "C"

// The per-thread-default-stream spellings (nvcc --default-stream per-thread): stream 0 is the calling
// thread's default stream there.
namespace {
cudaStream_t per_thread(cudaStream_t s) {
    return s == nullptr ? cudaStreamPerThread : s;
}
}  // namespace

extern "C" {
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s) {
    return cudaStreamSynchronize(per_thread(s));
}
cudaError_t cudaStreamQuery_ptsz(cudaStream_t s) {
    return cudaStreamQuery(per_thread(s));
}
cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t s, cudaEvent_t e, unsigned int flags) {
    return cudaStreamWaitEvent(per_thread(s), e, flags);
}
cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t s, cudaHostFn_t fn, void* data) {
    return cudaLaunchHostFunc(per_thread(s), fn, data);
}
cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t s, cudaStreamCallback_t cb, void* data,
                                       unsigned int flags) {
    return cudaStreamAddCallback(per_thread(s), cb, data, flags);
}
cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t s, unsigned int* flags) {
    return cudaStreamGetFlags(per_thread(s), flags);
}
cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t s, int* p) {
    return cudaStreamGetPriority(per_thread(s), p);
}
cudaError_t cudaEventRecord_ptsz(cudaEvent_t e, cudaStream_t s) {
    return cudaEventRecord(e, per_thread(s));
}
cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t e, cudaStream_t s, unsigned int flags) {
    return cudaEventRecordWithFlags(e, per_thread(s), flags);
}
}  // extern "C"
