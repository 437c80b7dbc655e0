// tests/ir/parser_test.cpp — golden tests of the PTX parser on small hand-written modules.
#include <catch2/catch.hpp>

#include "kernels_ir/parser.hpp"

using namespace warpsim::ir;

namespace {

ParseResult parse_ok(std::string_view text) {
    ParseResult r = parse_ptx(text, "t.ptx");
    for (const auto& d : r.diagnostics) INFO(d.str());
    CHECK(r.diagnostics.empty());
    REQUIRE(r.ok());
    return r;
}

const char* const kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";

}  // namespace

TEST_CASE("header directives and a kernel signature", "[parser]") {
    std::string src = std::string(kHeader) + R"(
.visible .entry _Z6vecAddPKfS0_Pfi(
    .param .u64 .ptr .global .align 16 a,
    .param .align 8 .b8 big[24],
    .param .u32 n
)
.maxntid 256, 1, 1
.minnctapersm 2
{
    ret;
}
)";
    auto r = parse_ok(src);
    const Module& m = r.module;
    CHECK(m.version_major == 9);
    CHECK(m.version_minor == 0);
    CHECK(m.target == std::vector<std::string>{"sm_90"});
    CHECK(m.address_size == 64);
    REQUIRE(m.functions.size() == 1);
    const Function& f = m.functions[0];
    CHECK(f.is_entry);
    CHECK(f.linkage == Linkage::visible);
    REQUIRE(f.params.size() == 3);
    CHECK(f.params[0].type == Type::u64);
    CHECK(f.params[0].ptr_space == Space::global);
    CHECK(f.params[0].ptr_align == 16);
    CHECK(f.params[1].align == 8);
    CHECK(f.params[1].array == 24);
    CHECK(f.params[1].size_bytes() == 24);
    CHECK(f.params[2].name == "n");
    CHECK(f.perf.maxntid == std::array<uint32_t, 3>{256, 1, 1});
    CHECK(f.perf.minnctapersm == 2);
    REQUIRE(f.body.size() == 1);
    CHECK(f.body[0].op == Opcode::ret);
}

TEST_CASE("register ranges, lists and operand kinds", "[parser]") {
    std::string src = std::string(kHeader) + R"(
.entry k(.param .u64 p)
{
    .reg .pred %p<3>;
    .reg .b32 %r<4>, %x;
    .reg .f32 %f<5>;
    .reg .b64 %rd<2>;
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %envreg3;
    mov.u32 %r3, %laneid;
    ld.param.u64 %rd1, [p];
    ld.global.nc.L1::no_allocate.v4.f32 {%f1, %f2, _, %f4}, [%rd1+-8];
    st.global.u32 [%rd1+16], -7;
    mov.f32 %f0, 0f3F800000;
    mov.u32 %x, 0x10;
    add.s32 %r0, %r1, 017;
    @!%p2 mov.u32 %r0, 42U;
    shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;
    ret;
}
)";
    auto r = parse_ok(src);
    const Function& f = r.module.functions.at(0);
    // 3 + 4 + 1 + 5 + 2 registers, in declaration order.
    REQUIRE(f.regs.size() == 15);
    CHECK(f.regs[0].name == "%p0");
    CHECK(f.regs[0].type == Type::pred);
    CHECK(f.regs[3].name == "%r0");
    CHECK(f.regs[7].name == "%x");
    CHECK(f.regs[8].type == Type::f32);
    CHECK(f.regs[14].name == "%rd1");
    REQUIRE(f.body.size() == 12);

    const Instruction& tid = f.body[0];
    CHECK(tid.args[0] == Operand::make_reg(4));  // %r1
    CHECK(tid.args[1].kind == Operand::Kind::special);
    CHECK(tid.args[1].sreg == SpecialReg::tid);
    CHECK(tid.args[1].component == 0);
    CHECK(f.body[1].args[1].sreg == SpecialReg::envreg);
    CHECK(f.body[1].args[1].component == 3);
    CHECK(f.body[2].args[1].sreg == SpecialReg::laneid);
    CHECK(f.body[2].args[1].component == 3);

    const Instruction& ldp = f.body[3];
    CHECK(ldp.args[1].kind == Operand::Kind::address);
    CHECK(ldp.args[1].name == "p");
    CHECK(ldp.args[1].reg == kNoReg);

    const Instruction& ld = f.body[4];
    CHECK(ld.mods == std::vector<std::string>{"global", "nc", "L1::no_allocate", "v4", "f32"});
    CHECK(ld.d.space == Space::global);
    CHECK(ld.d.nc);
    CHECK(ld.d.vec == 4);
    CHECK(ld.d.type == Type::f32);
    REQUIRE(ld.args[0].kind == Operand::Kind::vector);
    REQUIRE(ld.args[0].elems.size() == 4);
    CHECK(ld.args[0].elems[0] == Operand::make_reg(9));  // %f1
    CHECK(ld.args[0].elems[2].kind == Operand::Kind::sink);
    CHECK(ld.args[1].reg == 14);
    CHECK(ld.args[1].imm == -8);

    CHECK(f.body[5].args[0].imm == 16);
    CHECK(f.body[5].args[1] == Operand::make_imm(-7));
    CHECK(f.body[6].args[1].kind == Operand::Kind::imm_f32);
    CHECK(f.body[6].args[1].imm == 0x3F800000);
    CHECK(f.body[7].args[1].imm == 16);
    CHECK(f.body[8].args[2].imm == 15);  // octal 017
    CHECK(f.body[9].pred.reg == 2);
    CHECK(f.body[9].pred.negated);
    CHECK(f.body[9].args[1].imm == 42);

    const Instruction& shfl = f.body[10];
    CHECK(shfl.d.shfl == ShflMode::bfly);
    CHECK(shfl.d.sync);
    REQUIRE(shfl.args.size() == 5);
    REQUIRE(shfl.args[0].kind == Operand::Kind::pair);
    CHECK(shfl.args[0].elems[0] == Operand::make_reg(4));
    CHECK(shfl.args[0].elems[1] == Operand::make_reg(1));
    CHECK(shfl.args[4].imm == -1);
}

