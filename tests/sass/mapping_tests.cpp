// tests/sass/mapping_tests.cpp — counting per SASS instruction (sim/sass/mapping, counts::SassPlan): the
// plans of the hand-written cases (tests/sass/cases/lds_merge.ptx, their SASS read in
// tests/sass/corpus/lds_merge.sass) worked out by hand, and every case of tests/sass/specs against the H200's
// counts of the very same cubins (tests/hardware/sass_cases/results.json, Nsight Compute, 2026-12-01).
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/device/ptxas.hpp"
#include "sim/sass/compile.hpp"
#include "sim/sass/kernel_sass.hpp"
#include "sim/sass/mapping.hpp"
#include "sim/session/run.hpp"
#include "tests/sass/sass_fixture.hpp"

using namespace warpsim;
using Role = counts::SassPlan::Role;

namespace {

const std::string kRoot = WARPSIM_SOURCE_DIR;

using sass_test::Planned;

Planned plan_of(const std::string& kernel) {
    return sass_test::plan_of(kernel, [](Planned& out, const sass::Function& code) {
        out.plan = sass::plan_shared_accesses(*out.prep.module, out.prep.kernel_index, code);
    });
}

// The roles of the kernel's ld/st.shared, in PTX order: "L16" leader of a 16-byte group, "F" follower, "-"
// plain.
std::vector<std::string> roles(const Planned& p) {
    std::vector<std::string> out;
    const auto& body = p.prep.kernel->body;
    for (uint32_t pc = 0; pc < body.size(); ++pc) {
        if ((body[pc].op != ir::Opcode::ld && body[pc].op != ir::Opcode::st) ||
            body[pc].d.space != ir::Space::shared)
            continue;
        const auto* r = p.plan.role(p.prep.kernel_index, pc);
        if (!r || r->role == Role::plain)
            out.push_back("-");
        else if (r->role == Role::follower)
            out.push_back("F");
        else
            out.push_back(fmt::format("L{}", r->bytes));
    }
    return out;
}

using V = std::vector<std::string>;

}  // namespace

TEST_CASE("SASS plan: merged shared loads and stores of the hand-written cases", "[sass][mapping]") {
    if (!device::find_ptxas()) {
        WARN("no ptxas: the SASS plans are not made here");
        return;
    }
    // lds_merge.sass: merge4 is one LDS.128 R4, [R0]; merge2 one LDS.64; nomerge_unaligned two LDS (only
    // 4-byte alignment known); merge_store4 one STS.128 and its reversed read one LDS.
    CHECK(roles(plan_of("merge4")) == V{"L16", "F", "F", "F"});
    CHECK(roles(plan_of("merge2")) == V{"L8", "F"});
    CHECK(roles(plan_of("nomerge_unaligned")) == V{"-", "-"});
    CHECK(roles(plan_of("merge_store4")) == V{"L16", "F", "F", "F", "-"});
    // matmul_tile16: the two tile stores, Bs[k][tx] sixteen LDS, As[ty][k] four LDS.128 (sass_cases.sass,
    // 0x0360, 0x03b0, 0x0440, 0x04d0); PTX order interleaves them: As[ty][k] (k = 0..15) at odd positions.
    V want{"-", "-"};
    for (int k = 0; k < 16; ++k) {
        want.push_back("-");
        want.push_back(k % 4 == 0 ? "L16" : "F");
    }
    auto tile16 = plan_of("matmul_tile16");
    // nvcc's PTX puts Bs[k][tx] first in each k step (ld [%r8+64k], then ld [%r7+4k]).
    CHECK(roles(tile16) == want);
    CHECK(tile16.plan.regions.empty());
}

