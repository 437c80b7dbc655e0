// tests/engine/test_printf.cpp — device printf through vprintf: conversions, order (block, warp, lane).
#include <catch2/catch.hpp>

#include "sim/engine/printf.hpp"
#include "tests/engine/engine_harness.hpp"

using namespace warpsim;

TEST_CASE("printf from two blocks of two threads") {
    const auto& k = test::engine_kernels();
    const ir::Function* fn = test::kernel_named(k, "printf_kernel");
    REQUIRE(fn);
    engine::Simulator sim;
    test::Params p;
    p.add(int32_t{7});
    auto r = sim.launch(k.parsed.module, *fn, test::config({2, 1, 1}, {2, 1, 1}), p.span(), nullptr);
    INFO((r.error ? r.error->details : std::string()));
    REQUIRE(r.ok());
    CHECK(r.printf_output ==
          "b0 t0 x=7 f=0.00 s=hi c=A ll=7000000000 hex=ff\n"
          "b0 t1 x=7 f=1.50 s=hi c=B ll=7000000000 hex=ff\n"
          "b1 t0 x=7 f=0.00 s=hi c=A ll=7000000000 hex=ff\n"
          "b1 t1 x=7 f=1.50 s=hi c=B ll=7000000000 hex=ff\n");
}

TEST_CASE("packed printf arguments are naturally aligned") {
    // "%d %f %u": int at 0, double at 8, unsigned at 16.
    uint8_t args[24] = {};
    const int32_t i = -5;
    const double d = 2.25;
    const uint32_t u = 42;
    std::memcpy(args, &i, 4);
    std::memcpy(args + 8, &d, 8);
    std::memcpy(args + 16, &u, 4);
    CHECK(engine::format_device_printf("%d %f %u|%%|%5.1f|%-4d|", args, 20) ==
          "-5 2.250000 42|%|  0.0|0   |");
}
