// tests/session/sampled_run_test.cpp — sampled launches (sim/session/sampled_run.hpp): the classes of blocks,
// the engine's block lists, and sampled against whole runs of corpus launches: every count within its stated
// bound, and within 1 % wherever the bound says so.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "sim/session/run.hpp"
#include "sim/session/sampled_run.hpp"
#include "sim/timing/timing.hpp"

using namespace warpsim;

namespace {

std::string source_path(const std::string& rel) {
    return std::string(WARPSIM_SOURCE_DIR) + "/" + rel;
}

session::PreparedLaunch prepared(const std::string& rel) {
    auto p = session::prepare(source_path(rel));
    REQUIRE(p.ok());
    return std::move(p.value());
}

session::SimRun simulated(const session::PreparedLaunch& p, session::SampleMode mode, uint64_t above = 0) {
    session::SimOptions o;
    o.workers = 2;
    o.sample = mode;
    if (above) o.sample_above = above;
    auto r = session::run_simulated(p, o);
    REQUIRE(r.ok());
    REQUIRE_FALSE(r->report.error.has_value());
    return std::move(r.value());
}

using Box = std::pair<std::array<uint32_t, 3>, std::array<uint32_t, 3>>;
std::vector<Box> boxes(const std::vector<session::BlockClass>& classes) {
    std::vector<Box> out;
    for (const auto& c : classes) out.push_back({c.lo, c.hi});
    return out;
}

}  // namespace

TEST_CASE("sampling classes: the grid's first and last blocks and the blocks around the spec's sizes",
          "[session][sampling]") {
    // n = 1000 in blocks of 256: blocks 0-2 are full, block 3 holds 768..999, blocks 4-9 have no element.
    auto one_d = session::initial_classes({10, 1, 1}, {256, 1, 1}, {1000});
    CHECK(boxes(one_d) == std::vector<Box>{{{0, 0, 0}, {1, 1, 1}},
                                           {{1, 0, 0}, {3, 1, 1}},
                                           {{3, 0, 0}, {4, 1, 1}},
                                           {{4, 0, 0}, {9, 1, 1}},
                                           {{9, 0, 0}, {10, 1, 1}}});
    // A size that is a multiple of the block cuts once; sizes beyond the grid cut nothing.
    CHECK(boxes(session::initial_classes({10, 1, 1}, {256, 1, 1}, {1024, 1u << 20})).size() == 4);
    // Two dimensions without sizes: first, inner and last in each, 3 x 3 boxes, x fastest.
    auto two_d = session::initial_classes({4, 5, 1}, {16, 16, 1}, {});
    REQUIRE(two_d.size() == 9);
    CHECK(two_d[0].lo == std::array<uint32_t, 3>{0, 0, 0});
    CHECK(two_d[1].lo == std::array<uint32_t, 3>{1, 0, 0});
    CHECK(two_d[1].hi == std::array<uint32_t, 3>{3, 1, 1});
    CHECK(two_d[4].size() == 2 * 3);
    CHECK(two_d[8].lo == std::array<uint32_t, 3>{3, 4, 0});
    uint64_t total = 0;
    for (const auto& c : two_d) total += c.size();
    CHECK(total == 20);
    // One block: one class.
    CHECK(session::initial_classes({1, 1, 1}, {32, 1, 1}, {7}).size() == 1);
}

TEST_CASE("sampling picks: the corners and the centre first, distinct blocks inside the class",
          "[session][sampling]") {
    session::BlockClass c{{2, 0, 0}, {12, 3, 1}};
    auto picks = session::pick_blocks(c, 5, 42);
    REQUIRE(picks.size() == 5);
    CHECK(picks[0] == std::array<uint32_t, 3>{2, 0, 0});
    CHECK(picks[1] == std::array<uint32_t, 3>{11, 2, 0});
    CHECK(picks[2] == std::array<uint32_t, 3>{7, 1, 0});
    for (std::size_t i = 0; i < picks.size(); ++i) {
        CHECK(c.contains(picks[i]));
        for (std::size_t j = 0; j < i; ++j) CHECK(picks[i] != picks[j]);
    }
    // Asked for more than the class holds: every block once.
    auto all = session::pick_blocks(session::BlockClass{{0, 0, 0}, {2, 2, 1}}, 10, 1);
    CHECK(all.size() == 4);
}

