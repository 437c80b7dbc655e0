// tests/examples/seed_values_test.cpp — what the seeds say the example kernels compute and how they launch:
// buffer contents read back through the simulator API, the occupancy table, waves, the barrier and the
// planted launch errors. Expected values are computed by hand (or by the seed's own formulas) in the test.
#include <cstring>

#include <catch2/catch.hpp>

#include "sim/device/device.hpp"
#include "sim/device/occupancy.hpp"
#include "sim/report/text_report.hpp"
#include "tests/examples/example_support.hpp"

using namespace warpsim;
using namespace warpsim::examples_test;

TEST_CASE("vector add: c[i] = a[i] + b[i] read back (both inputs iota, so c[999] = 999 + 999)",
          "[examples][seed]") {
    // The seed initialises a[i] = i, b[i] = 2i and prints out[999] = 2997; the spec initialises both with
    // iota, so c[i] = 2i and c[999] = 1998.
    for (const char* name : {"vector_add_1000", "vector_add_v2_1000", "vector_add_strided_1000"}) {
        INFO(name);
        const auto p = prepare_example(name);
        const auto r = run_and_read(p);
        REQUIRE(r.result.ok());
        const auto c = r.floats(2);
        REQUIRE(c.size() == 1000);
        CHECK(c[999] == 1998.0f);
        for (size_t i = 0; i < c.size(); ++i) {
            if (c[i] != 2.0f * static_cast<float>(i)) FAIL_CHECK("c[" << i << "] = " << c[i]);
        }
    }
}

TEST_CASE("4x4 multiply, untiled and TILE 2: C = A B with A = B = iota", "[examples][seed]") {
    // A[i][k] = 4i + k, B[k][j] = 4k + j: C[i][j] = sum over k of (4i + k)(4k + j), e.g. C[0][0] = 4(0+1+4+9)
    // = 56.
    float want[16];
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            int sum = 0;
            for (int k = 0; k < 4; ++k) sum += (4 * i + k) * (4 * k + j);
            want[4 * i + j] = static_cast<float>(sum);
        }
    CHECK(want[0] == 56.0f);
    for (const char* name : {"matmul_naive_4x4", "matmul_tiled2_4x4"}) {
        INFO(name);
        const auto r = run_and_read(prepare_example(name));
        REQUIRE(r.result.ok());
        const auto c = r.floats(2);
        for (int e = 0; e < 16; ++e) CHECK(c[e] == want[e]);
    }
}

TEST_CASE("reverse_blocks with its barrier reverses each block's slice", "[examples][seed]") {
    // out[b * 256 + t] = in[b * 256 + 255 - t], in = iota.
    const auto r = run_and_read(prepare_example("reverse_blocks_4096"));
    REQUIRE(r.result.ok());
    const auto out = r.floats(1);
    REQUIRE(out.size() == 4096);
    for (int i = 0; i < 4096; ++i) {
        const int b = i / 256, t = i % 256;
        if (out[i] != static_cast<float>(b * 256 + 255 - t)) FAIL_CHECK("out[" << i << "] = " << out[i]);
    }
}

TEST_CASE(
    "reverse_blocks without the barrier: warps run one after another, the first half reads unwritten slots",
    "[examples][seed]") {
    // The seed's sequential-warp schedule: warps 0-3 (t < 128) read slots 255 - t that warps 4-7 have not
    // written yet; warps 4-7 read slots warps 0-3 already wrote. The engine runs a warp until it waits, exits
    // or uses up its quantum, and this kernel is a few instructions long, so it follows the same schedule.
    const auto r = run_and_read(prepare_example("reverse_blocks_nosync_4096"));
    REQUIRE(r.result.ok());
    const auto out = r.floats(1);
    int wrong_first_half = 0, right_second_half = 0;
    for (int i = 0; i < 4096; ++i) {
        const int b = i / 256, t = i % 256;
        const bool right = out[i] == static_cast<float>(b * 256 + 255 - t);
        if (t < 128 && !right) ++wrong_first_half;
        if (t >= 128 && right) ++right_second_half;
    }
    CHECK(wrong_first_half == 16 * 128);
    CHECK(right_second_half == 16 * 128);
}

TEST_CASE("transpose: out = in^T for the naive, tiled and padded kernels", "[examples][seed]") {
    for (const char* name : {"transpose_naive_1024", "transpose_tiled_1024", "transpose_padded_1024",
                             "transpose_padded_1000x700"}) {
        INFO(name);
        const auto p = prepare_example(name);
        const auto r = run_and_read(p);
        REQUIRE(r.result.ok());
        // in is M x N (args 2, 3), out is N x M: out[x * M + y] = in[y * N + x] = y * N + x (iota).
        int32_t M = 0, N = 0;
        REQUIRE(p.spec.args[2].value.size() == 4);
        REQUIRE(p.spec.args[3].value.size() == 4);
        std::memcpy(&M, p.spec.args[2].value.data(), 4);
        std::memcpy(&N, p.spec.args[3].value.data(), 4);
        const auto out = r.floats(1);
        REQUIRE(out.size() == static_cast<size_t>(M) * N);
        int bad = 0;
        for (int y = 0; y < M; ++y)
            for (int x = 0; x < N; ++x)
                bad += out[static_cast<size_t>(x) * M + y] != static_cast<float>(y * N + x);
        CHECK(bad == 0);
    }
}

