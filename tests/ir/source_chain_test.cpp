// tests/ir/source_chain_test.cpp — .loc ... inlined_at: the inlining chains the parser keeps, their names
// from .section .debug_str, printing them back, and bad input. Expected chains are read off the PTX text by
// hand.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "kernels_ir/parser.hpp"
#include "kernels_ir/printer.hpp"
#include "kernels_ir/source_chain.hpp"

using namespace warpsim::ir;

namespace {

std::string read_text(const std::string& rel) {
    std::ifstream in(std::string(WARPSIM_SOURCE_DIR) + "/" + rel);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

ParseResult parse_ok(std::string_view text) {
    ParseResult r = parse_ptx(text, "t.ptx");
    for (const auto& d : r.diagnostics) INFO(d.str());
    CHECK(r.diagnostics.empty());
    REQUIRE(r.ok());
    return r;
}

// The instruction at PTX line `ptx_line` of function `fn`.
const Instruction& at_ptx_line(const Module& m, std::string_view fn, uint32_t ptx_line) {
    const Function* f = m.find_function(fn);
    REQUIRE(f);
    for (const auto& inst : f->body)
        if (inst.loc.ptx_line == ptx_line) return inst;
    FAIL("no instruction at PTX line " << ptx_line);
    return f->body.front();
}

std::string chain_of(const Module& m, std::string_view fn, uint32_t ptx_line) {
    return source_location_text(m, at_ptx_line(m, fn, ptx_line).loc, PathStyle::file_name);
}

const char* const kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";

}  // namespace

TEST_CASE("inlining chains of nvcc's PTX: helpers, atomicAdd, cooperative groups", "[parser][inlined]") {
    const std::string text = read_text("tests/examples/inlined/inlined_lines.ptx");
    REQUIRE_FALSE(text.empty());
    auto r = parse_ok(text);
    const Module& m = r.module;
    // .debug_str: $L__info_string1 is 95,90,56,97,100,100,... = "_Z8add_pairPii".
    CHECK(m.debug_string("$L__info_string1") == "_Z8add_pairPii");
    CHECK(m.debug_string("$L__info_string1", 3) == "add_pairPii");
    CHECK(m.debug_string("$L__info_string99").empty());

    // PTX line 52, the first atom of sum_pairs: `.loc 1 20 9` / `.loc 1 8 5, function_name $L__info_string1,
    // inlined_at 1 20 9` / `.loc 2 107 3, function_name $L__info_string2, inlined_at 1 8 5`.
    const auto& atom1 = at_ptx_line(m, "sum_pairs", 52);
    CHECK(atom1.op == Opcode::atom);
    const auto frames = source_chain(m, atom1.loc);
    REQUIRE(frames.size() == 3);
    CHECK(frames[0].at == SourcePosition{2, 107, 3});
    CHECK(frames[0].function == "atomicAdd");
    CHECK(frames[1].at == SourcePosition{1, 8, 5});
    CHECK(frames[1].function == "add_pair");
    CHECK(frames[2].at == SourcePosition{1, 20, 9});
    CHECK(frames[2].function.empty());
    CHECK(call_site(m, atom1.loc) == SourcePosition{1, 20, 9});
    CHECK(chain_positions(m, atom1.loc) == std::vector<SourcePosition>{SourcePosition{2, 107, 3},
                                                                       SourcePosition{1, 8, 5},
                                                                       SourcePosition{1, 20, 9}});
    CHECK(chain_of(m, "sum_pairs", 52) ==
          "device_atomic_functions.hpp:107 in atomicAdd, inlined from inlined_lines.cu:8 in add_pair, "
          "inlined from "
          "inlined_lines.cu:20");
    // The second atom (PTX line 58) comes from line 9 of add_pair; the mul between them (54) is add_pair's
    // own.
    CHECK(chain_of(m, "sum_pairs", 58) ==
          "device_atomic_functions.hpp:107 in atomicAdd, inlined from inlined_lines.cu:9 in add_pair, "
          "inlined from "
          "inlined_lines.cu:20");
    CHECK(chain_of(m, "sum_pairs", 54) == "inlined_lines.cu:9 in add_pair, inlined from inlined_lines.cu:20");
    CHECK(chain_of(m, "sum_pairs", 47) ==
          "inlined_lines.cu:13 in load_scaled, inlined from inlined_lines.cu:19");
    // Code of the kernel itself: one frame, the .loc.
    CHECK(chain_of(m, "sum_pairs", 37) == "inlined_lines.cu:18");
    CHECK(at_ptx_line(m, "sum_pairs", 37).loc.inlined_at == 0);
    CHECK(chain_has_line(m, atom1.loc, 1, 20));
    CHECK(chain_has_line(m, atom1.loc, 1, 8));
    CHECK(chain_has_line(m, atom1.loc, 2, 107));
    CHECK_FALSE(chain_has_line(m, atom1.loc, 1, 9));

    // Four levels: __syncthreads of cooperative groups (PTX line 125).
    CHECK(
        chain_of(m, "sync_in_branch", 125) ==
        "sm_30_intrinsics.hpp:98 in __barrier_sync, inlined from helpers.h:87 in sync, inlined from "
        "cooperative_groups.h:489 in sync, inlined from inlined_lines.cu:34 in wait_for_block, inlined from "
        "inlined_lines.cu:39");
    CHECK(
        source_location_text(m, at_ptx_line(m, "sync_in_branch", 125).loc, PathStyle::recorded)
            .starts_with("/usr/local/cuda/bin/../targets/x86_64-linux/include/sm_30_intrinsics.hpp:98 in "));

    // Equal chains share their sites: the two atoms differ only in the innermost call site (lines 8 and 9),
    // whose parent (add_pair inlined at line 20) is one entry.
    const auto& atom2 = at_ptx_line(m, "sum_pairs", 58);
    REQUIRE(atom1.loc.inlined_at != 0);
    REQUIRE(atom2.loc.inlined_at != 0);
    CHECK(atom1.loc.inlined_at != atom2.loc.inlined_at);
    CHECK(m.inline_sites[atom1.loc.inlined_at - 1].parent == m.inline_sites[atom2.loc.inlined_at - 1].parent);
    CHECK(at_ptx_line(m, "sum_pairs", 54).loc.inlined_at == m.inline_sites[atom2.loc.inlined_at - 1].parent);

    // Printing keeps every chain: the printed module parses to the same module.
    const std::string printed = print_module(m);
    auto again = parse_ok(printed);
    CHECK(equal_ignoring_ptx_positions(m, again.module));
}

TEST_CASE("a level nvcc leaves out is found at an earlier .loc", "[parser][inlined]") {
    // As nvcc writes cooperative groups' reduce: the third .loc's `inlined_at 5 333 17` is not in the chain
    // of the .loc before it (7 39 5 in 3 68 9) but was a level of an earlier one.
    std::string src = std::string(kHeader) + R"(
.entry k()
{
    .reg .b32 %r<4>;
    .loc 1 19 5
    .loc 3 68 9, function_name $L__a, inlined_at 1 19 5
    .loc 5 333 17, function_name $L__b, inlined_at 3 68 9
    .loc 6 449 9, function_name $L__c, inlined_at 5 333 17
    mov.u32 %r0, 1;
    .loc 3 68 9, function_name $L__a, inlined_at 1 19 5
    .loc 7 39 5, function_name $L__d, inlined_at 3 68 9
    mov.u32 %r1, 2;
    .loc 6 449 9, function_name $L__c, inlined_at 5 333 17
    mov.u32 %r2, 3;
    .loc 1 20 1
    ret;
}
.file 1 "k.cu"
.file 3 "a.h"
.file 5 "b.h"
.file 6 "c.h"
.file 7 "d.h"
)";
    auto r = parse_ok(src);
    const Module& m = r.module;
    const auto& body = m.functions[0].body;
    // No .debug_str: the chain has positions but no function names.
    CHECK(source_location_text(m, body[0].loc, PathStyle::file_name) ==
          "c.h:449, inlined from b.h:333, inlined from a.h:68, inlined from k.cu:19");
    CHECK(source_location_text(m, body[1].loc, PathStyle::file_name) ==
          "d.h:39, inlined from a.h:68, inlined from k.cu:19");
    CHECK(body[2].loc.inlined_at == body[0].loc.inlined_at);
    CHECK(source_location_text(m, body[3].loc, PathStyle::file_name) == "k.cu:20");
    CHECK(m.inline_sites.size() == 4);  // 1:19:5 ($L__a), 3:68:9 ($L__b), 5:333:17 ($L__c), 3:68:9 ($L__d)
    auto again = parse_ok(print_module(m));
    CHECK(equal_ignoring_ptx_positions(m, again.module));
}