TEST_CASE("engine block lists: the listed blocks alone, each with its own counters", "[session][sampling]") {
    const auto p = prepared("tests/specs/many_blocks.json");  // 4096 blocks of 32 threads
    auto run = session::new_run(p, {});
    REQUIRE(run.ok());
    auto setup = session::setup_launch(p, run->preset, run->registers.registers);
    REQUIRE(setup.ok());
    engine::LaunchConfig cfg = setup->cfg;
    session::configure_launch(*run, p, cfg, {});
    cfg.host_workers = 2;
    cfg.only_blocks = {4095, 7, 1000};
    counts::KernelCounters sum(cfg.counts_config);
    auto result = setup->sim->launch(*p.module, *p.kernel, cfg, setup->params, &sum);
    REQUIRE(result.ok());
    REQUIRE(result.block_counts.size() == 3);
    uint64_t threads = 0;
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK(result.block_counts[i].linear == cfg.only_blocks[i]);
        CHECK(result.block_counts[i].counters.stat(counts::Stat::thread_insts) ==
              result.block_counts[i].thread_instructions);
        threads += result.block_counts[i].thread_instructions;
    }
    CHECK(threads == result.thread_instructions);
    CHECK(sum.stat(counts::Stat::thread_insts) == threads);
    // The whole grid's count is 4096 such blocks (every block of many_blocks does the same work).
    auto whole = simulated(p, session::SampleMode::off);
    CHECK(whole.thread_instructions == 4096 * result.block_counts[0].thread_instructions);

    cfg.only_blocks = {3, 4096};
    auto outside = setup->sim->launch(*p.module, *p.kernel, cfg, setup->params, &sum);
    REQUIRE(outside.error.has_value());
    CHECK(outside.error->details.find("outside the grid") != std::string::npos);
    cfg.only_blocks = {3, 3};
    auto twice = setup->sim->launch(*p.module, *p.kernel, cfg, setup->params, &sum);
    REQUIRE(twice.error.has_value());
    CHECK(twice.error->details.find("twice") != std::string::npos);

    // A skipped block: the launch runs the 4095 others.
    cfg.only_blocks.clear();
    cfg.skip_block = 1000;
    counts::KernelCounters rest(cfg.counts_config);
    auto others = setup->sim->launch(*p.module, *p.kernel, cfg, setup->params, &rest);
    REQUIRE(others.ok());
    CHECK(others.block_counts.empty());
    CHECK(others.thread_instructions == 4095 * result.block_counts[0].thread_instructions);
    cfg.skip_block = 4096;
    CHECK(setup->sim->launch(*p.module, *p.kernel, cfg, setup->params, &rest).error.has_value());
}

