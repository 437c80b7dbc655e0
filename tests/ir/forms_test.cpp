// tests/ir/forms_test.cpp — the typed forms of cp, cp.reduce, mbarrier, wgmma, ldmatrix/stmatrix, wmma,
// mma and mma.sp: what ptxas (CUDA 13, sm_90a) accepts decodes into the fields the PTX ISA names; what it
// rejects is a verifier error at the modifier.
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

TEST_CASE("wmma and mma forms ptxas accepts verify cleanly", "[forms]") {
    // Each line assembled with `ptxas -arch=sm_90a` without an error (CUDA 13; the mma.sp line with an
    // advisory to prefer .sp::ordered_metadata).
    auto errs = verify_body(R"(.reg .b32 %m<32>; .reg .f64 %d<16>;
wmma.load.a.sync.aligned.row.m16n16k16.f16 {%m0, %m1, %m2, %m3, %m4, %m5, %m6, %m7}, [%rd1];
wmma.load.b.sync.aligned.col.m16n16k16.global.f16 {%m0, %m1, %m2, %m3, %m4, %m5, %m6, %m7}, [%rd1], 16;
wmma.load.c.sync.aligned.row.m32n8k16.shared::cta.f32 {%m0, %m1, %m2, %m3, %m4, %m5, %m6, %m7}, [%rd1];
wmma.load.a.sync.aligned.row.m8n32k16.s8 {%m0}, [%rd1];
wmma.load.a.sync.aligned.col.m16n16k16.bf16 {%m0, %m1, %m2, %m3}, [%rd1];
wmma.load.b.sync.aligned.row.m16n16k8.tf32 {%m0, %m1, %m2, %m3}, [%rd1];
wmma.load.a.sync.aligned.row.m8n8k32.s4 {%m0}, [%rd1];
wmma.load.b.sync.aligned.col.m8n8k128.b1 {%m0}, [%rd1];
wmma.load.c.sync.aligned.col.m8n8k4.f64 {%d0, %d1}, [%rd1];
wmma.store.d.sync.aligned.col.m16n16k16.shared.f16 [%rd1], {%m0, %m1, %m2, %m3};
wmma.store.d.sync.aligned.row.m8n8k32.s32 [%rd1], {%m0, %m1};
wmma.mma.sync.aligned.row.col.m16n16k16.f32.f16 {%m0, %m1, %m2, %m3, %m4, %m5, %m6, %m7}, {%m8, %m9, %m10, %m11, %m12, %m13, %m14, %m15}, {%m16, %m17, %m18, %m19, %m20, %m21, %m22, %m23}, {%m24, %m25, %m26, %m27};
wmma.mma.sync.aligned.col.row.m32n8k16.s32.u8.u8.s32.satfinite {%m0, %m1, %m2, %m3, %m4, %m5, %m6, %m7}, {%m8, %m9, %m10, %m11}, {%m12}, {%m24, %m25, %m26, %m27, %m28, %m29, %m30, %m31};
wmma.mma.sync.aligned.row.row.m16n16k16.f32.bf16.bf16.f32 {%m0, %m1, %m2, %m3, %m4, %m5, %m6, %m7}, {%m8, %m9, %m10, %m11}, {%m12, %m13, %m14, %m15}, {%m24, %m25, %m26, %m27, %m28, %m29, %m30, %m31};
wmma.mma.sync.aligned.row.col.m16n16k8.f32.tf32.tf32.f32 {%m0, %m1, %m2, %m3, %m4, %m5, %m6, %m7}, {%m8, %m9, %m10, %m11}, {%m12, %m13, %m14, %m15}, {%m24, %m25, %m26, %m27, %m28, %m29, %m30, %m31};
wmma.mma.sync.aligned.col.row.m8n8k4.rz.f64.f64.f64.f64 {%d0, %d1}, {%d2}, {%d3}, {%d4, %d5};
wmma.mma.sync.aligned.row.col.m8n8k32.s32.s4.s4.s32.satfinite {%m0, %m1}, {%m8}, {%m10}, {%m24, %m25};
wmma.mma.and.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%m0, %m1}, {%m8}, {%m10}, {%m24, %m25};
mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f16 {%m0, %m1, %m2, %m3, %m4, %m5, %m6, %m7}, {%m8, %m9}, {%m10, %m11}, {%m24, %m25, %m26, %m27};
mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%m0, %m1}, {%m8, %m9}, {%m10}, {%m24, %m25};
mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5, %m6, %m7}, {%m8, %m9}, {%m10, %m11, %m12, %m13};
mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5}, {%m8}, {%m10, %m11, %m12, %m13};
mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5, %m6, %m7}, {%m8, %m9}, {%m10, %m11, %m12, %m13};
mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16 {%m0, %m1}, {%m4, %m5, %m6, %m7}, {%m8, %m9}, {%m10, %m11};
mma.sync.aligned.m16n8k8.row.col.rn.f64.f64.f64.f64 {%d0, %d1, %d2, %d3}, {%d4, %d5, %d6, %d7}, {%d8, %d9}, {%d10, %d11, %d12, %d13};
mma.sync.aligned.m8n8k16.row.col.satfinite.s32.s8.u8.s32 {%m0, %m1}, {%m4}, {%m8}, {%m10, %m11};
mma.sync.aligned.m16n8k64.row.col.s32.u4.s4.s32 {%m0, %m1, %m2, %m3}, {%m4, %m5, %m6, %m7}, {%m8, %m9}, {%m10, %m11, %m12, %m13};
mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc {%m0, %m1, %m2, %m3}, {%m4, %m5, %m6, %m7}, {%m8, %m9}, {%m10, %m11, %m12, %m13};
mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5, %m6, %m7}, {%m8, %m9, %m10, %m11}, {%m10, %m11, %m12, %m13}, %m14, 0x0;
)");
    for (const auto& e : errs) INFO(e);
    CHECK(errs.empty());
}