TEST_CASE("the seed's occupancy table, 256 threads per block on an H100/H200 (cc 9.0)", "[examples][seed]") {
    auto preset = device::load_preset("h200");
    REQUIRE(preset);
    struct Row {
        int regs;
        long long shared;
        int blocks;
    };
    // min(32, 2048/256 = 8, 65536 / (regs x 256), 228 KB / shared): the seed's resident_blocks().
    const Row rows[] = {{32, 0, 8}, {64, 0, 4}, {32, 48 * 1024, 4}, {80, 0, 3}};
    for (const auto& row : rows) {
        INFO(row.regs << " registers, " << row.shared << " bytes of shared memory");
        device::KernelResources k;
        k.threads_per_block = 256;
        k.registers_per_thread = row.regs;
        k.static_shared_bytes = row.shared;
        auto occ = device::compute_occupancy(preset.value(), k);
        REQUIRE(occ);
        CHECK(occ->blocks_per_sm == row.blocks);
        CHECK(occ->warps_per_sm == row.blocks * 8);
    }
}

TEST_CASE("the occupancy probe: 48 KB of static shared memory allows 4 blocks of 256 threads",
          "[examples][seed]") {
    const auto p = prepare_example("occupancy_static_shared_48k");
    auto preset = device::load_preset("h200");
    REQUIRE(preset);
    const auto regs = session::kernel_registers(p, preset.value());
    CHECK(regs.static_shared_bytes == 48 * 1024);
    auto occ = session::launch_occupancy(p, preset.value(), regs);
    REQUIRE(occ);
    CHECK(occ->blocks_per_sm == 4);  // floor(228 KB / (48 KB + 1 KB reserved)) = 4
}

TEST_CASE("waves: 1056 blocks are one wave at 8 blocks per SM on 132 SMs, 1057 need two",
          "[examples][seed]") {
    auto preset = device::load_preset("h200");
    REQUIRE(preset);
    CHECK(preset->sm_count == 132);
    for (const auto& [name, waves] : {std::pair{"waves_full_1056", 1}, std::pair{"waves_tail_1057", 2}}) {
        INFO(name);
        const auto p = prepare_example(name);
        const auto regs = session::kernel_registers(p, preset.value());
        auto occ = session::launch_occupancy(p, preset.value(), regs);
        REQUIRE(occ);
        CHECK(occ->blocks_per_sm == 8);  // 2048 / 256 threads; fixed_work needs few registers
        CHECK(report::wave_count(p.spec.block_count(), occ->blocks_per_sm, preset->sm_count) ==
              static_cast<uint64_t>(waves));
    }
}

TEST_CASE("launch errors: 2048 threads per block, a bad pointer, the off-by-one guard", "[examples][seed]") {
    {
        const auto p = prepare_example("launch_error_block_2048");
        const auto run = simulate(p);
        REQUIRE(run.report.error);
        CHECK(run.warp_instructions == 0);  // nothing ran: a block holds at most 1024 threads
    }
    {
        const auto p = prepare_example("launch_error_bad_pointer");
        const auto run = simulate(p);
        REQUIRE(run.report.error);
        CHECK(run.report.error->name == "cudaErrorIllegalAddress");
        CHECK_THAT(run.report.error->details, Catch::Contains("0x10"));
    }
    {
        // i <= n lets i = 1000 through: block 1000 / 256 = 3, thread 1000 - 768 = 232.
        const auto p = prepare_example("launch_error_off_by_one");
        const auto run = simulate(p);
        REQUIRE(run.report.error);
        CHECK(run.report.error->name == "cudaErrorIllegalAddress");
        CHECK_THAT(run.report.error->details, Catch::Contains("by thread (232,0,0) in block (3,0,0)"));
    }
}

// The specs say which message each failure should carry (expect_error, from the H200 and compute-sanitizer);
// `warpsim run` exits 0 only when the engine's message contains it.
TEST_CASE("launch errors carry the message their spec expects", "[examples][seed]") {
    for (const char* name :
         {"launch_error_block_2048", "launch_error_bad_pointer", "launch_error_off_by_one"}) {
        INFO(name);
        const auto p = prepare_example(name);
        const auto run = simulate(p);
        REQUIRE(run.report.error);
        REQUIRE(p.spec.expect_error);
        const auto& e = *run.report.error;
        const std::string all = e.name + "\n" + e.message + "\n" + e.details;
        CHECK_THAT(all, Catch::Contains(*p.spec.expect_error));
    }
}
