// The simulated clock of streams, events and copy engines, on hand-computed timelines: seed 000's staged copy
// (a copy of 80 us and a kernel of 100 us: 180 us in sequence, 100 + 80/4 = 120 us in four streams), the
// legacy default stream's ordering, copy engines, pinned against pageable copies, and polling.
#include <catch2/catch.hpp>

#include "sim/timing/stream_clock.hpp"

using warpsim::timing::CopyKind;
using warpsim::timing::CopyModel;
using warpsim::timing::StreamClock;

namespace {

// 10 GB/s = 10,000 bytes per microsecond, no latency: 200,000 bytes take 20 us.
CopyModel simple_links(int engines) {
    CopyModel m;
    m.pinned_h2d = {10, 0};
    m.pinned_d2h = {10, 0};
    m.pageable_h2d = {2, 0};
    m.pageable_d2h = {2, 0};
    m.device_to_device = {100, 0};
    m.copy_engines = engines;
    return m;
}

}  // namespace

TEST_CASE("seed 000's staged copy: 180 us in sequence, 120 us in four streams", "[stream_clock]") {
    StreamClock seq(simple_links(3));
    auto c = seq.copy(StreamClock::legacy_stream, CopyKind::host_to_device, 800'000, true);
    auto k = seq.kernel(StreamClock::legacy_stream, 100);
    CHECK(c.start_us == 0);
    CHECK(c.end_us == Approx(80));
    CHECK(k.start_us == Approx(80));
    CHECK(seq.device_end() == Approx(180));

    StreamClock staged(simple_links(3));
    for (StreamClock::StreamId s = 1; s <= 4; ++s) staged.add_stream(s, true);
    std::vector<double> kernel_starts;
    for (StreamClock::StreamId s = 1; s <= 4; ++s) {
        staged.copy(s, CopyKind::host_to_device, 200'000, true);
        kernel_starts.push_back(staged.kernel(s, 25).start_us);
    }
    // Copies back to back on the one H2D engine (0-20, 20-40, ...); each kernel after its copy and the kernel
    // before it: 20-45, 45-70, 70-95, 95-120.
    CHECK(kernel_starts == std::vector<double>{20, 45, 70, 95});
    CHECK(staged.device_end() == Approx(120));
    staged.host_wait(staged.device_end());
    CHECK(staged.host_now() == Approx(120));
}

TEST_CASE("the legacy default stream waits for blocking streams, and they for it", "[stream_clock]") {
    StreamClock clock(simple_links(3));
    clock.add_stream(1, true);
    clock.add_stream(2, true);
    clock.add_stream(3, false);                              // cudaStreamNonBlocking
    clock.copy(1, CopyKind::host_to_device, 100'000, true);  // 0-10 on the H2D engine
    auto legacy = clock.copy(StreamClock::legacy_stream, CopyKind::device_to_host, 50'000, true);
    CHECK(legacy.start_us == Approx(10));  // its D2H engine is free at 0, but stream 1's work comes first
    CHECK(legacy.end_us == Approx(15));
    auto after = clock.copy(2, CopyKind::device_to_device, 100'000, true);  // 1 us, on the third engine
    CHECK(after.start_us == Approx(15));  // blocking stream 2 waits for the legacy stream
    auto free = clock.copy(3, CopyKind::device_to_host, 10'000, true);
    CHECK(free.start_us ==
          Approx(15));  // no ordering with the legacy stream, but the D2H engine is busy until 15
    auto free2 = clock.memset(3, 100'000);
    CHECK(free2.start_us == Approx(16));  // after its own stream's copy (15-16), engine 3 free since 16
    StreamClock other(simple_links(3));
    other.add_stream(3, false);
    other.kernel(StreamClock::legacy_stream, 50);
    CHECK(other.copy(3, CopyKind::host_to_device, 10'000, true).start_us == 0);  // non-blocking: at once
}

TEST_CASE("copy engines: one engine serialises both directions, two let them overlap", "[stream_clock]") {
    for (int engines : {1, 2}) {
        StreamClock clock(simple_links(engines));
        clock.add_stream(1, true);
        clock.add_stream(2, true);
        clock.copy(1, CopyKind::host_to_device, 100'000, true);
        auto d2h = clock.copy(2, CopyKind::device_to_host, 100'000, true);
        CHECK(d2h.start_us == Approx(engines == 1 ? 10 : 0));
    }
}

TEST_CASE("copy durations: latency plus bytes over bandwidth, pageable memory slower", "[stream_clock]") {
    CopyModel m = simple_links(2);
    m.pinned_h2d = {50, 4};
    CHECK(m.copy_us(CopyKind::host_to_device, 1'000'000, true) == Approx(4 + 20));
    CHECK(m.copy_us(CopyKind::host_to_device, 1'000'000, false) == Approx(500));
    CHECK(m.copy_us(CopyKind::device_to_host, 1'000'000, false) == Approx(500));
    CHECK(m.copy_us(CopyKind::host_to_host, 1'000'000, false) == 0);
    // The H200's fitted link (sim/device/presets/h200.json): 256 MB pinned H2D measured 4855.94 us.
    auto h200 = warpsim::device::load_preset("h200");
    REQUIRE(h200.has_value());
    CopyModel real = CopyModel::for_preset(*h200);
    CHECK(real.copy_us(CopyKind::host_to_device, 268'435'456, true) == Approx(4855.94).epsilon(0.01));
    CHECK(real.copy_engines == 3);
    // A preset without a cuda_runtime section copies like the H200.
    CopyModel t4 = CopyModel::for_preset(*warpsim::device::load_preset("t4"));
    CHECK(t4.copy_us(CopyKind::device_to_host, 4096, true) ==
          real.copy_us(CopyKind::device_to_host, 4096, true));
}

TEST_CASE("events: a marker is when the stream's earlier work ends; waiting on it orders another stream",
          "[stream_clock]") {
    StreamClock clock(simple_links(3));
    clock.add_stream(1, true);
    clock.add_stream(2, false);
    clock.kernel(1, 30);
    double recorded = clock.marker(1);
    CHECK(recorded == Approx(30));
    clock.wait_until(2, recorded);
    CHECK(clock.copy(2, CopyKind::host_to_device, 10'000, true).start_us == Approx(30));
    CHECK(clock.marker(2) == Approx(31));
}

TEST_CASE("the host: waiting moves its time; a polling loop ends", "[stream_clock]") {
    StreamClock clock(simple_links(3));
    clock.kernel(StreamClock::legacy_stream, 10'000);   // 10 ms
    CHECK_FALSE(clock.host_poll(clock.stream_end(0)));  // busy: cudaErrorNotReady
    int polls = 1;
    while (!clock.host_poll(clock.stream_end(0)) && polls < 100'000) ++polls;
    CHECK(polls < 200);
    CHECK(clock.host_now() == Approx(10'000));
    // Work enqueued now starts no earlier than the host's time.
    CHECK(clock.kernel(StreamClock::legacy_stream, 5).start_us == Approx(10'000));
    clock.host_wait(20'000);
    CHECK(clock.kernel(StreamClock::legacy_stream, 5).start_us == Approx(20'000));
}
