// tests/examples/seed_counts_test.cpp — the numbers the seed documents state, checked on the example specs:
// blocks and lanes of the vector add, sectors per request of the coalescing table, 32-way vs conflict-free
// shared columns, global reads of the 4x4 multiply, lanes under divergence. Every expected value is worked
// out by hand in the comment next to it (or quoted from the seed), never taken from a run.
#include <catch2/catch.hpp>

#include "tests/examples/example_support.hpp"

using namespace warpsim;
using namespace warpsim::examples_test;
using ir::Opcode;
using ir::Space;

TEST_CASE("vector add, n = 1000: 4 blocks, the last warp of the last block has 8 working lanes",
          "[examples][seed]") {
    for (const char* name : {"vector_add_1000", "vector_add_v2_1000"}) {
        INFO(name);
        const auto p = prepare_example(name);
        const auto run = simulate(p);
        REQUIRE_FALSE(run.report.error);
        // ceil(1000 / 256) = 4 blocks of 8 warps: the kernel's first instruction runs once per warp, 32
        // times.
        const auto* first = run.counters.line(p.kernel_index, 0);
        REQUIRE(first != nullptr);
        CHECK(first->warp_insts == 4 * 8);
        // The store runs in every warp with a lane i < 1000: all 32 warps, 1000 lanes in all; the first 31
        // warps are full (992 lanes), so the last one has 1000 - 992 = 8.
        const auto st = totals(p, run, Opcode::st, Space::global);
        CHECK(st.instructions == 1);
        CHECK(st.warp_insts == 32);
        CHECK(st.lanes == 1000);
        CHECK(st.lanes - 31 * 32 == 8);
        // Two loads per thread with i < n: 2000 thread-level reads.
        CHECK(totals(p, run, Opcode::ld, Space::global).lanes == 2000);
    }
}

TEST_CASE("coalescing: 4, 5, 8 and 32 sectors per request, 16 for float4", "[examples][seed]") {
    struct Case {
        const char* spec;
        uint64_t requests;      // blocks x warps per block (every warp is full and in range)
        uint64_t load_sectors;  // per request, from the seed's table
        uint64_t ideal;  // the bytes the lanes ask for, in sectors: 128 bytes = 4, float4 512 bytes = 16
    };
    // 128 blocks x 8 warps = 1024 requests; float4: 32 blocks x 8 warps = 256.
    const Case cases[] = {
        {"coalescing_stride1", 1024, 4, 4},         // bytes 0..127: sectors 0-3
        {"coalescing_offset1", 1024, 5, 4},         // bytes 4..131: sectors 0-4
        {"coalescing_strided_s1_o3", 1024, 5, 4},   // bytes 12..139: sectors 0-4
        {"coalescing_stride2", 1024, 8, 4},         // 256 bytes spanned, every other float
        {"coalescing_strided_s4_o0", 1024, 16, 4},  // 16 bytes apart: two lanes per sector
        {"coalescing_stride8", 1024, 32, 4},        // 32 bytes apart: a sector per lane
        {"coalescing_stride32", 1024, 32, 4},       // 128 bytes apart: a sector per lane
        {"coalescing_float4", 256, 16, 16},         // 32 lanes x 16 bytes = 512 bytes = 16 sectors
    };
    for (const auto& c : cases) {
        INFO(c.spec);
        const auto p = prepare_example(c.spec);
        const auto run = simulate(p);
        REQUIRE_FALSE(run.report.error);
        const auto ld = totals(p, run, Opcode::ld, Space::global);
        CHECK(ld.requests == c.requests);
        CHECK(ld.sectors == c.load_sectors * c.requests);
        CHECK(ld.ideal_sectors == c.ideal * c.requests);
        // out[i] is written with stride 1 and the same width: the ideal, 4 sectors per request (16 for
        // float4).
        const auto st = totals(p, run, Opcode::st, Space::global);
        CHECK(st.sectors == c.ideal * st.requests);
    }
}

TEST_CASE("the block shape decides coalescing: A[row * N + col] vs A[col * N + row]", "[examples][seed]") {
    // N = 1024, block (32, 8), grid (32, 128): 32 x 128 x 8 = 32768 warps, each one request.
    const auto good = prepare_example("block_shape_coalesced_1024");
    const auto good_run = simulate(good);
    const auto g = totals(good, good_run, Opcode::ld, Space::global);
    CHECK(g.requests == 32768);
    CHECK(g.sectors == 4 * g.requests);
    const auto bad = prepare_example("block_shape_uncoalesced_1024");
    const auto bad_run = simulate(bad);
    const auto b = totals(bad, bad_run, Opcode::ld, Space::global);
    CHECK(b.requests == 32768);
    CHECK(b.sectors == 32 * b.requests);  // lanes 4096 bytes apart
}

