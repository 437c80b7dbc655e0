// tests/ir/hostile_test.cpp — hostile PTX (deep nesting, nested vectors) gives located errors, never a crash.
#include <catch2/catch.hpp>

#include <string>

#include "kernels_ir/parser.hpp"
#include "kernels_ir/verifier.hpp"

using namespace warpsim::ir;

namespace {

std::string in_kernel(std::string_view body) {
    return ".version 9.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n.reg .b32 %r<4>;\n" +
           std::string(body) + "ret;\n}\n";
}

std::string first_error(const ParseResult& r) {
    for (const auto& d : r.diagnostics) {
        if (d.severity == Diagnostic::Severity::error) return d.str();
    }
    return "";
}

}  // namespace

// Before the bound, each level was a frame of parse_braced: 20,000 of them overflowed the stack (SIGSEGV).
TEST_CASE("operands nested 200,000 deep are a located error", "[hostile]") {
    for (char open : {'{', '('}) {
        std::string operand(200000, open);
        ParseResult r = parse_ptx(in_kernel("mov.u32 %r1, " + operand + "%r2;\n"), "deep.ptx");
        REQUIRE_FALSE(r.ok());
        CHECK_THAT(first_error(r),
                   Catch::Matches("deep\\.ptx:7:[0-9]+: error: operands nested more than 8 levels "
                                  "deep.*"));
    }
    // Brackets: an address holds a register or symbol, so the second '[' is already an error.
    ParseResult r = parse_ptx(in_kernel("ld.u32 %r1, " + std::string(200000, '[') + "%r2;\n"), "deep.ptx");
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(first_error(r), Catch::StartsWith("deep.ptx:7:"));
}

TEST_CASE("a vector inside a vector is a syntax error, as for ptxas", "[hostile]") {
    ParseResult r = parse_ptx(in_kernel("mov.u32 %r1, {{%r2}};\n"), "nested.ptx");
    REQUIRE_FALSE(r.ok());
    CHECK(first_error(r) == "nested.ptx:7:15: error: a vector operand inside a vector operand is not PTX");
}

TEST_CASE("the nesting PTX does use still parses", "[hostile]") {
    std::string text =
        ".version 9.0\n.target sm_90\n.address_size 64\n"
        ".func (.param .b32 r) f(.param .b32 a, .param .b32 b)\n{\n.reg .b32 %x;\n"
        "ld.param.b32 %x, [a];\nst.param.b32 [r], %x;\nret;\n}\n"
        ".entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
        "ld.param.u64 %rd1, [p];\n"
        "{\n.param .b32 a0;\n.param .b32 a1;\n.param .b32 r0;\n"
        "st.param.b32 [a0], %r1;\nst.param.b32 [a1], %r2;\n"
        "call.uni (r0), f, (a0, a1);\nld.param.b32 %r3, [r0];\n}\n"
        "st.global.v2.u32 [%rd1], {%r1, %r3};\nret;\n}\n";
    ParseResult r = parse_ptx(text, "calls.ptx");
    CHECK(first_error(r) == "");
}

namespace {

// The verifier's errors for one instruction in a kernel with registers of every plain type.
std::vector<std::string> verify_errors(std::string_view inst) {
    std::string text =
        ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n"
        ".reg .pred %p<3>;\n.reg .b32 %r<4>;\n.reg .u32 %u<4>;\n.reg .s32 %s<4>;\n.reg .f32 %f<4>;\n"
        ".reg .b64 %rd<3>;\n.reg .u16 %h<3>;\n.reg .f64 %fd<3>;\nld.param.u64 %rd1, [out];\n" +
        std::string(inst) + "\nret;\n}\n";
    ParseResult r = parse_ptx(text, "t.ptx");
    std::vector<std::string> out;
    for (const auto& d : r.diagnostics) out.push_back(d.str());
    if (r.ok()) {
        for (const auto& d : verify(r.module, "t.ptx")) out.push_back(d.str());
    }
    return out;
}

}  // namespace

