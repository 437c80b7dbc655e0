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

namespace {

// A module with the registers the rows below use (texture and surface handles in %rd2); the body starts on
// line 12.
std::vector<std::string> verify_module_body(std::string_view body) {
    std::string src =
        ".version 8.7\n.target sm_90a\n.address_size 64\n"
        ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<40>;\n.reg .f32 %f<8>;\n.reg .b64 %rd<8>;\n"
        ".reg .pred %p<4>;\n.shared .b32 sh[32];\nld.param.u64 %rd1, [p];\n" +
        std::string(body) + "ret;\n}\n";
    ParseResult r = parse_ptx(src, "v.ptx");
    std::string parse_errors;
    for (const auto& d : r.diagnostics) parse_errors += d.str() + "\n";
    INFO(parse_errors);
    REQUIRE(r.ok());
    std::vector<std::string> out;
    for (const auto& d : verify(r.module, "v.ptx")) out.push_back(d.str());
    return out;
}

}  // namespace

TEST_CASE("the verifier has a rule for every opcode of opcodes.def", "[verifier]") {
    // An operand signature, the call checks or a typed form: a new row without one fails here.
    std::vector<std::string> uncovered;
#define WARPSIM_OPCODE(id, spelling, cls, family, sig, section) \
    if (!verifier_covers(Opcode::id)) uncovered.emplace_back(spelling);
#include "kernels_ir/opcodes.def"
#undef WARPSIM_OPCODE
    std::string names;
    for (const auto& u : uncovered) names += u + " ";
    INFO("opcodes without a verifier rule: " << names);
    CHECK(uncovered.empty());
    CHECK(kOpcodeCount > 100);
}

TEST_CASE("the operand rows added for the rest of the table accept what ptxas accepts", "[verifier]") {
    // Each line assembled by `ptxas -arch=sm_90a` (CUDA 13) without an error, in this module.
    auto errs = verify_module_body(R"(fns.b32 %r1, %r2, %r3, 1;
bmsk.clamp.b32 %r1, %r2, %r3;
szext.wrap.s32 %r1, %r2, %r3;
prefetch.global.L2 [%rd1];
prefetchu.L1 [%rd1];
applypriority.global.L2::evict_normal [%rd1], 128;
discard.global.L2 [%rd1], 128;
createpolicy.fractional.L2::evict_last.b64 %rd2, 1.0;
createpolicy.range.L2::evict_last.L2::evict_unchanged.b64 %rd2, [%rd1], 128, 256;
isspacep.global %p1, %rd1;
mapa.shared::cluster.u32 %r1, %r2, %r3;
getctarank.shared::cluster.u32 %r1, %r2;
alloca.u64 %rd2, 16;
stacksave.u64 %rd2;
stackrestore.u64 %rd2;
brkpt;
pmevent 1;
fence.acq_rel.gpu;
fence.proxy.async;
griddepcontrol.wait;
elect.sync %r1|%p1, 0xffffffff;
setmaxnreg.inc.sync.aligned.u32 64;
multimem.ld_reduce.relaxed.sys.global.add.u32 %r1, [%rd1];
multimem.red.relaxed.sys.global.add.u32 [%rd1], %r1;
suld.b.1d.b32.trap {%r1}, [%rd2, {%r2}];
sust.b.1d.b32.trap [%rd2, {%r2}], {%r1};
sured.b.add.1d.u32.trap [%rd2, {%r2}], %r1;
suq.width.b32 %r1, [%rd2];
tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd2, {%r1}];
tld4.r.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd2, {%f5, %f6}];
txq.width.b32 %r1, [%rd2];
istypep.texref %p1, %rd2;
vadd.s32.s32.s32.sat %r1, %r2, %r3;
vmad.s32.s32.s32 %r1, %r2, %r3, %r4;
vset.s32.s32.lt %r1, %r2, %r3;
vshl.u32.u32.u32.clamp %r1, %r2, %r3;
vadd2.s32.s32.s32 %r1, %r2, %r3, %r4;
vset4.u32.u32.ne %r1, %r2, %r3, %r4;
vabsdiff4.u32.u32.u32.add %r1, %r2, %r3, %r4;
movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r2;
tensormap.replace.tile.global_address.global.b1024.b64 [%rd1], %rd2;
)");
    for (const auto& e : errs) INFO(e);
    CHECK(errs.empty());
}

TEST_CASE("operand counts ptxas rejects for the added rows are located", "[verifier]") {
    // ptxas: "Arguments mismatch for instruction '...'" for each line.
    auto errs = verify_module_body(R"(fns.b32 %r1, %r2, %r3;
bmsk.clamp.b32 %r1, %r2;
prefetch.global.L2 %rd1;
isspacep.global %p1;
stacksave.u64 %rd2, %rd3;
vadd2.s32.s32.s32 %r1, %r2, %r3;
movmatrix.sync.aligned.m8n8.trans.b16 %r1;
suq.width.b32 %r1;
)");
    const std::vector<std::string> expected = {
        "v.ptx:12:1: error: 'fns' expects 4 operands, got 3",
        "v.ptx:13:1: error: 'bmsk' expects 3 operands, got 2",
        "v.ptx:14:1: error: operand 1 of 'prefetch' must be an address [..]",
        "v.ptx:15:1: error: 'isspacep' expects 2 operands, got 1",
        "v.ptx:16:1: error: 'stacksave' expects 1 operand, got 2",
        "v.ptx:17:1: error: 'vadd2' expects 4 operands, got 3",
        "v.ptx:18:1: error: 'movmatrix' expects 2 operands, got 1",
        "v.ptx:19:1: error: 'suq' expects 2 operands, got 1",
    };
    CHECK(errs == expected);
}
