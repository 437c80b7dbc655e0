// tests/timing/sass_tests.cpp — the SASS spill reader (sim/timing/sass_spills) against nvdisasm's listing of the
// same cubins (tests/timing/sass, made on the H200 machine by tests/timing/l2_reuse/measure.sh), and the profile's
// execution weights of spill_loop's spills worked out from its PTX by hand.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <sstream>

#include <fmt/format.h>

#include "sim/device/ptxas.hpp"
#include "sim/session/run.hpp"
#include "sim/timing/profile.hpp"
#include "sim/timing/sass_spills.hpp"

using namespace warpsim;
using namespace warpsim::timing;

namespace {

const std::string kSass = std::string(WARPSIM_SOURCE_DIR) + "/tests/timing/sass/";

std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<std::string> listing(const std::vector<SassLocalAccess>& v) {
    std::vector<std::string> out;
    for (const auto& a : v) out.push_back(fmt::format("{} {:x} {} {}", a.section, a.offset, a.ptx_line, a.store ? "STL" : "LDL"));
    return out;
}

std::vector<std::string> reference(const std::string& name) {
    std::istringstream in(read_bytes(kSass + name + ".nvdisasm.txt"));
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) out.push_back(line);
    return out;
}

}  // namespace

TEST_CASE("SASS spill reader: the same STL/LDL, offsets and PTX lines as nvdisasm", "[timing][sass]") {
    for (const char* name : {"spill_loop", "occupancy_probe"}) {
        INFO(name);
        std::string err;
        auto got = sass_local_accesses(read_bytes(kSass + name + ".cubin"), &err);
        REQUIRE(got.has_value());
        auto want = reference(name);
        REQUIRE(want.size() > 300);
        CHECK(listing(*got) == want);
    }
}

TEST_CASE("SASS spill reader: bad input is an error, not a crash", "[timing][sass]") {
    std::string err;
    CHECK_FALSE(sass_local_accesses("not an elf", &err).has_value());
    CHECK(err.find("ELF") != std::string::npos);
    std::string cubin = read_bytes(kSass + "spill_loop.cubin");
    REQUIRE(cubin.size() > 64);
    CHECK_FALSE(sass_local_accesses(cubin.substr(0, 200), &err).has_value());
    CHECK(err.find("outside the file") != std::string::npos);
}

// spill_loop.ptx: lines 282-333 are the loop body ($L__BB0_2 to its backward branch), run `iters` times by
// every warp; every other line runs once (all threads are in range). So each spill site weighs `iters` warp
// executions per warp inside the loop and 1 outside, whatever ptxas version placed them.
TEST_CASE("spill_loop: each spill weighs its PTX line's executions (loop body x iters)", "[timing][sass]") {
    if (!device::find_ptxas()) {
        WARN("no ptxas: the SASS spill weights are not read here (the model falls back to the average instruction)");
        return;
    }
    for (int iters : {4, 32}) {
        std::string spec = fmt::format("{}/tests/hardware/spills/spill_loop_it{}_2112.json", WARPSIM_SOURCE_DIR, iters);
        auto prep = session::prepare(spec);
        REQUIRE(bool(prep));
        auto run = session::run_simulated(prep.value(), session::SimOptions{});
        REQUIRE(bool(run));
        REQUIRE_FALSE(run.value().report.error);
        auto prof = build_profile(prep.value(), run.value());
        auto sites = sass_local_accesses_of_ptx(prep.value().ptx, "sm_90");
        REQUIRE(sites.has_value());
        double stores = 0, loads = 0, store_insts = 0, load_insts = 0;
        for (const auto& s : *sites) {
            double per_warp = s.ptx_line >= 282 && s.ptx_line <= 333 ? iters : 1;
            (s.store ? stores : loads) += per_warp;
            (s.store ? store_insts : load_insts) += 1;
        }
        const double warps = 2112.0 * 8;
        REQUIRE(prof.spill_sites_known);
        CHECK(prof.spill_store_insts == store_insts);
        CHECK(prof.spill_load_insts == load_insts);
        CHECK(prof.spill_store_execs == Approx(warps * stores));
        CHECK(prof.spill_load_execs == Approx(warps * loads));
        CHECK(stores > store_insts);  // some spills are in the loop
    }
}