TEST_CASE("SASS plan: if-converted branches over shared accesses", "[sass][mapping]") {
    if (!device::find_ptxas()) {
        WARN("no ptxas: the SASS plans are not made here");
        return;
    }
    // predicated_step: `@%p1 bra SKIP` over ld, ld, add, st became @!P0 LDS, @!P0 LDS, @!P0 STS
    // (lds_merge.sass).
    auto step = plan_of("predicated_step");
    REQUIRE(step.plan.regions.size() == 1);
    const auto& r = step.plan.regions[0];
    CHECK(step.prep.kernel->body[r.head_pc].op == ir::Opcode::bra);
    CHECK(r.first_pc == r.head_pc + 1);
    CHECK(r.shared_loads == 2);
    CHECK(r.shared_stores == 1);
    // counted_loop's branch leaves the loop; it is no region over straight-line code.
    CHECK(plan_of("counted_loop").plan.regions.empty());
    // reduce_sequential: `if (tid < s) sdata[tid] += sdata[tid + s]` is @!P1 LDS, LDS, STS in its loop;
    // the bounds-checked first load `(i < n) ? in[i] : 0` is `@!P0 LDG.E R0` (sass_cases.sass, 0x00b0).
    auto seq = plan_of("reduce_sequential");
    REQUIRE(seq.plan.regions.size() == 2);
    CHECK(seq.plan.regions[0].global_loads == 1);
    CHECK(seq.plan.regions[0].shared_loads + seq.plan.regions[0].shared_stores == 0);
    CHECK(seq.plan.regions[1].shared_loads == 2);
    CHECK(seq.plan.regions[1].shared_stores == 1);
    CHECK(seq.plan.regions[1].global_loads + seq.plan.regions[1].global_stores == 0);
}

TEST_CASE("SASS plan: if-converted global accesses, and nvcc's `@p bra A; bra.uni END; A:` form",
          "[sass][mapping]") {
    if (!device::find_ptxas()) {
        WARN("no ptxas: the SASS plans are not made here");
        return;
    }
    // tests/sass/cases/if_convert.ptx, 4 blocks of 128 threads: 16 warps, of which the first of each block
    // (4) has lanes that enter the guarded code. Their SASS (ptxas 13.0, sm_90, read with the decoder):
    // guarded_pair keeps no BRA but its EXIT and has `@!P0 LDG R6, [R2+0x400]` and `@!P0 STS [R9], R6`
    // beside the unguarded LDG, STS and LDS; guarded_load has `@!P0 LDG R9, [R2+0x4]` beside `LDG R0, [R2]`.
    auto pair = plan_of("guarded_pair");
    REQUIRE(pair.plan.regions.size() == 1);
    const auto& r = pair.plan.regions[0];
    CHECK(pair.prep.kernel->body[r.head_pc].op == ir::Opcode::bra);
    CHECK(pair.prep.kernel->body[r.head_pc + 1].op == ir::Opcode::bra);
    CHECK(r.first_pc == r.head_pc + 2);
    CHECK(r.global_loads == 1);
    CHECK(r.shared_stores == 1);
    CHECK(r.shared_loads == 0);
    CHECK(r.global_stores == 0);
    auto load = plan_of("guarded_load");
    REQUIRE(load.plan.regions.size() == 1);
    CHECK(load.plan.regions[0].first_pc == load.plan.regions[0].head_pc + 1);
    CHECK(load.plan.regions[0].global_loads == 1);
    CHECK(load.plan.regions[0].shared_loads + load.plan.regions[0].shared_stores == 0);
    // Every warp issues the predicated instructions: 16 + 16 global loads and 16 + 16 shared stores
    // (PTX-level: 16 + 4 of each); requests only where a lane is active (16 + 4).
    auto metrics_of = [](const std::string& kernel) {
        auto prep = session::prepare(kRoot + "/tests/sass/specs/" + kernel + ".json");
        REQUIRE(bool(prep));
        auto run = session::run_simulated(prep.value(), session::SimOptions{});
        REQUIRE(bool(run));
        REQUIRE_FALSE(run.value().report.error);
        return run.value().report.metrics;
    };
    const auto m = metrics_of("guarded_pair");
    CHECK(m.at("smsp__inst_executed_op_global_ld.sum") == 32);
    CHECK(m.at("smsp__inst_executed_op_shared_st.sum") == 32);
    CHECK(m.at("smsp__inst_executed_op_shared_ld.sum") == 16);
    CHECK(m.at("smsp__inst_executed_op_global_st.sum") == 16);
    CHECK(m.at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 20);
    // 23 instructions from 0x0000 to the EXIT at 0x0160 in every warp; the two predicated ones on the 8
    // lanes with tid < 8 of 4 warps.
    CHECK(m.at("smsp__inst_executed.sum") == 23 * 16);
    CHECK(m.at("smsp__thread_inst_executed_pred_on.sum") == 21 * 16 * 32 + 2 * 4 * 8);
    const auto g = metrics_of("guarded_load");
    CHECK(g.at("smsp__inst_executed_op_global_ld.sum") == 32);
    CHECK(g.at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 20);
    // 17 instructions to the EXIT at 0x0100; the predicated LDG on 16 lanes of 4 warps.
    CHECK(g.at("smsp__inst_executed.sum") == 17 * 16);
    CHECK(g.at("smsp__thread_inst_executed_pred_on.sum") == 16 * 16 * 32 + 4 * 16);
    // guarded_loop: ptxas unrolled the 8 trips into 8 predicated LDGs of one PTX line (0x0090-0x01a0); the
    // region counts that PTX load once per trip. Every warp issues all 8: 16 * 8 = 128. Of each block's
    // 4 warps x 8 trips, 10 have a lane that loads (warp 0 in 7 trips, warp 1 in 3): 40 requests.
    auto loop = plan_of("guarded_loop");
    REQUIRE(loop.plan.regions.size() == 1);
    CHECK(loop.plan.regions[0].global_loads == 1);
    const auto l = metrics_of("guarded_loop");
    CHECK(l.at("smsp__inst_executed_op_global_ld.sum") == 128);
    CHECK(l.at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 40);
    CHECK(l.at("smsp__inst_executed_op_global_st.sum") == 16);
}

