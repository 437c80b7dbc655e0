// tests/engine/test_float_wiring.cpp — the float handlers reach sim/arith with the instruction's modifiers:
// directed rounding, .ftz, .sat, fused fma, .NaN min/max, cvt rounding/packing/saturation. Expected bit
// patterns are computed by hand (comments show the arithmetic), so a wiring regression (a dropped rounding
// mode, ftz or operand order) fails here even if sim/arith itself is right.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "tests/engine/engine_harness.hpp"

using namespace warpsim;

namespace {

struct Case {
    const char* name;
    const char* body;  // leaves a 32-bit result in %r9, or a 64-bit one in %rd9 when wide
    uint64_t expect;
    bool wide = false;
};

// 1.0f = 0x3f800000, 2^-30 = 0x30800000 (biased exponent 97), 2^-23 ulp of 1.0.
const Case kCases[] = {
    {"add.rz 1+2^-30 = 1", "add.rz.f32 %f3, %f1, %f2; mov.b32 %r9, %f3;", 0x3f800000},
    {"add.rn 1+2^-30 = 1", "add.rn.f32 %f3, %f1, %f2; mov.b32 %r9, %f3;", 0x3f800000},
    {"add.rm 1+2^-30 = 1", "add.rm.f32 %f3, %f1, %f2; mov.b32 %r9, %f3;", 0x3f800000},
    {"add.rp 1+2^-30 = 1+2^-23", "add.rp.f32 %f3, %f1, %f2; mov.b32 %r9, %f3;", 0x3f800001},
    {"sub.rz 1-2^-30 = 1-2^-24", "sub.rz.f32 %f3, %f1, %f2; mov.b32 %r9, %f3;", 0x3f7fffff},
    {"sub.rm 1-2^-30 = 1-2^-24", "sub.rm.f32 %f3, %f1, %f2; mov.b32 %r9, %f3;", 0x3f7fffff},
    {"sub.rp 1-2^-30 = 1", "sub.rp.f32 %f3, %f1, %f2; mov.b32 %r9, %f3;", 0x3f800000},
    {"mul.rp 3*(1+2^-23)",
     "mov.b32 %f4, 0f40400000; mov.b32 %f5, 0f3F800001; mul.rp.f32 %f3, %f4, %f5; mov.b32 %r9, %f3;",
     // 3 + 3*2^-23 = 2 * (1.5 + 1.5*2^-23): the fraction needs 1.5 ulps of [2,4) -> rp rounds up to 2 ulps
     0x40400002},
    {"mul.rz 3*(1+2^-23)",
     "mov.b32 %f4, 0f40400000; mov.b32 %f5, 0f3F800001; mul.rz.f32 %f3, %f4, %f5; mov.b32 %r9, %f3;",
     0x40400001},
    {"div.rn 1/3", "mov.b32 %f4, 0f40400000; div.rn.f32 %f3, %f1, %f4; mov.b32 %r9, %f3;", 0x3eaaaaab},
    {"div.rz 1/3", "mov.b32 %f4, 0f40400000; div.rz.f32 %f3, %f1, %f4; mov.b32 %r9, %f3;", 0x3eaaaaaa},
    // (1+2^-23)(1-2^-23) - 1 = -2^-46 exactly when fused (a separate multiply would round the product to 1).
    {"fma.rn fused",
     "mov.b32 %f4, 0f3F800001; mov.b32 %f5, 0f3F7FFFFE; mov.b32 %f6, 0fBF800000; "
     "fma.rn.f32 %f3, %f4, %f5, %f6; mov.b32 %r9, %f3;",
     0xa8800000},
    // (1+2^-23)(2^-24-2^-47) + (1+2^-23) = 1 + 2^-23 + 2^-24 - 2^-70: just below the midpoint of 1+2^-23 and
    // 1+2^-22, so it rounds down. Rounded to f64 first it would be the midpoint exactly, and then tie to even
    // (0x3f800002): the engine's f64 shortcut must not be taken here.
    {"fma.rn near a midpoint",
     "mov.b32 %f4, 0f3F800001; mov.b32 %f5, 0f337FFFFE; mov.b32 %f6, 0f3F800001; "
     "fma.rn.f32 %f3, %f4, %f5, %f6; mov.b32 %r9, %f3;",
     0x3f800001},
    // 2^-126 * 0.5 = 2^-127: subnormal 0x00400000, flushed to +0 with .ftz.
    {"mul.rn subnormal",
     "mov.b32 %f4, 0f00800000; mov.b32 %f5, 0f3F000000; mul.rn.f32 %f3, %f4, %f5; mov.b32 %r9, %f3;",
     0x00400000},
    {"mul.rn.ftz flushes",
     "mov.b32 %f4, 0f00800000; mov.b32 %f5, 0f3F000000; mul.rn.ftz.f32 %f3, %f4, %f5; mov.b32 %r9, %f3;",
     0x00000000},
    // Subnormal inputs with normal results keep their value without .ftz and read as zero with it:
    // 2^-127 (0x00400000) * 2^126 (0x7e800000) + 1 = 1.5; with .ftz 0 * 2^126 + 1 = 1.
    {"fma.rn subnormal input",
     "mov.b32 %f4, 0f00400000; mov.b32 %f5, 0f7E800000; fma.rn.f32 %f3, %f4, %f5, %f1; "
     "mov.b32 %r9, %f3;",
     0x3fc00000},
    {"fma.rn.ftz subnormal input",
     "mov.b32 %f4, 0f00400000; mov.b32 %f5, 0f7E800000; fma.rn.ftz.f32 %f3, %f4, %f5, %f1; "
     "mov.b32 %r9, %f3;",
     0x3f800000},
    // 2^-127 + 2^-125 = 1.25 * 2^-125 (biased exponent 2, fraction 0x200000); with .ftz just 2^-125.
    {"add.rn subnormal input",
     "mov.b32 %f4, 0f00400000; mov.b32 %f5, 0f01000000; add.rn.f32 %f3, %f4, %f5; "
     "mov.b32 %r9, %f3;",
     0x01200000},
    {"add.rn.ftz subnormal input",
     "mov.b32 %f4, 0f00400000; mov.b32 %f5, 0f01000000; add.rn.ftz.f32 %f3, %f4, %f5; "
     "mov.b32 %r9, %f3;",
     0x01000000},
    // 2^-127 * 4 = 2^-125 (0x01000000); with .ftz +0.
    {"mul.rn subnormal input",
     "mov.b32 %f4, 0f00400000; mov.b32 %f5, 0f40800000; mul.rn.f32 %f3, %f4, %f5; "
     "mov.b32 %r9, %f3;",
     0x01000000},
    {"mul.rn.ftz subnormal input",
     "mov.b32 %f4, 0f00400000; mov.b32 %f5, 0f40800000; mul.rn.ftz.f32 %f3, %f4, %f5; "
     "mov.b32 %r9, %f3;",
     0x00000000},
    // Zero, subnormal and infinite results of add/sub/mul without .ftz (IEEE 754 round to nearest even):
    // +0 + -0 = +0, -0 + -0 = -0, x - x = +0; 2^-100 * -2^-100 = -2^-200 underflows to -0;
    // 2^-126 (1 + 2^-23) - 2^-126 = 2^-149, the smallest subnormal; 2^127 * 4 overflows to +inf;
    // inf + -inf is the canonical NaN.
    {"add.rn +0 + -0",
     "mov.b32 %f4, 0f00000000; mov.b32 %f5, 0f80000000; add.rn.f32 %f3, %f4, %f5; mov.b32 %r9, %f3;",
     0x00000000},
    {"add.rn -0 + -0",
     "mov.b32 %f4, 0f80000000; mov.b32 %f5, 0f80000000; add.rn.f32 %f3, %f4, %f5; mov.b32 %r9, %f3;",
     0x80000000},
    {"sub.rn 1 - 1", "mov.b32 %f4, 0f3F800000; sub.rn.f32 %f3, %f4, %f4; mov.b32 %r9, %f3;", 0x00000000},
    {"mul.rn underflow to -0",
     "mov.b32 %f4, 0f0D800000; mov.b32 %f5, 0f8D800000; mul.rn.f32 %f3, %f4, %f5; mov.b32 %r9, %f3;",
     0x80000000},
    {"sub.rn subnormal result",
     "mov.b32 %f4, 0f00800001; mov.b32 %f5, 0f00800000; sub.rn.f32 %f3, %f4, %f5; mov.b32 %r9, %f3;",
     0x00000001},
    {"mul.rn overflow to inf",
     "mov.b32 %f4, 0f7F000000; mov.b32 %f5, 0f40800000; mul.rn.f32 %f3, %f4, %f5; mov.b32 %r9, %f3;",
     0x7f800000},
    {"add.rn inf + -inf",
     "mov.b32 %f4, 0f7F800000; mov.b32 %f5, 0fFF800000; add.rn.f32 %f3, %f4, %f5; mov.b32 %r9, %f3;",
     0x7fffffff},
    // A NaN or infinite input gives a NaN or infinite result, which the host shortcut never returns:
    // inf * 0 + 1 is the canonical NaN 0x7fffffff; 2^127 * 0.5 + (-inf) = -inf.
    {"fma.rn inf*0",
     "mov.b32 %f4, 0f7F800000; mov.b32 %f5, 0f00000000; fma.rn.f32 %f3, %f4, %f5, %f1; "
     "mov.b32 %r9, %f3;",
     0x7fffffff},
    {"fma.rn -inf addend",
     "mov.b32 %f4, 0f7F000000; mov.b32 %f5, 0f3F000000; mov.b32 %f6, 0fFF800000; "
     "fma.rn.f32 %f3, %f4, %f5, %f6; mov.b32 %r9, %f3;",
     0xff800000},
    {"add.sat 0.75+0.5 = 1",
     "mov.b32 %f4, 0f3F400000; mov.b32 %f5, 0f3F000000; add.rn.sat.f32 %f3, %f4, %f5; mov.b32 %r9, %f3;",
     0x3f800000},
    {"min.f32 ignores NaN", "mov.b32 %f4, 0f7FC00000; min.f32 %f3, %f1, %f4; mov.b32 %r9, %f3;", 0x3f800000},
    {"min.NaN.f32 gives NaN", "mov.b32 %f4, 0f7FC00000; min.NaN.f32 %f3, %f1, %f4; mov.b32 %r9, %f3;",
     0x7fffffff},
    // cvt float -> int: .rni ties to even, .rmi floor, .rpi ceil, .rzi truncation.
    {"cvt.rni.s32 2.5 = 2", "mov.b32 %f4, 0f40200000; cvt.rni.s32.f32 %r9, %f4;", 2},
    {"cvt.rni.s32 3.5 = 4", "mov.b32 %f4, 0f40600000; cvt.rni.s32.f32 %r9, %f4;", 4},
    {"cvt.rmi.s32 -2.5 = -3", "mov.b32 %f4, 0fC0200000; cvt.rmi.s32.f32 %r9, %f4;", 0xfffffffd},
    {"cvt.rpi.s32 2.5 = 3", "mov.b32 %f4, 0f40200000; cvt.rpi.s32.f32 %r9, %f4;", 3},
    {"cvt.rzi.s32 -2.5 = -2", "mov.b32 %f4, 0fC0200000; cvt.rzi.s32.f32 %r9, %f4;", 0xfffffffe},
    {"cvt.rzi.u8 300 saturates",
     "mov.b32 %f4, 0f43960000; cvt.rzi.u32.f32 %r9, %f4; mov.b32 %f4, 0f43960000; "
     "cvt.rzi.sat.u8.f32 %rs1, %f4; cvt.u32.u16 %r9, %rs1;",
     255},
    // 1 + 3*2^-11 lies halfway between the f16 values 1+2^-10 (0x3c01) and 1+2^-9 (0x3c02).
    {"cvt.rn.f16 tie to even", "mov.b32 %f4, 0f3F803000; cvt.rn.f16.f32 %rs1, %f4; cvt.u32.u16 %r9, %rs1;",
     0x3c02},
    {"cvt.rz.f16 truncates", "mov.b32 %f4, 0f3F803000; cvt.rz.f16.f32 %rs1, %f4; cvt.u32.u16 %r9, %rs1;",
     0x3c01},
    // cvt.rn.f16x2.f32 d, a, b puts a in the upper half: a = 1.0 (0x3c00), b = 2.0 (0x4000).
    {"cvt.rn.f16x2.f32 packs", "mov.b32 %f4, 0f40000000; cvt.rn.f16x2.f32 %r9, %f1, %f4;", 0x3c004000},
    {"cvt.rn.bf16x2.f32 packs", "mov.b32 %f4, 0fC0000000; cvt.rn.bf16x2.f32 %r9, %f1, %f4;", 0x3f80c000},
    {"cvt.rn.relu.f16x2.f32",
     "mov.b32 %f4, 0fBF800000; mov.b32 %f5, 0f3F000000; cvt.rn.relu.f16x2.f32 %r9, %f4, %f5;", 0x00003800},
    // 1e6 overflows f16: .satfinite gives the largest finite 0x7bff; -inf gives -0x7bff (0xfbff).
    {"cvt.rn.satfinite.f16x2.f32",
     "mov.b32 %f4, 0f49742400; mov.b32 %f5, 0fFF800000; "
     "cvt.rn.satfinite.f16x2.f32 %r9, %f4, %f5;",
     0x7bfffbff},
    {"add.f16x2 per half", "mov.b32 %r4, 0x3c004000; mov.b32 %r5, 0x3c003c00; add.rn.f16x2 %r9, %r4, %r5;",
     0x40004200},
    {"fma.rn.relu.bf16",
     "mov.b16 %rs2, 0xbf80; mov.b16 %rs3, 0x3f80; mov.b16 %rs4, 0x0000; "
     "fma.rn.relu.bf16 %rs1, %rs2, %rs3, %rs4; cvt.u32.u16 %r9, %rs1;",
     0x0000},
    // f64: 1 + 2^-60 (0x3c30000000000000).
    {"add.rz.f64",
     "mov.b64 %fd1, 0d3FF0000000000000; mov.b64 %fd2, 0d3C30000000000000; add.rz.f64 %fd3, %fd1, %fd2; "
     "mov.b64 %rd9, %fd3;",
     0x3ff0000000000000ull, true},
    {"add.rp.f64",
     "mov.b64 %fd1, 0d3FF0000000000000; mov.b64 %fd2, 0d3C30000000000000; add.rp.f64 %fd3, %fd1, %fd2; "
     "mov.b64 %rd9, %fd3;",
     0x3ff0000000000001ull, true},
    // f64 -> f32 of 1 + 2^-24 + 2^-40 (just above the tie): rn up to 1+2^-23, rz down to 1.
    {"cvt.rn.f32.f64", "mov.b64 %fd1, 0d3FF0000010001000; cvt.rn.f32.f64 %f3, %fd1; mov.b32 %r9, %f3;",
     0x3f800001},
    {"cvt.rz.f32.f64", "mov.b64 %fd1, 0d3FF0000010001000; cvt.rz.f32.f64 %f3, %fd1; mov.b32 %r9, %f3;",
     0x3f800000},
    // setp with .ftz: -2^-149 reads as -0, which is not < 0.
    {"setp.lt.f32 subnormal",
     "mov.b32 %f4, 0f80000001; mov.b32 %f5, 0f00000000; setp.lt.f32 %p1, %f4, %f5; "
     "selp.u32 %r9, 1, 0, %p1;",
     1},
    {"setp.lt.ftz.f32 subnormal",
     "mov.b32 %f4, 0f80000001; mov.b32 %f5, 0f00000000; setp.lt.ftz.f32 %p1, %f4, %f5; "
     "selp.u32 %r9, 1, 0, %p1;",
     0},
    // ptxas contraction: a = 1+2^-12, a*a = 1 + 2^-11 + 2^-24 (a tie in f32, rounds to 1 + 2^-11). mul + sub
    // without rounding modifiers fuse: a*a - 1 = 2^-11 + 2^-24 = 0x3a000400; with mul.rn they do not: 2^-11.
    {"mul+sub contracted",
     "mov.b32 %f4, 0f3F800800; mul.f32 %f5, %f4, %f4; sub.f32 %f3, %f5, %f1; mov.b32 %r9, %f3;", 0x3a000400},
    {"mul.rn+sub not contracted",
     "mov.b32 %f4, 0f3F800800; mul.rn.f32 %f5, %f4, %f4; sub.f32 %f3, %f5, %f1; "
     "mov.b32 %r9, %f3;",
     0x3a000000},
    {"1 - a*a contracted",
     "mov.b32 %f4, 0f3F800800; mul.f32 %f5, %f4, %f4; sub.f32 %f3, %f1, %f5; mov.b32 %r9, %f3;", 0xba000400},
    // atom.add.f32 flushes: 2^-127 + 0 in memory gives +0.
    {"atom.add.f32 ftz",
     "mov.b32 %f4, 0f00400000; atom.global.add.f32 %f3, [%rd2], %f4; ld.global.u32 %r9, [%rd2];", 0},
};

std::string kernel_text() {
    std::string body;
    for (std::size_t i = 0; i < std::size(kCases); ++i) {
        const Case& c = kCases[i];
        body += fmt::format("    // {}\n    mov.b32 %f1, 0f3F800000;\n    mov.b32 %f2, 0f30800000;\n    {}\n",
                            c.name, c.body);
        if (c.wide)
            body += fmt::format("    st.global.u64 [%rd1+{}], %rd9;\n", 8 * i);
        else
            body += fmt::format("    cvt.u64.u32 %rd9, %r9;\n    st.global.u64 [%rd1+{}], %rd9;\n", 8 * i);
    }
    return R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry floats(.param .u64 out, .param .u64 scratch)
{
    .reg .pred %p<2>;
    .reg .b16 %rs<6>;
    .reg .b32 %r<10>;
    .reg .f32 %f<8>;
    .reg .f64 %fd<4>;
    .reg .b64 %rd<10>;
    ld.param.u64 %rd1, [out];
    ld.param.u64 %rd2, [scratch];
)" + body + "    ret;\n}\n";
}

}  // namespace

