// tests/examples/look_at_test.cpp — "look at": every finding with its cost in time, the costliest first; the
// intended single-lane result of a reduction left out; SMs without a block, a tail wave and data read again
// and again through L1 named. Kernels: tests/examples/patterns/look_at.cu and examples/matmul.cu. The counts
// and costs are worked out by hand from the kernels' index arithmetic, the counting rules and the timing
// model's documented throughputs (sim/timing/model.hpp: one shared wavefront per SM and cycle).
#include <catch2/catch.hpp>

#include <algorithm>

#include "sim/report/html_report.hpp"
#include "sim/report/report_model.hpp"
#include "sim/report/text_report.hpp"
#include "sim/timing/timing.hpp"
#include "tests/examples/example_support.hpp"

using namespace warpsim;
using namespace warpsim::report;
using namespace warpsim::examples_test;

namespace {

struct Looked {
    session::PreparedLaunch p;
    session::SimRun run;
    std::vector<LookAt> items;
};

Looked look(const std::string& spec, const std::string& device = "") {
    const std::string path = std::string(WARPSIM_SOURCE_DIR) + "/tests/examples/specs/" + spec + ".json";
    auto p = device.empty() ? session::prepare(path) : session::prepare(path, device);
    INFO(spec << ": " << (p ? std::string() : p.error()));
    REQUIRE(p.ok());
    Looked l{std::move(p.value()), {}, {}};
    l.run = simulate(l.p);
    REQUIRE_FALSE(l.run.report.error);
    l.items = look_at(build_model(l.p, l.run, nullptr));
    return l;
}

const LookAt* item_at(const Looked& l, const std::string& where) {
    auto it = std::find_if(l.items.begin(), l.items.end(), [&](const LookAt& i) { return i.where == where; });
    return it == l.items.end() ? nullptr : &*it;
}

}  // namespace

TEST_CASE("look at: two costly shared accesses on two lines are both listed, the costlier first",
          "[examples][lookat]") {
    const auto l = look("lookat_two_conflicts");
    // 264 one-warp blocks, 64 iterations (ptxas unrolls the loop 4 times: x4). look_at.cu:13 stores word
    // 32 t: 32 wavefronts per request where 1 would do, 31 x 64 x 264 = 523,776 beyond the ideal; :15 loads
    // word 4 t: 4-way, 3 x 64 x 264 = 50,688.
    // At one wavefront per cycle on each of the 132 SMs the blocks run on: 3,968 and 384 cycles.
    REQUIRE(timing::params_for(l.run.preset).shared_wavefronts_per_cycle == 1);
    REQUIRE(l.items.size() >= 2);
    CHECK(l.items[0].where == "line 13");
    CHECK_THAT(l.items[0].what,
               Catch::StartsWith("shared store x4: 32.00 wavefronts per request where 1.00"));
    CHECK(l.items[0].cost_cycles == Approx(3968.0));
    CHECK(l.items[1].where == "line 15");
    CHECK_THAT(l.items[1].what, Catch::StartsWith("shared load x4: 4.00 wavefronts per request where 1.00"));
    CHECK(l.items[1].cost_cycles == Approx(384.0));
    // Shares of the predicted kernel cycles, in the order of the costs.
    REQUIRE(l.items[0].share > 0);
    CHECK(l.items[0].share == Approx(l.items[0].cost_cycles /
                                     l.run.report.predicted.value_or(timing::predict(l.p, l.run)).cycles));
    // The text report names both lines.
    const std::string text = text_report(l.p, l.run);
    const auto look_at_line = text.find("look at   line 13");
    REQUIRE(look_at_line != std::string::npos);
    CHECK(text.find("line 15", look_at_line) != std::string::npos);
    // The HTML page lists the same findings with the same share.
    const std::string html = html_report(l.p, l.run, nullptr);
    CHECK_THAT(html, Catch::Contains("<li><b>line 13</b> " + l.items[0].what + look_at_share(l.items[0])));
    CHECK_THAT(look_at_share(l.items[0]), Catch::EndsWith(" % of the predicted kernel time)"));
}

