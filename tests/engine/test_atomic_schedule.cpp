// tests/engine/test_atomic_schedule.cpp — which global atomics make blocks run in order (decode.cpp's
// register_read / atom_result_unused), and that commutative ones give the same memory on 1 and 2 workers.
#include <catch2/catch.hpp>

#include "kernels_ir/dataflow.hpp"
#include "sim/engine/decode.hpp"
#include "tests/engine/engine_harness.hpp"

using namespace warpsim;

namespace {

// Every register below is named after what the test expects of it: r_read* are read somewhere, r_unread*
// are only written.
constexpr const char* kReadsPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .func sink_fn(.param .b32 a)
{
	ret;
}
.visible .entry reads(.param .u64 p)
{
	.reg .pred 	%p_guard, %p_unread;
	.reg .b32 	%r_vec, %r_src, %r_call, %r_shaddr, %r_unread, %r_unread_vec0, %r_unread_vec1, %r_two;
	.reg .b64 	%rd_addr, %rd_unread;
	ld.param.u64 	%rd_addr, [p];
	mov.u32 	%r_vec, 1;
	mov.u32 	%r_two, 2;
	st.global.v2.u32 	[%rd_addr], {%r_two, %r_vec};
	setp.eq.u32 	%p_guard, %r_src, 0;
	@%p_guard mov.u32 	%r_unread, 5;
	setp.ne.u32 	%p_unread, %r_two, 0;
	call.uni 	sink_fn, (%r_call);
	cp.async.ca.shared.global 	[%r_shaddr], [%rd_addr], 4;
	ld.global.v2.u32 	{%r_unread_vec0, %r_unread_vec1}, [%rd_addr+8];
	atom.global.add.u64 	%rd_unread, [%rd_addr+16], 1;
	ret;
}
)";

// bins[tid % 8] += ctaid + 1 for every thread. `histogram` never reads the old value; `histogram_old` stores
// it, and `histogram_call` does its atom in a .func that returns the old value to it, which stores it. One
// module holds all three: only what a kernel can reach decides its schedule.
constexpr const char* kHistogramPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.func (.param .b32 old) add_bin(.param .b64 p, .param .b32 v)
{
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<2>;
	ld.param.u64 	%rd1, [p];
	ld.param.u32 	%r1, [v];
	atom.global.add.u32 	%r2, [%rd1], %r1;
	st.param.b32 	[old], %r2;
	ret;
}
.visible .entry histogram(.param .u64 p_bins, .param .u64 p_old)
{
	.reg .b32 	%r<7>;
	.reg .b64 	%rd<8>;
	ld.param.u64 	%rd1, [p_bins];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	and.b32 	%r2, %r1, 7;
	mul.wide.u32 	%rd3, %r2, 4;
	add.s64 	%rd4, %rd2, %rd3;
	mov.u32 	%r3, %ctaid.x;
	add.u32 	%r4, %r3, 1;
	atom.global.add.u32 	%r5, [%rd4], %r4;
	ret;
}
.visible .entry histogram_old(.param .u64 p_bins, .param .u64 p_old)
{
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<10>;
	ld.param.u64 	%rd1, [p_bins];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	and.b32 	%r2, %r1, 7;
	mul.wide.u32 	%rd3, %r2, 4;
	add.s64 	%rd4, %rd2, %rd3;
	mov.u32 	%r3, %ctaid.x;
	add.u32 	%r4, %r3, 1;
	atom.global.add.u32 	%r5, [%rd4], %r4;
	mov.u32 	%r6, %ntid.x;
	mad.lo.s32 	%r7, %r3, %r6, %r1;
	ld.param.u64 	%rd5, [p_old];
	cvta.to.global.u64 	%rd6, %rd5;
	mul.wide.u32 	%rd7, %r7, 4;
	add.s64 	%rd8, %rd6, %rd7;
	st.global.u32 	[%rd8], %r5;
	ret;
}
.visible .entry histogram_call(.param .u64 p_bins, .param .u64 p_old)
{
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<10>;
	ld.param.u64 	%rd1, [p_bins];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	and.b32 	%r2, %r1, 7;
	mul.wide.u32 	%rd3, %r2, 4;
	add.s64 	%rd4, %rd2, %rd3;
	mov.u32 	%r3, %ctaid.x;
	add.u32 	%r4, %r3, 1;
	{
	.param .b64 param0;
	st.param.b64 	[param0], %rd4;
	.param .b32 param1;
	st.param.b32 	[param1], %r4;
	.param .b32 retval0;
	call.uni (retval0), add_bin, (param0, param1);
	ld.param.b32 	%r5, [retval0];
	}
	mov.u32 	%r6, %ntid.x;
	mad.lo.s32 	%r7, %r3, %r6, %r1;
	ld.param.u64 	%rd5, [p_old];
	cvta.to.global.u64 	%rd6, %rd5;
	mul.wide.u32 	%rd7, %r7, 4;
	add.s64 	%rd8, %rd6, %rd7;
	st.global.u32 	[%rd8], %r5;
	ret;
}
)";

