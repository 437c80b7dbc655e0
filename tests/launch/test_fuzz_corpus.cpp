// tests/launch/test_fuzz_corpus.cpp — the committed launch-spec fuzz corpus (tests/fuzz/corpus/spec: JSON
// nested 65,536 deep, bytes that are not UTF-8, the hostile specs) replayed through parse_spec in every
// build.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "launch/launch_spec.hpp"

TEST_CASE("the spec fuzz corpus parses to a spec or to located errors", "[fuzz][hostile]") {
    namespace fs = std::filesystem;
    int files = 0;
    for (const auto& entry :
         fs::directory_iterator(fs::path(WARPSIM_SOURCE_DIR) / "tests/fuzz/corpus/spec")) {
        std::ifstream in(entry.path(), std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        INFO(entry.path().filename().string());
        auto p = warpsim::launch::parse_spec(ss.str(), "/nonexistent/corpus.json");
        CHECK(p.ok() == p.errors.empty());
        if (entry.path().filename().string().rfind("deep_", 0) == 0) {
            REQUIRE_FALSE(p.errors.empty());
            CHECK_THAT(p.errors[0], Catch::Contains("JSON nested more than 64 levels deep"));
        }
        ++files;
    }
    CHECK(files >= 8);
}
