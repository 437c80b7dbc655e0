// tests/ir/cfg_test.cpp — basic blocks and reconvergence points on hand-drawn control-flow graphs.
#include <catch2/catch.hpp>

#include "kernels_ir/cfg.hpp"
#include "kernels_ir/parser.hpp"

using namespace warpsim::ir;

namespace {

Function parse_body(std::string_view body) {
    std::string src =
        ".version 9.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n"
        ".reg .pred %p<4>;\n.reg .b32 %r<4>;\n" +
        std::string(body) + "}\n";
    ParseResult r = parse_ptx(src, "cfg.ptx");
    for (const auto& d : r.diagnostics) INFO(d.str());
    REQUIRE(r.ok());
    return r.module.functions.at(0);
}

}  // namespace

TEST_CASE("if/else reconverges at the join block", "[cfg]") {
    // pc0 setp; pc1 @p bra ELSE; pc2 then; pc3 bra JOIN; pc4 ELSE: else; pc5 JOIN: ret
    Function f = parse_body(R"(
    setp.lt.s32 %p1, %r1, 0;
    @%p1 bra ELSE;
    add.s32 %r2, %r2, 1;
    bra.uni JOIN;
ELSE:
    add.s32 %r2, %r2, 2;
JOIN:
    ret;
)");
    Cfg cfg = build_cfg(f);
    REQUIRE(cfg.blocks.size() == 4);  // [0,2) [2,4) [4,5) [5,6)
    CHECK(cfg.blocks[0].begin == 0);
    CHECK(cfg.blocks[0].end == 2);
    CHECK(cfg.blocks[0].succs == std::vector<uint32_t>{1, 2});
    CHECK(cfg.blocks[1].succs == std::vector<uint32_t>{3});
    CHECK(cfg.blocks[2].succs == std::vector<uint32_t>{3});
    CHECK(cfg.blocks[3].succs == std::vector<uint32_t>{4});  // the virtual exit
    CHECK(cfg.reconverge_pc[1] == 5);
    CHECK(cfg.reconverge_pc[3] == 5);
    CHECK(cfg.reconverge_pc[0] == kNoPc);
    CHECK(cfg.blocks[3].preds == std::vector<uint32_t>{1, 2});
}

TEST_CASE("if without else reconverges at the fall-through target", "[cfg]") {
    Function f = parse_body(R"(
    @%p1 bra SKIP;
    add.s32 %r2, %r2, 1;
SKIP:
    ret;
)");
    Cfg cfg = build_cfg(f);
    REQUIRE(cfg.blocks.size() == 3);
    CHECK(cfg.reconverge_pc[0] == 2);
}

TEST_CASE("a loop with a divergent break reconverges after the loop", "[cfg]") {
    // pc0 HEAD: add; pc1 @p1 bra OUT (break); pc2 setp; pc3 @p2 bra HEAD; pc4 OUT: st-like add; pc5 ret
    Function f = parse_body(R"(
HEAD:
    add.s32 %r1, %r1, 1;
    @%p1 bra OUT;
    setp.lt.s32 %p2, %r1, 10;
    @%p2 bra HEAD;
OUT:
    add.s32 %r2, %r1, 0;
    ret;
)");
    Cfg cfg = build_cfg(f);
    REQUIRE(cfg.blocks.size() == 3);  // [0,2) [2,4) [4,6)
    CHECK(cfg.blocks[1].succs == std::vector<uint32_t>{0, 2});
    CHECK(cfg.reconverge_pc[1] == 4);
    CHECK(cfg.reconverge_pc[3] == 4);
}

TEST_CASE("nested if inside if reconverges inner first", "[cfg]") {
    // pc0 @p1 bra OUTER_END; pc1 @p2 bra INNER_END; pc2 add; pc3 INNER_END: add; pc4 OUTER_END: ret
    Function f = parse_body(R"(
    @%p1 bra OUTER_END;
    @%p2 bra INNER_END;
    add.s32 %r1, %r1, 1;
INNER_END:
    add.s32 %r2, %r2, 1;
OUTER_END:
    ret;
)");
    Cfg cfg = build_cfg(f);
    CHECK(cfg.reconverge_pc[0] == 4);
    CHECK(cfg.reconverge_pc[1] == 3);
}

TEST_CASE("early exit: paths meet only at the virtual exit", "[cfg]") {
    // pc0 @p1 bra A; pc1 exit; pc2 A: add; pc3 ret
    Function f = parse_body(R"(
    @%p1 bra A;
    exit;
A:
    add.s32 %r1, %r1, 1;
    ret;
)");
    Cfg cfg = build_cfg(f);
    REQUIRE(cfg.blocks.size() == 3);
    CHECK(cfg.reconverge_pc[0] == 4);  // body.size()
    CHECK(cfg.blocks[1].succs == std::vector<uint32_t>{3});
}

TEST_CASE("guarded exit falls through, unreachable code and endless loops", "[cfg]") {
    // pc0 @p1 exit; pc1 @p2 bra SPIN; pc2 ret; pc3 add (unreachable); pc4 SPIN: bra SPIN
    Function f = parse_body(R"(
    @%p1 exit;
    @%p2 bra SPIN;
    ret;
    add.s32 %r1, %r1, 1;
SPIN:
    bra.uni SPIN;
)");
    Cfg cfg = build_cfg(f);
    REQUIRE(cfg.blocks.size() == 5);  // [0,1) [1,2) [2,3) [3,4) [4,5)
    CHECK(cfg.blocks[0].succs == std::vector<uint32_t>{1, 5});
    CHECK(cfg.blocks[3].reachable == false);
    CHECK(cfg.blocks[4].reachable);
    CHECK(cfg.blocks[4].succs == std::vector<uint32_t>{4});
    CHECK(cfg.reconverge_pc[0] == 5);  // exit vs. the rest: only the virtual exit post-dominates
    CHECK(cfg.reconverge_pc[1] == 5);
    CHECK(cfg.reconverge_pc[4] == 5);
}

TEST_CASE("branch to a label at the end of the body goes to the exit", "[cfg]") {
    Function f = parse_body(R"(
    @%p1 bra END;
    add.s32 %r1, %r1, 1;
END:
)");
    Cfg cfg = build_cfg(f);
    REQUIRE(cfg.blocks.size() == 2);
    CHECK(cfg.blocks[0].succs == std::vector<uint32_t>{1, 2});
    CHECK(cfg.reconverge_pc[0] == 2);
}
