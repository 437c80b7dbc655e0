// tests/counts/unrolled_loop_test.cpp — the walk through an unrolled loop's SASS blocks (sim/counts/
// unrolled_loop.hpp) against the paths the SASS's own comparisons give, and KernelCounters following each
// warp entry's trips.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "sim/counts/counters.hpp"
#include "sim/counts/unrolled_loop.hpp"

using namespace warpsim::counts;

namespace {

constexpr int32_t kExit = UnrolledLoop::kExit;
constexpr int32_t kNone = UnrolledLoop::kNone;

// The loop of col_sum_thread_per_col (tests/hardware/corpus/rows.cu, the PTX loop at line 1173, four rows of
// the nvcc-unrolled loop) as ptxas 13.0 makes it for sm_90 (the decoded cubin; its words give the
// comparisons, r is the rows left, 4 per trip):
//   0x0130-0x0190 preheader, `@!P0 BRA 0x710` with P0 = r > 0 (true on entry)
//   n0 0x01a0  ISETP.GT P1 = r > 12; PLOP3; @!P1 BRA 0x520
//   n1 0x01d0  PLOP3
//   n2 0x01e0  16 LDG (4 trips), r -= 16, P1 = r > 12; @P1 BRA 0x1e0
//   n3 0x0520  ISETP.GT P1 = r > 4; @!P1 BRA 0x6f0
//   n4 0x0540  8 LDG (2 trips), r -= 8
//   n5 0x06f0  ISETP.NE P0 = r != 0; @!P0 BRA 0x810 (out of the loop)
//   n6 0x0710  4 LDG (1 trip), r -= 4, P0 = r != 0; @P0 BRA 0x710
UnrolledLoop col_sum_loop() {
    UnrolledLoop loop;
    loop.nodes = {
        {0, 3, 1, true},      {0, kNone, 2, false}, {4, 2, 3, true},     {0, 5, 4, true},
        {2, kNone, 5, false}, {0, kExit, 6, true},  {1, 6, kExit, true},
    };
    loop.entry_taken = 6;
    loop.entry_fall = 0;
    return loop;
}

// The row loop of spmv_csr_scalar (tests/hardware/corpus/spmv.cu, the PTX loop at line 99 of 4 elements a
// trip) as ptxas 13.0 makes it for sm_90 (the decoded cubin):
//   preheader `@!P1 BRA 0xa40` (to n2: too few for the main loop)
//   n0 0x0490  PLOP3, IADD3
//   n1 0x04b0  main loop: 16 elements (4 trips), `@!P1 BRA 0x4b0`
//   n2 0x0a40  BSYNC (the main loop's), `@!P1 BRA 0xd90` (to n4: fewer than 2 trips left)
//   n3 0x0a90  8 elements (2 trips)
//   n4 0x0d90  BSYNC, `@!P0 BRA 0xf10` (out: none left)
//   n5 0x0dc0  4 elements (1 trip), on to 0xf10
UnrolledLoop csr_row_loop() {
    UnrolledLoop loop;
    loop.nodes = {
        {0, kNone, 1, false}, {4, 1, 2, true},     {0, 4, 3, true},
        {2, kNone, 4, false}, {0, kExit, 5, true}, {1, kNone, kExit, false},
    };
    loop.entry_taken = 2;
    loop.entry_fall = 0;
    return loop;
}

}  // namespace

TEST_CASE("unrolled loop: the walk takes the paths the SASS comparisons give", "[counts][unrolled]") {
    const UnrolledLoop loop = col_sum_loop();
    // By hand from the comparisons above, for r = 4 * trips:
    const struct {
        uint64_t trips;
        std::vector<uint64_t> runs, taken;
        bool entry_taken;
    } cases[] = {
        // 1: 4 > 12 no, 4 > 4 no, 4 != 0: n6 once.
        {1, {1, 0, 0, 1, 0, 1, 1}, {1, 0, 0, 1, 0, 0, 0}, false},
        // 2: 8 > 4: n4, then r = 0 leaves at n5.
        {2, {1, 0, 0, 1, 1, 1, 0}, {1, 0, 0, 0, 0, 1, 0}, false},
        // 3: n4 then n6.
        {3, {1, 0, 0, 1, 1, 1, 1}, {1, 0, 0, 0, 0, 0, 0}, false},
        // 4: 16 > 12: n2 once, r = 0.
        {4, {1, 1, 1, 1, 0, 1, 0}, {0, 0, 0, 1, 0, 1, 0}, false},
        // 7: n2 once (r = 12, not > 12), n4, n6.
        {7, {1, 1, 1, 1, 1, 1, 1}, {0, 0, 0, 0, 0, 0, 0}, false},
        // 64 (the corpus launch's trips): n2 16 times.
        {64, {1, 1, 16, 1, 0, 1, 0}, {0, 0, 15, 1, 0, 1, 0}, false},
        // 65: n2 16 times (r = 4 left), n3 and n5 pass on to n6 once.
        {65, {1, 1, 16, 1, 0, 1, 1}, {0, 0, 15, 1, 0, 0, 0}, false},
    };
    for (const auto& c : cases) {
        INFO("trips " << c.trips);
        const auto walk = walk_unrolled_loop(loop, c.trips);
        REQUIRE(walk.has_value());
        CHECK(walk->runs == c.runs);
        CHECK(walk->taken == c.taken);
        CHECK(walk->entry_taken == c.entry_taken);
    }
}

