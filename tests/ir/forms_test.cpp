// tests/ir/forms_test.cpp — the typed forms of cp, cp.reduce and mbarrier: what ptxas (CUDA 13, sm_90a)
// accepts decodes into the fields the PTX ISA names; what it rejects is a verifier error at the modifier.
#include <catch2/catch.hpp>

#include "kernels_ir/forms/form.hpp"
#include "kernels_ir/parser.hpp"
#include "kernels_ir/verifier.hpp"

using namespace warpsim::ir;

namespace {

// Lines 1-9 are the header and declarations; the body under test starts on line 10.
ParseResult parse_body(std::string_view body) {
    std::string src =
        ".version 8.7\n.target sm_90a\n.address_size 64\n.entry k()\n{\n"
        ".reg .b32 %r<4>;\n.reg .pred %p<2>;\n.reg .b16 %rs<2>;\n.reg .b64 %rd<4>;\n" +
        std::string(body) + "ret;\n}\n";
    ParseResult r = parse_ptx(src, "f.ptx");
    for (const auto& d : r.diagnostics) INFO(d.str());
    REQUIRE(r.ok());
    return r;
}

std::vector<std::string> verify_body(std::string_view body) {
    ParseResult r = parse_body(body);
    std::vector<std::string> out;
    for (const auto& d : verify(r.module, "f.ptx")) out.push_back(d.str());
    return out;
}

const Instruction& first(const ParseResult& r) {
    return r.module.functions.at(0).body.at(0);
}

}  // namespace

TEST_CASE("every cp and mbarrier form ptxas accepts verifies cleanly", "[forms]") {
    // Each line assembled with `ptxas -arch=sm_90a` without a message (CUDA 13).
    auto errs = verify_body(R"(mbarrier.init.shared::cta.b64 [%r1], 32;
mbarrier.init.b64 [%rd1], 32;
mbarrier.inval.shared.b64 [%r1];
mbarrier.arrive.shared.b64 %rd2, [%r1];
mbarrier.arrive.release.cta.shared::cta.b64 %rd2, [%r1], 2;
mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%r1];
mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%r1], 16;
mbarrier.arrive.noComplete.release.cta.shared.b64 %rd2, [%r1], 1;
mbarrier.arrive_drop.expect_tx.shared::cta.b64 %rd2, [%r1], 16;
mbarrier.arrive_drop.noComplete.shared.b64 %rd2, [%r1], 1;
mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], 16;
mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [%r1], 16;
mbarrier.test_wait.parity.relaxed.cluster.shared::cta.b64 %p1, [%r1], %r3;
mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r3, 1000;
mbarrier.try_wait.relaxed.cta.shared.b64 %p1, [%r1], %rd2;
mbarrier.pending_count.b64 %r3, %rd2;
cp.async.cg.shared::cta.global.L2::128B [%r2], [%rd1], 16;
cp.async.ca.shared.global.L2::cache_hint [%r2], [%rd1], 4, %rd3;
cp.async.ca.shared.global [%r2], [%rd1], 4, %p1;
cp.async.commit_group;
cp.async.wait_group 0;
cp.async.wait_all;
cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%r1];
cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%r2], [%rd1], 16, [%r1];
cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%r2], [%r2], 16, [%r1];
cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%rd1], [%r2], 16, %rd3;
cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r2], [%rd1], 16, [%r1], %rs1;
cp.async.bulk.wait_group.read 0;
cp.async.bulk.prefetch.L2.global [%rd1], 16;
cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r2], [%rd1, {%r3, %r3}], [%r1];
cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd1, {%r3, %r3}], [%r2];
cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%rd1, {%r3, %r3}];
cp.reduce.async.bulk.global.shared::cta.bulk_group.min.s64 [%rd1], [%r2], 16;
cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%rd1], [%r2], 16;
cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.add.u64 [%rd1], [%r2], 16, %rd3;
cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.min.s32 [%r2], [%r2], 16, [%r1];
cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%rd1, {%r3, %r3}], [%r2];
)");
    for (const auto& e : errs) INFO(e);
    CHECK(errs.empty());
}

