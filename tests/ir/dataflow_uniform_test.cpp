// tests/ir/dataflow_uniform_test.cpp — ir::warp_uniform_registers and address_warp_uniform on hand-written
// PTX: which atomic addresses ptxas can know to be the same in every lane.
#include <catch2/catch.hpp>

#include "kernels_ir/dataflow.hpp"
#include "kernels_ir/parser.hpp"

using namespace warpsim;

namespace {

const char* kPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 count, .param .u64 bins, .param .u32 n)
{
    .reg .pred %p<3>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<12>;
    ld.param.u64 %rd1, [count];
    cvta.to.global.u64 %rd2, %rd1;
    ld.param.u64 %rd3, [bins];
    cvta.to.global.u64 %rd4, %rd3;
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    setp.lt.u32 %p1, %r1, 5;
    @%p1 red.global.add.u32 [%rd2], 1;
    shr.u32 %r3, %r1, 5;
    and.b32 %r4, %r3, 7;
    mul.wide.u32 %rd5, %r4, 4;
    add.s64 %rd6, %rd4, %rd5;
    red.global.add.u32 [%rd6], 1;
    and.b32 %r5, %r2, 7;
    mul.wide.u32 %rd7, %r5, 4;
    add.s64 %rd8, %rd4, %rd7;
    atom.global.add.u32 %r6, [%rd8], 1;
    ld.global.u32 %r7, [%rd2];
    mul.wide.u32 %rd9, %r7, 4;
    add.s64 %rd10, %rd4, %rd9;
    red.global.add.u32 [%rd10], 1;
    mov.u32 %r8, 0;
LOOP:
    add.s32 %r8, %r8, 1;
    mul.wide.u32 %rd11, %r8, 4;
    red.global.add.u32 [%rd11], 1;
    setp.lt.u32 %p2, %r8, 4;
    @%p2 bra LOOP;
    ret;
}
)";

}  // namespace

TEST_CASE("warp-uniform registers and atomic addresses") {
    const ir::ParseResult r = ir::parse_ptx(kPtx, "uniform.ptx");
    REQUIRE(r.ok());
    const ir::Function& fn = r.module.functions.at(0);
    const std::vector<bool> u = ir::warp_uniform_registers(fn);
    auto at_line = [&](uint32_t ptx_line) -> const ir::Instruction& {
        for (const auto& inst : fn.body)
            if (inst.loc.ptx_line == ptx_line) return inst;
        FAIL("no instruction on line " << ptx_line);
        return fn.body.front();
    };
    // Line numbers of kPtx (line 1 is the empty first line).
    CHECK(ir::address_warp_uniform(at_line(17), u));        // a parameter's pointer, under a divergent guard
    CHECK_FALSE(ir::address_warp_uniform(at_line(22), u));  // a word chosen by %tid.x / 32
    CHECK(ir::address_warp_uniform(at_line(26), u));        // a word chosen by %ctaid.x
    CHECK_FALSE(ir::address_warp_uniform(at_line(30), u));  // a word chosen by loaded data
    CHECK_FALSE(ir::address_warp_uniform(at_line(35), u));  // a loop counter (written twice)
}