// Each case was run through ptxas 13.0 (-arch=sm_90): "rejected" ones fail with "Arguments mismatch" (or
// "Unknown symbol"), "accepted" ones assemble. The verifier must agree on both sides.
TEST_CASE("operand types: the verifier rejects what ptxas rejects, and only that", "[hostile][verifier]") {
    const char* rejected[] = {
        "add.u32 %u1, %f1, %u2;",
        "add.u32 %u1, %h1, %u2;",
        "add.u16 %h1, %u1, %h2;",
        "add.s64 %rd1, %rd1, %fd1;",
        "mov.u32 %u1, %f1;",
        "mov.f32 %f1, %u1;",
        "mov.u64 %rd2, %fd1;",
        "mov.u32 %r1, %p1;",
        "mul.wide.u32 %u1, %u1, %u2;",
        "mul.lo.u32 %rd1, %u1, %u2;",
        "shl.b32 %r1, %r2, %rd1;",
        "setp.lt.u32 %p1, %u1, %rd1;",
        "setp.lt.f32 %p1, %f1, %u1;",
        "cvt.u64.u32 %u1, %u1;",
        "cvt.u32.u64 %u1, %u1;",
        "ld.global.u64 %r1, [%rd1];",
        "ld.global.u32 %f1, [%rd1];",
        "st.global.u64 [%rd1], %r1;",
        "selp.u32 %u1, %u2, %u3, %r1;",
        "selp.u32 %u1, %u2, %rd1, %p1;",
        "neg.s32 %s1, %rd1;",
        "not.b32 %r1, %rd1;",
        "min.u32 %u1, %u2, %rd1;",
        "add.u32 %u1, %u2, 1.5;",
        "add.f32 %f1, %f2, 5;",
        "ld.global.f32 %u1, [%rd1];",
        "ld.global.f32 %fd1, [%rd1];",
        "ld.global.u32 %fd1, [%rd1];",
        "st.global.u32 [%rd1], %f1;",
        "st.global.f32 [%rd1], %u1;",
        "cvt.rn.f32.u32 %u1, %u1;",
        "cvt.rzi.s32.f32 %s1, %u1;",
        "mov.f32 %f1, 0;",
        "setp.eq.f32 %p1, %f1, 0;",
        "mov.u32 %r1, 0f3F800000;",
        "mad.lo.s32 %s1, %s1, %s2, %rd1;",
        "shr.u32 %u1, %u1, %h1;",
        "add.f32 %f1, %f2, %fd1;",
        "abs.f32 %f1, %u1;",
        "ld.global.u32 %r2, [nosuch];",
        "mov.u64 %rd2, nosuch;",
    };
    for (const char* inst : rejected) {
        INFO(inst);
        CHECK_FALSE(verify_errors(inst).empty());
    }
    const char* accepted[] = {
        "add.u32 %u1, %s1, %r1;",
        "add.s32 %s1, %u1, %u2;",
        "add.f32 %f1, %r1, %f2;",
        "and.b32 %r1, %f1, %u1;",
        "add.f64 %fd1, %rd1, %fd2;",
        "mov.b32 %r1, %f1;",
        "mov.b64 %rd1, %fd1;",
        "mul.wide.u32 %rd1, %u1, %u2;",
        "shl.b64 %rd1, %rd1, %r1;",
        "cvt.u64.u32 %rd1, %u1;",
        "cvt.u32.u64 %rd1, %rd1;",
        "ld.global.u16 %r1, [%rd1];",
        "ld.global.f32 %r1, [%rd1];",
        "ld.global.f32 %rd1, [%rd1];",
        "st.global.u8 [%rd1], %r1;",
        "add.u32 %u1, %u2, 5;",
        "mov.u32 %r1, %tid.x;",
        "ld.global.b32 %f1, [%rd1];",
        "ld.global.u8 %h1, [%rd1];",
        "st.global.f32 [%rd1], %rd1;",
        "st.global.u32 [%rd1], %rd1;",
        "cvt.u64.u32 %rd1, %rd1;",
        "cvt.rn.f32.u32 %f1, %rd1;",
        "cvt.rn.f32.u32 %r1, %u1;",
        "mov.f32 %f1, 0f3F800000;",
        "mov.b32 %r1, 0f3F800000;",
        "add.u64 %rd1, %rd1, 5;",
        "mul.wide.u32 %rd1, %u1, 4;",
        "mad.wide.u32 %rd1, %u1, %u2, %rd1;",
        "shr.u32 %u1, %u1, %u2;",
        "neg.f32 %f1, %r1;",
    };
    for (const char* inst : accepted) {
        INFO(inst);
        CHECK(verify_errors(inst).empty());
    }
}

TEST_CASE("duplicate names, version numbers and empty modules, as ptxas", "[hostile][verifier]") {
    auto errors_of_module = [](const std::string& text) {
        ParseResult r = parse_ptx(text, "m.ptx");
        std::vector<std::string> out;
        for (const auto& d : r.diagnostics) out.push_back(d.str());
        for (const auto& d : verify(r.module, "m.ptx")) out.push_back(d.str());
        return out;
    };
    const std::string header = ".version 8.0\n.target sm_90\n.address_size 64\n";
    auto dup = errors_of_module(header + ".entry k(.param .u64 out, .param .u32 out)\n{\nret;\n}\n");
    REQUIRE_FALSE(dup.empty());
    CHECK_THAT(dup[0], Catch::Contains("duplicate parameter 'out' of 'k'"));
    auto minor = errors_of_module(".version 8.99999999999\n.target sm_90\n.address_size 64\n");
    REQUIRE_FALSE(minor.empty());
    CHECK(minor[0] ==
          "m.ptx:1:10: error: unsupported .version 8.99999999999: PTX ISA versions are MAJOR.MINOR "
          "with a single-digit minor, such as 8.5 or 9.0");
    CHECK_FALSE(errors_of_module(".version 8.10\n.target sm_90\n").empty());
    auto empty = errors_of_module("");
    REQUIRE(empty.size() == 1);
    CHECK_THAT(empty[0], Catch::StartsWith("m.ptx:1:1: error: missing .version directive"));
    CHECK(errors_of_module(header).empty());  // ptxas assembles a module with nothing in it but the header
}
