// tests/check/progress_tests.cpp — `warpsim check`'s progress display: every launch of a check (the checked
// one, then each further schedule) counts its blocks into the display's counters and announces itself, and
// nothing is drawn when the output is not a terminal (no timing is tested, as in
// tests/examples/progress_test).
#include <catch2/catch.hpp>

#include <cstdio>
#include <utility>
#include <vector>

#include "sim/check/run_check.hpp"
#include "sim/report/progress.hpp"
#include "sim/session/run.hpp"

using namespace warpsim;

TEST_CASE("check progress: one announced launch per schedule, each counting the grid's blocks",
          "[check][progress]") {
    auto p = session::prepare(std::string(WARPSIM_SOURCE_DIR) + "/examples/specs/reverse_blocks_4096.json");
    REQUIRE(p.ok());
    std::FILE* file = std::tmpfile();
    REQUIRE(file != nullptr);
    {
        report::ProgressMeter meter(file, p->spec.block_count(), true, {0.0, 0.001});
        CHECK_FALSE(meter.active());  // a file: no drawing thread
        check::CheckOptions options;
        options.schedules = 3;
        options.progress = &meter.counters();
        std::vector<std::pair<uint32_t, uint32_t>> started;
        std::vector<uint64_t> blocks_before;  // the counter as each launch is announced
        options.launch_started = [&](uint32_t k, uint32_t n) {
            started.emplace_back(k, n);
            blocks_before.push_back(meter.counters().blocks_done.load());
            meter.next_launch("schedule " + std::to_string(k + 1) + "/" + std::to_string(n));
        };
        auto r = check::check_prepared(*p, options);
        REQUIRE(r.ok());
        CHECK(r->log.size() == 0);
        CHECK(started == std::vector<std::pair<uint32_t, uint32_t>>{{0, 3}, {1, 3}, {2, 3}});
        // 4096 elements in blocks of 256: 16 blocks, counted afresh by each launch (the launch zeroes them).
        CHECK(p->spec.block_count() == 16);
        CHECK(blocks_before == std::vector<uint64_t>{0, 16, 16});
        CHECK(meter.counters().blocks_done.load() == 16);
        CHECK(meter.counters().thread_instructions.load() > 0);
    }
    CHECK(std::ftell(file) == 0);  // nothing written
    std::fclose(file);
}

TEST_CASE("check progress: the bar is labelled by the launch it shows", "[check][progress]") {
    // "schedule 2/4 [" is 14 columns and "] 8/16 blocks, 0 thread-inst/s" 30: at 80 columns the bar keeps
    // its 30-column maximum, 15 full for 8 of 16 blocks.
    const std::string line = report::format_progress(8, 16, 0, 0.0, 80, "schedule 2/4");
    CHECK(line ==
          "schedule 2/4 [" + std::string(15, '#') + std::string(15, '.') + "] 8/16 blocks, 0 thread-inst/s");
    CHECK(report::format_progress(0, 16, 0, 0.0, 80, "checking").rfind("checking [", 0) == 0);
    // Without a label it is `warpsim run`'s bar.
    CHECK(report::format_progress(0, 16, 0, 0.0, 80).rfind("simulating [", 0) == 0);
}
