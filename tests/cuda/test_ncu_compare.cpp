// tests/cuda/test_ncu_compare.cpp — ncu CSV parsing (a capture from an H200) and the compare table.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "cuda/compare.hpp"
#include "cuda/ncu_profile.hpp"

using namespace warpsim;

TEST_CASE("a captured ncu --csv --page raw output parses", "[cuda][ncu]") {
    // ncu 2025.3.1 on an H200, vector_add_1000.json: the program's own JSON and ==PROF== lines come first,
    // then the header, the units row and one kernel row; values carry thousands separators ("11,264").
    std::ifstream in(std::string(WARPSIM_SOURCE_DIR) + "/tests/cuda/data/ncu_vector_add_h200.txt");
    std::stringstream ss;
    ss << in.rdbuf();
    REQUIRE(ss.str().size() > 1000);
    const std::vector<std::string> wanted = {
        "dram__bytes_read.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "gpu__time_duration.sum",
        "launch__registers_per_thread", "sm__warps_active.avg.pct_of_peak_sustained_active"};
    auto m = cuda::parse_ncu_csv(ss.str(), wanted);
    INFO(m.error());
    REQUIRE(m.ok());
    CHECK(m->size() == 5);
    CHECK(m->at("dram__bytes_read.sum") == 11264);
    CHECK(m->at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") ==
          250);                                      // 1000 floats = 4000 bytes / 32 (rounded up)
    CHECK(m->at("gpu__time_duration.sum") == 2496);  // unit "ns"
    CHECK(m->at("launch__registers_per_thread") == 16);
    CHECK(m->at("sm__warps_active.avg.pct_of_peak_sustained_active") == Approx(12.35));
    auto all = cuda::parse_ncu_csv(ss.str());
    REQUIRE(all.ok());
    CHECK(all->at("device__attribute_clock_rate") == 1980000);
}

TEST_CASE("units are scaled to base units; bad output is an error", "[cuda][ncu]") {
    const std::string text =
        "==PROF== Connected to process 1\n"
        "\"ID\",\"Kernel "
        "Name\",\"dram__bytes_read.sum\",\"gpu__time_duration.sum\",\"smsp__inst_executed.sum\"\n"
        "\"\",\"\",\"Kbyte\",\"usecond\",\"inst\"\n"
        "\"0\",\"k(int, float)\",\"1.5\",\"2.25\",\"1,234\"\n";
    auto m = cuda::parse_ncu_csv(text);
    REQUIRE(m.ok());
    CHECK(m->at("dram__bytes_read.sum") == 1500);
    CHECK(m->at("gpu__time_duration.sum") == 2250);
    CHECK(m->at("smsp__inst_executed.sum") == 1234);
    CHECK_FALSE(cuda::parse_ncu_csv("==ERROR== ERR_NVGPUCTRPERM\n").ok());
    CHECK_FALSE(cuda::parse_ncu_csv("\"ID\",\"x__y\"\n\"\",\"\"\n").ok());
}

TEST_CASE("the ncu command line leaves the clocks alone and profiles the first launch", "[cuda][ncu]") {
    auto argv = cuda::ncu_command("ncu", "s.json", "/bin/warpsim", {"a.sum", "b.sum"}, {});
    const std::vector<std::string> expected = {"ncu",
                                               "--csv",
                                               "--page",
                                               "raw",
                                               "--print-units",
                                               "base",
                                               "--clock-control",
                                               "none",
                                               "--launch-count",
                                               "1",
                                               "--metrics",
                                               "a.sum,b.sum",
                                               "/bin/warpsim",
                                               "run",
                                               "s.json",
                                               "--backend",
                                               "cuda",
                                               "--json",
                                               "--runs",
                                               "1"};
    CHECK(argv == expected);
}

namespace {

launch::RunReport report(const std::string& backend) {
    launch::RunReport r;
    r.kernel = "k";
    r.backend = backend;
    r.buffers = {{0, "00000000000000aa"}, {2, "00000000000000bb"}};
    r.launch.registers_per_thread = 16;
    return r;
}

const cuda::CompareRow& row(const std::vector<cuda::CompareRow>& rows, const std::string& metric) {
    for (const auto& r : rows)
        if (r.metric == metric) return r;
    FAIL("no row " << metric);
    return rows.front();
}

}  // namespace