TEST_CASE("an inlined_at position seen nowhere before is a line of the function itself",
          "[parser][inlined]") {
    std::string src = std::string(kHeader) + R"(
.entry k()
{
    .loc 2 10 3, function_name $L__s+4, inlined_at 1 7 2
    ret;
}
.file 1 "k.cu"
.file 2 "h.h"
.section .debug_str
{
$L__s:
.b8 120,120,120,120,95,90,52,104,101,108,112,118,0
}
)";
    auto r = parse_ok(src);
    const Module& m = r.module;
    const auto& loc = m.functions[0].body[0].loc;
    CHECK(call_site(m, loc) == SourcePosition{1, 7, 2});
    // function_name $L__s+4: the name starts 4 bytes in, "_Z4helpv" -> "help".
    CHECK(source_location_text(m, loc, PathStyle::file_name) == "h.h:10 in help, inlined from k.cu:7");
    auto again = parse_ok(print_module(m));
    CHECK(equal_ignoring_ptx_positions(m, again.module));
}

TEST_CASE("malformed function_name and inlined_at are errors at their line", "[parser][inlined][errors]") {
    auto errors = [](std::string_view loc_line) {
        std::string src = std::string(kHeader) + ".entry k()\n{\n" + std::string(loc_line) + "\nret;\n}\n";
        std::vector<std::string> out;
        for (const auto& d : parse_ptx(src, "t.ptx").diagnostics) out.push_back(d.str());
        return out;
    };
    auto e1 = errors(".loc 1 5 2, inlined_at 1 9");
    REQUIRE(e1.size() == 1);
    CHECK_THAT(e1[0],
               Catch::Contains("t.ptx:6:") && Catch::Contains("column number after inlined_at FILE LINE"));
    auto e2 = errors(".loc 1 5 2, function_name , inlined_at 1 9 3");
    REQUIRE(e2.size() == 1);
    CHECK_THAT(e2[0], Catch::Contains("t.ptx:6:") && Catch::Contains("label after function_name"));
    auto e3 = errors(".loc 1 5 2, function_name $L__s+, inlined_at 1 9 3");
    REQUIRE(e3.size() == 1);
    CHECK_THAT(e3[0], Catch::Contains("byte offset"));
    // Attributes the simulator does not need are skipped, as before.
    CHECK(errors(".loc 1 5 2, prologue_end").empty());
}

