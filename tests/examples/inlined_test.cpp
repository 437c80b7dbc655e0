// tests/examples/inlined_test.cpp — code inlined from device functions (tests/examples/inlined: the user's
// helpers, atomicAdd, cooperative groups) is counted, explained and reported at the user's line, with the
// chain down to the header line. Every expectation is read off inlined_lines.cu and its PTX by hand.
#include <algorithm>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sim/check/findings.hpp"
#include "sim/check/run_check.hpp"
#include "sim/report/explain.hpp"
#include "sim/report/html_report.hpp"
#include "sim/report/report_model.hpp"
#include "sim/report/text_report.hpp"
#include "tests/examples/example_support.hpp"

using namespace warpsim;
using namespace warpsim::examples_test;

namespace {

const std::string kDir = std::string(WARPSIM_SOURCE_DIR) + "/tests/examples/inlined/";
// The .file paths nvcc recorded (the PTX was made in this directory of the repository's checkout).
const std::string kCu = "/work/main/tests/examples/inlined/inlined_lines.cu";  // as .file recorded it
// Faults name a file outside the current folder (the tests run in the build folder) by its name alone.
const std::string kCuName = "inlined_lines.cu";
const std::string kInclude = "/usr/local/cuda/bin/../targets/x86_64-linux/include/";

session::PreparedLaunch prepare_inlined(const std::string& name) {
    auto p = session::prepare(kDir + name + ".json");
    INFO(name << ": " << (p ? std::string() : p.error()));
    REQUIRE(p.ok());
    return std::move(p.value());
}

const report::SourceRow* row_at(const report::ReportModel& m, uint32_t line) {
    for (const auto& r : m.rows)
        if (r.file == 1 && r.line == line) return &r;
    return nullptr;
}

}  // namespace

TEST_CASE("inlined: per-line counts put helper and atomicAdd work at the line that calls it",
          "[examples][inlined]") {
    const auto p = prepare_inlined("sum_pairs");
    // The per-line figures below are read off the PTX: counted PTX-level (--ptx-counts). Per SASS
    // instruction, line 20's uniform-address atomics are ptxas's warp-aggregated sequences (more
    // instructions).
    session::SimOptions ptx_level;
    ptx_level.workers = 2;
    ptx_level.ptx_level_counts = true;
    auto simulated = session::run_simulated(p, ptx_level);
    REQUIRE(simulated.ok());
    const auto run = std::move(simulated.value());
    REQUIRE_FALSE(run.report.error.has_value());
    // total[0] = 3 * (0 + ... + 63) = 6048, total[1] = 6 * 2016 = 12096.
    const auto back = run_and_read(p);
    REQUIRE(back.result.ok());
    CHECK(back.ints(0) == std::vector<int32_t>{6048, 12096});

    const auto m = report::build_model(p, run, nullptr);
    // Lines of the kernel: 16 (parameters), 17, 18, 19 (load_scaled), 20 (add_pair), 22 (ret). The helpers'
    // own lines (8, 9, 13) and the header's line 107 have no row: their work counts at 19 and 20.
    std::vector<uint32_t> lines;
    for (const auto& r : m.rows) {
        CHECK(r.file == 1);
        lines.push_back(r.line);
    }
    CHECK(lines == std::vector<uint32_t>{16, 17, 18, 19, 20, 22});

    // Line 19: mul.wide, add, ld, mul of load_scaled (PTX 45-48) in each of 2 warps.
    const auto* r19 = row_at(m, 19);
    REQUIRE(r19);
    CHECK(r19->total.warp_insts == 8);
    REQUIRE(r19->accesses.size() == 1);
    CHECK(r19->accesses[0].label() == "global load");
    CHECK(r19->accesses[0].inlined == "inlined_lines.cu:13 in load_scaled");
    // in[i] for 32 consecutive ints from a 256-byte aligned buffer: 4 sectors per warp.
    CHECK(r19->accesses[0].s.requests == 2);
    CHECK(r19->accesses[0].s.sectors == 8);

    // Line 20: the two atoms, and the mul and add of add_pair's line 9 (PTX 52, 54, 55, 58), 2 warps.
    const auto* r20 = row_at(m, 20);
    REQUIRE(r20);
    CHECK(r20->total.warp_insts == 8);
    REQUIRE(r20->accesses.size() == 2);
    CHECK(r20->accesses[0].label() == "global atomic");
    CHECK(r20->accesses[0].inlined ==
          "device_atomic_functions.hpp:107 in atomicAdd, inlined from inlined_lines.cu:8 in add_pair");
    CHECK(r20->accesses[1].inlined ==
          "device_atomic_functions.hpp:107 in atomicAdd, inlined from inlined_lines.cu:9 in add_pair");
    // One request per warp (the sectors of a same-address atomic are the counters' business, not this
    // test's).
    for (const auto& a : r20->accesses) CHECK(a.s.requests == 2);
    CHECK(r20->inlined.size() == 3);
    CHECK(report::inlined_note(*r20) == "inlined here: inlined_lines.cu:9 in add_pair");
    CHECK(report::inlined_note(*r19).empty());
    CHECK(row_at(m, 18)->inlined.empty());

    const std::string text = report::text_report(p, run, {40, nullptr});
    CHECK_THAT(text, Catch::Contains(
                         "global atomic: at device_atomic_functions.hpp:107 in atomicAdd, inlined from"));
    CHECK_THAT(text, Catch::Contains("inlined here: inlined_lines.cu:9 in add_pair"));
    CHECK_THAT(text, Catch::Contains("add_pair(total, v);"));
    const std::string html = report::html_report(p, run, nullptr);
    CHECK_THAT(html,
               Catch::Contains("global atomic: at device_atomic_functions.hpp:107 in atomicAdd, inlined from "
                               "inlined_lines.cu:9 in add_pair"));

    // run --json: file:line is the user's line, "inlined" the chain innermost first.
    const auto json = nlohmann::json(launch::to_json(run.report));
    int atoms = 0;
    for (const auto& l : json.at("lines")) {
        if (l.at("ptx_line") == 52) {
            ++atoms;
            CHECK(l.at("file") == kCu);
            CHECK(l.at("line") == 20);
            const auto& chain = l.at("inlined");
            REQUIRE(chain.size() == 3);
            CHECK(chain[0].at("file") == kInclude + "device_atomic_functions.hpp");
            CHECK(chain[0].at("line") == 107);
            CHECK(chain[0].at("function") == "atomicAdd");
            CHECK(chain[1].at("line") == 8);
            CHECK(chain[1].at("function") == "add_pair");
            CHECK(chain[2].at("line") == 20);
            CHECK_FALSE(chain[2].contains("function"));
        }
        if (l.at("ptx_line") == 37) CHECK_FALSE(l.contains("inlined"));  // setp of line 18, the kernel's own
    }
    CHECK(atoms == 1);
}

