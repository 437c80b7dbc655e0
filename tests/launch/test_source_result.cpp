// tests/launch/test_source_result.cpp — source loading (.ptx, .cu via nvcc, no toolkit), argument checks
// of every shipped spec against its real PTX, and the report's JSON layout.
#include <catch2/catch.hpp>

#include <filesystem>

#include "kernels_ir/names.hpp"
#include "kernels_ir/parser.hpp"
#include "launch/params.hpp"
#include "launch/result.hpp"
#include "launch/source.hpp"

using namespace warpsim;
using namespace warpsim::launch;

namespace {

LaunchSpec example(const std::string& name) {
    SpecParse p = load_spec(std::string(WARPSIM_SOURCE_DIR) + "/examples/specs/" + name);
    INFO(p.error_text());
    REQUIRE(p.ok());
    return *p.spec;
}

}  // namespace

TEST_CASE("a .ptx source is read as is", "[launch][source]") {
    auto text = load_source(example("vector_add_1000.json"));
    INFO(text.error());
    REQUIRE(text.ok());
    CHECK(text->find(".entry") != std::string::npos);
}

TEST_CASE("a .cu source without a toolkit gives the install message", "[launch][source]") {
    LaunchSpec s = example("vector_add_1000.json");
    s.source = "../vector_add.cu";
    s.source_path = std::string(WARPSIM_SOURCE_DIR) + "/examples/vector_add.cu";
    auto r = compile_cu(s, "");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() ==
          "compiling " + s.source_path + " needs nvcc from the CUDA toolkit; install it or give the .ptx");
    s.source_path = "/nonexistent/k.txt";
    s.source = "k.txt";
    CHECK(load_source(s).error().find("is neither a .ptx nor a .cu file") != std::string::npos);
}

TEST_CASE("a .cu source compiles with nvcc where the toolkit exists", "[launch][source]") {
    if (find_nvcc().empty()) {
        WARN("skipped: no nvcc on this machine");
        return;
    }
    LaunchSpec s = example("vector_add_1000.json");
    s.source_path = std::string(WARPSIM_SOURCE_DIR) + "/examples/vector_add.cu";
    auto text = load_source(s);
    INFO(text.error());
    REQUIRE(text.ok());
    CHECK(text->find(".target sm_90") != std::string::npos);
    CHECK(text->find(".loc") != std::string::npos);  // -lineinfo
    s.arch = "sm_12345";
    auto bad = load_source(s);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().find("nvcc failed on") != std::string::npos);
}

TEST_CASE("every shipped spec fits its kernel's .param list", "[launch][params][specs]") {
    namespace fs = std::filesystem;
    int checked = 0;
    for (const char* dir : {"examples/specs", "tests/specs"}) {
        fs::path folder = fs::path(WARPSIM_SOURCE_DIR) / dir;
        if (!fs::is_directory(folder)) continue;
        for (const auto& entry : fs::directory_iterator(folder)) {
            if (entry.path().extension() != ".json") continue;
            SpecParse p = load_spec(entry.path().string());
            if (!p.ok()) continue;  // reported by the parsing test
            auto text = load_source(*p.spec);
            if (!text.ok() || p.spec->source_path.ends_with(".cu")) continue;
            ir::ParseResult parsed = ir::parse_ptx(*text, p.spec->source_path);
            ir::KernelLookup k = ir::find_kernel(parsed.module, p.spec->kernel);
            if (!k.function) continue;  // ambiguous-name specs are about the look-up, not the arguments
            auto errors = check_args(*k.function, *p.spec);
            INFO(entry.path().string());
            if (entry.path().filename().string().find("arg_count_mismatch") != std::string::npos) {
                CHECK_FALSE(errors.empty());
            } else {
                CHECK(errors.empty());
                for (const auto& e : errors) WARN(e);
            }
            ++checked;
        }
    }
    CHECK(checked >= 50);
}

TEST_CASE("a report prints in DESIGN.md's key layout and reads back", "[launch][result]") {
    RunReport r;
    r.kernel = "transpose_padded";
    r.device = "h200";
    r.backend = "sim";
    r.launch.grid = {32, 32, 1};
    r.launch.block = {32, 8, 1};
    r.launch.registers_per_thread = 18;
    r.occupancy = OccupancyReport{8, 64, 1.0, "warps"};
    r.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = 131072;
    r.metrics["sm__warps_active.avg.pct_of_peak_sustained_active"] = 87.5;
    r.buffers = {{0, "3063b4db1be47b83"}, {1, "0123456789abcdef"}};
    r.predicted = PredictedTiming{};
    r.predicted->cycles = 1000;
    r.predicted->time_us = 2.5;
    r.predicted->dram_gbps = 1500.25;
    r.predicted->bound = "dram";
    r.warpsim_version = "9.8.7";
    r.extra["checker"] = "clean";
    const std::string expected =
        R"({"kernel":"transpose_padded","device":"h200","backend":"sim",)"
        R"("launch":{"grid":[32,32,1],"block":[32,8,1],"shared_bytes":0,"registers_per_thread":18},)"
        R"("occupancy":{"blocks_per_sm":8,"warps_per_sm":64,"occupancy":1.0,"limiter":"warps"},)"
        R"("metrics":{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum":131072,)"
        R"("sm__warps_active.avg.pct_of_peak_sustained_active":87.5},)"
        R"("buffers":[{"arg":0,"fnv1a":"3063b4db1be47b83"},{"arg":1,"fnv1a":"0123456789abcdef"}],)"
        R"("predicted":{"cycles":1000,"time_us":2.5,"dram_gbps":1500.25,"gflops":0.0,"bound":"dram"},)"
        R"("warpsim_version":"9.8.7","checker":"clean"})";
    CHECK(to_json(r).dump() == expected);

    auto back = from_json(nlohmann::json::parse(expected));
    REQUIRE(back.ok());
    CHECK(to_json(*back).dump() == expected);
    CHECK(back->metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 131072);

    RunReport g;
    g.kernel = "k";
    g.backend = "cuda";
    g.measured = MeasuredTiming{3.5, 3.25, 4.0, 20, 3};
    g.error = ReportError{"CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered", ""};
    g.printf_output = "hi\n";
    auto j = to_json(g);
    CHECK(j["measured"].dump() ==
          R"({"time_us":3.5,"time_us_min":3.25,"time_us_max":4.0,"runs":20,"warmup":3})");
    CHECK(j["error"]["name"] == "CUDA_ERROR_ILLEGAL_ADDRESS");
    CHECK(j["printf"] == "hi\n");
    CHECK_FALSE(j.contains("predicted"));
    CHECK_FALSE(from_json(nlohmann::json::parse(R"({"buffers": [{"arg": "x"}]})")).ok());
}

TEST_CASE("a spec's expect_error matches the error's name, message or details", "[launch][result]") {
    RunReport r;
    CHECK_FALSE(error_is_expected(r, std::string("illegal")));  // no error at all
    r.error = ReportError{"CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered",
                          "global store of 4 bytes at 0x7f0000001000, block (3,0,0) thread (8,0,0)"};
    CHECK_FALSE(error_is_expected(r, std::nullopt));  // an error the spec does not expect
    CHECK(error_is_expected(r, std::string("CUDA_ERROR_ILLEGAL_ADDRESS")));
    CHECK(error_is_expected(r, std::string("illegal memory access")));
    CHECK(error_is_expected(r, std::string("block (3,0,0)")));
    CHECK_FALSE(error_is_expected(r, std::string("misaligned address")));
}
