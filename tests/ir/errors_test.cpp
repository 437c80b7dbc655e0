// tests/ir/errors_test.cpp — malformed PTX gives located diagnostics, several per file, and never crashes.
#include <catch2/catch.hpp>

#include "kernels_ir/parser.hpp"

using namespace warpsim::ir;

namespace {

// The module header takes lines 1-3; bodies in these tests start on line 4 with `.entry k()`, line 5 `{`.
std::string in_kernel(std::string_view body) {
    return ".version 9.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n.reg .b32 %r<4>;\n.reg .pred "
           "%p<2>;\n" +
           std::string(body) + "}\n";
}

std::vector<std::string> errors_of(std::string_view text) {
    ParseResult r = parse_ptx(text, "bad.ptx");
    std::vector<std::string> out;
    for (const auto& d : r.diagnostics) out.push_back(d.str());
    return out;
}

}  // namespace

TEST_CASE("missing semicolon is reported where the next token starts", "[errors]") {
    // line 8: `add.s32 %r1, %r2, %r3` (no ';'), line 9: `ret;`
    auto errs = errors_of(in_kernel("add.s32 %r1, %r2, %r3\nret;\n"));
    REQUIRE(errs.size() == 1);
    CHECK(errs[0] == "bad.ptx:9:1: error: expected ';' after instruction operands");
}

TEST_CASE("unknown opcode", "[errors]") {
    auto errs = errors_of(in_kernel("  frobnicate.b32 %r1, %r2;\nret;\n"));
    REQUIRE(errs.size() == 1);
    CHECK(errs[0] == "bad.ptx:8:3: error: unknown opcode 'frobnicate'");
}

TEST_CASE("undeclared register", "[errors]") {
    auto errs = errors_of(in_kernel("mov.u32 %r1, %r99;\nret;\n"));
    REQUIRE(errs.size() == 1);
    CHECK(errs[0] == "bad.ptx:8:14: error: use of undeclared register '%r99'");
}

TEST_CASE("undeclared guard register", "[errors]") {
    auto errs = errors_of(in_kernel("@%q bra L;\nL:\nret;\n"));
    REQUIRE(errs.size() == 1);
    CHECK(errs[0] == "bad.ptx:8:2: error: use of undeclared register '%q'");
}

TEST_CASE("undefined label", "[errors]") {
    auto errs = errors_of(in_kernel("@%p1 bra $L__nowhere;\nret;\n"));
    REQUIRE(errs.size() == 1);
    CHECK(errs[0] == "bad.ptx:8:1: error: undefined label '$L__nowhere'");
}

TEST_CASE("duplicate label", "[errors]") {
    auto errs = errors_of(in_kernel("L:\nret;\nL:\nret;\n"));
    REQUIRE(errs.size() == 1);
    CHECK(errs[0] == "bad.ptx:10:1: error: redefinition of label 'L'");
}

TEST_CASE("bad immediates", "[errors]") {
    auto errs = errors_of(
        in_kernel("mov.f32 %r1, 0f3F80;\nmov.u32 %r1, 12abc;\nmov.u32 %r1, 0x1FFFFFFFFFFFFFFFF;\nret;\n"));
    REQUIRE(errs.size() == 3);
    CHECK(errs[0] ==
          "bad.ptx:8:14: error: bad floating-point literal '0f3F80': expected 8 hex digits after 0f");
    CHECK(errs[1] == "bad.ptx:9:14: error: malformed number '12abc'");
    CHECK(errs[2] == "bad.ptx:10:14: error: bad integer literal '0x1FFFFFFFFFFFFFFFF': out of 64-bit range");
}

TEST_CASE("unterminated function body", "[errors]") {
    auto errs = errors_of(".version 9.0\n.target sm_90\n.address_size 64\n.entry k()\n{\nret;\n");
    REQUIRE(errs.size() == 1);
    CHECK(errs[0] == "bad.ptx:5:1: error: unterminated body of 'k': expected '}' before the end of the file");
}

TEST_CASE("unterminated comment and string", "[errors]") {
    auto errs = errors_of(".version 9.0\n.file 1 \"abc\n/* never closed");
    REQUIRE(errs.size() == 2);
    CHECK(errs[0] == "bad.ptx:2:9: error: unterminated string literal");
    CHECK(errs[1] == "bad.ptx:3:1: error: unterminated '/*' comment");
}

TEST_CASE("garbage bytes are reported once per run and parsing goes on", "[errors]") {
    std::string text = in_kernel("mov.u32 %r1, 1; \x01\x02\n#\nret;\n");
    auto errs = errors_of(text);
    REQUIRE(errs.size() >= 2);
    CHECK(errs[0] == "bad.ptx:8:17: error: unexpected byte 0x01");
    CHECK(errs[1] == "bad.ptx:8:18: error: unexpected byte 0x02");
}

TEST_CASE("several errors are collected in one pass", "[errors]") {
    auto errs = errors_of(in_kernel("bogus %r1;\nmov.u32 %r1, %nope;\nadd.s32 %r1, %r2 %r3;\nret;\n"));
    REQUIRE(errs.size() == 3);
    CHECK(errs[0] == "bad.ptx:8:1: error: unknown opcode 'bogus'");
    CHECK(errs[1] == "bad.ptx:9:14: error: use of undeclared register '%nope'");
    CHECK(errs[2] == "bad.ptx:10:18: error: expected ';' after instruction operands");
}

TEST_CASE("module-level mistakes", "[errors]") {
    auto errs = errors_of(".version 9.0\n.target sm_90\n.address_size 48\n.frob 1;\nadd.s32 %r1, %r2;\n");
    REQUIRE(errs.size() == 3);
    CHECK(errs[0] == "bad.ptx:3:15: error: address size must be 32 or 64");
    CHECK(errs[1] == "bad.ptx:4:1: error: unknown directive '.frob' at module scope");
    CHECK(errs[2] ==
          "bad.ptx:5:1: error: expected a directive (.version, .target, .entry, .func, a variable, ...) "
          "but found 'add'");
}

TEST_CASE("truncated inputs never crash and always report", "[errors]") {
    std::string full = in_kernel("ld.global.v4.f32 {%r1, %r2, %r3, %r0}, [%r1+8];\n@!%p1 bra L;\nL:\nret;\n");
    for (std::size_t n = 0; n < full.size(); ++n) {
        ParseResult r = parse_ptx(std::string_view(full).substr(0, n), "cut.ptx");
        // Every prefix past the header and short of the closing brace is an incomplete module.
        if (n > 44 && n + 1 < full.size()) CHECK_FALSE(r.ok());
    }
    CHECK(parse_ptx(full, "full.ptx").ok());
}
