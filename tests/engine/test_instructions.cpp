// tests/engine/test_instructions.cpp — the less common instructions with hand-computed results: fns, packed
// 16-bit SIMD, video vabsdiff4, set on f16x2, cp.async with zero fill, mbarrier phases, cp.async.bulk with
// complete_tx, and the cluster registers of a launch without clusters.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "tests/engine/engine_harness.hpp"

using namespace warpsim;

namespace {

std::string details(const engine::LaunchResult& r) {
    return r.error ? r.error->message + "\n" + r.error->details : "";
}

struct Scalar {
    const char* name;
    const char* body;  // leaves the result in %r9
    uint32_t expect;
};

const Scalar kScalars[] = {
    // mask 0b10110: set bits 1, 2, 4.
    {"fns first from 0", "fns.b32 %r9, 22, 0, 1;", 1},
    {"fns second from 0", "fns.b32 %r9, 22, 0, 2;", 2},
    {"fns third from 0", "fns.b32 %r9, 22, 0, 3;", 4},
    {"fns fourth: none", "fns.b32 %r9, 22, 0, 4;", 0xffffffffu},
    {"fns down from 4, second", "fns.b32 %r9, 22, 4, -2;", 2},
    {"fns offset 0, bit set", "fns.b32 %r9, 22, 1, 0;", 1},
    {"fns offset 0, bit clear", "fns.b32 %r9, 22, 0, 0;", 0xffffffffu},
    // halves wrap independently: 0xffff + 1 = 0 (upper), 1 + 1 = 2 (lower).
    {"add.u16x2", "mov.b32 %r4, 0xffff0001; mov.b32 %r5, 0x00010001; add.u16x2 %r9, %r4, %r5;", 0x00000002},
    // max(-1, 1) = 1 upper, max(5, 3) = 5 lower.
    {"max.s16x2", "mov.b32 %r4, 0xffff0005; mov.b32 %r5, 0x00010003; max.s16x2 %r9, %r4, %r5;", 0x00010005},
    {"max.u16x2", "mov.b32 %r4, 0xffff0005; mov.b32 %r5, 0x00010003; max.u16x2 %r9, %r4, %r5;", 0xffff0005},
    // bytes |10-40|, |20-30|, |30-20|, |40-10| (hex) = 30 10 10 30; .add sums them (0x80) plus c = 5.
    {"vabsdiff4",
     "mov.b32 %r4, 0x10203040; mov.b32 %r5, 0x40302010; vabsdiff4.u32.u32.u32 %r9, %r4, %r5, %r5;",
     0x30101030},
    {"vabsdiff4.add",
     "mov.b32 %r4, 0x10203040; mov.b32 %r5, 0x40302010; mov.b32 %r6, 5; "
     "vabsdiff4.u32.u32.u32.add %r9, %r4, %r5, %r6;",
     0x85},
    // f16x2 halves: a = (1.0, 2.0), b = (2.0, 1.0) as (upper, lower): upper 1 < 2, lower 2 < 1 false.
    {"set.lt.u32.f16x2", "mov.b32 %r4, 0x3c004000; mov.b32 %r5, 0x40003c00; set.lt.u32.f16x2 %r9, %r4, %r5;",
     0xffff0000},
    {"set.lt.f16x2.f16x2",
     "mov.b32 %r4, 0x3c004000; mov.b32 %r5, 0x40003c00; set.lt.f16x2.f16x2 %r9, %r4, %r5;", 0x3c000000},
    // A launch without clusters is a cluster of one CTA (block (3,0,0) of a 4-block grid).
    {"%cluster_nctarank", "mov.u32 %r9, %cluster_nctarank;", 1},
    {"%cluster_ctarank", "mov.u32 %r9, %cluster_ctarank;", 0},
    {"%clusterid.x", "mov.u32 %r9, %clusterid.x;", 3},
    {"%nclusterid.x", "mov.u32 %r9, %nclusterid.x;", 4},
    {"%cluster_nctaid.x", "mov.u32 %r9, %cluster_nctaid.x;", 1},
    {"%is_explicit_cluster", "mov.pred %p1, %is_explicit_cluster; selp.u32 %r9, 1, 0, %p1;", 0},
};

}  // namespace