TEST_CASE("wmma and mma forms carry their shape, layouts and types", "[forms]") {
    auto w = parse_body(
        ".reg .b32 %m<32>;\nwmma.load.b.sync.aligned.col.m32n8k16.shared::cta.u8 {%m0}, [%rd1], 32;\n");
    const WmmaForm* lb = form_as<WmmaForm>(w.module.functions.at(0).body.at(0));
    REQUIRE(lb);
    CHECK(lb->op == WmmaOp::load);
    CHECK(lb->matrix == WmmaMatrix::b);
    CHECK(lb->layout == MatrixLayout::col);
    CHECK(lb->shape == MatrixShape{32, 8, 16});
    CHECK(lb->space == Space::shared_cta);
    CHECK(lb->type == Type::u8);

    // The .f16 form names only D and C: A and B are .f16.
    auto m = parse_body(
        ".reg .b32 %m<32>;\nwmma.mma.sync.aligned.col.row.m8n32k16.f16.f32 {%m0, %m1, %m2, %m3}, {%m0, %m1, "
        "%m2, "
        "%m3, %m4, %m5, %m6, %m7}, {%m0, %m1, %m2, %m3, %m4, %m5, %m6, %m7}, {%m0, %m1, %m2, %m3, %m4, %m5, "
        "%m6, "
        "%m7};\n");
    const WmmaForm* mm = form_as<WmmaForm>(m.module.functions.at(0).body.at(0));
    REQUIRE(mm);
    CHECK(mm->op == WmmaOp::mma);
    CHECK(mm->layout == MatrixLayout::col);
    CHECK(mm->blayout == MatrixLayout::row);
    CHECK(mm->shape == MatrixShape{8, 32, 16});
    CHECK(mm->dtype == Type::f16);
    CHECK(mm->atype == Type::f16);
    CHECK(mm->btype == Type::f16);
    CHECK(mm->ctype == Type::f32);

    auto s = parse_body(
        ".reg .b32 %m<32>;\nmma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32 {%m0, %m1, %m2, %m3}, "
        "{%m4, %m5, %m6, %m7}, {%m8, %m9}, {%m0, %m1, %m2, %m3};\n");
    const MmaForm* f = form_as<MmaForm>(s.module.functions.at(0).body.at(0));
    REQUIRE(f);
    CHECK(f->shape == MatrixShape{16, 8, 32});
    CHECK(f->alayout == MatrixLayout::row);
    CHECK(f->blayout == MatrixLayout::col);
    CHECK(f->dtype == Type::s32);
    CHECK(f->atype == Type::u8);
    CHECK(f->btype == Type::s8);
    CHECK(f->ctype == Type::s32);
    CHECK(f->satfinite);
    CHECK(f->bit_op == BitOp::none);

    // mma.sp: the same fields, and its sparsity.
    auto sp = parse_body(
        ".reg .b32 %m<32>;\nmma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%m0, %m1, %m2, %m3}, {%m4, "
        "%m5, %m6, %m7}, {%m8, %m9, %m10, %m11}, {%m0, %m1, %m2, %m3}, %m12, 0x0;\n");
    const MmaForm* spf = form_as<MmaForm>(sp.module.functions.at(0).body.at(0));
    REQUIRE(spf);
    CHECK(spf->sparsity == MmaSparsity::sp);
    CHECK(spf->shape == MatrixShape{16, 8, 32});
    CHECK(spf->dtype == Type::f32);
    CHECK(spf->atype == Type::f16);
    CHECK(f->sparsity == MmaSparsity::dense);
}

