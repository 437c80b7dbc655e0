// tests/engine/test_reserved_shared.cpp — a block's shared window as the driver lays it out: the reserved
// region first, user shared memory after it. Expected values are what the H200 (driver 580.159.04) gave for
// the same probe (tests/hardware/approx/reserved_smem_probe.cu, output in reserved_smem_probe_h200.txt).
#include <catch2/catch.hpp>

#include "tests/engine/engine_harness.hpp"

namespace {

using namespace warpsim;

constexpr const char* kProbe = R"(
.version 8.0
.target sm_90
.address_size 64
.extern .shared .align 16 .b8 dyn[];
.visible .entry probe(.param .u64 out)
{
    .shared .align 4 .b8 st[64];
    .reg .b32 %r<9>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r0, %reserved_smem_offset_begin;
    mov.u32 %r1, %reserved_smem_offset_end;
    mov.u32 %r2, %reserved_smem_offset_cap;
    mov.u32 %r3, %reserved_smem_offset_0;
    mov.u32 %r4, %reserved_smem_offset_1;
    mov.u32 %r5, st;
    mov.u32 %r6, dyn;
    mov.u32 %r7, %total_smem_size;
    st.shared.u32 [%r0+4], %r2;
    ld.shared.u32 %r8, [%r4+4];
    st.global.v4.u32 [%rd1], {%r0, %r1, %r2, %r3};
    st.global.v4.u32 [%rd1+16], {%r4, %r5, %r6, %r7};
    st.global.u32 [%rd1+32], %r8;
    ret;
}
)";

std::vector<uint32_t> run_probe(uint32_t dynamic_bytes, uint32_t reserved) {
    auto k = test::parse(kProbe);
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    const uint64_t out = test::upload(sim, std::vector<uint32_t>(9, 0xdeadbeef));
    test::Params p;
    p.add(out);
    auto cfg = test::config({2, 1, 1}, {64, 1, 1});
    cfg.dynamic_shared_bytes = dynamic_bytes;
    cfg.limits.reserved_shared_per_block = reserved;
    auto r = sim.launch(k.parsed.module, *k.find("probe"), cfg, p.span(), nullptr);
    INFO((r.error ? r.error->message + "\n" + r.error->details : ""));
    REQUIRE(r.ok());
    return test::download<uint32_t>(sim, out, 9);
}

}  // namespace

TEST_CASE("reserved shared memory lies below user shared memory, as on the H200") {
    // begin, end, cap, offset_0, offset_1, static __shared__, dynamic __shared__, %total_smem_size
    const std::vector<std::pair<uint32_t, uint32_t>> dyn_total = {
        {256, 384}, {512, 640}, {4352, 4480}, {40256, 40320}};
    for (auto [dyn, total] : dyn_total) {
        INFO("dynamic shared " << dyn);
        auto v = run_probe(dyn, 1024);
        CHECK(v[0] == 0);
        CHECK(v[1] == 288);
        CHECK(v[2] == 1024);
        CHECK(v[3] == 0);
        CHECK(v[4] == 0);
        CHECK(v[5] == 0x400);  // static __shared__ starts after the 1 KB reservation
        CHECK(v[6] == 0x440);  // dynamic after the 64 static bytes
        CHECK(v[7] == total);  // static + dynamic rounded up to 128 bytes, the reservation not included
        CHECK(v[8] == 1024);   // the reserved region is memory the block can use (cooperative groups do)
    }
}

TEST_CASE("without a reservation (before compute capability 8.0) user shared memory starts at 0") {
    auto v = run_probe(256, 0);
    CHECK(v[0] == 0);
    CHECK(v[1] == 0);
    CHECK(v[2] == 0);
    CHECK(v[5] == 0);
    CHECK(v[6] == 64);
}
