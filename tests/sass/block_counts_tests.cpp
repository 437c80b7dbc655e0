// tests/sass/block_counts_tests.cpp — SASS-level instruction totals (sim/sass/block_counts): the SASS blocks
// of hand-written cases and what a warp issues in them, counted by hand from the nvdisasm listings of the
// same cubins (tests/sass/corpus/sass_cases.sass, lds_merge.sass); the H200 measured the same figures
// (tests/hardware/sass_cases/results.json), which the mapping tests compare as well.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "sim/device/ptxas.hpp"
#include "sim/sass/block_counts.hpp"
#include "sim/sass/compile.hpp"
#include "sim/session/run.hpp"
#include "tests/sass/sass_fixture.hpp"

using namespace warpsim;

namespace {

const std::string kRoot = WARPSIM_SOURCE_DIR;

using sass_test::Planned;

Planned plan_of(const std::string& kernel) {
    return sass_test::plan_of(kernel, [](Planned& out, const sass::Function& code) {
        sass::plan_instruction_counts(*out.prep.module, out.prep.kernel_index, code, out.plan);
    });
}

struct Totals {
    double warp = 0, threads = 0, pred_on = 0;
    std::string counting;
};

Totals run_of_spec(const std::string& spec) {
    auto prep = session::prepare(spec);
    REQUIRE(bool(prep));
    auto run = session::run_simulated(prep.value(), session::SimOptions{});
    REQUIRE(bool(run));
    REQUIRE_FALSE(run.value().report.error);
    const auto& m = run.value().report.metrics;
    return {m.at("smsp__inst_executed.sum"), m.at("smsp__thread_inst_executed.sum"),
            m.at("smsp__thread_inst_executed_pred_on.sum"), run.value().counting};
}

Totals run_of(const std::string& kernel) {
    return run_of_spec(kRoot + "/tests/sass/specs/" + kernel + ".json");
}

}  // namespace

TEST_CASE("SASS blocks: straight-line code is one block that every warp issues once", "[sass][blocks]") {
    if (!device::find_ptxas()) {
        WARN("no ptxas: the SASS plans are not made here");
        return;
    }
    // transpose_padded (sass_cases.sass): 49 instructions from 0x0000 to the EXIT at 0x0300, then the
    // unreachable `BRA .L_x_8` to itself and NOP padding. 8 x 8 blocks of 256 threads: 512 full warps.
    auto p = plan_of("transpose_padded");
    REQUIRE(p.plan.instructions_mapped);
    REQUIRE(p.plan.blocks.size() == 1);
    CHECK(p.plan.blocks[0].instructions == 49);
    CHECK(p.plan.blocks[0].anchor_pc == 0);
    CHECK(p.plan.pred_on_mapped);
    const Totals t = run_of("transpose_padded");
    CHECK(t.warp == 49.0 * 512);
    CHECK(t.threads == 49.0 * 512 * 32);
    CHECK(t.pred_on == 49.0 * 512 * 32);
    CHECK(t.counting == "per SASS instruction (ptxas sm_90)");
}

TEST_CASE("SASS blocks: an if-converted branch is issued by every warp, its lanes are those that enter",
          "[sass][blocks]") {
    if (!device::find_ptxas()) {
        WARN("no ptxas: the SASS plans are not made here");
        return;
    }
    // predicated_step (lds_merge.sass): `@%p1 bra SKIP` over two loads, an add and a store became
    // @!P0 LDS, @!P0 LDS, @!P0 FADD, @!P0 STS inside one block of 21 instructions (0x0000-0x0140). 4 blocks
    // of 256 threads: 32 warps issue all 21; the 4 predicated ones run on the 16 lanes with tid < 16 of each
    // block's first warp, the other 17 on all 32 lanes.
    auto p = plan_of("predicated_step");
    REQUIRE(p.plan.instructions_mapped);
    REQUIRE(p.plan.blocks.size() == 1);
    CHECK(p.plan.blocks[0].instructions == 21);
    CHECK(p.plan.pred_on_mapped);
    const Totals t = run_of("predicated_step");
    CHECK(t.warp == 21.0 * 32);
    CHECK(t.threads == 21.0 * 32 * 32);
    CHECK(t.pred_on == 17.0 * 32 * 32 + 4.0 * 16 * 4);
}