uint32_t reg_named(const ir::Function& fn, std::string_view name) {
    for (uint32_t r = 0; r < fn.regs.size(); ++r)
        if (fn.regs[r].name == name) return r;
    FAIL("no register " << name);
    return 0;
}

constexpr uint32_t kBlocks = 64, kThreads = 64;

struct HistogramRun {
    engine::LaunchResult result;
    std::vector<uint32_t> bins, old;
};

HistogramRun run_histogram(const test::Kernel& k, const char* name, uint32_t workers) {
    const ir::Function* fn = k.find(name);
    REQUIRE(fn);
    engine::Simulator sim;
    const uint64_t bins = test::upload(sim, std::vector<uint32_t>(8, 0));
    const uint64_t old = test::upload(sim, std::vector<uint32_t>(kBlocks * kThreads, 0));
    test::Params p;
    p.add(bins).add(old);
    auto cfg = test::config({kBlocks, 1, 1}, {kThreads, 1, 1});
    cfg.host_workers = workers;
    HistogramRun run;
    run.result = sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr);
    run.bins = test::download<uint32_t>(sim, bins, 8);
    run.old = test::download<uint32_t>(sim, old, kBlocks * kThreads);
    return run;
}

}  // namespace

TEST_CASE("register_read: sources, vector elements, call arguments, guards and address bases are reads") {
    auto k = test::parse(kReadsPtx);
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    const ir::Function* fn = k.find("reads");
    REQUIRE(fn);
    for (const char* r : {"%rd_addr", "%r_vec", "%r_two", "%r_src", "%p_guard", "%r_call", "%r_shaddr"}) {
        INFO(r);
        CHECK(warpsim::ir::register_read(*fn, reg_named(*fn, r)));
    }
    for (const char* r : {"%r_unread", "%p_unread", "%r_unread_vec0", "%r_unread_vec1", "%rd_unread"}) {
        INFO(r);
        CHECK_FALSE(warpsim::ir::register_read(*fn, reg_named(*fn, r)));
    }
}

TEST_CASE("an integer atom.add whose old value is never read runs on 2 workers, same memory as 1") {
    auto k = test::parse(kHistogramPtx);
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    const HistogramRun one = run_histogram(k, "histogram", 1), two = run_histogram(k, "histogram", 2);
    REQUIRE(one.result.ok());
    REQUIRE(two.result.ok());
    CHECK(one.result.host_workers == 1);
    CHECK(two.result.host_workers == 2);
    // Each bin gets 8 threads of every block, adding ctaid + 1: 8 * (1 + ... + 64) = 16640.
    for (uint32_t b = 0; b < 8; ++b) CHECK(one.bins[b] == 16640u);
    CHECK(two.bins == one.bins);
    CHECK(two.old == one.old);
}

TEST_CASE("an atom.add whose old value is stored keeps blocks in order on one worker") {
    auto k = test::parse(kHistogramPtx);
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    const char* name = GENERATE("histogram_old", "histogram_call");
    INFO(name);
    const HistogramRun one = run_histogram(k, name, 1), two = run_histogram(k, name, 2);
    REQUIRE(one.result.ok());
    REQUIRE(two.result.ok());
    CHECK(two.result.host_workers == 1);
    // In order: thread t of block c sees bin t%8 after blocks 0..c-1 (8 threads each adding 1..c) and the
    // lower lanes of its own bin in this block: 8 * c * (c + 1) / 2 + (t / 8) * (c + 1).
    for (uint32_t c = 0; c < kBlocks; ++c)
        for (uint32_t t = 0; t < kThreads; ++t) {
            INFO("block " << c << " thread " << t);
            REQUIRE(one.old[c * kThreads + t] == 4 * c * (c + 1) + (t / 8) * (c + 1));
        }
    CHECK(two.old == one.old);
    CHECK(two.bins == one.bins);
}
