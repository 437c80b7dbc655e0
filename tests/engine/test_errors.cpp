// tests/engine/test_errors.cpp — launch-configuration errors, out-of-bounds and misaligned accesses with
// their descriptions, the instruction budget, and unsupported instructions.
#include <catch2/catch.hpp>

#include "tests/engine/engine_harness.hpp"

using namespace warpsim;

namespace {
const test::Kernel& launch_errors() {
    static const test::Kernel k =
        test::parse(test::read_text(std::string(WARPSIM_SOURCE_DIR) + "/examples/launch_errors.ptx"));
    return k;
}
bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("launch configuration errors are reported before anything runs") {
    const auto& k = launch_errors();
    REQUIRE(k.parsed.ok());
    const ir::Function* fn = test::kernel_named(k, "fill_ones");
    REQUIRE(fn);
    engine::Simulator sim;
    const uint64_t out = test::upload(sim, std::vector<float>(2048, 0.0f));
    test::Params p;
    p.add(out).add(int32_t{2048});
    auto expect_error = [&](engine::LaunchConfig cfg, const char* name, const char* message) {
        auto r = sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error->name == name);
        CHECK(r.error->message == message);
        CHECK(r.warp_instructions == 0);
        auto data = test::download<float>(sim, out, 2048);
        for (float v : data) REQUIRE(v == 0.0f);  // nothing ran, nothing was written
    };
    // Zero, oversized blocks and grids: "invalid argument", as an H200 with CUDA 13 answered
    // (tests/hardware/h200/results.json; tests/hardware/programs/h200/results.json, error.grid_zero and
    // error.grid_y_too_big through the runtime API).
    const char* inval_arg = "invalid argument";
    expect_error(test::config({1, 1, 1}, {1025, 1, 1}), "cudaErrorInvalidValue", inval_arg);
    expect_error(test::config({1, 1, 1}, {32, 32, 2}), "cudaErrorInvalidValue", inval_arg);
    expect_error(test::config({1, 1, 1}, {1, 1, 65}), "cudaErrorInvalidValue", inval_arg);
    expect_error(test::config({0, 1, 1}, {32, 1, 1}), "cudaErrorInvalidValue", inval_arg);
    expect_error(test::config({1, 65536, 1}, {32, 1, 1}), "cudaErrorInvalidValue", inval_arg);
    expect_error(test::config({1, 1, 1}, {0, 1, 1}), "cudaErrorInvalidValue", inval_arg);
    auto regs = test::config({1, 1, 1}, {1024, 1, 1});
    regs.registers_per_thread = 65;
    expect_error(regs, "cudaErrorLaunchOutOfResources", "too many resources requested for launch");
    regs.registers_per_thread = 64;  // exactly 65536: fits
    CHECK(sim.launch(k.parsed.module, *fn, regs, p.span(), nullptr).ok());
    sim.write(out, std::vector<uint8_t>(2048 * 4, 0));
    auto shared = test::config({1, 1, 1}, {32, 1, 1});
    // More dynamic shared memory than the limit: "invalid argument" on the H200
    // (error.dyn_shared_48k_plus_1).
    shared.dynamic_shared_bytes = 48 * 1024 + 4;
    expect_error(shared, "cudaErrorInvalidValue", inval_arg);
    shared.max_dynamic_shared_optin = 100 * 1024;  // opted in: allowed
    CHECK(sim.launch(k.parsed.module, *fn, shared, p.span(), nullptr).ok());
    sim.write(out, std::vector<uint8_t>(2048 * 4, 0));
    shared.dynamic_shared_bytes = 100 * 1024 + 1;  // one byte past the opt-in (error.dyn_shared_optin)
    expect_error(shared, "cudaErrorInvalidValue", inval_arg);
}

TEST_CASE("reading one element past the end is caught and explained") {
    const auto& k = launch_errors();
    const ir::Function* fn = test::kernel_named(k, "vecAdd_off_by_one");
    REQUIRE(fn);
    engine::Simulator sim;
    const int n = 1000;
    const uint64_t a = sim.malloc(n * 4), b = sim.malloc(n * 4), c = sim.malloc(n * 4);
    test::Params p;
    p.add(a).add(b).add(c).add(int32_t{n});
    auto r = sim.launch(k.parsed.module, *fn, test::config({4, 1, 1}, {256, 1, 1}), p.span(), nullptr);
    REQUIRE_FALSE(r.ok());
    INFO(r.error->details);
    CHECK(r.error->name == "cudaErrorIllegalAddress");
    CHECK(r.error->message == "an illegal memory access was encountered");
    REQUIRE(r.error->where.address.has_value());
    CHECK(r.error->where.access_bytes == 4);
    CHECK(r.error->where.block == std::array<uint32_t, 3>{3, 0, 0});
    CHECK(r.error->where.thread == std::array<uint32_t, 3>{232, 0, 0});  // i = 3*256 + 232 = 1000
    CHECK(r.error->where.nearest.distance == 0);                         // right at the end
    CHECK(contains(r.error->details, "is out of bounds"));               // compute-sanitizer's words
    CHECK(contains(r.error->details, "0 bytes after the nearest allocation"));
    CHECK(contains(r.error->details, "of size 4000 bytes"));
    CHECK(contains(r.error->details, "may go unnoticed"));
    CHECK(contains(r.error->details, "launch_errors.cu:"));
}