TEST_CASE("SASS blocks: a warp that diverges inside a BSSY region issues its BSYNC once per path",
          "[sass][blocks]") {
    if (!device::find_ptxas()) {
        WARN("no ptxas: the SASS plans are not made here");
        return;
    }
    // stencil1d_shared (tests/hardware/corpus/stencil.cu), 16 blocks of 256 threads: 128 warps. Its SASS
    // (sm_90, ptxas 13.0): 0x0000-0x0130, 20 instructions ending in BSSY ... `@P1 BRA 0x1f0` (threadIdx.x > 2
    // skips the halo); 0x0140-0x01e0, 11 instructions of the halo, run by the first warp of each block only,
    // whose lanes diverge there; 0x01f0-0x0210, BSYNC, BAR, `@P0 EXIT`: 3 instructions, and the BSYNC once
    // more in each diverged warp (its two lane groups arrive apart); 0x0220-0x0340, 19 instructions (gid < n
    // for all). By hand: 128 * 20 + 16 * 11 + 128 * 3 + 16 + 128 * 19 = 5568, what the H200 measured
    // (h200_results.json); thread instructions are not changed by the second BSYNC (its groups split the
    // lanes).
    const Totals t = run_of_spec(kRoot + "/tests/hardware/corpus/specs/stencil1d_shared_16blocks.json");
    CHECK(t.counting == "per SASS instruction (ptxas sm_90)");
    CHECK(t.warp == 128.0 * 20 + 16 * 11 + 128 * 3 + 16 + 128 * 19);
}

TEST_CASE("SASS blocks: a loop ptxas unrolled keeps PTX-level totals and says why", "[sass][blocks]") {
    if (!device::find_ptxas()) {
        WARN("no ptxas: the SASS plans are not made here");
        return;
    }
    // counted_loop (lds_merge.sass): the PTX loop's body runs in a peeled first trip (0x00a0), a 4x unrolled
    // loop (0x0180-0x01e0) and a 2+1 remainder (0x01f0): how often each runs depends on the trip count.
    auto p = plan_of("counted_loop");
    CHECK_FALSE(p.plan.instructions_mapped);
    CHECK(p.plan.blocks.empty());
    CHECK(p.plan.instruction_counting.rfind("PTX-level counts (", 0) == 0);
    const Totals t = run_of("counted_loop");
    CHECK(t.counting.find("instruction totals: PTX-level counts (") != std::string::npos);
}