TEST_CASE("an mbarrier form carries what its modifiers say", "[forms]") {
    auto r = parse_body("mbarrier.try_wait.parity.relaxed.cluster.shared::cta.b64 %p1, [%r1], %r3;\n");
    const MbarrierForm* f = form_as<MbarrierForm>(first(r));
    REQUIRE(f);
    CHECK(f->op == MbarrierOp::try_wait);
    CHECK(f->parity);
    CHECK(!f->expect_tx);
    CHECK(f->sem == MemSem::relaxed);
    CHECK(f->scope == Scope::cluster);
    CHECK(f->space == Space::shared_cta);

    auto a = parse_body("mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%r1], 16;\n");
    const MbarrierForm* g = form_as<MbarrierForm>(first(a));
    REQUIRE(g);
    CHECK(g->op == MbarrierOp::arrive);
    CHECK(g->expect_tx);
    CHECK(g->sem == MemSem::release);
    CHECK(g->space == Space::shared_cluster);
}

TEST_CASE("a cp form carries its operation, direction and completion", "[forms]") {
    auto r = parse_body(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1], 16, [%r1];\n");
    const CpForm* f = form_as<CpForm>(first(r));
    REQUIRE(f);
    CHECK(f->op == CpOp::bulk_copy);
    CHECK(f->dst == Space::shared_cluster);
    CHECK(f->src == Space::global);
    CHECK(f->completion == CpCompletion::mbarrier_complete_tx);

    auto c = parse_body("cp.async.cg.shared.global [%r2], [%rd1], 16;\n");
    const CpForm* g = form_as<CpForm>(first(c));
    REQUIRE(g);
    CHECK(g->op == CpOp::async_copy);
    CHECK(g->cache == CacheOp::cg);

    auto d = parse_body("cp.reduce.async.bulk.global.shared::cta.bulk_group.max.u32 [%rd1], [%r2], 16;\n");
    REQUIRE(first(d).op == Opcode::cp_reduce);
    const CpForm* h = form_as<CpForm>(first(d));
    REQUIRE(h);
    CHECK(h->op == CpOp::reduce_bulk);
    CHECK(h->red == AtomOp::max);
    CHECK(h->type == Type::u32);
    CHECK(h->completion == CpCompletion::bulk_group);
}