TEST_CASE("compare judges counts exactly, traffic with a tolerance, time not at all", "[cuda][compare]") {
    auto sim = report("sim"), gpu = report("cuda");
    sim.metrics = {{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 32768},
                   {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 63488},
                   {"dram__bytes_read.sum", 2000000},
                   {"lts__t_sectors_srcunit_tex_op_read.sum", 100},
                   {"only_sim.sum", 1}};
    gpu.metrics = {{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 32768},
                   {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 63487},
                   {"dram__bytes_read.sum", 2099968},
                   {"lts__t_sectors_srcunit_tex_op_read.sum", 150}};
    gpu.buffers[1].fnv1a = "00000000000000cc";
    sim.predicted = launch::PredictedTiming{};
    sim.predicted->time_us = 3.0;
    sim.predicted->bound = "dram";
    gpu.measured = launch::MeasuredTiming{4.0, 3.5, 5.0, 20, 3};
    auto rows = cuda::compare_reports(sim, gpu);
    CHECK(row(rows, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum").match == true);
    CHECK(row(rows, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum").difference == "0");
    CHECK(row(rows, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum").match == false);
    CHECK(row(rows, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum").difference == "+1 (+0.0%)");
    CHECK(row(rows, "dram__bytes_read.sum").match == true);                     // 4.8% below: within 10%
    CHECK(row(rows, "lts__t_sectors_srcunit_tex_op_read.sum").match == false);  // 33% below
    CHECK(row(rows, "lts__t_sectors_srcunit_tex_op_read.sum").difference == "-50 (-33.3%)");
    CHECK_FALSE(row(rows, "only_sim.sum").match.has_value());
    CHECK(row(rows, "only_sim.sum").measured.empty());
    CHECK(row(rows, "buffer args[0] fnv1a").match == true);
    CHECK(row(rows, "buffer args[2] fnv1a").match == false);
    CHECK_FALSE(row(rows, "time_us").match.has_value());
    CHECK(row(rows, "time_us").difference == "-1 (-25.0%)");
    CHECK_FALSE(row(rows, "registers_per_thread").match.has_value());

    cuda::CompareOptions racy;
    racy.deterministic = false;
    auto racy_rows = cuda::compare_reports(sim, gpu, racy);
    CHECK_FALSE(row(racy_rows, "buffer args[2] fnv1a").match.has_value());

    auto j = cuda::compare_to_json(rows);
    CHECK(j["matched"] == 3);     // sectors, dram, args[0]
    CHECK(j["mismatched"] == 3);  // bank conflicts, lts, args[2]
    const std::string text = cuda::format_compare_text(rows);
    CHECK(text.find("3 matched, 3 mismatched") != std::string::npos);
    CHECK(text.rfind("metric", 0) == 0);
}

TEST_CASE("an error on one side only is a mismatch", "[cuda][compare]") {
    auto sim = report("sim"), gpu = report("cuda");
    gpu.error =
        launch::ReportError{"CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered", ""};
    gpu.buffers.clear();
    auto rows = cuda::compare_reports(sim, gpu);
    CHECK(rows.front().metric == "error");
    CHECK(rows.front().match == false);
    CHECK(rows.front().measured == "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered");
    CHECK_FALSE(row(rows, "buffer args[0] fnv1a").match.has_value());
}

TEST_CASE(
    "compare: all-instruction totals are shown but not judged (SASS on the GPU, PTX in the simulator)") {
    // Measured on the H200 for examples/specs/transpose_padded_1024.json
    // (tests/hardware/h200/compare_sample.txt): 1400832 SASS warp instructions against 1351680 PTX ones,
    // while every memory count matched.
    warpsim::launch::RunReport sim, gpu;
    sim.metrics["smsp__inst_executed.sum"] = 1351680;
    gpu.metrics["smsp__inst_executed.sum"] = 1400832;
    sim.metrics["smsp__inst_executed_op_global_ld.sum"] = 32768;
    gpu.metrics["smsp__inst_executed_op_global_ld.sum"] = 32769;
    auto rows = warpsim::cuda::compare_reports(sim, gpu);
    bool saw_total = false, saw_ld = false;
    for (const auto& r : rows) {
        if (r.metric == "smsp__inst_executed.sum") {
            saw_total = true;
            CHECK_FALSE(r.match.has_value());
        }
        if (r.metric == "smsp__inst_executed_op_global_ld.sum") {
            saw_ld = true;
            REQUIRE(r.match.has_value());
            CHECK_FALSE(*r.match);
        }
    }
    CHECK(saw_total);
    CHECK(saw_ld);
}
