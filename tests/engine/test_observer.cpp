// tests/engine/test_observer.cpp — the ExecutionObserver events (memory, barriers, warp collectives, fences,
// exits, block order), host-written ranges, and the sm_70+ barrier rules (exited warps, per-warp counting,
// deadlocks between different barriers).
#include <catch2/catch.hpp>

#include "tests/engine/engine_harness.hpp"

using namespace warpsim;

namespace {

std::string details(const engine::LaunchResult& r) {
    return r.error ? r.error->message + "\n" + r.error->details : "";
}

struct Recorder : engine::ExecutionObserver {
    std::vector<std::string> log;
    std::vector<engine::MemoryEvent> mem;
    std::vector<engine::BarrierEvent> bars;
    std::vector<engine::WarpSyncEvent> syncs;
    std::vector<engine::FenceEvent> fences;
    uint32_t exits = 0;
    void on_launch_begin(const engine::LaunchInfo& i) override {
        log.push_back("launch " + std::to_string(i.warps_per_block));
    }
    void on_launch_end() override { log.push_back("end"); }
    void on_block_begin(const engine::BlockIndex& b) override {
        log.push_back("begin " + std::to_string(b.linear));
    }
    void on_block_end(const engine::BlockIndex& b) override {
        log.push_back("finish " + std::to_string(b.linear));
    }
    void on_memory(const engine::MemoryEvent& e) override { mem.push_back(e); }
    void on_barrier(const engine::BarrierEvent& e) override {
        bars.push_back(e);
        log.push_back("bar " + std::to_string(e.site.warp));
    }
    void on_barrier_release(const engine::BlockIndex&, uint32_t id) override {
        log.push_back("release " + std::to_string(id));
    }
    void on_warp_sync(const engine::WarpSyncEvent& e) override { syncs.push_back(e); }
    void on_fence(const engine::FenceEvent& e) override { fences.push_back(e); }
    void on_thread_exit(const engine::EventSite&, uint32_t mask) override {
        exits += static_cast<uint32_t>(std::popcount(mask));
    }
};

// Each thread: s[tid] = in[tid]; bar.sync; out[tid] = s[tid ^ 1] + shfl.bfly(…, 1); fence; exit.
constexpr const char* kObserved = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry observed(.param .u64 in, .param .u64 out)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    .shared .align 4 .b32 s[64];
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.u32 %r2, [%rd4];
    mov.u64 %rd5, s;
    add.s64 %rd5, %rd5, %rd3;
    st.shared.u32 [%rd5], %r2;
    bar.sync 0;
    xor.b32 %r3, %r1, 1;
    shl.b32 %r3, %r3, 2;
    mov.u32 %r4, s;
    add.u32 %r4, %r4, %r3;
    ld.shared.u32 %r5, [%r4];
    shfl.sync.bfly.b32 %r6, %r5, 1, 31, -1;
    add.u32 %r5, %r5, %r6;
    membar.gl;
    add.s64 %rd6, %rd2, %rd3;
    st.global.u32 [%rd6], %r5;
    ret;
}
)";

}  // namespace