TEST_CASE("forms ptxas rejects are errors at the modifier", "[forms]") {
    // Each line is one ptxas rejects (its message in the comment); the column is that of the modifier's dot.
    auto errs = verify_body(R"(mbarrier.arrive.expect_tx.shared::ctx.b64 %rd0, [%r1], 16;
mbarrier.arrive.expect_tx.shared::cta.b32 %rd0, [%r1], 16;
mbarrier.arrive.expect_txx.shared::cta.b64 %rd0, [%r1], 16;
mbarrier.arrive.expect_tx.acquire.cta.shared::cta.b64 %rd0, [%r1], 16;
mbarrier.arrive.release.shared::cta.b64 %rd0, [%r1];
mbarrier.init.shared::cluster.b64 [%r1], 32;
mbarrier.wait.shared.b64 %p0, [%r1], %rd0;
cp.async.ca.global.shared [%r1], [%rd1], 4;
cp.async.cg.shared.global.L2::512B [%r1], [%rd1], 16;
cp.async.ca.cg.shared.global [%r1], [%rd1], 16;
cp.reduce.async.bulk.global.shared::cta.bulk_group.xor.s32 [%rd1], [%r1], 16;
cp.reduce.async.bulk.global.shared::cta.bulk_group.mul.u32 [%rd1], [%r1], 16;
mbarrier.pending_count.shared.b64 %r1, %rd0;
@%p0 mbarrier.arrive.expect_tx.shared::ctx.b64 %rd0, [%r1], 16;
mbarrier.arrive.noComplete.relaxed.cta.shared.b64 %rd0, [%r1], 1;
cp.async.bulk.global.shared::cta.mbarrier::complete_tx::bytes [%rd1], [%r1], 16, [%r2];
cp.async.bulk.shared::cluster.global [%r1], [%rd1], 16, [%r2];
mbarrier.arrive.shared::cluster.b64 %rd0, [%r1];
mbarrier.init.shared.b64 [%r1];
mbarrier.arrive.expect_tx.shared.b64 %rd0, [%r1];
)");
    const std::string arrive_takes =
        "; it takes .expect_tx, .noComplete, .release, .relaxed, .cta, .cluster, .shared{::cta}, "
        ".shared::cluster, .b64 (PTX ISA 9.7.15.16)";
    const std::vector<std::string> expected = {
        // ptxas: Unknown modifier '.shared::ctx'
        "f.ptx:10:26: error: mbarrier.arrive: unknown modifier '.shared::ctx'" + arrive_takes,
        // ptxas: Unexpected instruction types specified for 'mbarrier.arrive.expect_tx'
        "f.ptx:11:38: error: mbarrier.arrive: '.b32' is not its type, .b64 (PTX ISA 9.7.15.16)",
        // ptxas: Parsing error near '.shared::cta'
        "f.ptx:12:16: error: mbarrier.arrive: unknown modifier '.expect_txx'" + arrive_takes,
        // ptxas: Illegal modifier '.acquire' for instruction 'mbarrier.arrive.expect_tx'
        "f.ptx:13:26: error: mbarrier.arrive: '.acquire' is not an ordering it takes (PTX ISA 9.7.15.16)",
        // ptxas: Modifier '.release' requires scope with 'mbarrier.arrive' instruction
        "f.ptx:14:16: error: mbarrier.arrive: '.release' needs a scope, .cta or .cluster, with it (PTX ISA "
        "9.7.15.16)",
        // ptxas: Illegal modifier '::cluster' for instruction 'mbarrier.init'
        "f.ptx:15:14: error: mbarrier.init: '.shared::cluster' is not a state space it takes (PTX ISA "
        "9.7.15.16)",
        // ptxas: Not a name of any known instruction: 'mbarrier'
        "f.ptx:16:9: error: mbarrier: '.wait' is not an mbarrier operation (expected .init, .inval, .arrive, "
        ".arrive_drop, .expect_tx, .complete_tx, .test_wait, .try_wait or .pending_count) (PTX ISA "
        "9.7.15.16)",
        // ptxas: State space incorrect for instruction 'cp.async'
        "f.ptx:17:12: error: cp.async: '.global.shared' is not a direction of cp.async (expected "
        ".shared.global "
        "or .shared::cta.global) (PTX ISA 9.7.10.28)",
        // ptxas: Unknown modifier '.L2::512B'
        "f.ptx:18:26: error: cp.async: unknown modifier '.L2::512B'; it takes .L2::cache_hint or "
        ".L2::64B/128B/256B (PTX ISA 9.7.10.28)",
        // ptxas: Multiple cache operation modifiers specified
        "f.ptx:19:12: error: cp.async: '.cg' and '.ca' both give the cache operator (PTX ISA 9.7.10.28)",
        // ptxas: Incorrect type '.s32' for operation '.xor' in instruction 'cp.reduce.async.bulk'
        "f.ptx:20:55: error: cp.reduce.async.bulk: '.xor.s32' is not a reduction to .global (PTX ISA "
        "9.7.10.28)",
        // ptxas: Unknown modifier '.mul'
        "f.ptx:21:51: error: cp.reduce.async.bulk: unknown modifier '.mul' (PTX ISA 9.7.10.28)",
        // ptxas: No state space qualifier expected for instruction 'mbarrier.pending_count'
        "f.ptx:22:23: error: mbarrier.pending_count: '.shared' does not belong here; it takes .b64 (PTX ISA "
        "9.7.15.16)",
        // The guard does not move the column off the modifier: the opcode starts at column 6.
        "f.ptx:23:31: error: mbarrier.arrive: unknown modifier '.shared::ctx'" + arrive_takes,
        // ptxas: Modifier '.relaxed' cannot be combined with modifier '.noComplete'
        "f.ptx:24:1: error: mbarrier.arrive: '.noComplete' takes only .release, .cta and .shared{::cta} (PTX "
        "ISA 9.7.15.16)",
        // ptxas: Illegal modifier '.mbarrier::complete_tx::bytes' for instruction 'cp.async.bulk'
        "f.ptx:25:1: error: cp.async.bulk: a copy to .global completes on .bulk_group (PTX ISA 9.7.10.28)",
        // ptxas: .completion_mechanism modifier required for instruction 'cp.async.bulk'
        "f.ptx:26:1: error: cp.async.bulk: needs a completion mechanism, .mbarrier::complete_tx::bytes or "
        ".bulk_group (PTX ISA 9.7.10.28)",
        // ptxas: Sink '_' is expected as a destination operand for instruction 'mbarrier.arrive' with
        // '.shared::cluster'
        "f.ptx:27:1: error: 'mbarrier.arrive.shared::cluster' on .shared::cluster returns no state: its "
        "destination must be '_'",
        // ptxas: Arguments mismatch for instruction 'mbarrier.init'
        "f.ptx:28:1: error: 'mbarrier.init.shared' expects 2 operands, got 1",
        // ptxas: Arguments mismatch for instruction 'mbarrier.arrive.expect_tx'
        "f.ptx:29:1: error: 'mbarrier.arrive.expect_tx.shared' expects 3 operands, got 2",
    };
    CHECK(errs == expected);
}
