// tests/engine/test_hostile.cpp — kernels that once broke the simulator: undefined behaviour in a handler,
// shared windows past their end, printf floods, waits that can never complete.
#include <catch2/catch.hpp>

#include <cstring>

#include "engine_harness.hpp"
#include "sim/engine/printf.hpp"

using namespace warpsim;

namespace {

std::string details(const engine::LaunchResult& r) {
    return r.error ? r.error->message + "\n" + r.error->details : "";
}

const char* kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n";

}  // namespace

// 0xFFFFFFFF * 0xFFFFFFFF = 0xFFFFFFFE00000001 (hand-computed); the handler used to form it as int64_t, which
// overflows (UBSan, -fno-sanitize-recover: the sanitizer run of this test aborts without the fix).
TEST_CASE("mul.wide.u32 and mad.wide.u32 of the largest operands", "[hostile]") {
    auto k = test::parse(std::string(kHeader) + R"(
.visible .entry wide(.param .u64 out)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<5>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, 0xFFFFFFFF;
    mul.wide.u32 %rd2, %r1, %r1;
    st.global.u64 [%rd1], %rd2;
    mov.u64 %rd3, 0x1FFFFFFFF;
    mad.wide.u32 %rd4, %r1, %r1, %rd3;
    st.global.u64 [%rd1+8], %rd4;
    mul.wide.s32 %rd2, %r1, %r1;
    st.global.u64 [%rd1+16], %rd2;
    ret;
}
)");
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    const uint64_t out = test::upload(sim, std::vector<uint64_t>(3, 0));
    test::Params p;
    p.add(out);
    auto r =
        sim.launch(k.parsed.module, *k.find("wide"), test::config({1, 1, 1}, {1, 1, 1}), p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto got = test::download<uint64_t>(sim, out, 3);
    CHECK(got[0] == 0xFFFFFFFE00000001ull);
    CHECK(got[1] == 0xFFFFFFFE00000001ull + 0x1FFFFFFFFull);
    CHECK(got[2] == 1);  // (-1) * (-1)
}

namespace {

engine::LaunchResult run_one(const test::Kernel& k, const char* name, std::vector<uint32_t>& out_words,
                             engine::LaunchConfig cfg = test::config({1, 1, 1}, {64, 1, 1})) {
    engine::Simulator sim;
    const uint64_t out = test::upload(sim, out_words);
    test::Params p;
    p.add(out);
    auto r = sim.launch(k.parsed.module, *k.find(name), cfg, p.span(), nullptr);
    out_words = test::download<uint32_t>(sim, out, out_words.size());
    return r;
}

// Two warps; the barrier expects `count` arrivals and every thread of warp 0 arrives, then all threads wait.
std::string mbarrier_kernel(int count) {
    return std::string(kHeader) + R"(
.visible .entry wait(.param .u64 out)
{
    .shared .align 8 .b64 bar;
    .reg .pred %p<3>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra SKIP_INIT;
    mbarrier.init.shared.b64 [bar], )" +
           std::to_string(count) + R"(;
SKIP_INIT:
    bar.sync 0;
    setp.ge.u32 %p2, %r1, 32;
    @%p2 bra WAIT;
    mbarrier.arrive.shared.b64 %rd2, [bar];
WAIT:
    mbarrier.try_wait.parity.shared.b64 %p1, [bar], 0;
    @!%p1 bra WAIT;
    st.global.u32 [%rd1], 1;
    ret;
}
)";
}

}  // namespace

// 64 arrivals expected, 32 come: on a GPU the waits spin forever. Before, the loop ran until the instruction
// budget (minutes); now it is a deadlock with the barrier's line.
TEST_CASE("an mbarrier wait that can never complete is reported as a deadlock", "[hostile][mbarrier]") {
    auto stuck = test::parse(mbarrier_kernel(64));
    INFO(stuck.diagnostics);
    REQUIRE(stuck.parsed.ok());
    std::vector<uint32_t> out(1, 0);
    auto cfg = test::config({1, 1, 1}, {64, 1, 1});
    cfg.max_instructions = 4'000'000'000ull;  // far more than the detection needs
    auto r = run_one(stuck, "wait", out, cfg);
    REQUIRE(r.error);
    CHECK(r.error->name == "cudaErrorLaunchTimeout");
    CHECK(r.error->kind == engine::Fault::mbarrier_deadlock);
    CHECK_THAT(r.error->details, Catch::Contains("mbarrier deadlock in block (0,0,0)"));
    CHECK_THAT(r.error->details, Catch::Contains("test.ptx:22"));
    CHECK(r.thread_instructions < 100'000'000ull);

    auto fine = test::parse(mbarrier_kernel(32));  // the 32 arrivals complete the phase
    std::vector<uint32_t> out2(1, 0);
    auto ok = run_one(fine, "wait", out2);
    INFO(details(ok));
    CHECK(ok.ok());
    CHECK(out2[0] == 1);
}