TEST_CASE("f64 literals and immediates at the edges", "[parser]") {
    std::string src = std::string(kHeader) + R"(
.entry k()
{
    .reg .f64 %fd<2>;
    .reg .b64 %rd<2>;
    mov.f64 %fd0, 0d3FF0000000000000;
    mov.f64 %fd1, -0d4000000000000000;
    mov.u64 %rd0, 0xFFFFFFFFFFFFFFFF;
    mov.u64 %rd1, -9223372036854775808;
    ret;
}
)";
    auto r = parse_ok(src);
    const auto& b = r.module.functions[0].body;
    CHECK(b[0].args[1].kind == Operand::Kind::imm_f64);
    CHECK(uint64_t(b[0].args[1].imm) == 0x3FF0000000000000ull);
    CHECK(uint64_t(b[1].args[1].imm) == 0xC000000000000000ull);
    CHECK(b[2].args[1].imm == -1);
    CHECK(uint64_t(b[3].args[1].imm) == 0x8000000000000000ull);
}

TEST_CASE("labels, guards and branch targets", "[parser]") {
    std::string src = std::string(kHeader) + R"(
.entry k()
{
    .reg .pred %p<2>;
    .reg .b32 %r<2>;
    mov.u32 %r0, 0;
$L__BB0_1:
    add.s32 %r0, %r0, 1;
    setp.lt.s32 %p1, %r0, 10;
    @%p1 bra $L__BB0_1;
    bra.uni $L__BB0_end;
$L__BB0_end:
    ret;
$L__tail:
}
)";
    auto r = parse_ok(src);
    const Function& f = r.module.functions[0];
    REQUIRE(f.labels.size() == 3);
    CHECK(f.labels[0] == Label{"$L__BB0_1", 1});
    CHECK(f.labels[1] == Label{"$L__BB0_end", 5});
    CHECK(f.labels[2] == Label{"$L__tail", 6});
    const Instruction& back = f.body[3];
    CHECK(back.op == Opcode::bra);
    CHECK(back.pred.reg == 1);
    CHECK(back.args[0].kind == Operand::Kind::symbol);
    CHECK(back.args[0].name == "$L__BB0_1");
    CHECK(back.args[0].imm == 1);
    CHECK(f.body[4].d.uni);
    CHECK(f.body[4].args[0].imm == 5);
    const Instruction& setp = f.body[2];
    CHECK(setp.d.cmp == CmpOp::lt);
    CHECK(setp.d.type == Type::s32);
}