TEST_CASE("float instructions use the modifiers they were written with (hand-computed bits)") {
    auto k = test::parse(kernel_text());
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    const std::size_t n = std::size(kCases);
    const uint64_t out = test::upload(sim, std::vector<uint64_t>(n, 0xdeadbeefdeadbeefull));
    const uint64_t scratch = test::upload(sim, std::vector<uint32_t>{0});
    test::Params p;
    p.add(out).add(scratch);
    auto r =
        sim.launch(k.parsed.module, *k.find("floats"), test::config({1, 1, 1}, {1, 1, 1}), p.span(), nullptr);
    INFO((r.error ? r.error->details : std::string()));
    REQUIRE(r.ok());
    auto got = test::download<uint64_t>(sim, out, n);
    for (std::size_t i = 0; i < n; ++i) {
        INFO(kCases[i].name << ": got 0x" << std::hex << got[i] << " expected 0x" << kCases[i].expect);
        CHECK(got[i] == kCases[i].expect);
    }
}

TEST_CASE("fma.rn.f32 of a full warp gives each lane its hand-computed bits, a source as destination too") {
    // Lane l takes case (3 l) % 8, so neighbouring lanes mix the host's shortcut and sim/arith's cases.
    struct Fma {
        uint32_t a, b, c, expect;
    };
    const Fma cases[8] = {
        {0x3f800001, 0x3f7ffffe, 0xbf800000, 0xa8800000},  // (1+2^-23)(1-2^-23) - 1 = -2^-46, fused
        {0x3f800001, 0x337ffffe, 0x3f800001, 0x3f800001},  // just below a midpoint (see "fma.rn near ...")
        {0x00400000, 0x7e800000, 0x3f800000, 0x3fc00000},  // 2^-127 * 2^126 + 1 = 1.5
        {0x7f800000, 0x00000000, 0x3f800000, 0x7fffffff},  // inf * 0 + 1: the canonical NaN
        {0x7f000000, 0x3f000000, 0xff800000, 0xff800000},  // 2^127 * 0.5 - inf = -inf
        {0x40000000, 0x40400000, 0x3f800000, 0x40e00000},  // 2 * 3 + 1 = 7
        {0x00800000, 0x3f000000, 0x00000000, 0x00400000},  // 2^-126 * 0.5 + 0 = 2^-127, subnormal
        {0x3f800000, 0x3f800000, 0xbf800000, 0x00000000},  // 1 * 1 - 1 = +0
    };
    std::vector<uint32_t> in(3 * 32);
    for (uint32_t l = 0; l < 32; ++l) {
        const Fma& f = cases[(3 * l) % 8];
        in[l] = f.a;
        in[32 + l] = f.b;
        in[64 + l] = f.c;
    }
    auto k = test::parse(R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry fma_warp(.param .u64 in, .param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .f32 %f<6>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.f32 %f1, [%rd4];
    ld.global.f32 %f2, [%rd4+128];
    ld.global.f32 %f3, [%rd4+256];
    fma.rn.f32 %f4, %f1, %f2, %f3;
    fma.rn.f32 %f1, %f1, %f2, %f3;
    add.s64 %rd5, %rd2, %rd3;
    st.global.f32 [%rd5], %f4;
    st.global.f32 [%rd5+128], %f1;
    ret;
}
)");
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    const uint64_t in_buf = test::upload(sim, in);
    const uint64_t out = test::upload(sim, std::vector<uint32_t>(64, 0xdeadbeef));
    test::Params p;
    p.add(in_buf).add(out);
    auto r = sim.launch(k.parsed.module, *k.find("fma_warp"), test::config({1, 1, 1}, {32, 1, 1}), p.span(),
                        nullptr);
    INFO((r.error ? r.error->details : std::string()));
    REQUIRE(r.ok());
    auto got = test::download<uint32_t>(sim, out, 64);
    for (uint32_t l = 0; l < 32; ++l) {
        const uint32_t expect = cases[(3 * l) % 8].expect;
        INFO("lane " << l << " case " << (3 * l) % 8 << std::hex << ": got 0x" << got[l] << " and 0x"
                     << got[32 + l] << ", expected 0x" << expect);
        CHECK(got[l] == expect);
        CHECK(got[32 + l] == expect);
    }
}
