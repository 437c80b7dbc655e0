// tests/timing/operand_roles_test.cpp — one answer to "which operands does this instruction write": the
// timing model's dependency chains and the register-use analysis follow ir::operand_roles where their own
// lists once disagreed with the engine's decoder: bar.red writes its destination; stackrestore reads its
// register; mbarrier.init and wmma.store read their address register and write none. Expected producers
// worked out by hand from the PTX below (instruction indices in the comments).
#include <catch2/catch.hpp>

#include <set>

#include "kernels_ir/dataflow.hpp"
#include "kernels_ir/operand_roles.hpp"
#include "kernels_ir/parser.hpp"
#include "sim/timing/profile.hpp"

using namespace warpsim;

namespace {

constexpr const char* kRoles = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry roles(.param .u64 p)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<5>;
    .reg .f32 %f<9>;
    ld.param.u64 %rd1, [p];
    setp.ne.u32 %p1, %r1, 0;
    bar.red.popc.u32 %r2, 0, %p1;
    add.s32 %r3, %r2, 1;
    mbarrier.init.shared.b64 [%rd1], 1;
    add.s64 %rd2, %rd1, 8;
    stacksave.u64 %rd3;
    stackrestore.u64 %rd3;
    add.s64 %rd2, %rd3, 1;
    wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd1], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, %r3;
    add.s64 %rd2, %rd1, 16;
    mbarrier.arrive.shared.b64 %rd4, [%rd1];
    ret;
}
)";

std::set<int> producers(const timing::ChainBlock& c, std::size_t i) {
    std::set<int> out;
    for (int16_t d : c.insts.at(i).deps)
        if (d >= 0) out.insert(d);
    return out;
}

uint32_t reg_named(const ir::Function& fn, std::string_view name) {
    for (uint32_t r = 0; r < fn.regs.size(); ++r)
        if (fn.regs[r].name == name) return r;
    FAIL("no register " << name);
    return 0;
}

}  // namespace

TEST_CASE("operand roles: the timing chain's producers follow what each instruction writes") {
    const ir::ParseResult r = ir::parse_ptx(kRoles, "roles.ptx");
    REQUIRE(r.ok());
    const ir::Function& fn = r.module.functions.at(0);
    const timing::ChainBlock c = timing::chain_of(fn, 0, static_cast<uint32_t>(fn.body.size()));
    REQUIRE(c.insts.size() == 13);
    CHECK(producers(c, 3) == std::set<int>{2});     // add reads bar.red's destination
    CHECK(producers(c, 4) == std::set<int>{0});     // mbarrier.init reads its address register
    CHECK(producers(c, 5) == std::set<int>{0});     // ... and does not write it
    CHECK(producers(c, 7) == std::set<int>{6});     // stackrestore reads stacksave's result
    CHECK(producers(c, 8) == std::set<int>{6});     // ... and does not write it
    CHECK(producers(c, 9) == std::set<int>{0, 3});  // wmma.store reads its address and stride
    CHECK(producers(c, 10) == std::set<int>{0});    // ... and writes neither
}

TEST_CASE("operand roles: by opcode and form") {
    const ir::ParseResult r = ir::parse_ptx(kRoles, "roles.ptx");
    REQUIRE(r.ok());
    const auto& body = r.module.functions.at(0).body;
    using ir::Role;
    CHECK(ir::operand_roles(body[2]).only_written());  // bar.red d, a, p
    CHECK(ir::operand_roles(body[2])[1] == Role::read);
    CHECK(ir::operand_roles(body[4])[0] == Role::address);  // mbarrier.init [a], n
    CHECK_FALSE(ir::operand_roles(body[4]).writes());
    CHECK_FALSE(ir::operand_roles(body[7]).writes());  // stackrestore a
    CHECK(ir::operand_roles(body[7])[0] == Role::read);
    CHECK(ir::operand_roles(body[9])[0] == Role::address);  // wmma.store [a], {..}, s
    CHECK(ir::operand_roles(body[9])[1] == Role::read);
    CHECK(ir::operand_roles(body[11]).only_written());  // mbarrier.arrive state, [a]
    CHECK(ir::operand_roles(body[11])[1] == Role::address);
}

TEST_CASE("operand roles: registers only bar.red and mbarrier.arrive write are never read") {
    const ir::ParseResult r = ir::parse_ptx(kRoles, "roles.ptx");
    REQUIRE(r.ok());
    const ir::Function& fn = r.module.functions.at(0);
    CHECK(ir::register_read(fn, reg_named(fn, "%r2")));         // add.s32 %r3, %r2, 1
    CHECK_FALSE(ir::register_read(fn, reg_named(fn, "%rd4")));  // mbarrier.arrive's state: written only
    CHECK_FALSE(ir::register_read(fn, reg_named(fn, "%rd2")));  // add destinations only
    CHECK(ir::register_read(fn, reg_named(fn, "%rd3")));        // stackrestore reads it
}