TEST_CASE("call sequences in scoped blocks are flattened with unique names", "[parser]") {
    std::string src = std::string(kHeader) + R"(
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.func (.param .b32 func_retval0) _Z2f1i(.param .b32 _Z2f1i_param_0);
.entry k()
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<3>;
    { // callseq 0, 0
    .reg .b32 temp_param_reg;
    .param .b64 param0;
    st.param.b64 [param0+0], %rd1;
    .param .b32 retval0;
    call.uni (retval0), vprintf, (param0, param0);
    ld.param.b32 %r1, [retval0+0];
    }
    {
    .reg .b32 temp_param_reg;
    .param .b32 param0;
    st.param.b32 [param0+0], %r2;
    .param .b32 retval0;
    prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);
    call (retval0), %rd2, (param0), prototype_0;
    mov.b32 temp_param_reg, %r1;
    }
    call.uni (retval0), _Z2f1i, (param0);
    ret;
}
.func (.param .b32 func_retval0) _Z2f1i(.param .b32 _Z2f1i_param_0)
{
    ret;
}
)";
    ParseResult r = parse_ptx(src, "t.ptx");
    // The last call uses names whose blocks are closed: they are plain symbols, not errors for the parser.
    REQUIRE(r.ok());
    const Module& m = r.module;
    REQUIRE(m.functions.size() == 3);  // vprintf, _Z2f1i (declaration merged with its definition), k
    CHECK(m.functions[1].name == "_Z2f1i");
    CHECK(m.functions[1].has_body);
    CHECK(m.functions[1].returns.size() == 1);
    const Function& k = m.functions[2];
    REQUIRE(k.regs.size() == 8);
    CHECK(k.regs[6].name == "temp_param_reg");
    CHECK(k.regs[7].name == "temp_param_reg$1");
    REQUIRE(k.locals.size() == 4);
    CHECK(k.locals[0].name == "param0");
    CHECK(k.locals[0].space == Space::param);
    CHECK(k.locals[2].name == "param0$1");
    CHECK(k.locals[3].name == "retval0$1");
    REQUIRE(k.body.size() == 8);
    const Instruction& c0 = k.body[1];
    REQUIRE(c0.args.size() == 3);
    CHECK(c0.args[0].kind == Operand::Kind::list);
    CHECK(c0.args[1].name == "vprintf");
    CHECK(c0.args[1].imm == 0);
    CHECK(c0.args[2].elems.size() == 2);
    CHECK(k.body[3].args[0].name == "param0$1");
    const Instruction& c1 = k.body[4];
    CHECK(c1.args[1] == Operand::make_reg(5));  // %rd2
    CHECK(c1.args[2].elems[0].name == "param0$1");
    CHECK(c1.args[3].name == "prototype_0");
    CHECK(k.body[5].args[0] == Operand::make_reg(7));
    CHECK(k.body[6].args[1].name == "_Z2f1i");
    CHECK(k.body[6].args[1].imm == 1);
    REQUIRE(k.prototypes.size() == 1);
    CHECK(k.prototypes[0].returns.size() == 1);
    CHECK(k.prototypes[0].params.at(0).type == Type::b32);
}

TEST_CASE("variables and initialisers", "[parser]") {
    std::string src = std::string(kHeader) + R"(
.global .align 4 .b8 gtab[8] = {1, 0, 0, 0, 2};
.global .align 4 .f32 gf[2] = {0f3F800000, 0f40200000};
.global .align 8 .u64 gptr[2] = {generic(gtab)+4, gtab};
.const .align 8 .f64 cd = 0d4008000000000000;
.global .s32 m[2][3] = {{1, 2}, {4, 5, 6}};
.global .u32 unsized[] = {7, 8, 9};
.extern .shared .align 16 .b8 dyn[];
.entry k()
{
    .shared .align 16 .b8 tile[1024];
    ret;
}
)";
    auto r = parse_ok(src);
    const auto& g = r.module.globals;
    REQUIRE(g.size() == 7);
    CHECK(g[0].init == std::vector<uint8_t>{1, 0, 0, 0, 2, 0, 0, 0});
    CHECK(g[0].align == 4);
    CHECK(g[1].init == std::vector<uint8_t>{0, 0, 0x80, 0x3f, 0, 0, 0x20, 0x40});
    REQUIRE(g[2].relocs.size() == 2);
    CHECK(g[2].relocs[0] == InitReloc{0, "gtab", 4, 8, true});
    CHECK(g[2].relocs[1] == InitReloc{8, "gtab", 0, 8, false});
    CHECK(g[3].space == Space::const_);
    CHECK(g[3].init == std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 8, 0x40});
    CHECK(g[4].dims == std::vector<uint64_t>{2, 3});
    CHECK(g[4].init.size() == 24);
    CHECK(g[4].init[4 * 2] == 0);  // m[0][2] zero-filled
    CHECK(g[4].init[4 * 3] == 4);  // m[1][0]
    CHECK(g[5].dims == std::vector<uint64_t>{3});
    CHECK(g[5].size_bytes() == 12);
    CHECK(g[6].linkage == Linkage::extern_);
    CHECK(g[6].dims == std::vector<uint64_t>{0});
    CHECK(g[6].size_bytes() == 0);
    CHECK_FALSE(g[6].has_init);
    const auto& locals = r.module.functions[0].locals;
    REQUIRE(locals.size() == 1);
    CHECK(locals[0].space == Space::shared);
    CHECK(locals[0].size_bytes() == 1024);
}

