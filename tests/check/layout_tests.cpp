// tests/check/layout_tests.cpp — shared offsets to variable names, hand-computed from the layout rule (module
// .shared, then each .func's, then the kernel's, at their alignment; dynamic shared 16-aligned after).
#include <catch2/catch.hpp>

#include "kernels_ir/parser.hpp"
#include "sim/check/context.hpp"

using namespace warpsim;

TEST_CASE("shared layout: offsets, 2-D indices and the dynamic array", "[check][layout]") {
    const char* ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.extern .shared .align 16 .b8 dyn[];
.visible .entry k()
{
    .shared .align 4 .b8 flag[1];
    .shared .align 4 .f32 tile[4][5];
    .shared .align 8 .f64 d;
    ret;
}
)";
    auto parsed = ir::parse_ptx(ptx, "k.ptx");
    REQUIRE(parsed.diagnostics.empty());
    REQUIRE(parsed.module.functions.size() == 1);
    check::CheckContext ctx;
    ctx.module = &parsed.module;
    ctx.shared = check::shared_layout(parsed.module, 0, 0);
    // flag at 0 (1 byte); tile aligned to 4 -> 4..84; d aligned to 8 -> 88..96; dynamic at 96 (16-aligned).
    REQUIRE(ctx.shared.vars.size() == 3);
    CHECK(ctx.shared.vars[1].offset == 4);
    CHECK(ctx.shared.vars[2].offset == 88);
    CHECK(ctx.shared.dynamic_base == 96);
    CHECK(ctx.shared_name(0) == "flag[0]");
    CHECK(ctx.shared_name(4 + 4 * 7, 4) == "tile[1][2]");  // element 7 of a [4][5] array
    CHECK(ctx.shared_name(88, 8) == "d");
    CHECK(ctx.shared_name(96 + 12, 4) == "dyn[3] (in 4-byte elements)");
    CHECK(ctx.shared_name(86).empty());  // alignment padding
}

TEST_CASE("shared layout after the driver's 1 KB reservation: every offset moves up by 1024",
          "[check][layout]") {
    const char* ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.extern .shared .align 16 .b8 dyn[];
.visible .entry k()
{
    .shared .align 4 .f32 tile[4][5];
    ret;
}
)";
    auto parsed = ir::parse_ptx(ptx, "k.ptx");
    REQUIRE(parsed.diagnostics.empty());
    check::CheckContext ctx;
    ctx.module = &parsed.module;
    ctx.shared = check::shared_layout(parsed.module, 0, 1024);
    // tile at 1024..1104 (the H200's static __shared__ at 0x400), dynamic at 1104 (16-aligned).
    REQUIRE(ctx.shared.vars.size() == 1);
    CHECK(ctx.shared.vars[0].offset == 1024);
    CHECK(ctx.shared.dynamic_base == 1104);
    CHECK(ctx.shared_name(1024 + 4 * 6, 4) == "tile[1][1]");
    CHECK(ctx.shared_name(1104 + 8, 4) == "dyn[2] (in 4-byte elements)");
    CHECK(ctx.shared_name(4, 4) == "the driver's reserved shared memory +4");
}

TEST_CASE("source names of function-local statics", "[check][layout]") {
    CHECK(check::CheckContext::source_name("_ZZ17barrier_in_branchPfE1s") == "s");
    CHECK(check::CheckContext::source_name("_ZZ11tiledMatMulILi32EEvPKfS1_PfiE2As") == "As");
    CHECK(check::CheckContext::source_name("plain") == "plain");
}
