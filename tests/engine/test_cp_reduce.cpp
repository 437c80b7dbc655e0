// tests/engine/test_cp_reduce.cpp — cp.reduce.async.bulk (PTX ISA 9.7.10.28), the instruction added in the
// shape of one opcodes.def row, one form (kernels_ir/forms/async.cpp) and one handler: each element of the
// destination array is reduced with the source element, results worked out by hand from the ISA's rules.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "kernels_ir/verifier.hpp"
#include "tests/engine/engine_harness.hpp"

using namespace warpsim;

namespace {

std::string details(const engine::LaunchResult& r) {
    return r.error ? r.error->message + "\n" + r.error->details : "";
}

// One thread copies 16 bytes of `src` into shared memory and reduces them into the 16 bytes at `dst` with
// cp.reduce.async.bulk.global.shared::cta.bulk_group.<op>, then waits for the bulk group.
std::string global_kernel(std::string_view op) {
    return fmt::format(R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry reduce(.param .u64 src, .param .u64 dst)
{{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    .shared .align 16 .b8 s[16];
    ld.param.u64 %rd1, [src];
    ld.param.u64 %rd2, [dst];
    ld.global.v4.u32 {{%r1, %r2, %r3, %r4}}, [%rd1];
    mov.u32 %r5, s;
    st.shared.v4.u32 [%r5], {{%r1, %r2, %r3, %r4}};
    fence.proxy.async.shared::cta;
    cp.reduce.async.bulk.global.shared::cta.bulk_group.{} [%rd2], [%r5], 16;
    cp.async.bulk.commit_group;
    cp.async.bulk.wait_group 0;
    ret;
}}
)",
                       op);
}

template <class T>
std::vector<T> run_global(std::string_view op, const std::vector<T>& src, const std::vector<T>& dst) {
    auto k = test::parse(global_kernel(op));
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    REQUIRE(ir::verify(k.parsed.module, "test.ptx").empty());
    engine::Simulator sim;
    const uint64_t ds = test::upload(sim, src), dd = test::upload(sim, dst);
    test::Params p;
    p.add(ds).add(dd);
    auto r =
        sim.launch(k.parsed.module, *k.find("reduce"), test::config({1, 1, 1}, {1, 1, 1}), p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    return test::download<T>(sim, dd, dst.size());
}

}  // namespace

TEST_CASE("cp.reduce.async.bulk to global memory: integer reductions element by element") {
    // add wraps modulo 2^32: 2 + 0xffffffff = 1, 0x80000000 + 0x80000000 = 0.
    CHECK(run_global<uint32_t>("add.u32", {0xffffffffu, 20, 0x80000000u, 0}, {2, 10, 0x80000000u, 7}) ==
          std::vector<uint32_t>{1, 30, 0, 7});
    // signed minimum: min(5, 3), min(-3, -5), min(7, 9), min(-8, -7).
    CHECK(run_global<int32_t>("min.s32", {3, -5, 9, -7}, {5, -3, 7, -8}) ==
          std::vector<int32_t>{3, -5, 7, -8});
    // unsigned maximum: 0xffffffff is the largest u32 (it would be -1 as s32).
    CHECK(run_global<uint32_t>("max.u32", {3, 1, 0xffffffffu, 0}, {5, 0xfffffffeu, 1, 0}) ==
          std::vector<uint32_t>{5, 0xfffffffeu, 0xffffffffu, 0});
    // inc: d >= s ? 0 : d + 1 -> 0<4: 1, 5>=5: 0, 9>=3: 0, 3<10: 4.
    CHECK(run_global<uint32_t>("inc.u32", {4, 5, 3, 10}, {0, 5, 9, 3}) == std::vector<uint32_t>{1, 0, 0, 4});
    // dec: d == 0 || d > s ? s : d - 1 -> 0: 4, 5<=5: 4, 9>3: 3, 3<=10: 2.
    CHECK(run_global<uint32_t>("dec.u32", {4, 5, 3, 10}, {0, 5, 9, 3}) == std::vector<uint32_t>{4, 4, 3, 2});
    CHECK(run_global<uint32_t>("xor.b32", {0x0ff00ff0u, 0, 0xffffffffu, 0},
                               {0xf0f0f0f0u, 0, 0xffffffffu, 0x12345678u}) ==
          std::vector<uint32_t>{0xff00ff00u, 0, 0, 0x12345678u});
    // 64-bit elements: two per 16 bytes; 0xffff'ffff'ffff'ffff + 2 wraps to 1, 2^32 + 2^32 carries into
    // bit 33.
    CHECK(run_global<uint64_t>("add.u64", {2, 1ull << 32}, {~0ull, 1ull << 32}) ==
          std::vector<uint64_t>{1, 1ull << 33});
    CHECK(run_global<int64_t>("max.s64", {-2, 7}, {-1, 5}) == std::vector<int64_t>{-1, 7});
    CHECK(run_global<uint64_t>("and.b64", {0xff00ff00ff00ff00ull, 0}, {0x0ff00ff00ff00ff0ull, ~0ull}) ==
          std::vector<uint64_t>{0x0f000f000f000f00ull, 0});
}