TEST_CASE("observer: memory, barrier, shuffle, fence and exit events, one per warp-level instruction") {
    auto k = test::parse(kObserved);
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    std::vector<uint32_t> in(64);
    for (uint32_t i = 0; i < 64; ++i) in[i] = i * 10;
    const uint64_t din = test::upload(sim, in), dout = sim.malloc(64 * 4);
    test::Params p;
    p.add(din).add(dout);
    Recorder rec;
    auto cfg = test::config({3, 1, 1}, {64, 1, 1});
    cfg.observer = &rec;
    cfg.host_workers = 4;  // ignored with an observer: blocks run in order
    auto r = sim.launch(k.parsed.module, *k.find("observed"), cfg, p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    // Block order and nesting.
    std::vector<std::string> order;
    for (const auto& s : rec.log)
        if (s.rfind("begin", 0) == 0 || s.rfind("finish", 0) == 0 || s == "end" || s.rfind("launch", 0) == 0)
            order.push_back(s);
    CHECK(order == std::vector<std::string>{"launch 2", "begin 0", "finish 0", "begin 1", "finish 1",
                                            "begin 2", "finish 2", "end"});
    // Per block: 2 warps x (2 param loads, global load, shared store, shared load, global store) = 12 events.
    REQUIRE(rec.mem.size() == 3 * 12);
    const auto& ld_global = rec.mem[2];
    CHECK(ld_global.space == engine::MemorySpace::global);
    CHECK(ld_global.kind == engine::MemoryKind::read);
    CHECK(ld_global.bytes_per_lane == 4);
    CHECK(ld_global.active_mask == 0xffffffffu);
    CHECK(ld_global.addr[5] == din + 20);
    const auto& st_shared = rec.mem[3];
    CHECK(st_shared.space == engine::MemorySpace::shared);
    CHECK(st_shared.kind == engine::MemoryKind::write);
    // Offset in the block's window: s, the only shared variable, starts after the driver's 1 KB reservation.
    CHECK(st_shared.addr[7] == 1024 + 28);
    CHECK(rec.mem[0].space == engine::MemorySpace::param);
    CHECK(rec.mem[1].addr[0] == 8);  // the second kernel parameter's offset
    // Barriers: each warp arrives once per block, and the release follows the second arrival.
    REQUIRE(rec.bars.size() == 6);
    CHECK(rec.bars[0].barrier == 0);
    CHECK(rec.bars[0].kind == engine::BarrierKind::sync);
    CHECK(rec.bars[0].expected_threads == 0);
    CHECK(rec.bars[0].arriving_mask == 0xffffffffu);
    CHECK(rec.bars[0].aligned);
    auto bar0 = std::find(rec.log.begin(), rec.log.end(), "bar 0");
    REQUIRE(bar0 + 2 < rec.log.end());
    CHECK(*(bar0 + 1) == "bar 1");
    CHECK(*(bar0 + 2) == "release 0");
    // shfl.sync with member mask -1; membar.gl is a gpu-scope fence.
    REQUIRE(rec.syncs.size() == 6);
    CHECK(rec.syncs[0].kind == engine::WarpSyncKind::shfl);
    CHECK(rec.syncs[0].member_mask == 0xffffffffu);
    CHECK(rec.syncs[0].member_mask_uniform);
    CHECK(rec.syncs[0].live_mask == 0xffffffffu);
    REQUIRE(rec.fences.size() == 6);
    CHECK(rec.fences[0].kind == engine::FenceKind::membar);
    CHECK(rec.fences[0].scope == ir::Scope::gpu);
    CHECK(rec.exits == 3 * 64);
    const ir::Instruction& at = k.parsed.module.functions[ld_global.site.function].body[ld_global.site.pc];
    CHECK(at.op == ir::Opcode::ld);
    CHECK(at.d.space == ir::Space::global);
    // And the kernel did its work: out[t] = in[t^1] + in[t] (the bfly partner read in[t]).
    auto out = test::download<uint32_t>(sim, dout, 64);
    for (uint32_t t = 0; t < 64; ++t) CHECK(out[t] == in[t ^ 1] + in[t]);
}

TEST_CASE("host writes and module variables count as initialised; kernel-free bytes do not") {
    engine::Simulator sim;
    const uint64_t a = sim.malloc(64);
    std::vector<uint8_t> bytes(16, 1);
    REQUIRE(sim.write(a + 8, bytes));
    CHECK(sim.memory().host_written(a + 8, 16));
    CHECK(sim.memory().host_written(a + 20, 4));
    CHECK_FALSE(sim.memory().host_written(a + 4, 8));
    CHECK_FALSE(sim.memory().host_written(a + 20, 8));
    REQUIRE(sim.write(a + 24, bytes));  // adjacent: merges with [8, 24)
    CHECK(sim.memory().host_written(a + 8, 32));
    auto k = test::parse(R"(
.version 8.0
.target sm_90
.address_size 64
.global .align 4 .b32 table[4];
.visible .entry touch() { ret; }
)");
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    REQUIRE(sim.load(k.parsed.module).ok);
    auto t = sim.symbol_address(k.parsed.module, "table");
    REQUIRE(t);
    CHECK(sim.memory().host_written(*t, 16));
}

TEST_CASE(
    "a module variable placed in mapped host memory: initialiser and kernel writes land in the host's "
    "bytes") {
    constexpr const char* kPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.global .attribute(.managed) .align 4 .b32 table[4] = {1, 2, 3, 4};
.visible .entry store_seven()
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<2>;
    mov.u32 %r1, 7;
    mov.u64 %rd1, table;
    st.global.u32 [%rd1+4], %r1;
    ret;
}
)";
    auto k = test::parse(kPtx);
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    alignas(16) uint32_t host[4] = {0, 0, 0, 0};
    const uint64_t base = 0x7000'0000;  // below the generic windows, clear of the heap
    REQUIRE(sim.memory().map_host(base, sizeof host, reinterpret_cast<uint8_t*>(host), "managed table"));
    REQUIRE(sim.load(k.parsed.module, {{"table", base}}).ok);
    CHECK(sim.symbol_address(k.parsed.module, "table") == base);
    CHECK((host[0] == 1 && host[1] == 2 && host[2] == 3 && host[3] == 4));  // the initialiser, in place
    const ir::Function* fn = test::kernel_named(k, "store_seven");
    REQUIRE(fn);
    REQUIRE(sim.launch(k.parsed.module, *fn, test::config({1, 1, 1}, {1, 1, 1}), {}, nullptr).ok());
    CHECK(host[1] == 7);  // the kernel wrote the host's own bytes

    // A placement where no memory is mapped is refused with the variable's name, not written anywhere.
    auto again = test::parse(kPtx);
    engine::Simulator other;
    const auto refused = other.load(again.parsed.module, {{"table", 0x7100'0000}});
    CHECK_FALSE(refused.ok);
    CHECK(refused.message.find("table") != std::string::npos);
}

namespace {

// if (tid >= n) return; s[tid] = tid; bar.sync 0; out[tid] = s[(tid + 32) % n]
constexpr const char* kEarlyExit = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry early_exit(.param .u64 out, .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    .shared .align 4 .b32 s[256];
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %tid.x;
    setp.ge.u32 %p1, %r2, %r1;
    @%p1 bra DONE;
    shl.b32 %r3, %r2, 2;
    mov.u32 %r4, s;
    add.u32 %r5, %r4, %r3;
    st.shared.u32 [%r5], %r2;
    bar.sync 0;
    add.u32 %r6, %r2, 32;
    rem.u32 %r6, %r6, %r1;
    shl.b32 %r6, %r6, 2;
    add.u32 %r6, %r4, %r6;
    ld.shared.u32 %r7, [%r6];
    mul.wide.u32 %rd2, %r2, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r7;
DONE:
    ret;
}
)";

engine::LaunchResult run_early_exit(uint32_t n, std::vector<uint32_t>& out) {
    auto k = test::parse(kEarlyExit);
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    const uint64_t d = test::upload(sim, std::vector<uint32_t>(256, 0xdead));
    test::Params p;
    p.add(d).add(n);
    auto r = sim.launch(k.parsed.module, *k.find("early_exit"), test::config({1, 1, 1}, {256, 1, 1}),
                        p.span(), nullptr);
    out = test::download<uint32_t>(sim, d, 256);
    return r;
}

}  // namespace

TEST_CASE("bar.sync after `if (tid >= n) return`: exited warps no longer hold the barrier") {
    for (uint32_t n :
         {64u, 100u, 33u}) {  // whole warps exit (64); a partial warp 3 (100); warp 1 with one lane (33)
        std::vector<uint32_t> out;
        auto r = run_early_exit(n, out);
        INFO("n=" << n << " " << details(r));
        REQUIRE(r.ok());
        for (uint32_t t = 0; t < 256; ++t) REQUIRE(out[t] == (t < n ? (t + 32) % n : 0xdeadu));
    }
}

TEST_CASE("bar.sync in a branch skipped by whole warps that then exit completes, like on the H200") {
    auto k = test::parse(test::read_text(std::string(WARPSIM_SOURCE_DIR) + "/examples/launch_errors.ptx"));
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    const ir::Function* fn = test::kernel_named(k, "barrier_in_branch");
    REQUIRE(fn);
    engine::Simulator sim;
    const uint64_t out = sim.malloc(256 * 4);
    test::Params p;
    p.add(out);
    Recorder rec;
    auto cfg = test::config({1, 1, 1}, {256, 1, 1});
    cfg.observer = &rec;
    auto r = sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    // What synccheck needs to see the misuse: 4 of 8 warps arrived, then the release.
    CHECK(rec.bars.size() == 4);
    CHECK(std::count(rec.log.begin(), rec.log.end(), "release 0") == 1);
    auto o = test::download<float>(sim, out, 256);
    // Threads 0..127 read s[255 - t], written by the upper half before it exited.
    for (int t = 0; t < 128; ++t) REQUIRE(o[t] == static_cast<float>(255 - t));
}

TEST_CASE("per-warp counting: a warp arrives when any of its lanes executes bar.sync") {
    // Warp 0: only lanes 0..15 execute the barrier (16..31 skip it); warp 1: all lanes. The barrier (no
    // count) completes with both warps, and warp 0's lanes 0..15 see warp 1's store made before it.
    auto k = test::parse(R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry half_warp(.param .u64 out)
{
    .reg .pred %p<3>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    .shared .align 4 .b32 flag;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    setp.eq.u32 %p1, %r1, 32;
    @!%p1 bra SKIPST;
    mov.u32 %r2, 77;
    st.shared.u32 [flag], %r2;
SKIPST:
    and.b32 %r3, %r1, 31;
    setp.ge.u32 %p1, %r3, 16;
    setp.lt.u32 %p2, %r1, 32;
    and.pred %p1, %p1, %p2;
    @%p1 bra SKIP;
    bar.sync 0;
SKIP:
    ld.shared.u32 %r4, [flag];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r4;
    ret;
}
)");
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    const uint64_t out = sim.malloc(64 * 4);
    test::Params p;
    p.add(out);
    auto r = sim.launch(k.parsed.module, *k.find("half_warp"), test::config({1, 1, 1}, {64, 1, 1}), p.span(),
                        nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto o = test::download<uint32_t>(sim, out, 64);
    for (int t = 0; t < 16; ++t) REQUIRE(o[t] == 77u);
    for (int t = 32; t < 64; ++t) REQUIRE(o[t] == 77u);
}

TEST_CASE("warps waiting at different barriers deadlock, and the report names both lines") {
    auto k = test::parse(R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry two_barriers()
{
    .reg .pred %p<2>;
    .reg .b32 %r<2>;
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 32;
    @%p1 bra FIRST;
    bar.sync 2;
    bra.uni DONE;
FIRST:
    bar.sync 1;
DONE:
    ret;
}
)");
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    auto r = sim.launch(k.parsed.module, *k.find("two_barriers"), test::config({1, 1, 1}, {64, 1, 1}), {},
                        nullptr);
    REQUIRE_FALSE(r.ok());
    INFO(details(r));
    CHECK(r.error->name == "cudaErrorLaunchTimeout");
    CHECK(r.error->kind == engine::Fault::barrier_deadlock);
    CHECK(r.error->details.find("barrier deadlock") != std::string::npos);
    CHECK(r.error->details.find("barrier 1 at test.ptx:15: 1 of 2 warps arrived") != std::string::npos);
    CHECK(r.error->details.find("barrier 2 at test.ptx:12: 1 of 2 warps arrived") != std::string::npos);
}

TEST_CASE("a barrier with a thread count is not released by exits") {
    auto k = test::parse(R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry counted()
{
    .reg .pred %p<2>;
    .reg .b32 %r<2>;
    mov.u32 %r1, %tid.x;
    setp.ge.u32 %p1, %r1, 32;
    @%p1 bra DONE;
    bar.sync 1, 64;
DONE:
    ret;
}
)");
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    auto r =
        sim.launch(k.parsed.module, *k.find("counted"), test::config({1, 1, 1}, {64, 1, 1}), {}, nullptr);
    REQUIRE_FALSE(r.ok());
    INFO(details(r));
    CHECK(r.error->details.find("barrier 1 at test.ptx:12: 1 of 2 warps arrived") != std::string::npos);
}