TEST_CASE("SASS blocks: a one-block loop ptxas unrolled into a main loop and remainders is counted per trip",
          "[sass][blocks][unrolled]") {
    if (!device::find_ptxas()) {
        WARN("no ptxas: the SASS plans are not made here");
        return;
    }
    // col_sum_thread_per_col (tests/hardware/corpus/rows.cu): the PTX loop at line 1173 (four rows per trip,
    // nvcc's unrolling) became, in ptxas 13.0's sm_90 SASS (decoded; the comparisons read off the words):
    // 0x01a0 (r > 12 rows left?), 0x01d0, the main loop 0x01e0-0x0510 of 16 LDG (4 trips), 0x0520 (r > 4?),
    // 0x0540 of 8 LDG (2 trips), 0x06f0 (r != 0?), the loop 0x0710-0x0800 of 4 LDG (1 trip); the preheader
    // ends in `@!P0 BRA 0x710`. Every thread sums 256 rows: 64 trips, all in the main loop (16 runs).
    const std::string spec = kRoot + "/tests/hardware/corpus/specs/col_sum_thread_per_col_256x4096.json";
    auto prep = session::prepare(spec);
    REQUIRE(bool(prep));
    auto cubin = sass::compile_cubin(prep.value().ptx, "sm_90");
    REQUIRE(cubin.has_value());
    auto program = sass::decode_cubin(*cubin);
    REQUIRE(program.has_value());
    const sass::Function* code = program->find(prep.value().kernel->name);
    REQUIRE(code != nullptr);
    counts::SassPlan plan;
    sass::plan_instruction_counts(*prep.value().module, prep.value().kernel_index, *code, plan);
    REQUIRE(plan.instructions_mapped);
    REQUIRE(plan.loops.size() == 1);
    const auto& loop = plan.loops[0];
    CHECK(loop.header_line == 1173);
    std::vector<uint32_t> copies;
    for (const auto& node : loop.nodes) copies.push_back(node.copies);
    CHECK(copies == std::vector<uint32_t>{0, 0, 4, 0, 2, 0, 1});
    CHECK(loop.entry_taken == 6);
    CHECK(loop.entry_fall == 0);
    CHECK(loop.nodes[2].taken == 2);  // the main loop's back edge
    CHECK(loop.nodes[5].taken == counts::UnrolledLoop::kExit);
    // The H200's totals (tests/hardware/corpus/h200_results.json); PTX-level they are 135296 / 4329472 /
    // 4313088.
    const Totals t = run_of_spec(spec);
    CHECK(t.counting == "per SASS instruction (ptxas sm_90)");
    CHECK(t.warp == 111616);
    CHECK(t.threads == 3571712);
    CHECK(t.pred_on == 3547136);
}

namespace {

Totals ptx_level_of(const std::string& kernel) {
    auto prep = session::prepare(kRoot + "/tests/sass/specs/" + kernel + ".json");
    REQUIRE(bool(prep));
    session::SimOptions options;
    options.ptx_level_counts = true;
    auto run = session::run_simulated(prep.value(), options);
    REQUIRE(bool(run));
    const auto& m = run.value().report.metrics;
    return {m.at("smsp__inst_executed.sum"), m.at("smsp__thread_inst_executed.sum"),
            m.at("smsp__thread_inst_executed_pred_on.sum"), run.value().counting};
}

}  // namespace

TEST_CASE("SASS blocks: the slow-path call of an f32 division or reciprocal runs only where operands need it",
          "[sass][blocks][slow_path]") {
    if (!device::find_ptxas()) {
        WARN("no ptxas: the SASS plans are not made here");
        return;
    }
    // tests/sass/cases/slow_path.cu, 4 blocks of 256 threads, n = 1000: 32 warps, the last with 8 lanes in
    // range. `divide` (ptxas 13, sm_90): 0x0000-0x0070 (8 instructions, ending in `@P0 EXIT` for i >= n),
    // 0x0080-0x0170 (16: the loads, MUFU.RCP, FCHK, five FFMAs, `@!P0 BRA 0x1b0`), 0x0180-0x01a0 (MOV, CALL,
    // IMAD: the slow path), 0x01b0-0x01f0 (BSYNC, LDC, IMAD, STG, EXIT). With divisors 3 no lane calls:
    // 32 * (8 + 16 + 5) = 928 warp instructions; 32 * 32 * 8 + 1000 * 21 = 29192 thread instructions, and
    // 24 fewer with a true predicate (the EXIT's) than 32 * 32 * 8 in the first block: 28192. The H200
    // measured exactly these (tests/hardware/slowpath/slow_path_ncu.csv, launch 0).
    auto p = plan_of("slow_divide_normal");
    REQUIRE(p.plan.instructions_mapped);
    std::size_t slow_blocks = 0;
    for (const auto& b : p.plan.blocks)
        if (b.runs == counts::SassPlan::Runs::on_slow_path) {
            ++slow_blocks;
            CHECK(b.instructions == 3);
        }
    CHECK(slow_blocks == 1);
    Totals t = run_of("slow_divide_normal");
    CHECK(t.counting == "per SASS instruction (ptxas sm_90)");
    CHECK(t.warp == 928);
    CHECK(t.threads == 29192);
    CHECK(t.pred_on == 28192);
    // `reciprocal`: 8, then 9 (the load, the exponent test, `@P0 BRA 0x140`), the slow block (MOV, CALL,
    // MOV, BRA), 4 of the fast sequence, 5 (BSYNC ... EXIT): 32 * 26 = 832; 8192 + 1000 * 18 = 26192; 25192
    // (the H200's, launch 3).
    t = run_of("slow_reciprocal_normal");
    CHECK(t.counting == "per SASS instruction (ptxas sm_90)");
    CHECK(t.warp == 832);
    CHECK(t.threads == 26192);
    CHECK(t.pred_on == 25192);
    // Subnormal divisors send every warp to the call, a divisor of 0 (b = iota) only the first warp, 1e38
    // every reciprocal: the H200 then issues the subroutine too (3200, 967 and 2144 warp instructions,
    // launches 1, 2 and 4), whose path is not followed, so the totals are the PTX-level ones, and the report
    // says why.
    const struct {
        const char* spec;
        const char* says;
    } slow[] = {
        {"slow_divide_subnormal", "the slow-path subroutine of the division at PTX line 53 ran in 32 warps"},
        {"slow_divide_by_zero", "the slow-path subroutine of the division at PTX line 53 ran in 1 warp,"},
        {"slow_reciprocal_huge", "the slow-path subroutine of the reciprocal at PTX line 97 ran in 32 warps"},
    };
    for (const auto& c : slow) {
        INFO(c.spec);
        t = run_of(c.spec);
        CHECK(t.counting.find("instruction totals: PTX-level counts (") != std::string::npos);
        CHECK(t.counting.find(c.says) != std::string::npos);
        const Totals ptx = ptx_level_of(c.spec);
        CHECK(t.warp == ptx.warp);
        CHECK(t.threads == ptx.threads);
    }
}

