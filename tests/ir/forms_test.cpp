// tests/ir/forms_test.cpp — the typed forms of cp, cp.reduce and mbarrier: what ptxas (CUDA 13, sm_90a)
// accepts decodes into the fields the PTX ISA names; what it rejects is a verifier error at the modifier.
#include <catch2/catch.hpp>

#include "kernels_ir/forms/form.hpp"
#include "kernels_ir/forms/tensor.hpp"
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

TEST_CASE("a wgmma form carries its shape and types", "[forms]") {
    auto r = parse_body(
        ".reg .f32 %f<4>;\nwgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%f0, %f1, %f2, %f3}, %rd1, "
        "%rd2, "
        "1, 1, 1, 0, 0;\n");
    const WgmmaForm* f = form_as<WgmmaForm>(first(r));
    REQUIRE(f);
    CHECK(f->op == WgmmaOp::mma_async);
    CHECK(f->aligned);
    CHECK(!f->sparse);
    CHECK(f->shape == MatrixShape{64, 8, 16});
    CHECK(f->dtype == Type::f32);
    CHECK(f->atype == Type::bf16);
    CHECK(f->btype == Type::bf16);
}

TEST_CASE("wgmma forms ptxas accepts verify cleanly", "[forms]") {
    // Each line assembled with `ptxas -arch=sm_90a` without a message (CUDA 13).
    auto errs = verify_body(R"(.reg .f32 %f<4>;
wgmma.fence.sync.aligned;
wgmma.fence.sync;
wgmma.commit_group.sync.aligned;
wgmma.wait_group.sync.aligned 0;
wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd1, %rd1, 1, 1, 1, 0, 0;
wgmma.mma_async.sync.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd1, %rd1, 1, 1, 1, 0, 0;
wgmma.mma_async.sync.aligned.m64n8k32.f16.e4m3.e5m2 {%r0, %r1}, %rd1, %rd1, 1, 1, 1;
wgmma.mma_async.sync.aligned.m64n24k32.s32.s8.s8 {%r0, %r1, %r2, %r3, %r0, %r1, %r2, %r3, %r0, %r1, %r2, %r3}, %rd1, %rd1, 1;
wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc {%r0, %r1, %r2, %r3}, %rd1, %rd1, 1;
wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd1, %rd1, %r1, 0, 1, 1, 1, 0, 0;
)");
    for (const auto& e : errs) INFO(e);
    CHECK(errs.empty());
}

TEST_CASE("wgmma shapes and types ptxas rejects are errors at the modifier", "[forms]") {
    auto errs = verify_body(R"(.reg .f32 %f<4>;
wgmma.mma_async.sync.aligned.m64n63k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd1, %rd1, 1, 1, 1, 0, 0;
wgmma.mma_async.sync.aligned.m64n64k8.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd1, %rd1, 1, 1, 1, 0, 0;
wgmma.mma_async.sync.aligned.m32n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd1, %rd1, 1, 1, 1, 0, 0;
wgmma.mma_async.sync.aligned.m64n40k32.s32.s8.s8 {%r0, %r1}, %rd1, %rd1, 1;
wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f32 {%f0, %f1, %f2, %f3}, %rd1, %rd1, 1, 1, 1, 0, 0;
wgmma.mma_async.sync.aligned.m64n8k16.satfinite.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd1, %rd1, 1, 1, 1, 0, 0;
wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16.f16 {%f0, %f1, %f2, %f3}, %rd1, %rd1, 1, 1, 1, 0, 0;
wgmma.fence.aligned;
wgmma.mma_asyn.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd1, %rd1, 1, 1, 1, 0, 0;
)");
    const std::vector<std::string> expected = {
        // ptxas: Unknown modifier '.m64n63k16'
        "f.ptx:11:29: error: wgmma.mma_async: '.m64n63k16' is not a wgmma shape: N is 8 to 256 in steps of 8 "
        "(PTX "
        "ISA 9.7.17)",
        // ptxas: Illegal instruction types specified for 'wgmma.mma_async with floating point types' with
        // shape
        // '.m64n64k8'
        "f.ptx:12:29: error: wgmma.mma_async: '.m64n64k8' is not a wgmma shape for .f16: K is 16 (PTX ISA "
        "9.7.17)",
        // ptxas: Illegal matrix shape '.m32n8k16' for instruction 'wgmma.mma_async with floating point types'
        "f.ptx:13:29: error: wgmma.mma_async: '.m32n8k16' is not a wgmma shape: M is 64 (PTX ISA 9.7.17)",
        // ptxas: Illegal matrix shape '.m64n40k32' for instruction 'wgmma.mma_async with integer types'
        "f.ptx:14:29: error: wgmma.mma_async: '.m64n40k32' is not a wgmma shape for integer types: N above "
        "32 is a "
        "multiple of 16 (PTX ISA 9.7.17)",
        // ptxas: Unexpected instruction types specified for 'wgmma.mma_async'
        "f.ptx:15:38: error: wgmma.mma_async: '.f32.f16.f32' is not a D.A.B type combination it takes (PTX "
        "ISA "
        "9.7.17)",
        // ptxas: Illegal modifier '.satfinite' for instruction 'wgmma.mma_async with floating point types'
        "f.ptx:16:38: error: wgmma.mma_async: '.satfinite' needs integer types (PTX ISA 9.7.17)",
        // ptxas: Unexpected instruction types specified for 'wgmma.mma_async'
        "f.ptx:17:50: error: wgmma.mma_async: '.f16' is a fourth type (PTX ISA 9.7.17)",
        // ptxas: .sync modifier required for instruction 'wgmma.fence'
        "f.ptx:18:1: error: wgmma.fence: needs .sync (PTX ISA 9.7.17)",
        // ptxas: Unknown modifier '.mma_asyn'
        "f.ptx:19:6: error: wgmma: '.mma_asyn' is not a wgmma operation (expected .mma_async, .fence, "
        ".commit_group or .wait_group) (PTX ISA 9.7.17)",
    };
    CHECK(errs == expected);
}

