// The simulated clock of a CUDA program: streams, events, copy engines and the host, as the runtime
// (sim/runtime) sees them. Work runs functionally when the program asks for it; this clock only says when it
// would have started and ended on the GPU, so that events, queries and timelines tell the program's time.
//
// Rules (the CUDA runtime's, CUDA Programming Guide "Streams" and "Implicit Synchronization"):
// - work in one stream runs in order; an operation starts when its stream's previous work, the engine it
//   needs (compute, or the copy engine of its direction) and the host (the time of the call) allow;
// - the legacy default stream (stream 0) waits for all earlier work of the blocking streams, and blocking
//   streams wait for all earlier work of the legacy stream; non-blocking streams are not ordered by it;
// - kernels run one at a time on the compute engine; copies on copy engines (copy_engines of the preset:
//   H2D on the first, D2H on the second when there are two or more, device-to-device on the third when
//   there are three, else on the compute engine);
// - the host's time advances only when it waits (a synchronising call) or polls (a query answered "not
//   ready" advances it part of the way, so that a polling loop ends).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/device/device.hpp"

namespace warpsim::timing {

enum class CopyKind { host_to_device, device_to_host, device_to_device, host_to_host };

// How long a copy takes: latency + bytes / bandwidth of the preset's host link for the direction and memory.
struct CopyModel {
    device::CopyLink pinned_h2d, pinned_d2h, pageable_h2d, pageable_d2h, device_to_device;
    int copy_engines = 1;

    // The preset's cuda_runtime section, or the H200's where the preset has none.
    static CopyModel for_preset(const device::DevicePreset& preset);
    double copy_us(CopyKind kind, std::uint64_t bytes, bool pinned) const;
    // cudaMemset: the device-to-device copy of the same bytes (not measured on its own).
    double memset_us(std::uint64_t bytes) const;
};

struct Interval {
    double start_us = 0, end_us = 0;
};

class StreamClock {
  public:
    using StreamId = std::uint64_t;  // the cudaStream_t as a number; 0 is the legacy default stream
    static constexpr StreamId legacy_stream = 0;

    explicit StreamClock(CopyModel copies) : copies_(copies) {}

    const CopyModel& copies() const { return copies_; }

    // A stream the program created (cudaStreamCreateWithFlags); `blocking` false for cudaStreamNonBlocking.
    void add_stream(StreamId id, bool blocking);
    // Its work stays on the clock (a destroyed stream's work still runs to its end).
    void remove_stream(StreamId id);
    bool has_stream(StreamId id) const { return id == legacy_stream || streams_.count(id) != 0; }

    // Work of `duration_us` in `stream`: a kernel on the compute engine, a copy on its copy engine.
    Interval kernel(StreamId stream, double duration_us);
    Interval copy(StreamId stream, CopyKind kind, std::uint64_t bytes, bool pinned);
    Interval memset(StreamId stream, std::uint64_t bytes);
    // A point in the stream (an event record, a host function): when all earlier work of the stream is done.
    double marker(StreamId stream);
    // The stream's later work waits until `time_us` (cudaStreamWaitEvent).
    void wait_until(StreamId stream, double time_us);

    // When the stream's work so far ends; when all work so far ends.
    double stream_end(StreamId stream) const;
    double device_end() const;

    double host_now() const { return host_us_; }
    // The host waits (a synchronising call): its time becomes at least `time_us`.
    void host_wait(double time_us);
    // A query of work ending at `time_us` (cudaStreamQuery, cudaEventQuery): true when it has ended by the
    // host's time; false advances the host part of the way, as the polling host's own time passes.
    bool host_poll(double time_us);

  private:
    struct Stream {
        double end_us = 0;
        bool blocking = true;
    };
    enum Engine { compute = 0, copy0 = 1, copy1 = 2, copy2 = 3, engine_count = 4 };

    Interval schedule(StreamId stream, int engine, double duration_us);
    Stream& stream_state(StreamId id);
    double earliest_start(StreamId id, const Stream& s) const;
    int copy_engine(CopyKind kind) const;

    CopyModel copies_;
    std::map<StreamId, Stream> streams_;  // the program's streams
    Stream legacy_;                       // stream 0
    double engine_free_us_[engine_count] = {};
    double host_us_ = 0;
};

}  // namespace warpsim::timing