TEST_CASE("SASS plan: presets without a decoder count the PTX and say so", "[sass][mapping]") {
    auto prep = session::prepare(kRoot + "/tests/sass/specs/merge4.json");
    REQUIRE(bool(prep));
    std::string cubin = "not used";
    auto k = sass::kernel_sass(*prep.value().module, prep.value().kernel_index, "sm_80", &cubin);
    CHECK(k.plan == nullptr);
    CHECK(k.counting == "PTX-level counts (no SASS decoder for sm_80)");
    auto none = sass::kernel_sass(*prep.value().module, prep.value().kernel_index, "sm_90", nullptr);
    CHECK(none.plan == nullptr);
    CHECK(none.counting == "PTX-level counts (no ptxas)");
    // The A100 (sm_80) cannot load PTX for sm_90 (session::ptx_target_error): the same PTX made for sm_80.
    session::PreparedLaunch for_a100 = prep.value();
    auto module = std::make_shared<ir::Module>(*for_a100.module);
    module->target = {"sm_80"};
    for_a100.module = module;
    for_a100.kernel = &module->functions[for_a100.kernel_index];
    for (auto at = for_a100.ptx.find(".target sm_90"); at != std::string::npos;
         at = for_a100.ptx.find(".target sm_90"))
        for_a100.ptx.replace(at, 13, ".target sm_80");
    CHECK_THAT(session::ptx_target_error(prep.value(), *device::load_preset("a100")),
               Catch::Contains("cudaErrorNoKernelImageForDevice"));
    CHECK(session::ptx_target_error(for_a100, *device::load_preset("a100")).empty());
    session::SimOptions a100;
    a100.device = "a100";
    auto run = session::run_simulated(for_a100, a100);
    REQUIRE(bool(run));
    CHECK(run.value().counting.rfind("PTX-level counts", 0) == 0);
    // PTX-level: merge4's four ld.shared.f32 are four instructions of one wavefront each.
    CHECK(run.value().report.metrics.at("smsp__inst_executed_op_shared_ld.sum") == 4 * 32);
}