TEST_CASE("fns, packed 16-bit SIMD, vabsdiff4, set.f16x2 and cluster registers (hand-computed)") {
    std::string body;
    for (std::size_t i = 0; i < std::size(kScalars); ++i)
        body += fmt::format("    // {}\n    {}\n    st.global.u32 [%rd1+{}], %r9;\n", kScalars[i].name,
                            kScalars[i].body, 4 * i);
    auto k = test::parse(R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry scalars(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %ctaid.x;
    setp.ne.u32 %p1, %r1, 3;
    @%p1 bra DONE;
)" + body + "DONE:\n    ret;\n}\n");
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    const std::size_t n = std::size(kScalars);
    const uint64_t out = test::upload(sim, std::vector<uint32_t>(n, 0xdeadbeef));
    test::Params p;
    p.add(out);
    auto r = sim.launch(k.parsed.module, *k.find("scalars"), test::config({4, 1, 1}, {1, 1, 1}), p.span(),
                        nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto got = test::download<uint32_t>(sim, out, n);
    for (std::size_t i = 0; i < n; ++i) {
        INFO(kScalars[i].name << ": got 0x" << std::hex << got[i]);
        CHECK(got[i] == kScalars[i].expect);
    }
}

TEST_CASE("cp.async 4/8/16 bytes with src-size zero fill, commit and wait groups") {
    // Thread t: s[t] <- in[t] (4 bytes, .ca); thread t < 16 also copies in[64+4t .. +3] into s2[4t ..] with
    // .cg 16 bytes but src-size 8: the upper 8 bytes are zero.
    auto k = test::parse(R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry copies(.param .u64 in, .param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<8>;
    .shared .align 16 .b32 s[64];
    .shared .align 16 .b32 s2[64];
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    mov.u32 %r1, %tid.x;
    shl.b32 %r2, %r1, 2;
    mov.u32 %r3, s;
    add.u32 %r4, %r3, %r2;
    cvt.u64.u32 %rd3, %r2;
    add.s64 %rd4, %rd1, %rd3;
    cp.async.ca.shared.global [%r4], [%rd4], 4;
    setp.ge.u32 %p1, %r1, 16;
    @%p1 bra SKIP;
    shl.b32 %r5, %r1, 4;
    mov.u32 %r6, s2;
    add.u32 %r6, %r6, %r5;
    cvt.u64.u32 %rd5, %r5;
    add.s64 %rd5, %rd5, 256;
    add.s64 %rd5, %rd1, %rd5;
    cp.async.cg.shared.global [%r6], [%rd5], 16, 8;
SKIP:
    cp.async.commit_group;
    cp.async.wait_group 0;
    cp.async.wait_all;
    bar.sync 0;
    ld.shared.u32 %r7, [%r4];
    mov.u32 %r8, s2;
    add.u32 %r8, %r8, %r2;
    ld.shared.u32 %r9, [%r8];
    add.s64 %rd6, %rd2, %rd3;
    st.global.u32 [%rd6], %r7;
    st.global.u32 [%rd6+256], %r9;
    ret;
}
)");
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    std::vector<uint32_t> in(128);
    for (uint32_t i = 0; i < 128; ++i) in[i] = 1000 + i;
    const uint64_t din = test::upload(sim, in), dout = test::upload(sim, std::vector<uint32_t>(128, 7));
    test::Params p;
    p.add(din).add(dout);
    auto r = sim.launch(k.parsed.module, *k.find("copies"), test::config({1, 1, 1}, {64, 1, 1}), p.span(),
                        nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto o = test::download<uint32_t>(sim, dout, 128);
    for (uint32_t t = 0; t < 64; ++t) REQUIRE(o[t] == 1000 + t);
    // s2 word w came from thread w/4's 16-byte copy of in[64 + w .. ], of which only the first 8 bytes are
    // real.
    for (uint32_t w = 0; w < 64; ++w) REQUIRE(o[64 + w] == (w % 4 < 2 ? 1000 + 64 + w : 0u));
}

TEST_CASE("mbarrier phases: arrive tokens, test_wait, and a bulk copy completing the transaction count") {
    // Block of 64. Thread 0 inits mb (count 64) and mb2 (count 1). Every thread arrives on mb and spins with
    // test_wait on its token; thread 0 then expects 256 bytes on mb2 and starts a bulk copy of in[0..63] into
    // s; everyone waits on mb2's phase 0 with try_wait.parity and stores s[t] (and the phase-0 completion).
    auto k = test::parse(R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry phases(.param .u64 in, .param .u64 out)
{
    .reg .pred %p<3>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<10>;
    .shared .align 8 .b64 mb;
    .shared .align 8 .b64 mb2;
    .shared .align 16 .b32 s[64];
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    mov.u32 %r1, %tid.x;
    setp.ne.u32 %p1, %r1, 0;
    mov.u32 %r2, mb;
    mov.u32 %r3, mb2;
    @%p1 bra INITED;
    mbarrier.init.shared.b64 [%r2], 64;
    mbarrier.init.shared::cta.b64 [%r3], 1;
    fence.mbarrier_init.release.cluster;
INITED:
    bar.sync 0;
    mbarrier.arrive.shared.b64 %rd3, [%r2];
WAIT1:
    mbarrier.test_wait.shared.b64 %p2, [%r2], %rd3;
    @!%p2 bra WAIT1;
    @%p1 bra WAIT2;
    mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r3], 256;
    mov.u32 %r4, s;
    cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r4], [%rd1], 256, [%r3];
WAIT2:
    mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r3], 0;
    @!%p2 bra WAIT2;
    shl.b32 %r5, %r1, 2;
    mov.u32 %r6, s;
    add.u32 %r6, %r6, %r5;
    ld.shared.u32 %r7, [%r6];
    cvt.u64.u32 %rd4, %r5;
    add.s64 %rd5, %rd2, %rd4;
    st.global.u32 [%rd5], %r7;
    mbarrier.test_wait.parity.shared.b64 %p2, [%r2], 0;
    selp.u32 %r8, 1, 0, %p2;
    st.global.u32 [%rd5+256], %r8;
    ret;
}
)");
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    std::vector<uint32_t> in(64);
    for (uint32_t i = 0; i < 64; ++i) in[i] = 3 * i + 1;
    const uint64_t din = test::upload(sim, in), dout = test::upload(sim, std::vector<uint32_t>(128, 9));
    test::Params p;
    p.add(din).add(dout);
    auto r = sim.launch(k.parsed.module, *k.find("phases"), test::config({1, 1, 1}, {64, 1, 1}), p.span(),
                        nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto o = test::download<uint32_t>(sim, dout, 128);
    for (uint32_t t = 0; t < 64; ++t) REQUIRE(o[t] == 3 * t + 1);
    for (uint32_t t = 0; t < 64; ++t) REQUIRE(o[64 + t] == 1u);  // mb's phase 0 completed for everyone
}