TEST_CASE("relative paths: under the current folder relative to it, elsewhere the file name", "[inlined]") {
    namespace fs = std::filesystem;
    const fs::path root = fs::temp_directory_path() / ("warpsim_paths_" + std::to_string(::getpid()));
    fs::create_directories(root / "src");
    const std::string src = std::string(kHeader) + R"(
.entry k()
{
    .loc 1 7 1
    ret;
    .loc 2 9 1
    ret;
    .loc 3 11 1
    ret;
}
.file 1 ")" + (root / "src" / "k.cu").string() +
                            R"("
.file 2 "/usr/local/cuda/include/sm_30_intrinsics.hpp"
.file 3 "lib/helper.cu"
)";
    auto r = parse_ok(src);
    const auto& body = r.module.functions[0].body;
    const fs::path before = fs::current_path();
    fs::current_path(root);
    const std::string inside = source_location_text(r.module, body[0].loc, PathStyle::relative);
    const std::string header = source_location_text(r.module, body[1].loc, PathStyle::relative);
    const std::string as_given = source_location_text(r.module, body[2].loc, PathStyle::relative);
    fs::current_path(root / "src");
    const std::string here = source_location_text(r.module, body[0].loc, PathStyle::relative);
    fs::current_path(before);
    fs::remove_all(root);
    CHECK(inside == "src/k.cu:7");
    CHECK(here == "k.cu:7");
    CHECK(header == "sm_30_intrinsics.hpp:9");
    CHECK(as_given == "lib/helper.cu:11");
    // From a folder the file is not under: its name alone.
    CHECK(source_location_text(r.module, body[0].loc, PathStyle::relative) == "k.cu:7");
}