TEST_CASE("inlined: explain --line takes the call's line, the helper's line or the header's line",
          "[examples][inlined][explain]") {
    const auto p = prepare_inlined("sum_pairs");
    const auto run = simulate(p);
    auto explain = [&](uint32_t line) {
        report::ExplainRequest r;
        r.line = line;
        auto x = report::explain_line(p, run, r);
        INFO((x ? std::string() : x.error()));
        REQUIRE(x.ok());
        return std::move(x.value());
    };
    const auto call = explain(20);  // add_pair(total, v);
    CHECK(call.source_file == "inlined_lines.cu");
    CHECK(call.source_text == "add_pair(total, v);");
    REQUIRE(call.accesses.size() == 2);
    CHECK(call.accesses[0].ptx_line == 52);
    CHECK(call.accesses[1].ptx_line == 58);
    CHECK(call.accesses[0].what == "global atomic");
    CHECK(call.accesses[0].inlined ==
          "device_atomic_functions.hpp:107 in atomicAdd, inlined from inlined_lines.cu:8 in add_pair, "
          "inlined from "
          "inlined_lines.cu:20");
    CHECK(call.accesses[0].warp_cost.requests == 1);
    CHECK_THAT(report::explain_text(call),
               Catch::Contains("source      device_atomic_functions.hpp:107 in atomicAdd"));
    CHECK(report::explain_json(call).at("accesses")[1].at("inlined") ==
          "device_atomic_functions.hpp:107 in atomicAdd, inlined from inlined_lines.cu:9 in add_pair, "
          "inlined from "
          "inlined_lines.cu:20");

    const auto helper = explain(8);  // atomicAdd(total, v); in add_pair
    REQUIRE(helper.accesses.size() == 1);
    CHECK(helper.accesses[0].ptx_line == 52);
    const auto header = explain(107);  // no line 107 in inlined_lines.cu: the header's
    CHECK(header.source_file == "device_atomic_functions.hpp");
    CHECK(header.accesses.size() == 2);
    const auto load = explain(19);
    REQUIRE(load.accesses.size() == 1);
    CHECK(load.accesses[0].what == "global load");
    CHECK(load.accesses[0].inlined == "inlined_lines.cu:13 in load_scaled, inlined from inlined_lines.cu:19");
}

