// tests/ir/verifier_test.cpp — the verifier rejects what PTX forbids and accepts what nvcc emits.
#include <catch2/catch.hpp>

#include "kernels_ir/parser.hpp"
#include "kernels_ir/verifier.hpp"

using namespace warpsim::ir;

namespace {

// Lines 1-9 are the header and declarations; the body under test starts on line 10.
std::vector<std::string> verify_body(std::string_view body) {
    std::string src =
        ".version 9.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n"
        ".reg .b32 %r<4>;\n.reg .pred %p<2>;\n.reg .f32 %f<2>;\n.reg .b64 %rd<2>;\n" +
        std::string(body) + "}\n";
    ParseResult r = parse_ptx(src, "v.ptx");
    for (const auto& d : r.diagnostics) INFO(d.str());
    REQUIRE(r.ok());
    std::vector<std::string> out;
    for (const auto& d : verify(r.module, "v.ptx")) out.push_back(d.str());
    return out;
}

}  // namespace

TEST_CASE("well-formed instructions verify cleanly", "[verifier]") {
    auto errs = verify_body(R"(
    add.s32 %r1, %r2, 4;
    add.rn.ftz.f32 %f0, %f1, 0f3F800000;
    mul.wide.s32 %rd0, %r1, 4;
    setp.ne.and.s32 %p0, %r0, %r1, %p1;
    cvt.rn.f32.s32 %f0, %r0;
    ld.global.nc.v2.f32 {%f0, %f1}, [%rd1+8];
    st.shared.u32 [%r0], %r1;
    atom.global.add.u32 %r0, [%rd0], 1;
    shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;
    @%p0 bra L;
    bar.sync 0;
L:
    ret;
)");
    CHECK(errs.empty());
}

TEST_CASE("modifier and operand violations are located", "[verifier]") {
    auto errs = verify_body(R"(add.ftz.s32 %r1, %r2, %r3;
add.rn.s32 %r1, %r2, %r3;
mul.s32 %r1, %r2, %r3;
setp.s32 %p0, %r1, %r2;
cvt.f32 %f0, %r0;
add.s32 %r1, %r2;
ld.global.f32 %f0, %rd1;
@%r1 bra L;
atom.global.u32 %r0, [%rd0], 1;
add.sat.u32 %r1, %r2, %r3;
L:
ret;
)");
    REQUIRE(errs.size() == 10);
    CHECK(errs[0] == "v.ptx:10:1: error: '.ftz' is not allowed on integer add.s32");
    CHECK(errs[1] == "v.ptx:11:1: error: rounding modifier is not allowed on integer add.s32");
    CHECK(errs[2] == "v.ptx:12:1: error: integer mul needs .lo, .hi or .wide");
    CHECK(errs[3] == "v.ptx:13:1: error: 'setp' needs a comparison such as .eq or .lt");
    CHECK(errs[4] == "v.ptx:14:1: error: 'cvt' needs a destination and a source type, e.g. cvt.f32.s32");
    CHECK(errs[5] == "v.ptx:15:1: error: 'add' expects 3 operands, got 2");
    CHECK(errs[6] == "v.ptx:16:1: error: operand 2 of 'ld' must be an address [..]");
    CHECK(errs[7] == "v.ptx:17:1: error: guard '%r1' is not a .pred register");
    CHECK(errs[8] == "v.ptx:18:1: error: 'atom' needs an operation such as .add or .cas");
    CHECK(errs[9] == "v.ptx:19:1: error: '.sat' on integer add requires .s32");
}

TEST_CASE("calls must name declared functions", "[verifier]") {
    const char* src = R"(.version 9.0
.target sm_90
.address_size 64
.func f(.param .b32 a) { ret; }
.entry k()
{
    .param .b32 p;
    call.uni f, (p);
    call.uni g, (p);
    call.uni f;
    ret;
}
)";
    ParseResult r = parse_ptx(src, "c.ptx");
    REQUIRE(r.ok());
    auto d = verify(r.module, "c.ptx");
    REQUIRE(d.size() == 2);
    CHECK(d[0].str() == "c.ptx:9:5: error: call to undeclared function 'g'");
    CHECK(d[1].str() == "c.ptx:10:5: error: call to 'f' does not match its declaration's parameter lists");
}

TEST_CASE("hand-built IR with out-of-range registers is caught", "[verifier]") {
    Module m;
    m.version_major = 9;  // a module without .version is an error of its own
    Function fn;
    fn.name = "k";
    fn.is_entry = true;
    fn.has_body = true;
    Instruction mov;
    mov.op = Opcode::mov;
    mov.mods = {"u32"};
    mov.d.type = Type::u32;
    mov.args = {Operand::make_reg(3), Operand::make_imm(1)};
    mov.loc.ptx_line = 7;
    mov.loc.ptx_col = 2;
    fn.body.push_back(mov);
    m.functions.push_back(fn);
    auto d = verify(m, "x.ptx");
    REQUIRE(d.size() == 1);
    CHECK(d[0].str() == "x.ptx:7:2: error: register index 3 is not declared in 'k'");
}