TEST_CASE("wmma and mma forms ptxas rejects are errors at the modifier", "[forms]") {
    // The rules of PTX ISA 9.4 sections 9.7.16.4 (wmma) and 9.7.16.5.14 (mma); ptxas's message beside each.
    auto errs = verify_body(R"(.reg .b32 %m<32>; .reg .f64 %d<16>;
wmma.load.a.sync.row.m16n16k16.f16 {%m0, %m1, %m2, %m3, %m4, %m5, %m6, %m7}, [%rd1];
wmma.load.a.sync.aligned.row.m16n16k8.f32 {%m0, %m1, %m2, %m3}, [%rd1];
wmma.load.c.sync.aligned.row.m16n16k16.bf16 {%m0, %m1, %m2, %m3}, [%rd1];
wmma.load.a.sync.aligned.row.m16n16k16.local.f16 {%m0, %m1, %m2, %m3, %m4, %m5, %m6, %m7}, [%rd1];
wmma.load.a.sync.aligned.col.m8n8k32.s4 {%m0}, [%rd1];
wmma.load.b.sync.aligned.row.m8n8k128.b1 {%m0}, [%rd1];
wmma.load.sync.aligned.row.m16n16k16.f16 {%m0, %m1, %m2, %m3, %m4, %m5, %m6, %m7}, [%rd1];
wmma.load.a.sync.aligned.row.m16n8k16.f16 {%m0, %m1, %m2, %m3, %m4, %m5, %m6, %m7}, [%rd1];
wmma.store.d.sync.aligned.row.m16n16k16.bf16 [%rd1], {%m0, %m1, %m2, %m3};
wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.satfinite {%m0, %m1, %m2, %m3, %m4, %m5, %m6, %m7}, {%m8, %m9, %m10, %m11, %m12, %m13, %m14, %m15}, {%m16, %m17, %m18, %m19, %m20, %m21, %m22, %m23}, {%m24, %m25, %m26, %m27, %m28, %m29, %m30, %m31};
wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.u8.s32 {%m0, %m1, %m2, %m3, %m4, %m5, %m6, %m7}, {%m8, %m9}, {%m10, %m11}, {%m24, %m25, %m26, %m27, %m28, %m29, %m30, %m31};
wmma.mma.sync.aligned.row.col.m16n16k16.rn.f32.f32 {%m0, %m1, %m2, %m3, %m4, %m5, %m6, %m7}, {%m8, %m9, %m10, %m11, %m12, %m13, %m14, %m15}, {%m16, %m17, %m18, %m19, %m20, %m21, %m22, %m23}, {%m24, %m25, %m26, %m27, %m28, %m29, %m30, %m31};
wmma.mma.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%m0, %m1}, {%m8}, {%m10}, {%m24, %m25};
wmma.mma.sync.aligned.col.row.m8n8k32.s32.s4.s4.s32 {%m0, %m1}, {%m8}, {%m10}, {%m24, %m25};
wmma.mma.sync.aligned.row.col.m16n16k8.f32.bf16.bf16.f32 {%m0, %m1, %m2, %m3, %m4, %m5, %m6, %m7}, {%m8, %m9, %m10, %m11}, {%m12, %m13, %m14, %m15}, {%m24, %m25, %m26, %m27, %m28, %m29, %m30, %m31};
mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f16 {%m0, %m1, %m2, %m3}, {%m4, %m5}, {%m6}, {%m8, %m9};
mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5}, {%m6, %m7}, {%m8, %m9, %m10, %m11, %m12, %m13, %m14, %m15};
mma.sync.aligned.m16n8k16.col.col.f32.f16.f16.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5, %m6, %m7}, {%m8, %m9}, {%m10, %m11, %m12, %m13};
mma.sync.aligned.m16n8k8.row.col.f32.bf16.tf32.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5}, {%m6}, {%m8, %m9, %m10, %m11};
mma.sync.aligned.m16n8k32.row.col.f32.s8.s8.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5, %m6, %m7}, {%m8, %m9}, {%m10, %m11, %m12, %m13};
mma.sync.aligned.m16n8k256.row.col.satfinite.s32.b1.b1.s32.and.popc {%m0, %m1, %m2, %m3}, {%m4, %m5, %m6, %m7}, {%m8, %m9}, {%m10, %m11, %m12, %m13};
mma.sync.aligned.m16n8k8.row.col.rn.f32.tf32.tf32.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5, %m6, %m7}, {%m8, %m9}, {%m10, %m11, %m12, %m13};
mma.sync.m16n8k8.row.col.f32.tf32.tf32.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5, %m6, %m7}, {%m8, %m9}, {%m10, %m11, %m12, %m13};
mma.sync.aligned.m8n8k4.col.row.f64.f64.f64.f64 {%d0, %d1}, {%d2}, {%d3}, {%d4, %d5};
mma.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5, %m6, %m7}, {%m8, %m9}, {%m10, %m11, %m12, %m13};
mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f16 {%m0, %m1, %m2, %m3}, {%m4, %m5}, {%m8}, {%m10, %m11};
)");
    const std::string mma_combos =
        "' is not a D.A.B.C type combination it takes (A and B alike; .s32 with .s8, .u8, .s4, .u4, .b1; "
        ".f32 "
        "with .bf16, .tf32; .f64 throughout) (PTX ISA 9.7.16.4)";
    const std::string wmma_shapes =
        " (expected .m16n16k16, .m32n8k16, .m8n32k16, .m16n16k8, .m8n8k4, .m8n8k32 or .m8n8k128) (PTX ISA "
        "9.7.16.4)";
    const std::vector<std::string> expected = {
        // ptxas: .aligned modifier required for instruction 'wmma.load.a'
        "f.ptx:11:1: error: wmma.load.a: needs .aligned (PTX ISA 9.7.16.4)",
        // ptxas: Incorrect instruction type specified for wmma.load.a with shape '.m16n16k8'
        "f.ptx:12:38: error: wmma.load.a: '.f32' is not an element type of A for '.m16n16k8' (PTX ISA "
        "9.7.16.4)",
        // ptxas: Unexpected instruction types specified for 'wmma.load.c'
        "f.ptx:13:39: error: wmma.load.c: '.bf16' is not an element type of C for '.m16n16k16' (PTX ISA "
        "9.7.16.4)",
        // ptxas: State space incorrect for instruction 'wmma.load.a'
        "f.ptx:14:39: error: wmma.load.a: '.local' is not a state space it takes (expected .global or "
        ".shared{::cta}) (PTX ISA 9.7.16.4)",
        // ptxas: Illegal alayout '.col' for instruction 'wmma.load.a'
        "f.ptx:15:25: error: wmma.load.a: '.col' is not allowed: sub-byte and single-bit A is .row (PTX ISA "
        "9.7.16.4)",
        // ptxas: Illegal alayout '.row' for instruction 'wmma.load.b'
        "f.ptx:16:25: error: wmma.load.b: '.row' is not allowed: sub-byte and single-bit B is .col (PTX ISA "
        "9.7.16.4)",
        // ptxas: Unknown modifier '.load' (and: Not a name of any known instruction: 'wmma')
        "f.ptx:17:1: error: wmma.load: needs the matrix it loads, .a, .b or .c (PTX ISA 9.7.16.4)",
        // ptxas: Illegal matrix shape '.m16n8k16' for instruction 'wmma.load.a'
        "f.ptx:18:29: error: wmma.load.a: '.m16n8k16' is not a wmma shape" + wmma_shapes,
        // ptxas: Unexpected instruction types specified for 'wmma.store.d'
        "f.ptx:19:40: error: wmma.store.d: '.bf16' is not an element type of D for '.m16n16k16' (PTX ISA "
        "9.7.16.4)",
        // ptxas: Instruction ''wmma.mma' with floating point type' with '.satfinite' is not supported
        // starting from PTX ISA version 6.5
        "f.ptx:20:48: error: wmma.mma: '.satfinite' is not allowed on floating-point wmma.mma (removed in "
        "PTX "
        "ISA 6.5) (PTX ISA 9.7.16.4)",
        // ptxas: Unexpected instruction types specified for 'wmma.mma'
        "f.ptx:21:40: error: wmma.mma: '.s32.s8.u8.s32" + mma_combos,
        // ptxas: Illegal rounding modifier for instruction 'wmma.mma'
        "f.ptx:22:40: error: wmma.mma: '.rn' rounding is for .f64 wmma.mma only (PTX ISA 9.7.16.4)",
        // ptxas: Boolean operation is required for instruction 'wmma.mma'
        "f.ptx:23:1: error: wmma.mma: .b1 wmma.mma needs its operation, .xor.popc or .and.popc (PTX ISA "
        "9.7.16.4)",
        // ptxas: Illegal alayout '.col' for instruction 'wmma.mma'
        "f.ptx:24:22: error: wmma.mma: '.col' is not allowed: sub-byte and single-bit wmma.mma is .row.col "
        "(PTX "
        "ISA 9.7.16.4)",
        // ptxas: Incorrect instruction type specified for wmma.mma with shape '.m16n16k8'
        "f.ptx:25:30: error: wmma.mma: '.m16n16k8' is not a wmma.mma shape for .bf16 (expected .m16n16k16, "
        ".m32n8k16 or .m8n32k16) (PTX ISA 9.7.16.4)",
        // ptxas: .dtype must be '.f16' when .ctype is '.f16' for 'mma' instruction with shape '.m16n8k8'
        "f.ptx:26:33: error: mma: '.f32.f16.f16.f16': .m16n8k8 forms need .dtype equal to .ctype (PTX ISA "
        "9.7.16.5.14)",
        // ptxas: .dtype must be '.f32' when .ctype is '.f32' for 'mma' instruction with shape '.m8n8k4'
        "f.ptx:27:32: error: mma: '.f16.f16.f16.f32': .m8n8k4 with an .f32 C needs an .f32 D (PTX ISA "
        "9.7.16.5.14)",
        // ptxas: Illegal alayout '.col' for instruction 'mma'
        "f.ptx:28:26: error: mma: '.col' is not allowed: mma .m16n8k16 with .f16 takes .row.col (PTX ISA "
        "9.7.16.5.14)",
        // ptxas: Incorrect instruction type specified for mma with shape '.m16n8k8'
        "f.ptx:29:33: error: mma: '.f32.bf16.tf32.f32' is not a D.A.B.C type combination it takes (PTX ISA "
        "9.7.16.5.14)",
        // ptxas: Unexpected instruction types specified for 'mma'
        "f.ptx:30:34: error: mma: '.f32.s8.s8.f32' is not a D.A.B.C type combination it takes (PTX ISA "
        "9.7.16.5.14)",
        // ptxas: Illegal modifier '.satfinite' for instruction 'mma'
        "f.ptx:31:35: error: mma: '.satfinite' is for the .s8/.u8/.s4/.u4 forms only (PTX ISA 9.7.16.5.14)",
        // ptxas: Illegal rounding modifier for instruction 'mma'
        "f.ptx:32:33: error: mma: '.rn' rounding is for .f64 mma only (PTX ISA 9.7.16.5.14)",
        // ptxas: .aligned modifier required for instruction 'mma'
        "f.ptx:33:1: error: mma: needs .aligned (PTX ISA 9.7.16.5.14)",
        // ptxas: Illegal alayout '.col' for instruction 'mma with double types'
        "f.ptx:34:24: error: mma: '.col' is not allowed: mma .m8n8k4 with .f64 takes .row.col (PTX ISA "
        "9.7.16.5.14)",
        // ptxas: Illegal matrix shape '.m16n8k32' for instruction 'mma'
        "f.ptx:35:17: error: mma: '.m16n8k32' is not an mma shape for .f16 (expected .m8n8k4, .m16n8k8 or "
        ".m16n8k16) (PTX ISA 9.7.16.5.14)",
        // ptxas: Unexpected instruction types specified for 'mma'
        "f.ptx:36:34: error: mma: '.f32.e4m3.e4m3.f16': .m16n8k16 forms need .dtype equal to .ctype (PTX ISA "
        "9.7.16.5.14)",
    };
    CHECK(errs == expected);
}

