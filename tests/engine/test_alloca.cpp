// tests/engine/test_alloca.cpp — alloca / stacksave / stackrestore (tests/ptx/alloca_stack.cu and small PTX
// kernels): per-thread dynamic local memory, alignment, a callee's frame above it, release and reuse, and the
// errors a bad stackrestore or an oversized alloca get.
#include <catch2/catch.hpp>

#include "tests/engine/engine_harness.hpp"

using namespace warpsim;

namespace {
std::string details(const engine::LaunchResult& r) {
    return r.error ? r.error->message + "\n" + r.error->details : "";
}
}  // namespace

TEST_CASE("alloca: per-thread arrays handed to a callee, aligned allocations, stackrestore reuse") {
    auto k = test::parse(
        test::read_text(std::string(WARPSIM_SOURCE_DIR) + "/tests/ptx/alloca_stack.sm_90.lineinfo.ptx"));
    REQUIRE(k.parsed.ok());
    const ir::Function* fn = test::kernel_named(k, "alloca_sum");
    REQUIRE(fn);
    engine::Simulator sim;
    const uint64_t dout = test::upload(sim, std::vector<int32_t>(256, -1));
    test::Params p;
    p.add(dout).add(int32_t{5});
    auto r = sim.launch(k.parsed.module, *fn, test::config({2, 1, 1}, {64, 1, 1}), p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto out = test::download<int32_t>(sim, dout, 256);
    for (int t = 0; t < 64; ++t) {
        const int count = 5 + t % 3;
        int s = 0;
        for (int i = 0; i < count; ++i) s += (t * 10 + i) * (i % 4 + 1);
        INFO("thread " << t);
        CHECK(out[t * 4 + 0] == s);
        CHECK(out[t * 4 + 1] == 0);  // 64-byte aligned
        CHECK(out[t * 4 + 2] == 1);  // the restored space is handed out again
        CHECK(out[t * 4 + 3] == 1);  // 16-byte aligned
    }
}

TEST_CASE("alloca errors: a stackrestore above the stack, an allocation past the stack limit") {
    auto k = test::parse(R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry bad_restore()
{
    .reg .b64 %rd<4>;
    stacksave.u64 %rd1;
    add.u64 %rd2, %rd1, 64;
    stackrestore.u64 %rd2;
    ret;
}
.visible .entry too_big()
{
    .reg .b64 %rd<4>;
    alloca.u64 %rd1, 1048576;
    ret;
}
.visible .entry use_after_restore(.param .u64 out)
{
    .reg .b64 %rd<6>;
    .reg .b32 %r<2>;
    stacksave.u64 %rd1;
    alloca.u64 %rd2, 16, 16;
    st.local.u32 [%rd2], 7;
    stackrestore.u64 %rd1;
    ld.local.u32 %r1, [%rd2];
    ret;
}
)");
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    auto r =
        sim.launch(k.parsed.module, *k.find("bad_restore"), test::config({1, 1, 1}, {32, 1, 1}), {}, nullptr);
    REQUIRE(r.error);
    CHECK_THAT(r.error->details, Catch::Contains("stackrestore to 0x40, which is not a stack pointer"));
    CHECK_THAT(r.error->details, Catch::Contains("test.ptx:10"));
    r = sim.launch(k.parsed.module, *k.find("too_big"), test::config({1, 1, 1}, {32, 1, 1}), {}, nullptr);
    REQUIRE(r.error);
    CHECK_THAT(r.error->details, Catch::Contains("stack overflow: alloca of 1048576 bytes"));
    test::Params p;
    p.add(uint64_t{0});
    r = sim.launch(k.parsed.module, *k.find("use_after_restore"), test::config({1, 1, 1}, {1, 1, 1}),
                   p.span(), nullptr);
    REQUIRE(r.error);
    CHECK(r.error->name == "cudaErrorIllegalAddress");
    CHECK_THAT(r.error->details, Catch::Contains("Invalid __local__ read"));
}