TEST_CASE("indirect calls through a function-pointer table with divergent targets, and WARP_SZ") {
    // out[t] = table[t % 3](t, 10) + WARP_SZ, table = {add, mul, sub}; the pointer of entry 1 also comes from
    // mov.u64 %rd, mul (the same value the initialiser holds).
    auto k = test::parse(R"(
.version 8.0
.target sm_90
.address_size 64
.func (.param .b32 r) add2(.param .b32 a, .param .b32 b) { .reg .b32 %r<4>; ld.param.b32 %r1, [a]; ld.param.b32 %r2, [b]; add.s32 %r3, %r1, %r2; st.param.b32 [r], %r3; ret; }
.func (.param .b32 r) mul2(.param .b32 a, .param .b32 b) { .reg .b32 %r<4>; ld.param.b32 %r1, [a]; ld.param.b32 %r2, [b]; mul.lo.s32 %r3, %r1, %r2; st.param.b32 [r], %r3; ret; }
.func (.param .b32 r) sub2(.param .b32 a, .param .b32 b) { .reg .b32 %r<4>; ld.param.b32 %r1, [a]; ld.param.b32 %r2, [b]; sub.s32 %r3, %r1, %r2; st.param.b32 [r], %r3; ret; }
.global .align 8 .u64 table[3] = {add2, mul2, sub2};
.visible .entry calls(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    rem.u32 %r2, %r1, 3;
    mul.wide.u32 %rd2, %r2, 8;
    mov.u64 %rd3, table;
    add.s64 %rd3, %rd3, %rd2;
    ld.global.u64 %rd4, [%rd3];
    mov.u64 %rd5, mul2;
    ld.global.u64 %rd6, [table+8];
    setp.ne.u64 %p1, %rd5, %rd6;
    @%p1 bra BAD;
    {
    .param .b32 a0;
    .param .b32 a1;
    .param .b32 r0;
    st.param.b32 [a0], %r1;
    st.param.b32 [a1], 10;
    proto : .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);
    call (r0), %rd4, (a0, a1), proto;
    ld.param.b32 %r3, [r0];
    }
    mov.u32 %r4, WARP_SZ;
    add.s32 %r3, %r3, %r4;
    mul.wide.u32 %rd7, %r1, 4;
    add.s64 %rd7, %rd1, %rd7;
    st.global.u32 [%rd7], %r3;
BAD:
    ret;
}
)");
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    const uint64_t out = test::upload(sim, std::vector<int32_t>(64, -1));
    test::Params p;
    p.add(out);
    auto r =
        sim.launch(k.parsed.module, *k.find("calls"), test::config({1, 1, 1}, {64, 1, 1}), p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto o = test::download<int32_t>(sim, out, 64);
    for (int t = 0; t < 64; ++t) {
        const int expect = t % 3 == 0 ? t + 10 : t % 3 == 1 ? t * 10 : t - 10;
        REQUIRE(o[t] == expect + 32);
    }
}