TEST_CASE(
    "SASS blocks: the range scaling around an f32 .approx MUFU runs on the lanes whose operands need it",
    "[sass][blocks][approx_scaling]") {
    if (!device::find_ptxas()) {
        WARN("no ptxas: the SASS plans are not made here");
        return;
    }
    // tests/sass/cases/approx_scaling.ptx, one block of 64 threads (two full warps); the listing is
    // tests/hardware/approx_scaling/approx_scaling.sass (ptxas 13, sm_90). Every instruction up to the EXIT
    // runs on all 64 lanes but the scaling's, guarded by !P0 of `FSETP.GEU P0, |x|, 2^-126` (rsqrt, sqrt,
    // lg2: 17 instructions, two of them guarded; 16 lanes scaled: +-0 and the 14 subnormals, not the NaN),
    // of `FSETP.GEU P0, x, -126` (ex2: 13 instructions, two guarded; x = -4.5t is below -126 for t = 29..63:
    // 35 lanes) and of the divisor's test (div 1 / x: 19 instructions, one guarded, the dividend's scaling
    // folded into an FSEL: 16 lanes). The .ftz form has no scaling (14 instructions). So warp instructions
    // 2n, thread instructions 64n and 64n - (64 - scaled) per guarded instruction with a true predicate:
    // the H200 measured exactly these (tests/hardware/approx_scaling/approx_scaling_ncu.csv).
    const struct {
        const char* spec;
        double warp, threads, pred_on;
    } cases[] = {
        {"scale_rsqrt", 34, 1088, 1088 - 2 * 48}, {"scale_sqrt", 34, 1088, 1088 - 2 * 48},
        {"scale_lg2", 34, 1088, 1088 - 2 * 48},   {"scale_ex2", 26, 832, 832 - 2 * 29},
        {"scale_div", 38, 1216, 1216 - 48},       {"scale_rsqrt_ftz", 28, 896, 896},
    };
    for (const auto& c : cases) {
        INFO(c.spec);
        const Totals t = run_of(c.spec);
        CHECK(t.counting == "per SASS instruction (ptxas sm_90)");
        CHECK(t.warp == c.warp);
        CHECK(t.threads == c.threads);
        CHECK(t.pred_on == c.pred_on);
    }
}