TEST_CASE("mma.sp forms ptxas accepts verify cleanly and carry their sparsity", "[forms]") {
    // Each line assembled with `ptxas -arch=sm_90a` without an error (CUDA 13; the .sp lines with the
    // advisory to prefer .sp::ordered_metadata): every family of the mma.sp syntax (PTX ISA 9.7.16.6.3) at
    // each of its shapes. The selector is 0 where ptxas allows only 0 (.e4m3/.e5m2, .m16n8k64 with 8-bit,
    // .m16n8k128).
    auto errs = verify_body(R"(.reg .b32 %m<32>;
mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%m0, %m1}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13}, %m16, 0x1;
mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13, %m14, %m15}, %m16, 0x1;
mma.sp.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16 {%m0, %m1}, {%m4, %m5, %m6, %m7}, {%m8, %m9, %m10, %m11}, {%m12, %m13}, %m16, 0x1;
mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13, %m14, %m15}, %m16, 0x1;
mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5, %m6, %m7}, {%m8, %m9, %m10, %m11}, {%m12, %m13, %m14, %m15}, %m16, 0x1;
mma.sp.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13, %m14, %m15}, %m16, 0x1;
mma.sp.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5, %m6, %m7}, {%m8, %m9, %m10, %m11}, {%m12, %m13, %m14, %m15}, %m16, 0x1;
mma.sp.sync.aligned.m16n8k64.row.col.f32.e5m2.e4m3.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5, %m6, %m7}, {%m8, %m9, %m10, %m11}, {%m12, %m13, %m14, %m15}, %m16, 0x0;
mma.sp.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32 {%m0, %m1, %m2, %m3}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13, %m14, %m15}, %m16, 0x1;
mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32 {%m0, %m1, %m2, %m3}, {%m4, %m5, %m6, %m7}, {%m8, %m9, %m10, %m11}, {%m12, %m13, %m14, %m15}, %m16, 0x0;
mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.u4.s32 {%m0, %m1, %m2, %m3}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13, %m14, %m15}, %m16, 0x1;
mma.sp.sync.aligned.m16n8k128.row.col.satfinite.s32.u4.u4.s32 {%m0, %m1, %m2, %m3}, {%m4, %m5, %m6, %m7}, {%m8, %m9, %m10, %m11}, {%m12, %m13, %m14, %m15}, %m16, 0x0;
)");
    for (const auto& e : errs) INFO(e);
    CHECK(errs.empty());

    auto r = parse_body(
        ".reg .b32 %m<32>;\nmma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.satfinite.s32.u4.s4.s32 "
        "{%m0, %m1, %m2, %m3}, {%m4, %m5, %m6, %m7}, {%m8, %m9, %m10, %m11}, {%m12, %m13, %m14, %m15}, %m16, "
        "0x0;\n");
    const MmaForm* f = form_as<MmaForm>(first(r));
    REQUIRE(f);
    CHECK(f->sparsity == MmaSparsity::sp_ordered_metadata);
    CHECK(f->shape == MatrixShape{16, 8, 128});
    CHECK(f->alayout == MatrixLayout::row);
    CHECK(f->blayout == MatrixLayout::col);
    CHECK(f->dtype == Type::s32);
    CHECK(f->atype == Type::u4);
    CHECK(f->btype == Type::s4);
    CHECK(f->ctype == Type::s32);
    CHECK(f->satfinite);
}