TEST_CASE("vote.sync and redux.sync with per-tile member masks (cooperative-groups tiles of 8 and 16)") {
    auto k = test::parse(R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry tiles(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %laneid;
    rem.u32 %r2, %r1, 3;
    setp.eq.u32 %p1, %r2, 0;
    and.b32 %r3, %r1, -8;
    shl.b32 %r4, 255, %r3;
    vote.sync.ballot.b32 %r5, %p1, %r4;
    and.b32 %r6, %r1, 16;
    shl.b32 %r7, 65535, %r6;
    redux.sync.add.u32 %r8, %r1, %r7;
    mul.wide.u32 %rd2, %r1, 8;
    add.s64 %rd3, %rd1, %rd2;
    st.global.v2.u32 [%rd3], {%r5, %r8};
    ret;
}
)");
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    const uint64_t out = test::upload(sim, std::vector<uint32_t>(64, 0));
    test::Params p;
    p.add(out);
    auto r =
        sim.launch(k.parsed.module, *k.find("tiles"), test::config({1, 1, 1}, {32, 1, 1}), p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto o = test::download<uint32_t>(sim, out, 64);
    const uint32_t every_third = 0x49249249u;  // lanes 0, 3, 6, ..., 30
    for (uint32_t l = 0; l < 32; ++l) {
        CHECK(o[2 * l] == (every_third & (0xffu << (l & ~7u))));
        CHECK(o[2 * l + 1] == (l < 16 ? 120u : 376u));  // 0+..+15, 16+..+31
    }
}

TEST_CASE("ld/st .v8, cvta.param / isspacep.param on a kernel parameter, redux.sync.max.abs.f32") {
    auto k = test::parse(R"(
.version 8.8
.target sm_100a
.address_size 64
.visible .entry misc(.param .u64 in, .param .u64 out, .param .u32 seven)
{
    .reg .pred %p<2>;
    .reg .b32 %r<12>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    ld.global.v8.b32 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];
    st.global.v8.b32 [%rd2], {%r8, %r7, %r6, %r5, %r4, %r3, %r2, %r1};
    mov.u64 %rd3, seven;
    cvta.param.u64 %rd4, %rd3;
    isspacep.param %p1, %rd4;
    ld.u32 %r9, [%rd4];
    selp.u32 %r10, 1, 0, %p1;
    st.global.v2.u32 [%rd2+32], {%r9, %r10};
    mov.u32 %r11, %laneid;
    cvt.rn.f32.u32 %f1, %r11;
    neg.f32 %f1, %f1;
    redux.sync.max.abs.f32 %f2, %f1, -1;
    st.global.f32 [%rd2+40], %f2;
    ret;
}
)");
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    const uint64_t in = test::upload(sim, std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7, 8});
    const uint64_t out = test::upload(sim, std::vector<uint32_t>(11, 0));
    test::Params p;
    p.add(in).add(out).add(uint32_t{7});
    auto r =
        sim.launch(k.parsed.module, *k.find("misc"), test::config({1, 1, 1}, {32, 1, 1}), p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto o = test::download<uint32_t>(sim, out, 11);
    CHECK(o == std::vector<uint32_t>{8, 7, 6, 5, 4, 3, 2, 1, 7, 1, 0x41f80000u});  // max |-lane| = 31.0f
}
