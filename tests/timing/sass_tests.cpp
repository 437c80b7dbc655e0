// tests/timing/sass_tests.cpp — the SASS spill reader (sim/timing/sass_spills) against nvdisasm's listing of
// the same cubins (tests/timing/sass, made on the H200 machine by tests/timing/l2_reuse/measure.sh), the
// profile's execution weights of spill_loop's spills worked out from its PTX by hand, and the SASS loop
// reader (sim/timing/sass_loops) against cuobjdump's listing of tests/timing/mlp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

#include <fmt/format.h>

#include "sim/device/ptxas.hpp"
#include "sim/sass/compile.hpp"
#include "sim/sass/decode.hpp"
#include "sim/session/run.hpp"
#include "sim/timing/profile.hpp"
#include "sim/timing/sass_loops.hpp"
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
    for (const auto& a : v)
        out.push_back(fmt::format("{} {:x} {} {}", a.section, a.offset, a.ptx_line, a.store ? "STL" : "LDL"));
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
        WARN(
            "no ptxas: the SASS spill weights are not read here (the model falls back to the average "
            "instruction)");
        return;
    }
    for (int iters : {4, 32}) {
        std::string spec =
            fmt::format("{}/tests/hardware/spills/spill_loop_it{}_2112.json", WARPSIM_SOURCE_DIR, iters);
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

// The loops of mlp.cu's SASS (tests/timing/mlp) and the round trips to memory their loads wait for, from the
// scoreboards of the control bits. Expected from the listing cuobjdump made of the same kernels on the H200
// machine (tests/timing/mlp/sass_h200.txt): sumk_u8's loop issues its 8 LDGs, then the 8 FADDs (one round
// trip), sum_u8's alternates LDG, FADD, exit test 8 times (8), chase's main loop is 16 LDGs each addressed by
// the value the one before loaded (16: the last is waited for after the back edge).
TEST_CASE("SASS loops: loads per loop and the round trips they wait for, from the scoreboards",
          "[timing][sass]") {
    if (!device::find_ptxas()) {
        WARN("no ptxas: the SASS loops are not read here (the model keeps the PTX's unrolling)");
        return;
    }
    auto cubin = sass::compile_cubin(
        read_bytes(std::string(WARPSIM_SOURCE_DIR) + "/tests/timing/mlp/mlp.sm_90.lineinfo.ptx"), "sm_90");
    REQUIRE(cubin.has_value());
    auto program = sass::decode_cubin(*cubin);
    REQUIRE(program.has_value());
    auto main_loop = [&](const char* name) {
        const auto* f = program->find(name);
        REQUIRE(f != nullptr);
        auto loops = sass_loops(*f);
        REQUIRE(!loops.empty());
        return *std::max_element(loops.begin(), loops.end(),
                                 [](const SassLoop& a, const SassLoop& b) { return a.loads < b.loads; });
    };
    auto sumk8 = main_loop("sumk_u8");
    CHECK(sumk8.loads == 8);
    CHECK(sumk8.rounds == 1);
    auto sum8 = main_loop("sum_u8");
    CHECK(sum8.loads == 8);
    CHECK(sum8.rounds == 8);
    auto chase = main_loop("chase");
    CHECK(chase.loads == 16);
    CHECK(chase.rounds == 16);
    auto sumk16 = main_loop("sumk_u16");
    CHECK(sumk16.loads == 16);
    CHECK(sumk16.rounds == 1);
    for (auto line : sumk8.load_lines) CHECK(line > 0);  // ptxas -lineinfo: every LDG has its PTX line
}

// A corpus kernel whose loop ptxas unrolls beyond the PTX: col_sum_thread_per_col's PTX loop block holds 4
// loads (nvcc unrolled the row loop 4 times), its SASS loop 16 LDGs waited for once (ptxas unrolled it 4
// times more).
TEST_CASE("profile: a PTX loop block that ptxas unrolled further carries the SASS copies and round trips",
          "[timing][sass]") {
    if (!device::find_ptxas()) {
        WARN("no ptxas: no SASS loops in the profile");
        return;
    }
    auto prep = session::prepare(std::string(WARPSIM_SOURCE_DIR) +
                                 "/tests/hardware/corpus/specs/col_sum_thread_per_col_256x4096.json");
    REQUIRE(bool(prep));
    auto run = session::run_simulated(prep.value(), session::SimOptions{});
    REQUIRE(bool(run));
    REQUIRE_FALSE(run.value().report.error);
    auto prof = build_profile(prep.value(), run.value());
    const ChainBlock* body = nullptr;
    for (const auto& b : prof.chain) {
        int loads = 0;
        for (const auto& c : b.insts) loads += c.kind == LatKind::global && c.is_load;
        if (loads == 4) body = &b;
    }
    REQUIRE(body != nullptr);
    CHECK(body->sass_copies == Approx(4));
    CHECK(body->sass_rounds == 1);
}