TEST_CASE("inlined: a fault, a deadlock and the budget's hot loop name the chain", "[examples][inlined]") {
    // Thread 64 stores out[64], one element past the end, in store_at (line 25) inlined at line 30.
    const auto fault = simulate(prepare_inlined("store_past_end"));
    REQUIRE(fault.report.error.has_value());
    INFO(fault.report.error->details);
    CHECK_THAT(fault.report.error->details,
               Catch::Contains("at " + kCuName + ":25 in store_at, inlined from " + kCuName +
                               ":30 (inlined_lines.ptx:94)"));

    // Warp 0 waits at barrier 0 four inlined levels down from line 39, warp 1 at barrier 1 on line 41.
    const auto deadlock = simulate(prepare_inlined("sync_in_branch"));
    REQUIRE(deadlock.report.error.has_value());
    INFO(deadlock.report.error->details);
    CHECK_THAT(
        deadlock.report.error->details,
        Catch::Contains(
            "barrier 0 at sm_30_intrinsics.hpp:98 in __barrier_sync, inlined from helpers.h:87 in "
            "sync, inlined from cooperative_groups.h:489 in sync, inlined from " +
            kCuName + ":34 in wait_for_block, inlined from " + kCuName + ":39 (inlined_lines.ptx:125)"));
    CHECK_THAT(deadlock.report.error->details,
               Catch::Contains("barrier 1 at " + kCuName + ":41 (inlined_lines.ptx:131)"));

    // The spin loop's back edge goes to the ld.volatile of wait_for_flag (line 47) inlined at line 52.
    const auto spin = simulate(prepare_inlined("wait_forever"), 100'000);
    REQUIRE(spin.report.error.has_value());
    INFO(spin.report.error->details);
    CHECK_THAT(spin.report.error->details, Catch::Contains("the hottest loop starts at " + kCuName +
                                                           ":47 in wait_for_flag, inlined from " + kCuName +
                                                           ":52 (inlined_lines.ptx:163)"));
}

TEST_CASE("inlined: checker findings name the user's line and the chain", "[examples][inlined][check]") {
    auto checked = [](const std::string& name) {
        auto r = check::check_prepared(prepare_inlined(name), check::CheckOptions{});
        INFO((r ? std::string() : r.error()));
        REQUIRE(r.ok());
        return std::move(r.value());
    };
    // memcheck: the store of thread (64,0,0), at PTX line 94.
    const auto mem = checked("store_past_end");
    REQUIRE(mem.log.size() == 1);
    const auto& f = mem.log.findings()[0];
    CHECK(f.tool == check::Tool::memcheck);
    REQUIRE(f.parties.size() == 1);
    CHECK(f.parties[0].thread == std::array<uint32_t, 3>{64, 0, 0});
    CHECK(mem.ctx.cuda_line(f.parties[0].at) == 30);
    CHECK(mem.ctx.where(f.parties[0].at) ==
          "inlined_lines.cu:25 in store_at, inlined from inlined_lines.cu:30 (inlined_lines.ptx:94)");

    // racecheck: warp 0 reads tile[63..32], which warp 1 writes in publish (line 56, inlined at line 61).
    const auto race = checked("read_neighbour");
    const check::Finding* found = nullptr;
    for (const auto& x : race.log.findings())
        if (x.kind == "race.rw.shared") found = &x;
    REQUIRE(found);
    std::vector<std::string> wheres;
    for (const auto& party : found->parties) wheres.push_back(race.ctx.where(party.at));
    CHECK(std::find(
              wheres.begin(), wheres.end(),
              "inlined_lines.cu:56 in publish, inlined from inlined_lines.cu:61 (inlined_lines.ptx:191)") !=
          wheres.end());
    CHECK(std::find(wheres.begin(), wheres.end(), "inlined_lines.cu:62 (inlined_lines.ptx:197)") !=
          wheres.end());
    CHECK_THAT(found->fix, Catch::Contains("line 61") && Catch::Contains("line 62"));
    const auto json = check::render_json(race.log, race.ctx);
    // The store is the kernel's only inlined instruction: every party with a chain is it.
    bool chained = false;
    for (const auto& finding : json.at("findings")) {
        for (const auto& party : finding.at("parties")) {
            if (!party.contains("inlined")) continue;
            chained = true;
            CHECK(party.at("cuda_line") == 61);
            CHECK(party.at("inlined") == nlohmann::json::parse(R"([{"file": "inlined_lines.cu", "line": 56,
                "function": "publish"}, {"file": "inlined_lines.cu", "line": 61}])"));
        }
    }
    CHECK(chained);
}

TEST_CASE("inlined: report rows shorten chains of more than two inlined levels", "[examples][inlined]") {
    // coop_groups.sm_90.lineinfo.ptx, the shfl.sync.down of cg_tile_reduce: `.loc 2 897 16, function_name
    // $L__info_string6, inlined_at 1 13 5`, `.loc 3 321 17, ... inlined_at 2 897 16`, `.loc 4 397 9,
    // function_name $L__info_string8, inlined_at 3 321 17`: three inlined levels below coop_groups.cu
    // line 13.
    auto p = session::prepare(std::string(WARPSIM_SOURCE_DIR) + "/tests/specs/cg_tile_reduce.json");
    REQUIRE(p.ok());
    const auto run = simulate(p.value());
    const auto m = report::build_model(p.value(), run, nullptr);
    const report::SourceRow* r13 = nullptr;
    for (const auto& r : m.rows)
        if (r.line == 13) r13 = &r;
    REQUIRE(r13);
    CHECK(std::find(r13->inlined.begin(), r13->inlined.end(),
                    "sm_30_intrinsics.hpp:397 in __shfl_down_sync, inlined through 1 more level from "
                    "cooperative_groups.h:897 in shfl_down") != r13->inlined.end());
}