TEST_CASE("SASS counting: the cases as the H200 counted the same cubins", "[sass][mapping][hardware]") {
    if (!device::find_ptxas()) {
        WARN("no ptxas: counts stay PTX-level here, so the H200's SASS-level counts are not compared");
        return;
    }
    const std::vector<std::string> metrics = {
        "smsp__inst_executed_op_shared_ld.sum",
        "smsp__inst_executed_op_shared_st.sum",
        "smsp__inst_executed_op_global_ld.sum",
        "smsp__inst_executed_op_global_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    };
    // Differences understood and not modelled yet: kernel -> metrics.
    const std::map<std::string, std::set<std::string>> gaps = {
        // 64-bit shared atomicAdd is an LDS + ATOMS.CAS retry loop in the SASS (contention-dependent loads).
        {"atomics",
         {"smsp__inst_executed_op_shared_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"}},
        // ptxas unrolls the loop 4x and loads the loop-invariant sdata[tid] once: PTX lines it removed.
        {"counted_loop",
         {"smsp__inst_executed_op_shared_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"}},
        // Conflict-free 8x8 tiles: the H200 shows 170 load and 4,560 store "conflicts" (the issue's
        // unexplained
        // extra wavefronts of conflict-free kernels).
        {"matmul_tile8",
         {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
          "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"}},
    };
    std::ifstream in(kRoot + "/tests/hardware/sass_cases/results.json");
    const auto measured = nlohmann::json::parse(in);
    std::size_t compared = 0, equal = 0, mapped_totals = 0;
    for (const auto& launch : measured.at("runs")) {
        const std::string kernel = launch.at("kernel");
        auto prep = session::prepare(kRoot + "/tests/sass/specs/" + kernel + ".json");
        REQUIRE(bool(prep));
        auto run = session::run_simulated(prep.value(), session::SimOptions{});
        REQUIRE(bool(run));
        REQUIRE_FALSE(run.value().report.error);
        CHECK(run.value().counting.rfind("per SASS instruction (ptxas sm_90)", 0) == 0);
        // Where every SASS block is mapped (sim/sass/block_counts.hpp), the warp- and thread-level
        // instruction totals are the H200's too; the pred_on total where every predicate is known.
        const auto& sass = *run.value().sass;
        std::vector<std::string> totals;
        if (sass.instructions_mapped) totals = {"smsp__inst_executed.sum", "smsp__thread_inst_executed.sum"};
        if (sass.instructions_mapped && sass.pred_on_mapped)
            totals.push_back("smsp__thread_inst_executed_pred_on.sum");
        for (const auto& m : totals) {
            const double want = launch.at("metrics").at(m).get<double>();
            INFO(kernel << " " << m << ": H200 " << want << ", simulated "
                        << run.value().report.metrics.at(m));
            CHECK(run.value().report.metrics.at(m) == want);
            ++mapped_totals;
        }
        for (const auto& m : metrics) {
            const double want = launch.at("metrics").at(m).get<double>();
            const double got = run.value().report.metrics.at(m);
            const bool gap = gaps.count(kernel) && gaps.at(kernel).count(m);
            INFO(kernel << " " << m << ": H200 " << want << ", simulated " << got);
            ++compared;
            equal += got == want;
            if (gap)
                CHECK(got != want);  // a listed gap that closed: remove it from the list
            else
                CHECK(got == want);
        }
    }
    CHECK(compared == 21 * metrics.size());
    INFO("instruction totals compared: " << mapped_totals);
    CHECK(mapped_totals >= 20);
    CHECK(equal >= compared - 8);
}