TEST_CASE("look at: a reduction's single-lane result is intended; a single lane writing a row is not",
          "[examples][lookat]") {
    // warp_sum: look_at.cu:25 `if ((threadIdx.x & 31) == 0) atomicAdd(out, v)`, lane 0 once per warp of the
    // 64 (ptxas puts some of those one-lane instructions at lines 24 and 26); everything else uses its 32
    // lanes and its ideal sectors: nothing stands out, though the table shows lines 24-26 with idle lanes.
    const auto sum = look("lookat_warp_sum");
    CHECK(sum.items.empty());
    const auto sum_model = build_model(sum.p, sum.run, nullptr);
    CHECK(std::any_of(sum_model.rows.begin(), sum_model.rows.end(),
                      [](const SourceRow& r) { return r.line == 25 && !r.lanes_note.empty(); }));
    // serial_row: thread 0 of each of the 8 blocks stores 512 floats, one lane per store (1 sector, the
    // ideal), 4,096 stores from 8 warps, 512 per warp: the loop's line runs with one lane, the others idle.
    const auto row = look("lookat_serial_row");
    const LookAt* at = item_at(row, "line 31");
    REQUIRE(at);
    CHECK_THAT(at->what,
               Catch::Matches("1\\.0[0-9] of 32 lanes active on average: a branch or a bounds check "
                              "idles the rest"));
    CHECK(at->share >= 0.01);
}

TEST_CASE("look at: a grid of fewer blocks than SMs names the idle SMs", "[examples][lookat]") {
    // 16 blocks on the H200's 132 SMs: 116 SMs without a block; spread over all of them the same work would
    // take 16 / 132 of the time, so the estimate is 116 / 132 of the predicted cycles.
    const auto l = look("lookat_chain_few");
    const LookAt* at = item_at(l, "launch");
    REQUIRE(at);
    CHECK_THAT(at->what, Catch::StartsWith("116 of 132 SMs get no block: the grid has 16 blocks"));
    CHECK(at->share == Approx(116.0 / 132.0));
}

TEST_CASE("look at: one block more than a wave is a tail wave", "[examples][lookat]") {
    // A one-warp block with 120,000 bytes of dynamic shared memory (and the driver's 1 KB per block) fits
    // once in an H200 SM's 228 KB: 132 blocks a wave, so 133 blocks take 2 waves, the last 1 / 132 = 0.8 %
    // full. Spread evenly they would take 133 / 132 waves: the estimate is 1 - (133 / 132) / 2 of the
    // predicted cycles.
    const auto l = look("lookat_chain_tail");
    REQUIRE(l.run.occupancy);
    REQUIRE(l.run.occupancy->blocks_per_sm == 1);
    const LookAt* at = item_at(l, "launch");
    REQUIRE(at);
    CHECK_THAT(at->what, Catch::StartsWith("tail wave: 133 blocks where 132 fit on the GPU at once (1 per SM "
                                           "on 132 SMs) run in 2 waves, the last 0.8 % full"));
    CHECK(at->share == Approx(1.0 - (133.0 / 132.0) / 2.0));
}

TEST_CASE("look at: the naive matmul reads its data again and again through L1; the tiled one does not",
          "[examples][lookat]") {
    // matmul_naive at n = 128, blocks of 32 x 32: per warp and k, A[row * n + k] is one sector (a broadcast)
    // and B[k * n + col] four: 512 warps x 128 x 5 = 327,680 sectors, 10,485,760 bytes, for buffers of
    // 3 x 16,384 floats = 196,608 bytes: 53.3 times.
    const auto naive = look("matmul_naive_128");
    auto reuse = std::find_if(naive.items.begin(), naive.items.end(),
                              [](const LookAt& i) { return i.what.starts_with("global loads read"); });
    REQUIRE(reuse != naive.items.end());
    CHECK(reuse->where == "line 11");
    CHECK_THAT(reuse->what, Catch::StartsWith("global loads read 53.3x the bytes of the launch's buffers "
                                              "(10.5 MB for 196.6 KB)"));
    // 16 blocks: 116 of the 132 SMs idle, in both.
    REQUIRE(item_at(naive, "launch"));
    CHECK_THAT(item_at(naive, "launch")->what, Catch::StartsWith("116 of 132 SMs get no block"));
    // The tiled kernel (TILE 32) reads each block's tiles once: 16 blocks x 4 phases x 2 tiles x 4,096 bytes
    // = 524,288 bytes, 2.7 times the buffers: no such finding.
    const auto tiled = look("matmul_tiled32_128");
    CHECK(std::none_of(tiled.items.begin(), tiled.items.end(),
                       [](const LookAt& i) { return i.what.starts_with("global loads read"); }));
    REQUIRE(item_at(tiled, "launch"));
}
