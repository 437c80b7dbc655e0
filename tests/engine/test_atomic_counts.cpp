// tests/engine/test_atomic_counts.cpp — which atomics the counts see as op_red (an atom whose result is
// never read: ptxas emits RED) and the per-pass sector rule, end to end through the engine.
#include <catch2/catch.hpp>

#include "sim/counts/counters.hpp"
#include "tests/engine/engine_harness.hpp"

using namespace warpsim;

namespace {

// One warp. p[0] += tid (result unused), p[1] inc (result unused), p[2] += 1 with the old value stored
// to q[tid].
constexpr const char* kAtoms = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry atoms(.param .u64 p, .param .u64 q)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [p];
    ld.param.u64 %rd4, [q];
    cvta.to.global.u64 %rd2, %rd1;
    cvta.to.global.u64 %rd5, %rd4;
    mov.u32 %r1, %tid.x;
    atom.global.add.u32 %r2, [%rd2], %r1;
    atom.global.inc.u32 %r3, [%rd2+4], 100;
    atom.global.add.u32 %r4, [%rd2+8], 1;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd6, %rd5, %rd3;
    st.global.u32 [%rd6], %r4;
    ret;
}
)";

}  // namespace

TEST_CASE("atom with an unread result counts as red; uniform integer reds are one sector") {
    auto k = test::parse(kAtoms);
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    const ir::Function* fn = k.find("atoms");
    REQUIRE(fn);
    engine::Simulator sim;
    const uint64_t p = test::upload(sim, std::vector<uint32_t>(4, 0));
    const uint64_t q = test::upload(sim, std::vector<uint32_t>(32, 0xffffffffu));
    test::Params params;
    params.add(p).add(q);
    counts::KernelCounters counters;
    auto r = sim.launch(k.parsed.module, *fn, test::config({1, 1, 1}, {32, 1, 1}), params.span(), &counters);
    INFO((r.error ? r.error->details : std::string()));
    REQUIRE(r.ok());
    // The values do not change: 0 + ... + 31 = 496, 32 increments below the limit 100, 32 adds of 1.
    const auto pv = test::download<uint32_t>(sim, p, 4);
    CHECK(pv == std::vector<uint32_t>{496, 32, 32, 0});
    // Lanes apply in increasing lane order, so lane i saw i earlier adds.
    const auto qv = test::download<uint32_t>(sim, q, 32);
    for (uint32_t i = 0; i < 32; ++i) CHECK(qv[i] == i);
    const auto m = counters.metrics();
    // Two reds: add (REDUX, uniform address) 1 sector, inc (no REDUX) one pass per lane: 32.
    CHECK(m.at("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum") == 2);
    CHECK(m.at("l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum") == 33);
    // The add whose old value is stored stays an atom: 32 lanes at one address, 32 passes.
    CHECK(m.at("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum") == 1);
    CHECK(m.at("l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum") == 32);
}
