// tests/arith/slow_path_test.cpp — the operand rules of sim/arith/slow_path.hpp against the H200's answers in
// tests/hardware/slowpath/slowpath_h200.txt (slowpath_probe.cu: which operands took the slow-path call of
// div.rn.f32 and rcp.rn.f32, by the cycles each took: 71 on the fast sequence, 220 or more on the call).
#include <catch2/catch.hpp>

#include <cstdint>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "sim/arith/slow_path.hpp"

using namespace warpsim;

namespace {

// "0-0,253-255" (or "none") as a set of exponents.
std::set<uint32_t> exponent_runs(const std::string& text) {
    std::set<uint32_t> out;
    if (text == "none") return out;
    std::stringstream in(text);
    std::string run;
    while (std::getline(in, run, ',')) {
        const auto dash = run.find('-');
        const uint32_t lo = std::stoul(run.substr(0, dash)), hi = std::stoul(run.substr(dash + 1));
        for (uint32_t e = lo; e <= hi; ++e) out.insert(e);
    }
    return out;
}

}  // namespace

TEST_CASE("f32 division and reciprocal: the slow-path operands are the H200's", "[arith][slow_path]") {
    std::ifstream file(std::string(WARPSIM_SOURCE_DIR) + "/tests/hardware/slowpath/slowpath_h200.txt");
    REQUIRE(file.good());
    const std::regex div_row(R"(div ma=([0-9a-f]{6}) mb=([0-9a-f]{6}) ea=(\d+) slow_eb=(\S+))");
    const std::regex rcp_row(R"(rcp m=([0-9a-f]{6}) slow_e=(\S+))");
    const std::regex div_case(R"(div case ([0-9a-f]{8}) / ([0-9a-f]{8}): (\d+) cycles)");
    const std::regex threshold(R"(div.rn.f32 threshold (\d+) cycles)");
    uint32_t limit = 0;
    std::size_t pairs = 0, reciprocals = 0, cases = 0, mismatches = 0;
    std::string line;
    std::smatch m;
    while (std::getline(file, line)) {
        if (std::regex_search(line, m, threshold)) limit = std::stoul(m[1]);
        if (std::regex_match(line, m, div_row)) {
            const uint32_t ma = std::stoul(m[1], nullptr, 16), mb = std::stoul(m[2], nullptr, 16);
            const uint32_t ea = std::stoul(m[3]);
            const auto slow = exponent_runs(m[4]);
            for (uint32_t eb = 0; eb < 256; ++eb, ++pairs) {
                const uint32_t a = ea << 23 | ma, b = eb << 23 | mb;
                if (arith::f32_div_rn_slow_path(a, b) != (slow.count(eb) > 0)) {
                    ++mismatches;
                    UNSCOPED_INFO("div " << std::hex << a << " / " << b);
                }
            }
        } else if (std::regex_match(line, m, rcp_row)) {
            const uint32_t mant = std::stoul(m[1], nullptr, 16);
            const auto slow = exponent_runs(m[2]);
            for (uint32_t e = 0; e < 256; ++e, ++reciprocals) {
                if (arith::f32_rcp_rn_slow_path(e << 23 | mant) != (slow.count(e) > 0)) {
                    ++mismatches;
                    UNSCOPED_INFO("rcp " << std::hex << (e << 23 | mant));
                }
            }
        } else if (std::regex_match(line, m, div_case)) {
            // Signed zeros, negative operands, infinity, NaN, the smallest subnormal.
            const uint32_t a = std::stoul(m[1], nullptr, 16), b = std::stoul(m[2], nullptr, 16);
            ++cases;
            REQUIRE(limit != 0);
            CHECK(arith::f32_div_rn_slow_path(a, b) == (std::stoul(m[3]) >= limit));
        }
    }
    CHECK(pairs == 6u * 256 * 256);
    CHECK(reciprocals == 4u * 256);
    CHECK(cases == 8);
    CHECK(mismatches == 0);
}

TEST_CASE("f32 division and reciprocal: slow-path operands by hand", "[arith][slow_path]") {
    // 1 / 3, -1 / 2, 1e30 / 1e-8 (exponents 226 and 100: 126 apart) run the fast sequence.
    CHECK_FALSE(arith::f32_div_rn_slow_path(0x3f800000u, 0x40400000u));
    CHECK_FALSE(arith::f32_div_rn_slow_path(0xbf800000u, 0x40000000u));
    CHECK_FALSE(arith::f32_div_rn_slow_path(0x7149f2cau, 0x322bcc77u));
    // 0 / 1, 1 / 0, 1 / 2^125 (exponent 252), 2^100 / 2^-27 (127 apart): the call.
    CHECK(arith::f32_div_rn_slow_path(0x00000000u, 0x3f800000u));
    CHECK(arith::f32_div_rn_slow_path(0x3f800000u, 0x00000000u));
    CHECK(arith::f32_div_rn_slow_path(0x3f800000u, 0x7e000000u));
    CHECK(arith::f32_div_rn_slow_path(0x71800000u, 0x32000000u));
    // rcp: 1 and 2^125 fast; 0, the smallest subnormal, 2^126, infinity: the call.
    CHECK_FALSE(arith::f32_rcp_rn_slow_path(0x3f800000u));
    CHECK_FALSE(arith::f32_rcp_rn_slow_path(0x7e000000u));
    CHECK(arith::f32_rcp_rn_slow_path(0x00000000u));
    CHECK(arith::f32_rcp_rn_slow_path(0x00000001u));
    CHECK(arith::f32_rcp_rn_slow_path(0x7e800000u));
    CHECK(arith::f32_rcp_rn_slow_path(0x7f800000u));
}