TEST_CASE("cp.reduce.async.bulk to shared::cluster completes its bytes on the mbarrier") {
    // d = {5, -3, 7, 0, -8, 100, -100, 1} reduced with s = {3, -5, 9, 0, -7, -1, 50, 1} by min.s32: 32 bytes
    // that complete the 32-byte transaction the arrive expected, so the phase-0 wait succeeds.
    auto k = test::parse(R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry reduce(.param .u64 in, .param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<16>;
    .reg .b64 %rd<4>;
    .shared .align 8 .b64 mb;
    .shared .align 16 .b32 d[8];
    .shared .align 16 .b32 s[8];
    ld.param.u64 %rd1, [out];
    ld.param.u64 %rd3, [in];
    mov.u32 %r1, d;
    mov.u32 %r2, s;
    mov.u32 %r3, mb;
    ld.global.v4.u32 {%r4, %r5, %r6, %r7}, [%rd3];
    st.shared.v4.u32 [%r1], {%r4, %r5, %r6, %r7};
    ld.global.v4.u32 {%r4, %r5, %r6, %r7}, [%rd3+16];
    st.shared.v4.u32 [%r1+16], {%r4, %r5, %r6, %r7};
    ld.global.v4.u32 {%r4, %r5, %r6, %r7}, [%rd3+32];
    st.shared.v4.u32 [%r2], {%r4, %r5, %r6, %r7};
    ld.global.v4.u32 {%r4, %r5, %r6, %r7}, [%rd3+48];
    st.shared.v4.u32 [%r2+16], {%r4, %r5, %r6, %r7};
    mbarrier.init.shared::cta.b64 [%r3], 1;
    fence.proxy.async.shared::cta;
    mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [%r3], 32;
    cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.min.s32 [%r1], [%r2], 32, [%r3];
WAIT:
    mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r3], 0;
    @!%p1 bra WAIT;
    ld.shared.v4.u32 {%r4, %r5, %r6, %r7}, [%r1];
    ld.shared.v4.u32 {%r8, %r9, %r10, %r11}, [%r1+16];
    st.global.v4.u32 [%rd1], {%r4, %r5, %r6, %r7};
    st.global.v4.u32 [%rd1+16], {%r8, %r9, %r10, %r11};
    ret;
}
)");
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    REQUIRE(ir::verify(k.parsed.module, "test.ptx").empty());
    engine::Simulator sim;
    const std::vector<int32_t> in = {5, -3, 7, 0, -8, 100, -100, 1, 3, -5, 9, 0, -7, -1, 50, 1};
    const uint64_t din = test::upload(sim, in), dout = test::upload(sim, std::vector<int32_t>(8, 77));
    test::Params p;
    p.add(din).add(dout);
    auto r =
        sim.launch(k.parsed.module, *k.find("reduce"), test::config({1, 1, 1}, {1, 1, 1}), p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    CHECK(test::download<int32_t>(sim, dout, 8) == std::vector<int32_t>{3, -5, 7, 0, -8, -1, -100, 1});
}

TEST_CASE("an ill-formed cp.reduce.async.bulk is a located verifier error") {
    // ptxas: "Incorrect type '.u64' for operation '.inc' in instruction 'cp.reduce.async.bulk'".
    auto k = test::parse(global_kernel("inc.u64"));
    REQUIRE(k.parsed.ok());
    std::vector<std::string> errs;
    for (const auto& d : ir::verify(k.parsed.module, "test.ptx")) errs.push_back(d.str());
    // Line 16 of the kernel text; "    cp.reduce" puts the opcode at column 5 and '.u64' at column 59.
    CHECK(errs == std::vector<std::string>{"test.ptx:16:59: error: cp.reduce.async.bulk: '.inc.u64' is not a "
                                           "reduction to .global (PTX ISA 9.7.10.28)"});
}