TEST_CASE("scale_matrix: x on columns reads rows, x on rows reads 32 sectors per warp", "[examples][seed]") {
    // M = N = 1000; a row is 4000 bytes = 125 sectors, so every row starts on a sector boundary.
    // Block (32, 8): a warp reads 32 consecutive floats of one row (4 sectors), except the last column block
    // (columns 992..999: 8 lanes, 1 sector): per row 31 x 4 + 1 = 125 sectors, exactly the ideal.
    const auto p = prepare_example("scale_matrix_1000_32x8");
    const auto run = simulate(p);
    const auto ld = totals(p, run, Opcode::ld, Space::global);
    CHECK(ld.requests == 32 * 1000);
    CHECK(ld.sectors == 125 * 1000);
    CHECK(ld.ideal_sectors == ld.sectors);
    // Swapped: lanes are 4000 bytes apart; 31 warps of 32 lanes and one of 8 per column: 1000 sectors per
    // column, 1,000,000 in all, where 125 per column (125,000) would do.
    const auto q = prepare_example("scale_matrix_swapped_1000");
    const auto qrun = simulate(q);
    const auto sw = totals(q, qrun, Opcode::ld, Space::global);
    CHECK(sw.requests == 32 * 1000);
    CHECK(sw.sectors == 1'000'000);
    CHECK(sw.ideal_sectors == 125'000);
}

TEST_CASE("shared tile read by columns: [32][32] is 32-way, [32][33] and the XOR swizzle are conflict-free",
          "[examples][seed]") {
    struct Case {
        const char* spec;
        uint64_t column_wavefronts;  // per request
    };
    // tile[c][r] with c = lane: word 32c + r is in bank r for every lane (32 words, one bank); with 33
    // columns word 33c + r is in bank (c + r) mod 32, all distinct; swizzled, element (c, r) sits at column r
    // ^ c, bank r ^ c, all distinct.
    const Case cases[] = {{"shared_tile_32x32", 32}, {"shared_tile_32x33", 1}, {"shared_tile_swizzle", 1}};
    for (const auto& c : cases) {
        INFO(c.spec);
        const auto p = prepare_example(c.spec);
        const auto run = simulate(p);
        REQUIRE_FALSE(run.report.error);
        // 64 blocks x 32 warps = 2048 requests for each shared instruction.
        const auto ld = totals(p, run, Opcode::ld, Space::shared);
        CHECK(ld.requests == 2048);
        CHECK(ld.wavefronts == c.column_wavefronts * ld.requests);
        CHECK(ld.ideal_wavefronts == ld.requests);
        const auto st = totals(p, run, Opcode::st, Space::shared);  // the row write: banks 0..31
        CHECK(st.wavefronts == st.requests);
    }
}

TEST_CASE("transpose: naive stores are one sector per lane, the tiled tile read is 32-way, padding fixes it",
          "[examples][seed]") {
    // 1024 x 1024, block (32, 8), 4 rows per thread: 32 x 32 blocks x 8 warps x 4 = 32768 requests per
    // access.
    const auto naive = prepare_example("transpose_naive_1024");
    const auto nrun = simulate(naive);
    const auto nst = totals(naive, nrun, Opcode::st, Space::global);
    CHECK(nst.requests == 32768);
    CHECK(nst.sectors == 32 * nst.requests);  // out[x * M + ...]: lanes 4096 bytes apart
    CHECK(totals(naive, nrun, Opcode::ld, Space::global).sectors == 4 * 32768);

    const auto tiled = prepare_example("transpose_tiled_1024");
    const auto trun = simulate(tiled);
    const auto tld = totals(tiled, trun, Opcode::ld, Space::shared);
    CHECK(tld.wavefronts == 32 * tld.requests);
    CHECK(totals(tiled, trun, Opcode::st, Space::global).sectors == 4 * 32768);

    const auto padded = prepare_example("transpose_padded_1024");
    const auto prun = simulate(padded);
    const auto pld = totals(padded, prun, Opcode::ld, Space::shared);
    CHECK(pld.wavefronts == pld.requests);
    CHECK(totals(padded, prun, Opcode::st, Space::global).sectors == 4 * 32768);
}

TEST_CASE("4x4 multiply: 128 global reads untiled, 64 with TILE 2", "[examples][seed]") {
    // Untiled: 16 outputs x (4 of A + 4 of B) = 128 reads. Tiled: 4 blocks x 2 phases x (4 + 4) = 64.
    const auto naive = prepare_example("matmul_naive_4x4");
    const auto nrun = simulate(naive);
    CHECK(totals(naive, nrun, Opcode::ld, Space::global).lanes == 128);
    const auto tiled = prepare_example("matmul_tiled2_4x4");
    const auto trun = simulate(tiled);
    CHECK(totals(tiled, trun, Opcode::ld, Space::global).lanes == 64);
    // Each block's warp has 4 of its 32 lanes: every instruction runs with 4 lanes.
    CHECK(trun.counters.stat(counts::Stat::thread_insts) == 4 * trun.counters.stat(counts::Stat::warp_insts));
}

TEST_CASE("TILE 32 at n = 128: the seed's 2 n^3 / TILE reads with the n = 4096 per-block behaviour",
          "[examples][seed]") {
    // 2 n^3 / TILE = 2 x 128^3 / 32 = 131072; untiled 2 n^3 = 4194304. At n = 4096 the same formulas give
    // 4.29e9 and 1.37e11 (the seed's figures), too many to simulate in a test.
    const auto tiled = prepare_example("matmul_tiled32_128", true);
    const auto trun = simulate(tiled);
    const auto tld = totals(tiled, trun, Opcode::ld, Space::global);
    CHECK(tld.lanes == 131072);
    CHECK(tld.sectors == 4 * tld.requests);  // rows of A and of B: 32 consecutive floats
    const auto sh = totals(tiled, trun, Opcode::ld, Space::shared);
    // Counted per SASS instruction: ptxas merges four neighbouring As[ty][k] loads into one LDS.128, a
    // broadcast that takes 2 wavefronts (SharedBankRules::h200); Bs[k][tx] stays 32 LDS of one word per bank,
    // 1 each. Per 32 k: 8 + 32 instructions, 16 + 32 wavefronts (the H200's ratio on matmul_tiled32_512:
    // 6,295,078 / 5,242,880 = 1.2, its 3,622 extra wavefronts aside).
    CHECK(sh.wavefronts * 5 == sh.requests * 6);
    const auto naive = prepare_example("matmul_naive_128", true);
    const auto nrun = simulate(naive);
    CHECK(totals(naive, nrun, Opcode::ld, Space::global).lanes == 4194304);
}

TEST_CASE("TILE 32 at n = 4096, stopped early: the counts of the blocks that ran keep the per-request ratios",
          "[examples][seed][.slow]") {
    const auto p = prepare_example("matmul_tiled32_4096");
    const auto run = simulate(p, 20'000'000);
    REQUIRE(run.report.error);  // the instruction budget, by design
    const auto ld = totals(p, run, Opcode::ld, Space::global);
    REQUIRE(ld.requests > 0);
    CHECK(ld.sectors == 4 * ld.requests);
    const auto sh = totals(p, run, Opcode::ld, Space::shared);
    CHECK(sh.wavefronts == sh.requests);
}

TEST_CASE("warp divergence: lanes split by parity run both paths at 16 lanes, warps split by parity at 32",
          "[examples][seed]") {
    // The heavy loops are the only fma instructions of each kernel.
    const auto d = prepare_example("divergence_lanes");
    const auto drun = simulate(d);
    const auto u = prepare_example("divergence_warps");
    const auto urun = simulate(u);
    uint64_t d_warps = 0, d_lanes = 0, u_warps = 0, u_lanes = 0;
    auto fma_totals = [](const session::PreparedLaunch& p, const session::SimRun& run, uint64_t& warps,
                         uint64_t& lanes) {
        for (const auto& [key, s] : run.counters.per_pc()) {
            if (p.module->functions.at(key.first).body.at(key.second).op != Opcode::fma) continue;
            warps += s.warp_insts;
            lanes += s.thread_insts;
        }
    };
    fma_totals(d, drun, d_warps, d_lanes);
    fma_totals(u, urun, u_warps, u_lanes);
    REQUIRE(d_warps > 0);
    REQUIRE(u_warps > 0);
    CHECK(d_lanes == 16 * d_warps);
    CHECK(u_lanes == 32 * u_warps);
    // Same thread-level work, twice the warp instructions when the paths split inside warps.
    CHECK(d_lanes == u_lanes);
    CHECK(d_warps == 2 * u_warps);
}