TEST_CASE("sampled runs against whole runs of corpus launches: every count within its bound",
          "[session][sampling]") {
    // Interior, edge and tail blocks in one and two dimensions, shared-memory tiles, divergent warps and
    // lanes, a grid-stride loop whose blocks differ, global atomics, and blocks that differ by their data
    // (Collatz).
    const std::vector<std::string> specs = {
        "tests/timing/specs/tiledMatMul_tile16_256.json",
        "examples/specs/transpose_naive_1000x700.json",
        "examples/specs/scale_matrix_1000_32x8.json",
        "examples/specs/vector_add_strided_1M.json",
        "examples/specs/divergence_lanes.json",
        "examples/specs/waves_tail_1057.json",
        "examples/specs/grid_sum_int_65536.json",
        "examples/specs/block_sum_65536.json",
        "tests/specs/grid_2d_ids.json",
        "tests/session/specs/collatz_tail.json",
    };
    for (const auto& rel : specs) {
        INFO(rel);
        const auto p = prepared(rel);
        const auto whole = simulated(p, session::SampleMode::off);
        const auto part = simulated(p, session::SampleMode::on);
        REQUIRE(part.sampling.has_value());
        CHECK(part.report.buffers.empty());
        CHECK_FALSE(whole.report.buffers.empty());
        CHECK(part.sampling->blocks_run <= part.sampling->grid_blocks);
        bool all_within_1pct = true;
        for (const auto& [name, value] : whole.report.metrics) {
            if (name.ends_with(".pct")) continue;
            INFO(name << ": whole " << value);
            const double got = part.report.metrics.at(name);
            const auto bound = part.sampling->bounds.at(name);
            CHECK(bound.estimate == Approx(got).margin(0.5));
            // Sums are rounded once per class when scaled.
            const double rounding = 0.5 * double(part.sampling->classes) + 1;
            CHECK(std::abs(got - value) <= bound.bound + rounding);
            const bool claims_1pct = bound.bound <= 0.01 * std::abs(got);
            if (claims_1pct && value != 0) CHECK(std::abs(got - value) <= 0.01 * std::abs(value) + rounding);
            all_within_1pct = all_within_1pct && claims_1pct;
        }
        CHECK(part.warp_instructions == Approx(double(whole.warp_instructions)).epsilon(0.05));
        if (all_within_1pct) {
            const double t_whole = timing::predict(p, whole).time_us,
                         t_part = timing::predict(p, part).time_us;
            CHECK(t_part == Approx(t_whole).epsilon(0.01));
        }
    }
}

TEST_CASE("sampled runs: uniform launches are exact, and the blocks run are few", "[session][sampling]") {
    // tiledMatMul_tile16 at n = 256: 16 x 16 blocks, 9 classes (corner, edge and inner blocks) that all
    // agree.
    const auto p = prepared("tests/timing/specs/tiledMatMul_tile16_256.json");
    const auto whole = simulated(p, session::SampleMode::off);
    const auto part = simulated(p, session::SampleMode::on);
    REQUIRE(part.sampling.has_value());
    CHECK(part.sampling->classes == 9);
    CHECK(part.sampling->blocks_run < 64);
    for (const auto& [name, value] : whole.report.metrics) {
        INFO(name);
        CHECK(part.report.metrics.at(name) == Approx(value).margin(1e-9));
        CHECK(part.sampling->bounds.at(name).bound == Approx(0).margin(1e-6));
    }
    CHECK(part.thread_instructions == whole.thread_instructions);
}

TEST_CASE("sampling: refused where buffers are needed, automatic above the threshold only",
          "[session][sampling]") {
    session::SimOptions o;
    o.sample = session::SampleMode::on;
    const auto p = prepared("examples/specs/waves_tail_1057.json");
    auto with_expect = p;
    with_expect.spec.args[0].expect = launch::BufferExpect{};
    auto refused = session::run_simulated(with_expect, o);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().find("\"expect\" checks cannot be made") != std::string::npos);
    o.keep_buffers = true;
    auto kept = session::run_simulated(p, o);
    REQUIRE_FALSE(kept.ok());
    CHECK(kept.error().find("no buffers") != std::string::npos);

    // Automatic: below the threshold the launch runs whole, its pilot block first and the others after: the
    // same counts and buffers as a run without sampling. Above it, the launch is sampled.
    const auto below = simulated(p, session::SampleMode::automatic, 1'000'000'000'000ull);
    const auto off = simulated(p, session::SampleMode::off);
    CHECK_FALSE(below.sampling.has_value());
    REQUIRE_FALSE(below.report.buffers.empty());
    CHECK(below.report.buffers.size() == off.report.buffers.size());
    for (std::size_t i = 0; i < off.report.buffers.size(); ++i)
        CHECK(below.report.buffers[i].fnv1a == off.report.buffers[i].fnv1a);
    CHECK(below.report.metrics == off.report.metrics);
    CHECK(below.report.extra.at("lines") == off.report.extra.at("lines"));
    const auto above = simulated(p, session::SampleMode::automatic, 1000);
    REQUIRE(above.sampling.has_value());
    CHECK(above.sampling->reason.find("automatic") != std::string::npos);
    CHECK(above.report.buffers.empty());
    CHECK(above.report.extra.at("sampling").at("buffers") == "not produced");
    CHECK(above.thread_instructions == below.thread_instructions);
}