TEST_CASE("ld.shared at 16 MiB is out of bounds, not another CTA's shared memory", "[hostile][shared]") {
    for (const char* addr : {"0x1000000", "0x1000004", "0x7000000"}) {
        auto k = test::parse(std::string(kHeader) + R"(
.visible .entry k(.param .u64 out)
{
    .shared .align 4 .b32 s[4];
    .reg .b32 %r<2>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, 7;
    st.shared.u32 [s], %r1;
    ld.shared.u32 %r1, [)" + addr +
                             R"(];
    st.global.u32 [%rd1], %r1;
    ret;
}
)");
        INFO(k.diagnostics);
        REQUIRE(k.parsed.ok());
        std::vector<uint32_t> out(1, 0);
        auto r = run_one(k, "k", out, test::config({1, 1, 1}, {1, 1, 1}));
        REQUIRE(r.error);
        CHECK(r.error->name == "cudaErrorIllegalAddress");
        CHECK_THAT(r.error->details, Catch::Contains("Invalid __shared__ read of size 4 bytes"));
        CHECK_THAT(r.error->details,
                   Catch::Contains("the block's shared window ends at 1040 (1024 bytes reserved by "
                                   "the driver, then 16 of the kernel's)"));
        CHECK(out[0] == 0);
    }
}

TEST_CASE("the wall-clock limit stops a launch", "[hostile][time]") {
    auto k = test::parse(std::string(kHeader) +
                         ".visible .entry spin(.param .u64 out)\n{\nLOOP:\n    bra LOOP;\n}\n");
    REQUIRE(k.parsed.ok());
    auto cfg = test::config({1, 1, 1}, {32, 1, 1});
    cfg.max_instructions = UINT64_MAX;
    cfg.time_limit_seconds = 0.2;
    std::vector<uint32_t> out(1, 0);
    auto r = run_one(k, "spin", out, cfg);
    REQUIRE(r.error);
    CHECK(r.error->name == "cudaErrorLaunchTimeout");
    CHECK(r.error->kind == engine::Fault::time_limit);
    CHECK_THAT(r.error->details, Catch::Contains("time limit of 0.2 s"));
}

// %999999999d took 4-22 s per thread and %.999999999f 4.8 GB; a field wider than kMaxPrintfField is printed
// as written, and the next conversion still takes its own argument.
TEST_CASE("printf fields too wide to format are printed as written", "[hostile][printf]") {
    uint8_t args[16] = {};
    const int32_t a = 5, b = 7;
    std::memcpy(args, &a, 4);
    std::memcpy(args + 4, &b, 4);
    CHECK(engine::format_device_printf("[%999999999d|%d]", args, sizeof args) == "[%999999999d|7]");
    CHECK(engine::format_device_printf("[%4d|%-3d]", args, sizeof args) == "[   5|7  ]");
    double x = 1.5;
    std::memcpy(args, &x, 8);
    CHECK(engine::format_device_printf("%.999999999f", args, sizeof args) == "%.999999999f");
    // The widest field that is formatted: 4096 characters, not truncated to a fixed buffer.
    CHECK(engine::format_device_printf("%4096.1f", args, sizeof args).size() == 4096);
}

TEST_CASE("the printf FIFO keeps the newest records and counts what it overwrote", "[hostile][printf]") {
    engine::PrintfFifo fifo(10);
    for (const char* s : {"aaaa", "bbbb", "cccc", "dd"}) fifo.push(s);
    CHECK(fifo.text() == "bbbbccccdd");
    CHECK(fifo.dropped_records() == 1);
    CHECK(fifo.dropped_bytes() == 4);
    engine::PrintfFifo later(10);
    later.push("eeeeee");
    fifo.append(std::move(later));
    CHECK(fifo.text() == "ddeeeeee");
    CHECK(fifo.dropped_records() == 3);
    CHECK(fifo.dropped_bytes() == 12);
}
