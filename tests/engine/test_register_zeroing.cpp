// tests/engine/test_register_zeroing.cpp — a register read before any write reads 0, although frames zero
// only the registers some path may read first (sim/engine/live_in.cpp) and reuse the previous block's
// register files: values a lane wrote in an earlier block never show through.
#include <catch2/catch.hpp>

#include "tests/engine/engine_harness.hpp"

using namespace warpsim;

namespace {

// Thread t of block c: %r3 is written (77) only when t + c is odd, %r5 (9) only under a guard that holds when
// t + c is even, %r4 always; warp 1 has 16 threads and its lanes read lane 20's %r7 (written by no lane of
// that warp, and by lane 20 of warp 0 in every block).
const char* kKernel = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry zeroing(.param .u64 out)
{
    .reg .pred %p<4>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    add.s32 %r8, %r1, %r2;
    and.b32 %r9, %r8, 1;
    setp.eq.u32 %p1, %r9, 0;
    @%p1 bra SKIP;
    mov.u32 %r3, 77;
SKIP:
    @%p1 mov.u32 %r5, 9;
    mov.u32 %r4, 55;
    add.s32 %r7, %r1, 100;
    shfl.sync.idx.b32 %r6|%p2, %r7, 20, 31, -1;
    mad.lo.s32 %r10, %r2, 48, %r1;
    mul.wide.u32 %rd2, %r10, 16;
    add.s64 %rd3, %rd1, %rd2;
    st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};
    ret;
}
)";

}  // namespace

TEST_CASE("registers read before written read 0 in every block, the register files reused") {
    auto k = test::parse(kKernel);
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    const uint32_t blocks = 6, threads = 48;
    engine::Simulator sim;
    const uint64_t out = test::upload(sim, std::vector<uint32_t>(4 * blocks * threads, 0xdeadbeef));
    test::Params p;
    p.add(out);
    auto cfg = test::config({blocks, 1, 1}, {threads, 1, 1});
    cfg.host_workers = 1;
    auto r = sim.launch(k.parsed.module, *k.find("zeroing"), cfg, p.span(), nullptr);
    INFO((r.error ? r.error->details : std::string()));
    REQUIRE(r.ok());
    const auto got = test::download<uint32_t>(sim, out, 4 * blocks * threads);
    for (uint32_t c = 0; c < blocks; ++c) {
        for (uint32_t t = 0; t < threads; ++t) {
            const uint32_t* v = &got[4 * (c * threads + t)];
            const bool odd = (t + c) % 2 == 1;
            INFO("block " << c << " thread " << t);
            CHECK(v[0] == (odd ? 77u : 0u));
            CHECK(v[1] == 55u);
            CHECK(v[2] == (odd ? 0u : 9u));
            CHECK(v[3] == (t < 32 ? 120u : 0u));  // warp 1 has no lane 20: its register reads 0
        }
    }
}
