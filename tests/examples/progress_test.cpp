// tests/examples/progress_test.cpp — the progress bar of long simulations: its text, worked out by hand, and
// its silence when the output is not a terminal (no timing is tested).
#include <cstdio>
#include <string>

#include <catch2/catch.hpp>

#include "sim/report/progress.hpp"
#include "tests/examples/example_support.hpp"

using namespace warpsim;

TEST_CASE("progress text: bar, blocks and rate fitted to the width", "[progress]") {
    // 512 of 1024 blocks, 250e6 thread instructions in 2 s = 125.0 M/s. The tail "] 512/1024 blocks, 125.0 M
    // thread-inst/s" is 40 columns and "simulating [" 12, so 80 columns leave 28 for the bar: 14 of them
    // full.
    const std::string line = report::format_progress(512, 1024, 250'000'000, 2.0, 80);
    CHECK(line == "simulating [" + std::string(14, '#') + std::string(14, '.') +
                      "] 512/1024 blocks, 125.0 M thread-inst/s");
    CHECK(line.size() == 80);
    // A wide terminal: the bar stops at 30 columns; 1024 of 1024 fills it.
    CHECK(report::format_progress(1024, 1024, 3'000, 1.0, 200) ==
          "simulating [" + std::string(30, '#') + "] 1024/1024 blocks, 3.0 k thread-inst/s");
    // A narrow one: the bar keeps 10 columns and the line is cut at the width.
    const std::string narrow = report::format_progress(1, 4, 999, 1.0, 40);
    CHECK(narrow.size() == 40);
    CHECK(narrow.rfind("simulating [##........]", 0) == 0);  // 1 of 4 blocks: 10 * 1 / 4 = 2 full
    // Rates: below 1000 as is, then k, M, G; no time yet gives 0.
    CHECK_THAT(report::format_progress(0, 10, 0, 0.0, 100),
               Catch::EndsWith("] 0/10 blocks, 0 thread-inst/s"));
    CHECK_THAT(report::format_progress(0, 10, 2'500'000'000, 1.0, 100),
               Catch::EndsWith(", 2.50 G thread-inst/s"));
    // A counter ahead of the total (never in practice) is shown as the total.
    CHECK_THAT(report::format_progress(12, 10, 0, 1.0, 100), Catch::Contains("] 10/10 blocks"));
}

TEST_CASE("progress: nothing is written when the output is not a terminal", "[progress]") {
    std::FILE* file = std::tmpfile();
    REQUIRE(file != nullptr);
    CHECK_FALSE(report::is_terminal(file));
    {
        // No delay: on a terminal this would draw at the first poll.
        report::ProgressMeter meter(file, 4, true, {0.0, 0.001});
        CHECK_FALSE(meter.active());
        auto p = examples_test::prepare_example("vector_add_1000");
        session::SimOptions options;
        options.workers = 2;
        options.progress = &meter.counters();
        auto run = session::run_simulated(p, options);
        REQUIRE(run.ok());
        // The engine still counted: 4 blocks of 1024 threads.
        CHECK(meter.counters().blocks_done.load() == 4);
        CHECK(meter.counters().thread_instructions.load() == run->thread_instructions);
    }
    CHECK(std::ftell(file) == 0);
    std::fclose(file);
}