TEST_CASE(".loc and .file make the source map", "[parser]") {
    std::string src = std::string(kHeader) + R"(
.entry k()
{
    .reg .b32 %r<2>;
    .loc 1 7 0
    mov.u32 %r0, 1;
    .loc 2 449 9, function_name $L__info_string0, inlined_at 1 18 3
    mov.u32 %r1, 2;
    mov.u32 %r1, 3;
    .loc 1 9 5
    ret;
}
    .file 1 "/tmp/a.cu"
    .file 2 "/usr/local/cuda/include/sm_30_intrinsics.hpp", 1700000000, 1234
    .section .debug_str
    {
$L__info_string0:
.b8 95,90,0
    }
)";
    auto r = parse_ok(src);
    const auto& b = r.module.functions[0].body;
    CHECK(b[0].loc.file == 1);
    CHECK(b[0].loc.line == 7);
    CHECK(b[0].loc.ptx_line == 9);
    CHECK(b[0].loc.ptx_col == 5);
    CHECK(b[1].loc.file == 2);
    CHECK(b[1].loc.line == 449);
    CHECK(b[1].loc.col == 9);
    CHECK(b[2].loc.line == 449);
    CHECK(b[3].loc.line == 9);
    CHECK(r.module.file_path(1) == "/tmp/a.cu");
    CHECK(r.module.file_path(2) == "/usr/local/cuda/include/sm_30_intrinsics.hpp");
}

TEST_CASE("modifiers decode into Details", "[parser]") {
    std::string src = std::string(kHeader) + R"(
.entry k()
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<2>;
    .reg .f32 %f<2>;
    .reg .b16 %h<2>;
    cvt.rn.ftz.sat.f32.f16 %f0, %h0;
    setp.ne.and.s32 %p0, %r0, %r1, %p1;
    mul.wide.s32 %rd0, %r0, 4;
    mad.hi.u32 %r0, %r1, %r2, %r3;
    atom.global.acq_rel.gpu.cas.b32 %r0, [%rd0], %r1, %r2;
    bar.sync 0;
    mbarrier.try_wait.parity.shared::cta.b64 %p0, [%rd0], %r1;
    cvta.to.global.u64 %rd1, %rd0;
    shf.r.wrap.b32 %r0, %r1, %r2, %r3;
    vote.sync.ballot.b32 %r0, %p0, -1;
    min.NaN.f32 %f0, %f1, %f0;
    wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {%f0}, %rd0, %rd1, 1, 1, 1, 1, 1;
    ret;
}
)";
    auto r = parse_ok(src);
    const auto& b = r.module.functions[0].body;
    CHECK(b[0].d.rnd == Rounding::rn);
    CHECK(b[0].d.ftz);
    CHECK(b[0].d.sat);
    CHECK(b[0].d.type == Type::f32);
    CHECK(b[0].d.type2 == Type::f16);
    CHECK(b[1].d.cmp == CmpOp::ne);
    CHECK(b[1].d.bop == BoolOp::and_);
    CHECK(b[1].d.type == Type::s32);
    CHECK(b[2].d.mul == MulMode::wide);
    CHECK(b[3].d.mul == MulMode::hi);
    CHECK(b[4].d.atom == AtomOp::cas);
    CHECK(b[4].d.sem == MemSem::acq_rel);
    CHECK(b[4].d.scope == Scope::gpu);
    CHECK(b[4].d.space == Space::global);
    CHECK(b[5].op == Opcode::bar);
    CHECK(b[5].d.bar == BarMode::sync);
    CHECK(b[6].op == Opcode::mbarrier);
    CHECK(b[6].d.space == Space::shared_cta);
    CHECK(b[6].d.type == Type::b64);
    CHECK(b[7].d.to);
    CHECK(b[7].d.space == Space::global);
    CHECK(b[8].d.shift == ShiftMode::r);
    CHECK(b[8].d.shift_wrap);
    CHECK(b[9].d.vote == VoteMode::ballot);
    CHECK(b[10].d.nan);
    CHECK(b[11].op == Opcode::wgmma);
    CHECK(b[11].mods.size() == 7);
}