TEST_CASE("a wild pointer names no allocation") {
    const auto& k = launch_errors();
    const ir::Function* fn = test::kernel_named(k, "write_bad_pointer");
    REQUIRE(fn);
    engine::Simulator sim;
    test::Params p;
    p.add(uint64_t{0x10});
    auto r = sim.launch(k.parsed.module, *fn, test::config({1, 1, 1}, {32, 1, 1}), p.span(), nullptr);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error->name == "cudaErrorIllegalAddress");
    CHECK(r.error->where.access == "write");
    CHECK(*r.error->where.address == 0x10);
    CHECK(r.error->where.thread == std::array<uint32_t, 3>{0, 0, 0});
}

TEST_CASE("a misaligned float4 load is a misaligned address") {
    const auto& k = launch_errors();
    const ir::Function* fn = test::kernel_named(k, "misaligned_float4");
    REQUIRE(fn);
    engine::Simulator sim;
    const uint64_t in = sim.malloc(4096), out = sim.malloc(4096);
    test::Params p;
    p.add(in).add(out);
    auto r = sim.launch(k.parsed.module, *fn, test::config({1, 1, 1}, {32, 1, 1}), p.span(), nullptr);
    REQUIRE_FALSE(r.ok());
    INFO(r.error->details);
    CHECK(r.error->name == "cudaErrorMisalignedAddress");
    CHECK(r.error->message == "misaligned address");
    CHECK(r.error->where.access_bytes == 16);
    CHECK(*r.error->where.address == in + 4);
}

TEST_CASE("a kernel past its instruction budget stops and names its loop") {
    const auto& k = test::engine_kernels();
    const ir::Function* fn = test::kernel_named(k, "spin");
    REQUIRE(fn);
    engine::Simulator sim;
    const uint64_t flag = test::upload(sim, std::vector<int32_t>{0});
    test::Params p;
    p.add(flag);
    auto cfg = test::config({1, 1, 1}, {32, 1, 1});
    cfg.max_instructions = 1'000'000;
    auto r = sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr);
    REQUIRE_FALSE(r.ok());
    INFO(r.error->details);
    CHECK(r.error->name == "cudaErrorLaunchTimeout");
    CHECK(r.error->kind == engine::Fault::budget_exhausted);
    CHECK(contains(r.error->details, "instruction budget of 1000000"));
    CHECK(contains(r.error->details, "engine_kernels.cu:85"));
}

TEST_CASE("an instruction the engine does not execute is reported by name and line") {
    const char* ptx = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<3>;
    mov.u32 %r1, 1;
    vadd.s32.s32.s32 %r2, %r1, %r1;
    ret;
}
)";
    auto k = test::parse(ptx);
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    test::Params p;
    p.add(uint64_t{0});
    auto r = sim.launch(k.parsed.module, k.parsed.module.functions[0], test::config({1, 1, 1}, {32, 1, 1}),
                        p.span(), nullptr);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error->message == "warpsim does not execute `vadd.s32.s32.s32` yet (test.ptx:9)");
}

TEST_CASE("__launch_bounds__(256) refuses a block of 512 threads and accepts 256 (H200: invalid argument)") {
    const auto& k = launch_errors();
    const ir::Function* fn = test::kernel_named(k, "bounded_256");
    REQUIRE(fn);
    REQUIRE(fn->perf.maxntid[0] == 256);
    engine::Simulator sim;
    const uint64_t out = sim.malloc(512 * 4);
    test::Params p;
    p.add(out).add(int32_t{512});
    auto r = sim.launch(k.parsed.module, *fn, test::config({1, 1, 1}, {512, 1, 1}), p.span(), nullptr);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error->name == "cudaErrorInvalidValue");
    CHECK(r.error->message == "invalid argument");
    CHECK(contains(r.error->details, "at most 256"));
    CHECK(sim.launch(k.parsed.module, *fn, test::config({2, 1, 1}, {256, 1, 1}), p.span(), nullptr).ok());
}
