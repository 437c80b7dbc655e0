// tests/counts/h200_measured_test.cpp — the bank and sector models against every probe measured on an H200.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "sim/counts/global_sectors.hpp"
#include "sim/counts/shared_banks.hpp"
#include "tests/counts/access_builders.hpp"

using namespace warpsim::counts;
using namespace warpsim::counts::test;

namespace {

// Value of `key=` in a line; tolerates the padding ("wf=   1").
uint64_t field(const std::string& line, const std::string& key, int base = 10) {
    const auto at = line.find(" " + key + "=");
    REQUIRE(at != std::string::npos);
    std::istringstream in(line.substr(at + key.size() + 2));
    uint64_t v = 0;
    in >> (base == 16 ? std::hex : std::dec) >> v;
    return v;
}

}  // namespace

TEST_CASE("bank and sector models reproduce every H200 probe", "[counts][hardware]") {
    std::ifstream file(std::string(WARPSIM_SOURCE_DIR) + "/tests/counts/h200/h200_counts.txt");
    REQUIRE(file.good());
    std::string line;
    int shared_cases = 0, global_cases = 0;
    while (std::getline(file, line)) {
        std::istringstream words(line);
        std::string space, op, width;
        words >> space >> op >> width;
        if (space != "shared" && space != "global") continue;
        const auto bytes = static_cast<uint8_t>(std::stoi(width.substr(1)));
        const uint64_t off = field(line, "off"), stride = field(line, "stride");
        const auto mask = static_cast<uint32_t>(field(line, "mask", 16));
        INFO(line);
        if (space == "shared") {
            const AccessKind kind = op == "ld"   ? AccessKind::load
                                    : op == "st" ? AccessKind::store
                                                 : AccessKind::atomic;
            const auto a = make_access(AccessSpace::shared, kind, bytes, mask,
                                       [&](uint32_t i) { return (off + i * stride) % 32768; });
            const SharedCost c = shared_wavefronts(a);
            CHECK(c.wavefronts == field(line, "wf"));
            CHECK(c.conflicts() == field(line, "bc"));
            ++shared_cases;
        } else {
            const auto a = global_load(bytes, mask, [&](uint32_t i) { return kBase + off + i * stride; });
            CHECK(count_sectors(a) == field(line, "sec"));
            CHECK(field(line, "req") == 1);
            ++global_cases;
        }
    }
    CHECK(shared_cases == 142);
    CHECK(global_cases == 16);
}