TEST_CASE("mma.sp forms ptxas rejects are errors at the modifier", "[forms]") {
    // The rules of PTX ISA 9.7.16.6.3 (each line rejected by `ptxas -arch=sm_90a`, its message beside it):
    // the shapes of each type family, .row.col only, D's type equal to C's, no .f64 or .b1, no rounding, no
    // bit operation, .satfinite for integers, one sparsity modifier.
    auto errs = verify_body(R"(.reg .b32 %m<32>; .reg .f64 %d<16>;
mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16 {%m0, %m1, %m2, %m3}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13}, %m16, 0x1;
mma.sp.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%m0, %m1}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13}, %m16, 0x1;
mma.sp.sync.aligned.m16n8k16.col.row.f16.f16.f16.f16 {%m0, %m1}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13}, %m16, 0x1;
mma.sp.sync.aligned.m16n8k32.row.row.s32.u8.u8.s32 {%m0, %m1, %m2, %m3}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13, %m14, %m15}, %m16, 0x1;
mma.sp.sync.aligned.m16n8k16.row.col.satfinite.f16.f16.f16.f16 {%m0, %m1}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13}, %m16, 0x1;
mma.sp.sync.aligned.m16n8k64.row.col.f16.e4m3.e4m3.f16 {%m0, %m1}, {%m4, %m5, %m6, %m7}, {%m8, %m9, %m10, %m11}, {%m12, %m13}, %m16, 0x0;
mma.sp.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5, %m6, %m7}, {%m8, %m9, %m10, %m11}, {%m12, %m13, %m14, %m15}, %m16, 0x0;
mma.sp.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%m0, %m1, %m2, %m3}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13, %m14, %m15}, %m16, 0x0;
mma.sp.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32 {%m0, %m1, %m2, %m3}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13, %m14, %m15}, %m16, 0x1;
mma.sp.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.and.popc {%m0, %m1, %m2, %m3}, {%m4, %m5, %m6, %m7}, {%m8, %m9, %m10, %m11}, {%m12, %m13, %m14, %m15}, %m16, 0x1;
mma.sp.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%d0, %d1, %d2, %d3}, {%d4, %d5}, {%d6, %d7}, {%d8, %d9, %d10, %d11}, %m16, 0x1;
mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f16 {%m0, %m1, %m2, %m3}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13}, %m16, 0x1;
mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.bf16.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13, %m14, %m15}, %m16, 0x1;
mma.sp.sync.aligned.m16n8k16.row.col.rn.f32.f16.f16.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13, %m14, %m15}, %m16, 0x0;
mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32.xor.popc {%m0, %m1, %m2, %m3}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13, %m14, %m15}, %m16, 0x0;
mma.sp.sync.aligned.row.col.f32.f16.f16.f32 {%m0, %m1, %m2, %m3}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13, %m14, %m15}, %m16, 0x0;
mma.sp.sync.m16n8k16.row.col.f16.f16.f16.f16 {%m0, %m1}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13}, %m16, 0x1;
mma.sp.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%m0, %m1}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13}, %m16, 0x1;
mma.sp.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%m0, %m1}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13}, %m16, 0x1;
mma.sp::ordered.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%m0, %m1}, {%m4, %m5}, {%m8, %m9}, {%m12, %m13}, %m16, 0x1;
)");
    const std::vector<std::string> expected = {
        // ptxas: Arguments mismatch for instruction 'mma'
        "f.ptx:11:37: error: mma.sp: '.f32.f16.f16.f16' needs .dtype equal to .ctype (PTX ISA 9.7.16.6.3)",
        // ptxas: Illegal instruction types specified for 'Sparse mma' with shape '.m16n8k8'
        "f.ptx:12:20: error: mma.sp: '.m16n8k8' is not an mma.sp shape for .f16 (expected .m16n8k16 or "
        ".m16n8k32) (PTX ISA 9.7.16.6.3)",
        // ptxas: Illegal alayout '.col' for instruction 'Sparse mma'
        "f.ptx:13:29: error: mma.sp: '.col' is not allowed: A is .row (PTX ISA 9.7.16.6.3)",
        // ptxas: Illegal blayout '.row' for instruction 'Sparse mma'
        "f.ptx:14:33: error: mma.sp: '.row' is not allowed: B is .col (PTX ISA 9.7.16.6.3)",
        // ptxas: Unexpected instruction types specified for 'mma'
        "f.ptx:15:37: error: mma.sp: '.satfinite' is for the .s8/.u8/.s4/.u4 forms only (PTX ISA 9.7.16.6.3)",
        // ptxas: Instruction 'mma with with F16 accumulator and F8 floating point type' not supported on
        // .target 'sm_90a'
        "f.ptx:16:37: error: mma.sp: '.f16.e4m3.e4m3.f16' is not a D.A.B.C type combination it takes (PTX "
        "ISA 9.7.16.6.3)",
        // ptxas: Incorrect instruction type specified for Sparse mma with shape '.m16n8k32'
        "f.ptx:17:20: error: mma.sp: '.m16n8k32' is not an mma.sp shape for .e4m3/.e5m2 (expected .m16n8k64) "
        "(PTX ISA 9.7.16.6.3)",
        // ptxas: Illegal matrix shape '.m16n8k16' for instruction 'Sparse MMA with integer types'
        "f.ptx:18:20: error: mma.sp: '.m16n8k16' is not an mma.sp shape for .s8/.u8 (expected .m16n8k32 or "
        ".m16n8k64) (PTX ISA 9.7.16.6.3)",
        // ptxas: Incorrect instruction type specified for Sparse mma with shape '.m16n8k32'
        "f.ptx:19:20: error: mma.sp: '.m16n8k32' is not an mma.sp shape for .s4/.u4 (expected .m16n8k64 or "
        ".m16n8k128) (PTX ISA 9.7.16.6.3)",
        // ptxas: Arguments mismatch for instruction 'mma'
        "f.ptx:20:38: error: mma.sp: '.s32.b1.b1.s32' is not a D.A.B.C type combination it takes (PTX ISA "
        "9.7.16.6.3)",
        // ptxas: Arguments mismatch for instruction 'mma'
        "f.ptx:21:36: error: mma.sp: '.f64.f64.f64.f64' is not a D.A.B.C type combination it takes (PTX ISA "
        "9.7.16.6.3)",
        // ptxas: Unexpected instruction types specified for 'mma'
        "f.ptx:22:37: error: mma.sp: '.f32.bf16.bf16.f16' is not a D.A.B.C type combination it takes (PTX "
        "ISA 9.7.16.6.3)",
        // ptxas: Unexpected instruction types specified for 'mma'
        "f.ptx:23:37: error: mma.sp: '.f32.f16.bf16.f32' is not a D.A.B.C type combination it takes (PTX ISA "
        "9.7.16.6.3)",
        // ptxas: Illegal rounding modifier for instruction 'mma'
        "f.ptx:24:37: error: mma.sp: '.rn' rounding is not allowed (PTX ISA 9.7.16.6.3)",
        // ptxas: Unexpected instruction types specified for 'mma'
        "f.ptx:25:53: error: mma.sp: '.xor' is not allowed (PTX ISA 9.7.16.6.3)",
        // ptxas: Shape modifier required for instruction 'mma'
        "f.ptx:26:1: error: mma.sp: needs a shape such as .m16n8k32 (PTX ISA 9.7.16.6.3)",
        // ptxas: .aligned modifier required for instruction 'mma'
        "f.ptx:27:1: error: mma.sp: needs .aligned (PTX ISA 9.7.16.6.3)",
        // ptxas: .sync modifier required for instruction 'mma'
        "f.ptx:28:1: error: mma.sp: needs .sync (PTX ISA 9.7.16.6.3)",
        // ptxas: Multiple sparsity modifiers specified
        "f.ptx:29:7: error: mma.sp: '.sp::ordered_metadata' and '.sp' both give the sparsity (PTX ISA "
        "9.7.16.6.3)",
        // ptxas: Unknown modifier '.sp::ordered'
        "f.ptx:30:4: error: mma: unknown modifier '.sp::ordered' (PTX ISA 9.7.16.5.14)",
    };
    CHECK(errs == expected);
}
