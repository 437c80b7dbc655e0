// tests/session/ptx_target_test.cpp — which device presets can load which PTX (session::ptx_target_error),
// as the CUDA documentation states it: PTX for sm_XY is JIT-compiled for compute capability X.Y and newer;
// an architecture-specific target (sm_90a) runs on that architecture only; a family target (sm_100f) on
// devices of the same major version and at least that minor version. Presets: h200 sm_90, a100 sm_80,
// rtx4090 sm_89, t4 sm_75.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "sim/device/device.hpp"
#include "sim/session/run.hpp"

using namespace warpsim;

namespace {

session::PreparedLaunch with_target(const session::PreparedLaunch& base, const std::string& target) {
    session::PreparedLaunch p = base;
    auto module = std::make_shared<ir::Module>(*base.module);
    module->target = {target};
    p.module = module;
    p.kernel = &module->functions[p.kernel_index];
    return p;
}

std::string error_on(const session::PreparedLaunch& p, const char* preset) {
    auto d = device::load_preset(preset);
    REQUIRE(d.has_value());
    return session::ptx_target_error(p, *d);
}

}  // namespace

TEST_CASE("PTX loads on its target's architecture and newer, not older", "[session][target]") {
    auto base = session::prepare(std::string(WARPSIM_SOURCE_DIR) + "/examples/specs/vector_add_1000.json");
    REQUIRE(base.ok());
    const auto sm90 = with_target(*base, "sm_90");
    CHECK(error_on(sm90, "h200").empty());
    const std::string t4 = error_on(sm90, "t4");
    CHECK_THAT(t4, Catch::Contains("is PTX for sm_90 (.target sm_90), newer than the t4 preset's sm_75"));
    CHECK_THAT(t4, Catch::Contains("cudaErrorNoKernelImageForDevice"));
    CHECK_THAT(t4, Catch::Contains("nvcc -ptx -arch=sm_75"));
    CHECK_THAT(error_on(sm90, "rtx4090"), Catch::Contains("newer than the rtx4090 preset's sm_89"));

    const auto sm75 = with_target(*base, "sm_75");
    for (const char* d : {"t4", "a100", "rtx4090", "h200"}) CHECK(error_on(sm75, d).empty());
    const auto sm80 = with_target(*base, "sm_80");
    CHECK_FALSE(error_on(sm80, "t4").empty());
    CHECK(error_on(sm80, "a100").empty());
    CHECK(error_on(sm80, "rtx4090").empty());

    // sm_90a: the H200 only, not an older GPU and not one of another architecture.
    const auto sm90a = with_target(*base, "sm_90a");
    CHECK(error_on(sm90a, "h200").empty());
    CHECK_THAT(error_on(sm90a, "rtx4090"), Catch::Contains("not made for the rtx4090 preset's sm_89"));
    // A family target (the toolkit names them from sm_100f on; the rule on the presets there are): sm_86f
    // runs on the 8.x family from 8.6 on (the RTX 4090's 8.9), not on the A100's 8.0 nor the H200's 9.0.
    const auto sm86f = with_target(*base, "sm_86f");
    CHECK(error_on(sm86f, "rtx4090").empty());
    CHECK_FALSE(error_on(sm86f, "a100").empty());
    CHECK_FALSE(error_on(sm86f, "h200").empty());
}

TEST_CASE("prepare for a device refuses PTX it cannot load; run_simulated does too", "[session][target]") {
    const std::string spec = std::string(WARPSIM_SOURCE_DIR) + "/examples/specs/vector_add_1000.json";
    auto refused = session::prepare(spec, "t4");
    REQUIRE_FALSE(refused.ok());
    CHECK_THAT(refused.error(), Catch::Contains("cudaErrorNoKernelImageForDevice"));
    CHECK(session::prepare(spec, "h200").ok());
    auto p = session::prepare(spec);
    REQUIRE(p.ok());
    session::SimOptions o;
    o.device = "a100";
    auto run = session::run_simulated(*p, o);
    REQUIRE_FALSE(run.ok());
    CHECK_THAT(run.error(), Catch::Contains("newer than the a100 preset's sm_80"));
}