TEST_CASE("unrolled loop: trips the blocks cannot make are refused", "[counts][unrolled]") {
    UnrolledLoop loop = col_sum_loop();
    loop.nodes[6].copies = 3;  // no chunk of 1: 1 trip cannot be made
    CHECK_FALSE(walk_unrolled_loop(loop, 1).has_value());
}

TEST_CASE("unrolled loop: the counters follow each warp entry's trips", "[counts][unrolled]") {
    // A PTX loop block at pc 2 (exit to pc 3) with the col_sum shape, one SASS block per node of one
    // instruction each, so that the warp instruction total is the number of node runs.
    auto plan = std::make_shared<SassPlan>();
    UnrolledLoop loop = col_sum_loop();
    loop.header_pc = 2;
    loop.exit_pcs = {3};
    plan->loops.push_back(loop);
    for (uint32_t node = 0; node < loop.nodes.size(); ++node) {
        plan->blocks.push_back({0, 2, 1, SassPlan::Runs::in_unrolled_loop, 0, node});
        plan->line_shares.push_back({node, 2, SassPlan::Lanes::issued, 2});
    }
    plan->instructions_mapped = true;
    plan->pred_on_mapped = true;
    CountsConfig cfg;
    cfg.sass = plan;
    KernelCounters k(cfg);
    k.on_block_begin(0, 0);
    auto entry = [&](uint32_t warp, uint32_t trips, uint32_t mask) {
        for (uint32_t t = 0; t < trips; ++t) k.on_instruction(0, 2, mask, mask, warp);
        k.on_instruction(0, 3, mask, mask, warp);
    };
    // Warp 0: 64 trips on 32 lanes; warp 1: 7 trips on 16 lanes, interleaved with warp 0's.
    k.on_instruction(0, 2, 0xffffffffu, 0xffffffffu, 0);
    entry(1, 7, 0xffffu);
    entry(0, 63, 0xffffffffu);
    k.on_block_end(0, 0);
    REQUIRE(k.unrolled_loops_failure().empty());
    // Node runs: 64 trips: 1+1+16+1+0+1+0 = 20; 7 trips: 7 (one each).
    const auto m = k.metrics();
    CHECK(m.at("smsp__inst_executed.sum") == 20 + 7);
    CHECK(m.at("smsp__thread_inst_executed.sum") == 20 * 32 + 7 * 16);
    CHECK(k.loop_trips().at(0).entries.at(64).first == 1);
    CHECK(k.loop_trips().at(0).entries.at(7).second == 16);
}

TEST_CASE("unrolled loop: lanes that leave after different trips run the chunks each lane needs",
          "[counts][unrolled]") {
    // Lanes with 1 (two lanes), 4, 6 and 9 trips, by hand from the comparisons above:
    //   1: entry to n2, n2 to n4, n4 on to n5.           4: n0, n1 once, n2 to n4, n4 out.
    //   6: n0, n1 once, n1 on to n2, n2 on to n3, n4 out. 9: n0, n1 twice (taken once), n2 to n4, n5.
    const auto walk = walk_lane_groups(csr_row_loop(), {{1, 2}, {4, 1}, {6, 1}, {9, 1}});
    REQUIRE(walk.has_value());
    REQUIRE(walk->nodes.size() == 7);
    const struct {
        uint64_t runs, lanes, taken_lanes, divergent;
    } want[] = {
        {1, 3, 0, 0},  // n0: the three lanes of 4 trips or more
        {2, 4, 1, 1},  // n1: twice for the 9-trip lane; the lanes part after its first run
        {1, 5, 4, 1},  // n2: all lanes; all but the 6-trip one jump to n4
        {1, 1, 0, 0},  // n3: the 6-trip lane
        {1, 5, 2, 1},  // n4: the 4- and 6-trip lanes leave, the others go on to n5
        {1, 3, 0, 0},  // n5: the 1- and 9-trip lanes
        {1, 5, 2, 1},  // the entry: the two 1-trip lanes jump to n2
    };
    for (std::size_t k = 0; k < 7; ++k) {
        INFO("node " << k);
        CHECK(walk->nodes[k].runs == want[k].runs);
        CHECK(walk->nodes[k].lanes == want[k].lanes);
        CHECK(walk->nodes[k].taken_lanes == want[k].taken_lanes);
        CHECK(walk->nodes[k].divergent == want[k].divergent);
    }
    // All lanes alike: the one walk, no divergence.
    const auto same = walk_lane_groups(csr_row_loop(), {{6, 32}});
    REQUIRE(same.has_value());
    CHECK(same->nodes[3].lanes == 32);
    CHECK(same->nodes[1].divergent == 0);
    CHECK(same->nodes[6].divergent == 0);
}

