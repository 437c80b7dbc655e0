// tests/examples/fault_kinds_test.cpp — the sample run behind `warpsim explain` tells an exhausted
// instruction budget (worth a longer run) from a barrier deadlock (a longer run would deadlock again), by the
// fault's kind, not by its CUDA name, which is cudaErrorLaunchTimeout for both.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "sim/report/lane_sample.hpp"
#include "sim/session/run.hpp"

using namespace warpsim;
namespace fs = std::filesystem;

namespace {

// Warp 0 waits at barrier 1, warp 1 at barrier 2: neither barrier completes.
constexpr const char* kTwoBarriers = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry two_barriers()
{
    .reg .pred %p<2>;
    .reg .b32 %r<2>;
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 32;
    @%p1 bra FIRST;
    bar.sync 2;
    bra.uni DONE;
FIRST:
    bar.sync 1;
DONE:
    ret;
}
)";

// One warp counting forever.
constexpr const char* kSpin = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry spin_forever()
{
    .reg .b32 %r<2>;
    mov.u32 %r1, 0;
LOOP:
    add.u32 %r1, %r1, 1;
    bra.uni LOOP;
}
)";

// A spec and its PTX in a fresh folder under the system's temporary directory.
std::string write_spec(const std::string& name, const char* ptx, const std::string& kernel, int threads) {
    const fs::path dir = fs::temp_directory_path() / ("warpsim_fault_kinds_" + name);
    fs::create_directories(dir);
    std::ofstream(dir / "k.ptx") << ptx;
    std::ofstream(dir / "spec.json") << R"({"source": "k.ptx", "kernel": ")" << kernel
                                     << R"(", "grid": [1, 1, 1], "block": [)" << threads
                                     << R"(, 1, 1], "args": []})";
    return (dir / "spec.json").string();
}

report::LaneSamples sample(const std::string& spec, uint64_t budget) {
    auto p = session::prepare(spec);
    REQUIRE(p.ok());
    session::SimOptions opt;
    opt.max_instructions = budget;
    auto run = session::run_simulated(p.value(), opt);
    REQUIRE(run.ok());
    report::SampleOptions so;
    so.max_thread_instructions = budget;
    auto s = report::sample_lanes(p.value(), run.value(), so);
    REQUIRE(s.ok());
    return std::move(s.value());
}

}  // namespace

TEST_CASE("explain's sample run: a barrier deadlock is not an exhausted budget") {
    const auto s = sample(write_spec("deadlock", kTwoBarriers, "two_barriers", 64), 1'000'000);
    CHECK_FALSE(s.complete);
    CHECK_FALSE(s.out_of_budget);
}

TEST_CASE("explain's sample run: a kernel past the budget is out of budget") {
    const auto s = sample(write_spec("spin", kSpin, "spin_forever", 32), 100'000);
    CHECK_FALSE(s.complete);
    CHECK(s.out_of_budget);
}

TEST_CASE(
    "a fault in a kernel compiled from a .cu: the CUDA line, the PTX line under the PTX's name, the "
    "demangled kernel") {
    // The lines of the PTX nvcc made of buggy.cu are lines of buggy.ptx (what `nvcc -ptx buggy.cu` writes),
    // not of the 9-line buggy.cu; the kernel is `store_past_end`, not _Z14store_past_endPfi.
    const fs::path dir = fs::temp_directory_path() / "warpsim_fault_kinds_cu";
    fs::create_directories(dir);
    std::ofstream(dir / "buggy.cu") << "// One store past the end of the buffer.\n"
                                       "__global__ void store_past_end(float* out, int n) {\n"
                                       "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                       "    if (i <= n)\n"
                                       "        out[i] = 1.0f;\n"
                                       "}\n";
    std::ofstream(dir / "spec.json") << R"({"source": "buggy.cu", "kernel": "store_past_end", "grid": 1,
        "block": 64, "args": [{"type": "f32", "count": 32}, {"type": "i32", "value": 32}]})";
    auto p = session::prepare((dir / "spec.json").string());
    if (!p && p.error().find("nvcc") != std::string::npos) {
        WARN("skipped, no nvcc: " << p.error());
        return;
    }
    REQUIRE(p.ok());
    auto run = session::run_simulated(p.value(), {});
    REQUIRE(run.ok());
    REQUIRE(run->report.error);
    const std::string& details = run->report.error->details;
    INFO(details);
    CHECK_THAT(details, Catch::Contains("at buggy.cu:5 (buggy.ptx:"));
    CHECK_THAT(details, Catch::Contains(") in store_past_end\n"));
    CHECK_THAT(details, !Catch::Contains("_Z14store_past_endPfi"));
    CHECK_THAT(details, !Catch::Contains("buggy.cu:5 (buggy.cu:"));
}
