// tests/examples/json_lines_test.cpp — the per-line statistics in `warpsim run --json` ("lines").
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "sim/session/run.hpp"

TEST_CASE("run --json carries per-line counts: stride-8 loads take 32 sectors per request, the store 4",
          "[json]") {
    auto p = warpsim::session::prepare(std::string(WARPSIM_SOURCE_DIR) +
                                       "/examples/specs/coalescing_stride8.json");
    REQUIRE(p);
    auto run = warpsim::session::run_simulated(*p, {});
    REQUIRE(run);
    REQUIRE_FALSE(run->report.error.has_value());
    const auto json = nlohmann::json(warpsim::launch::to_json(run->report));
    REQUIRE(json.contains("lines"));
    int loads = 0, stores = 0;
    for (const auto& l : json.at("lines")) {
        if (!l.contains("requests")) continue;
        const double per_request = l.at("sectors").get<double>() / l.at("requests").get<double>();
        // By hand: lanes 32 bytes apart (stride 8 floats) need a sector each; the store of out[i] is
        // coalesced.
        if (l.at("opcode") == "ld") {
            ++loads;
            CHECK(per_request == 32.0);
            CHECK(l.at("ideal_sectors").get<double>() / l.at("requests").get<double>() == 4.0);
        }
        if (l.at("opcode") == "st") {
            ++stores;
            CHECK(per_request == 4.0);
        }
        CHECK(l.at("file") == "coalescing.cu");
        CHECK(l.at("line").get<int>() > 0);
    }
    CHECK(loads == 1);
    CHECK(stores == 1);
}