TEST_CASE(
    "unrolled loop: lanes that leave apart are followed per lane; lanes that come back, or never "
    "leave, keep the totals PTX-level",
    "[counts][unrolled]") {
    auto plan = std::make_shared<SassPlan>();
    UnrolledLoop loop = col_sum_loop();
    loop.header_pc = 2;
    loop.header_line = 40;
    loop.exit_pcs = {3};
    plan->loops.push_back(loop);
    for (uint32_t node = 0; node < loop.nodes.size(); ++node) {
        plan->blocks.push_back({0, 2, 1, SassPlan::Runs::in_unrolled_loop, 0, node});
        plan->line_shares.push_back({node, 2, SassPlan::Lanes::issued, 2});
    }
    // n5's branch lies directly inside a BSSY region whose BSYNC is counted at pc 3.
    plan->loop_rejoins.push_back({0, 5, 3});
    plan->instructions_mapped = true;
    plan->pred_on_mapped = true;
    CountsConfig cfg;
    cfg.sass = plan;
    KernelCounters apart(cfg);
    apart.on_block_begin(0, 0);
    apart.on_instruction(0, 2, 0xffffffffu, 0xffffffffu, 0);
    apart.on_instruction(0, 2, 0x0000ffffu, 0x0000ffffu, 0);  // the upper lanes left after one trip
    apart.on_instruction(0, 3, 0xffffffffu, 0xffffffffu, 0);
    apart.on_block_end(0, 0);
    CHECK(apart.unrolled_loops_failure().empty());
    CHECK(apart.sass_instructions_counted());
    CHECK(apart.loop_trips().at(0).grouped.at({{1, 16}, {2, 16}}) == 1);
    // col_sum's walks: 1 trip n0 n3 n5 n6, 2 trips n0 n3 n4 n5; the warp runs n0, n3, n4, n5, n6 once each,
    // and n5's branch splits it (the 1-trip lanes go on to n6): one BSYNC more. 16 lanes run 4 nodes each.
    const auto m = apart.metrics();
    CHECK(m.at("smsp__inst_executed.sum") == 5 + 1);
    CHECK(m.at("smsp__thread_inst_executed.sum") == 4 * 16 + 4 * 16);
    // Nodes without LDG: the global loads stay as the PTX counted them (none here).
    CHECK(m.at("smsp__inst_executed_op_global_ld.sum") == 0);
    // With col_sum's LDGs: the PTX issues the body's 4 loads in each of the busiest lane's 2 trips, the SASS
    // n4's 8 and n6's 4: 4 more (the test makes no accesses, so the count is 0 + 12 - 2 * 4).
    auto with_loads = std::make_shared<SassPlan>(*plan);
    with_loads->loops[0].nodes[2].global_loads = 16;
    with_loads->loops[0].nodes[4].global_loads = 8;
    with_loads->loops[0].nodes[6].global_loads = 4;
    CountsConfig loads_cfg;
    loads_cfg.sass = with_loads;
    KernelCounters loads(loads_cfg);
    loads.on_block_begin(0, 0);
    loads.on_instruction(0, 2, 0xffffffffu, 0xffffffffu, 0);
    loads.on_instruction(0, 2, 0x0000ffffu, 0x0000ffffu, 0);
    loads.on_instruction(0, 3, 0xffffffffu, 0xffffffffu, 0);
    loads.on_block_end(0, 0);
    CHECK(loads.metrics().at("smsp__inst_executed_op_global_ld.sum") == 12 - 2 * 4);
    // Each of those LDG has an active lane: as many more requests; none where an LDG is predicated.
    CHECK(loads.metrics().at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 12 - 2 * 4);
    with_loads->loops[0].nodes[4].guarded_access = true;
    KernelCounters guarded(loads_cfg);
    guarded.on_block_begin(0, 0);
    guarded.on_instruction(0, 2, 0xffffffffu, 0xffffffffu, 0);
    guarded.on_instruction(0, 2, 0x0000ffffu, 0x0000ffffu, 0);
    guarded.on_instruction(0, 3, 0xffffffffu, 0xffffffffu, 0);
    guarded.on_block_end(0, 0);
    CHECK(guarded.metrics().at("smsp__inst_executed_op_global_ld.sum") == 12 - 2 * 4);
    CHECK(guarded.metrics().at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 0);
    KernelCounters back(cfg);
    back.on_block_begin(0, 0);
    back.on_instruction(0, 2, 0x0000ffffu, 0x0000ffffu, 0);
    back.on_instruction(0, 2, 0xffffffffu, 0xffffffffu, 0);  // lanes that were not in the first trip
    back.on_instruction(0, 3, 0xffffffffu, 0xffffffffu, 0);
    back.on_block_end(0, 0);
    CHECK(back.unrolled_loops_failure() ==
          "lanes of 1 warp entry of the unrolled loop at PTX line 40 ran it again after leaving it");
    CHECK_FALSE(back.sass_instructions_counted());
    KernelCounters unfinished(cfg);
    unfinished.on_block_begin(0, 0);
    unfinished.on_instruction(0, 2, 0xffffffffu, 0xffffffffu, 0);
    unfinished.on_block_end(0, 0);
    CHECK(unfinished.unrolled_loops_failure() == "1 warp entry never left the unrolled loop at PTX line 40");
}
