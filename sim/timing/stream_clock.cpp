// The simulated clock of a CUDA program: streams, events, copy engines and the host.
#include "sim/timing/stream_clock.hpp"

#include <algorithm>

namespace warpsim::timing {

CopyModel CopyModel::for_preset(const device::DevicePreset& preset) {
    const device::DevicePreset* source = &preset;
    std::optional<device::DevicePreset> h200;
    if (!preset.cuda_runtime) {
        auto loaded = device::load_preset("h200");
        if (loaded && loaded->cuda_runtime) h200 = std::move(loaded).value();
        if (h200) source = &*h200;
    }
    CopyModel m;
    if (!source->cuda_runtime) return m;  // no copy model anywhere: copies take no time
    const auto& rt = *source->cuda_runtime;
    m.pinned_h2d = rt.pinned_h2d;
    m.pinned_d2h = rt.pinned_d2h;
    m.pageable_h2d = rt.pageable_h2d;
    m.pageable_d2h = rt.pageable_d2h;
    m.device_to_device = rt.device_to_device;
    m.copy_engines = preset.cuda_runtime ? rt.copy_engines : 3;
    return m;
}

namespace {

double link_us(const device::CopyLink& link, std::uint64_t bytes) {
    if (link.gbps <= 0) return 0;
    return link.latency_us + static_cast<double>(bytes) / (link.gbps * 1e3);  // GB/s = 1e3 bytes per us
}

}  // namespace

double CopyModel::copy_us(CopyKind kind, std::uint64_t bytes, bool pinned) const {
    switch (kind) {
        case CopyKind::host_to_device:
            return link_us(pinned ? pinned_h2d : pageable_h2d, bytes);
        case CopyKind::device_to_host:
            return link_us(pinned ? pinned_d2h : pageable_d2h, bytes);
        case CopyKind::device_to_device:
            return link_us(device_to_device, bytes);
        case CopyKind::host_to_host:
            return 0;
    }
    return 0;
}

double CopyModel::memset_us(std::uint64_t bytes) const {
    return link_us(device_to_device, bytes);
}

void StreamClock::add_stream(StreamId id, bool blocking) {
    Stream s;
    s.blocking = blocking;
    s.end_us = host_us_;
    streams_[id] = s;
}

void StreamClock::remove_stream(StreamId id) {
    streams_.erase(id);
}

StreamClock::Stream& StreamClock::stream_state(StreamId id) {
    if (id == legacy_stream) return legacy_;
    auto it = streams_.find(id);
    if (it == streams_.end()) it = streams_.emplace(id, Stream{}).first;  // cudaStreamPerThread and the like
    return it->second;
}

double StreamClock::earliest_start(StreamId id, const Stream& s) const {
    double t = std::max(host_us_, s.end_us);
    if (id == legacy_stream) {
        for (const auto& [other, state] : streams_)
            if (state.blocking) t = std::max(t, state.end_us);
    } else if (s.blocking) {
        t = std::max(t, legacy_.end_us);
    }
    return t;
}

Interval StreamClock::schedule(StreamId stream, int engine, double duration_us) {
    Stream& s = stream_state(stream);
    double start = earliest_start(stream, s);
    if (engine >= 0) start = std::max(start, engine_free_us_[engine]);
    Interval iv{start, start + std::max(0.0, duration_us)};
    s.end_us = iv.end_us;
    if (engine >= 0) engine_free_us_[engine] = iv.end_us;
    return iv;
}

int StreamClock::copy_engine(CopyKind kind) const {
    const int n = copies_.copy_engines;
    switch (kind) {
        case CopyKind::host_to_device:
            return n >= 1 ? copy0 : compute;
        case CopyKind::device_to_host:
            return n >= 2 ? copy1 : (n == 1 ? copy0 : compute);
        case CopyKind::device_to_device:
            return n >= 3 ? copy2 : compute;
        case CopyKind::host_to_host:
            return -1;
    }
    return compute;
}

Interval StreamClock::kernel(StreamId stream, double duration_us) {
    return schedule(stream, compute, duration_us);
}

Interval StreamClock::copy(StreamId stream, CopyKind kind, std::uint64_t bytes, bool pinned) {
    return schedule(stream, copy_engine(kind), copies_.copy_us(kind, bytes, pinned));
}

Interval StreamClock::memset(StreamId stream, std::uint64_t bytes) {
    return schedule(stream, copy_engine(CopyKind::device_to_device), copies_.memset_us(bytes));
}

double StreamClock::marker(StreamId stream) {
    return schedule(stream, -1, 0).end_us;
}

void StreamClock::wait_until(StreamId stream, double time_us) {
    Stream& s = stream_state(stream);
    s.end_us = std::max(s.end_us, time_us);
}

double StreamClock::stream_end(StreamId stream) const {
    if (stream == legacy_stream) return legacy_.end_us;
    auto it = streams_.find(stream);
    return it == streams_.end() ? 0 : it->second.end_us;
}

double StreamClock::device_end() const {
    double t = legacy_.end_us;
    for (const auto& [id, s] : streams_) t = std::max(t, s.end_us);
    for (double e : engine_free_us_) t = std::max(t, e);
    return t;
}

void StreamClock::host_wait(double time_us) {
    host_us_ = std::max(host_us_, time_us);
}

bool StreamClock::host_poll(double time_us) {
    if (time_us <= host_us_) return true;
    // A poll costs the host about a microsecond, and a loop of polls covers a tenth of what is left each
    // time: a polling loop ends after a few dozen polls plus one per microsecond at most.
    double remaining = time_us - host_us_;
    host_us_ = std::min(time_us, host_us_ + std::max(1.0, 0.1 * remaining));
    return false;
}

}  // namespace warpsim::timing
