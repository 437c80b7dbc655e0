// tests/ir/printer_test.cpp — printed PTX is what nvcc would accept and parses back to the same IR.
#include <catch2/catch.hpp>

#include "kernels_ir/parser.hpp"
#include "kernels_ir/printer.hpp"

using namespace warpsim::ir;

TEST_CASE("printing instructions and operands", "[printer]") {
    const char* src = R"(.version 9.0
.target sm_90
.address_size 64
.entry k(.param .u64 p)
{
    .reg .pred %p<2>;
    .reg .b32 %r<3>;
    .reg .b64 %rd<2>;
    .reg .f32 %f<4>;
    @!%p1 ld.global.nc.v4.f32 {%f0, %f1, _, %f3}, [%rd1+-8];
    st.shared.u32 [%r0+0], 0x10;
    shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;
    mov.u32 %r1, %ctaid.y;
    mov.f32 %f0, 0f3F800000;
    ld.param.u64 %rd0, [p];
    ret;
}
)";
    ParseResult r = parse_ptx(src, "p.ptx");
    REQUIRE(r.ok());
    const Function& fn = r.module.functions[0];
    CHECK(print_instruction(fn, fn.body[0]) == "@!%p1 ld.global.nc.v4.f32 {%f0, %f1, _, %f3}, [%rd1-8];");
    CHECK(print_instruction(fn, fn.body[1]) == "st.shared.u32 [%r0], 16;");
    CHECK(print_instruction(fn, fn.body[2]) == "shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;");
    CHECK(print_instruction(fn, fn.body[3]) == "mov.u32 %r1, %ctaid.y;");
    CHECK(print_instruction(fn, fn.body[4]) == "mov.f32 %f0, 0f3F800000;");
    CHECK(print_instruction(fn, fn.body[5]) == "ld.param.u64 %rd0, [p];");
}

TEST_CASE("a module with everything round-trips", "[printer]") {
    const char* src = R"(.version 8.5
.target sm_90a, debug
.address_size 64
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);
.global .align 4 .b8 gtab[8] = {1, 0, 0, 0, 2};
.global .align 8 .u64 gptr[2] = {generic(gtab)+4, gtab};
.const .f64 cd = 0d4008000000000000;
.extern .shared .align 16 .b8 dyn[];
.visible .entry k(.param .align 8 .b8 big[24], .param .u64 .ptr .global .align 16 out)
.reqntid 128, 1, 1
.maxnreg 64
{
    .reg .pred %p<2>;
    .reg .b32 %r<3>;
    .reg .b64 %rd<3>;
    .loc 1 5 3
    mov.u32 %r0, %tid.x;
    { .reg .pred p;
      setp.eq.s32 p, %r0, 0;
      @p bra $L__done;
    }
    {
    .param .b64 param0;
    .param .b64 param1;
    .param .b32 retval0;
    call.uni (retval0), vprintf, (param0, param1);
    }
    .loc 1 7 1
$L__done:
    exit;
}
.file 1 "k.cu"
)";
    ParseResult r = parse_ptx(src, "m.ptx");
    for (const auto& d : r.diagnostics) INFO(d.str());
    REQUIRE(r.ok());
    std::string printed = print_module(r.module);
    INFO(printed);
    ParseResult again = parse_ptx(printed, "printed.ptx");
    for (const auto& d : again.diagnostics) INFO(d.str());
    REQUIRE(again.ok());
    CHECK(equal_ignoring_ptx_positions(r.module, again.module));
    CHECK_FALSE(r.module == again.module);  // PTX positions do differ after printing
    CHECK(printed.find(".reg .b32 %r<3>;") != std::string::npos);
    CHECK(printed.find(".loc 1 5 3") != std::string::npos);
    CHECK(printed.find("= {generic(gtab)+4, gtab}") != std::string::npos);
}

TEST_CASE("a register of an inner scope named like a variable the body uses outside it round-trips",
          "[printer]") {
    // The printer declares every register at the top of the body; the variable `p` used after the scope that
    // shadows it must not read back as the register (found by fuzz_ptx with `bar.sync p`).
    const char* src = R"(.version 9.0
.target sm_90
.address_size 64
.global .align 4 .u32 p;
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<2>;
    mov.u32 %r0, %tid.x;
    { .reg .pred p;
      setp.eq.s32 p, %r0, 0;
      selp.u32 %r1, 1, 0, p;
    }
    mov.u64 %rd0, p;
    st.global.u32 [p], %r1;
    ret;
}
)";
    ParseResult r = parse_ptx(src, "m.ptx");
    for (const auto& d : r.diagnostics) INFO(d.str());
    REQUIRE(r.ok());
    const Function& fn = r.module.functions[0];
    REQUIRE(fn.body.size() == 6);
    CHECK(fn.body[3].args[1].kind == Operand::Kind::symbol);
    std::string printed = print_module(r.module);
    INFO(printed);
    CHECK(printed.find("mov.u64 %rd0, p;") != std::string::npos);
    CHECK(printed.find(".reg .pred p;") == std::string::npos);  // the register has a name of its own
    ParseResult again = parse_ptx(printed, "printed.ptx");
    for (const auto& d : again.diagnostics) INFO(d.str());
    REQUIRE(again.ok());
    CHECK(again.module.functions[0].body[3].args[1].kind == Operand::Kind::symbol);
    CHECK(equal_ignoring_ptx_positions(r.module, again.module));
}