TEST_CASE("ldmatrix and stmatrix forms: what ptxas accepts, and its rejections at the modifier", "[forms]") {
    // Accepted by ptxas -arch=sm_90a; the .b8 shapes only as "not supported on .target 'sm_90a'" (sm_100 has
    // them), so they are well-formed.
    auto ok = verify_body(R"(ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r0, %r1, %r2, %r3}, [%r2];
ldmatrix.sync.aligned.m8n8.x4.b16 {%r0, %r1, %r2, %r3}, [%r2];
ldmatrix.sync.aligned.m8n8.x1.trans.shared::cta.b16 {%r0}, [%r2];
stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%r2], {%r0};
ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r0, %r1}, [%r2];
ldmatrix.sync.aligned.m8n16.x1.shared.b8x16.b6x16_p32 {%r0}, [%r2];
stmatrix.sync.aligned.m16n8.x1.trans.shared.b8 [%r2], {%r0};
)");
    for (const auto& e : ok) INFO(e);
    CHECK(ok.empty());
    auto r = parse_body("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r0, %r1}, [%r2];\n");
    const MatrixMoveForm* f = form_as<MatrixMoveForm>(first(r));
    REQUIRE(f);
    CHECK(!f->store);
    CHECK(f->shape == MatrixShape{8, 8, 0});
    CHECK(f->count == 2);
    CHECK(f->trans);
    CHECK(f->type == Type::b16);

    auto errs = verify_body(R"(ldmatrix.sync.m8n8.x4.shared.b16 {%r0, %r1, %r2, %r3}, [%r2];
ldmatrix.sync.aligned.m8n8.x3.shared.b16 {%r0, %r1, %r2}, [%r2];
ldmatrix.sync.aligned.m8n8.x4.shared.b32 {%r0, %r1, %r2, %r3}, [%r2];
stmatrix.sync.aligned.m8n8.x2.global.b16 [%rd1], {%r0, %r1};
)");
    const std::vector<std::string> expected = {
        // ptxas: .aligned modifier required for instruction 'ldmatrix'
        "f.ptx:10:1: error: ldmatrix: needs .aligned (PTX ISA 9.7.16.5)",
        // ptxas: Unknown modifier '.x3'
        "f.ptx:11:27: error: ldmatrix: unknown modifier '.x3' (PTX ISA 9.7.16.5)",
        // ptxas: Unexpected instruction types specified for 'ldmatrix'
        "f.ptx:12:37: error: ldmatrix: '.b32' is not the type of '.m8n8' (expected .b16) (PTX ISA 9.7.16.5)",
        // ptxas: State space incorrect for instruction 'stmatrix'
        "f.ptx:13:30: error: stmatrix: '.global' is not a state space it takes (expected .shared{::cta}) "
        "(PTX ISA "
        "9.7.16.5)",
    };
    CHECK(errs == expected);
}
