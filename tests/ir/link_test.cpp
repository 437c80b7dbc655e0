// tests/ir/link_test.cpp — ir::link_modules: separately compiled modules (nvcc -rdc=true) joined as nvlink
// joins them; every expectation worked out by hand from the two small modules below.
#include <catch2/catch.hpp>

#include "kernels_ir/link.hpp"
#include "kernels_ir/parser.hpp"
#include "kernels_ir/printer.hpp"
#include "kernels_ir/verifier.hpp"

using namespace warpsim::ir;

namespace {

// What nvcc -rdc=true makes of a file whose kernel calls a function and reads a variable of another file.
const char* kMain = R"(.version 8.8
.target sm_90
.address_size 64
.extern .func (.param .b32 func_retval0) add_one(.param .b32 add_one_param_0);
.extern .global .align 4 .u32 counter;
.weak .global .align 4 .u32 shared_flag = 7;
.visible .entry k(.param .u64 k_param_0)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<3>;
    .loc 1 10 5
    ld.param.u64 %rd1, [k_param_0];
    ld.global.u32 %r1, [counter];
    {
    .param .b32 param0;
    st.param.b32 [param0], %r1;
    .param .b32 retval0;
    call.uni (retval0), add_one, (param0);
    ld.param.b32 %r2, [retval0];
    }
    st.global.u32 [%rd1], %r2;
    ret;
}
.file 1 "main.cu"
)";

const char* kLib = R"(.version 9.0
.target sm_90
.address_size 64
.visible .global .align 4 .u32 counter = 41;
.visible .global .align 4 .u32 shared_flag = 9;
.visible .func (.param .b32 func_retval0) add_one(.param .b32 add_one_param_0)
{
    .reg .b32 %r<3>;
    .loc 1 3 12
    ld.param.b32 %r1, [add_one_param_0];
    add.s32 %r2, %r1, 1;
    st.param.b32 [func_retval0], %r2;
    ret;
}
.file 1 "lib.cu"
)";

Module parse_ok(const char* text, const char* name) {
    ParseResult r = parse_ptx(text, name);
    for (const auto& d : r.diagnostics) INFO(d.str());
    REQUIRE(r.ok());
    return std::move(r.module);
}

std::string errors_of(const LinkResult& r) {
    std::string s;
    for (const auto& d : r.diagnostics) s += d.str() + "\n";
    return s;
}

}  // namespace

TEST_CASE("link: declarations take the other module's definitions, calls resolve again", "[ir][link]") {
    LinkResult r =
        link_modules({parse_ok(kMain, "main.ptx"), parse_ok(kLib, "lib.ptx")}, {"main.ptx", "lib.ptx"});
    INFO(errors_of(r));
    REQUIRE(r.ok());
    const Module& m = r.module;
    CHECK(m.version_major == 9);
    CHECK(m.version_minor == 0);
    // add_one's definition replaced main's declaration at its place; k stays where it was.
    REQUIRE(m.functions.size() == 2);
    CHECK(m.functions[0].name == "add_one");
    CHECK(m.functions[0].has_body);
    CHECK(m.functions[1].name == "k");
    // The call in k names function 0 again (it named 0 in main.ptx too, the declaration; now the body).
    const Instruction* call = nullptr;
    for (const auto& inst : m.functions[1].body)
        if (inst.op == Opcode::call) call = &inst;
    REQUIRE(call != nullptr);
    bool found = false;
    for (const auto& a : call->args) {
        if (a.kind == Operand::Kind::symbol && a.name == "add_one") {
            CHECK(a.imm == 0);
            found = true;
        }
    }
    CHECK(found);
    // counter: lib's definition (= 41); shared_flag: lib's strong definition wins over main's weak one (= 9).
    REQUIRE(m.globals.size() == 2);
    CHECK(m.globals[0].name == "counter");
    CHECK(m.globals[0].linkage == Linkage::visible);
    REQUIRE(m.globals[0].init.size() == 4);
    CHECK(m.globals[0].init[0] == 41);
    CHECK(m.globals[1].name == "shared_flag");
    REQUIRE(m.globals[1].init.size() == 4);
    CHECK(m.globals[1].init[0] == 9);
    // Source files renumbered: main.cu keeps 1, lib.cu becomes 2, and add_one's .loc follows it.
    REQUIRE(m.files.size() == 2);
    CHECK(m.file_path(1) == "main.cu");
    CHECK(m.file_path(2) == "lib.cu");
    CHECK(m.functions[0].body[0].loc.file == 2);
    CHECK(m.functions[0].body[0].loc.line == 3);
    CHECK(m.functions[1].body[0].loc.file == 1);
    // The linked module verifies, prints, and reads back the same.
    CHECK(verify(m, "linked.ptx").empty());
    ParseResult again = parse_ptx(print_module(m), "linked.ptx");
    for (const auto& d : again.diagnostics) INFO(d.str());
    REQUIRE(again.ok());
    CHECK(equal_ignoring_ptx_positions(m, again.module));
}

TEST_CASE("link: two strong definitions and an undefined variable are errors naming the files",
          "[ir][link]") {
    LinkResult twice = link_modules({parse_ok(kLib, "lib.ptx"), parse_ok(kLib, "lib_copy.ptx")},
                                    {"lib.ptx", "lib_copy.ptx"});
    CHECK_FALSE(twice.ok());
    const std::string e = errors_of(twice);
    INFO(e);
    CHECK(e.find("'counter' is defined in both 'lib.ptx' and 'lib_copy.ptx'") != std::string::npos);
    CHECK(e.find("'add_one' is defined in both 'lib.ptx' and 'lib_copy.ptx'") != std::string::npos);
    CHECK(e.find("lib_copy.ptx:4:") != std::string::npos);  // the second definition's line

    LinkResult alone = link_modules({parse_ok(kMain, "main.ptx")}, {"main.ptx"});
    CHECK_FALSE(alone.ok());
    const std::string e2 = errors_of(alone);
    INFO(e2);
    CHECK(e2.find("'counter' is declared .extern and defined in none of the 1 linked files") !=
          std::string::npos);
    // A function nobody defines stays a declaration (vprintf and the like come from the driver).
    CHECK(e2.find("add_one") == std::string::npos);
}
