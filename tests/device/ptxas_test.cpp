// Registers per thread from ptxas -v (when the toolkit is installed), its output parser, and the estimate.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "sim/device/ptxas.hpp"

namespace {

std::string example_ptx(const char* name) {
    std::ifstream in(std::string(WARPSIM_SOURCE_DIR) + "/examples/" + name);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("ptxas -v output is parsed per entry function", "[ptxas]") {
    const char* output =
        "ptxas info    : 0 bytes gmem\n"
        "ptxas info    : Compiling entry function '_Z17static_shared_48kPKfPfi' for 'sm_90'\n"
        "ptxas info    : Function properties for _Z17static_shared_48kPKfPfi\n"
        "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 12 registers, used 1 barriers, 49152 bytes smem\n"
        "ptxas info    : Compiling entry function '_Z16capped_registersPKfPfi' for 'sm_90'\n"
        "ptxas info    : Function properties for _Z16capped_registersPKfPfi\n"
        "    1096 bytes stack frame, 2204 bytes spill stores, 2320 bytes spill loads\n"
        "ptxas info    : Used 32 registers, used 0 barriers, 1096 bytes cumulative stack size\n";
    auto entries = warpsim::device::parse_ptxas_verbose(output);
    REQUIRE(entries.size() == 2);
    CHECK(entries[0].function == "_Z17static_shared_48kPKfPfi");
    CHECK(entries[0].registers == 12);
    CHECK(entries[0].barriers == 1);
    CHECK(entries[0].shared_bytes == 49152);
    CHECK(entries[1].registers == 32);
    CHECK(entries[1].spill_stores == 2204);
    CHECK(entries[1].spill_loads == 2320);
    CHECK(entries[1].shared_bytes == 0);
}

TEST_CASE("registers from ptxas on the seed's occupancy probe", "[ptxas][toolkit]") {
    if (!warpsim::device::find_ptxas()) {
        WARN("ptxas not installed: skipped");
        return;
    }
    std::string ptx = example_ptx("occupancy_probe.ptx");
    REQUIRE_FALSE(ptx.empty());
    std::string log;
    // __maxnreg__(32) in the source: ptxas holds the kernel to 32 registers and spills the rest.
    auto capped = warpsim::device::registers_from_ptxas(ptx, "sm_90", "capped_registers", &log);
    INFO(log);
    REQUIRE(capped.has_value());
    CHECK(*capped == 32);
    // 12288 floats of static shared memory and one __syncthreads().
    auto usage = warpsim::device::ptxas_usage(ptx, "sm_90", "static_shared_48k", &log);
    REQUIRE(usage.has_value());
    CHECK(usage->shared_bytes == 49152);
    CHECK(usage->barriers == 1);
    CHECK(usage->function == "_Z17static_shared_48kPKfPfi");

    auto missing = warpsim::device::registers_from_ptxas(ptx, "sm_90", "no_such_kernel", &log);
    CHECK_FALSE(missing.has_value());
    CHECK_THAT(log,
               Catch::Contains("kernel 'no_such_kernel'") && Catch::Contains("_Z14many_registersPKfPfi"));

    auto broken = warpsim::device::registers_from_ptxas(".version 8.0\n.target sm_90\nthis is not ptx\n",
                                                        "sm_90", "k", &log);
    CHECK_FALSE(broken.has_value());
    CHECK_THAT(log, Catch::StartsWith("ptxas failed"));
}

TEST_CASE("PTX for sm_90a is compiled for sm_90a on an sm_90 device", "[ptxas][toolkit]") {
    if (!warpsim::device::find_ptxas()) {
        WARN("ptxas not installed: skipped");
        return;
    }
    std::ifstream in(std::string(WARPSIM_SOURCE_DIR) + "/tests/specs/wgmma_kernels.sm_90a.lineinfo.ptx");
    std::ostringstream text;
    text << in.rdbuf();
    REQUIRE_FALSE(text.str().empty());
    std::string log;
    // ptxas -arch=sm_90 refuses `.target sm_90a`; the H200's driver reported 144 and 60 registers for these.
    auto ss = warpsim::device::registers_from_ptxas(text.str(), "sm_90", "wgmma_ss_m64n128k16", &log);
    INFO(log);
    REQUIRE(ss.has_value());
    CHECK(*ss == 144);
    auto s8 = warpsim::device::registers_from_ptxas(text.str(), "sm_90", "wgmma_s8u8_m64n64k32", &log);
    REQUIRE(s8.has_value());
    CHECK(*s8 == 60);
}

TEST_CASE("the register estimate without ptxas states its method", "[ptxas]") {
    const char* ptx =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry _Z3fooPf(\n  .param .u64 p\n)\n{\n"
        "  .reg .pred %p<3>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<5>;\n  .reg .f64 %fd1, %fd2;\n  ret;\n}\n"
        ".visible .entry capped(\n  .param .u64 p\n)\n.maxnreg 40\n{\n  .reg .b32 %r<500>;\n  ret;\n}\n";
    // 10 x 1 + 5 x 2 + 2 x 2 = 24 words, + 2 = 26, rounded up to 32.
    auto foo = warpsim::device::estimate_registers(ptx, "foo");
    REQUIRE(foo.has_value());
    CHECK(foo->registers == 32);
    CHECK_THAT(foo->method, Catch::Contains("24 32-bit words"));
    auto capped = warpsim::device::estimate_registers(ptx, "capped");
    REQUIRE(capped.has_value());
    CHECK(capped->registers == 40);
    CHECK_THAT(capped->method, Catch::Contains(".maxnreg 40"));
    CHECK_FALSE(warpsim::device::estimate_registers(ptx, "bar").has_value());
}
