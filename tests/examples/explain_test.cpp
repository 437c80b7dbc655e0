// tests/examples/explain_test.cpp — `warpsim explain` on the examples: per-lane addresses, sectors, banks and
// passes of one chosen warp, worked out by hand from the kernels' index arithmetic, and the errors for lines
// that cannot be explained.
#include <algorithm>
#include <bit>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "sim/report/explain.hpp"
#include "tests/examples/example_support.hpp"

using namespace warpsim;
using namespace warpsim::examples_test;

namespace {

struct Explained {
    session::PreparedLaunch p;
    session::SimRun run;
};

Explained prepared_run(const std::string& name, bool ours = false) {
    Explained e{prepare_example(name, ours), {}};
    e.run = simulate(e.p);
    return e;
}

report::Explanation explain_ok(const Explained& e, const report::ExplainRequest& r) {
    auto x = report::explain_line(e.p, e.run, r);
    INFO((x ? std::string() : x.error()));
    REQUIRE(x.ok());
    return std::move(x.value());
}

std::string explain_error(const Explained& e, const report::ExplainRequest& r) {
    auto x = report::explain_line(e.p, e.run, r);
    REQUIRE_FALSE(x.ok());
    return x.error();
}

}  // namespace

TEST_CASE("explain: the naive transpose reads 4 sectors and writes 32, 4096 bytes apart",
          "[examples][explain]") {
    auto e = prepared_run("transpose_naive_1024");
    report::ExplainRequest r;
    r.line = 10;  // if (x < N && y + j < M) out[x * M + (y + j)] = in[(y + j) * N + x];
    const auto x = explain_ok(e, r);
    CHECK(x.source_file == "transpose.cu");
    // Block (0,0,0) warp 0 is the first warp to reach the line; it runs it for j = 0, 8, 16, 24.
    REQUIRE(x.block);
    CHECK(*x.block == std::array<uint32_t, 3>{0, 0, 0});
    CHECK(x.warp == 0);
    REQUIRE(x.accesses.size() == 2);
    const auto& ld = x.accesses[0];
    const auto& st = x.accesses[1];
    CHECK(ld.what == "global load");
    CHECK(ld.from_chosen_warp);
    CHECK(ld.sample.executions == 4);
    // in[(y + j) * N + x], lanes x = 0..31: 128 contiguous bytes from a 32-byte boundary.
    CHECK(ld.warp_cost.requests == 1);
    CHECK(ld.warp_cost.sectors == 4);
    CHECK(ld.warp_cost.ideal_sectors == 4);
    CHECK(ld.sectors.size() == 4);
    CHECK_THAT(ld.why, Catch::Contains("consecutive 4-byte elements"));
    // out[x * M + (y + j)] with M = 1024: lane l writes 4096 * l bytes after lane 0, sector 128 * l after
    // its.
    CHECK(st.what == "global store");
    CHECK(st.warp_cost.sectors == 32);
    CHECK(st.warp_cost.ideal_sectors == 4);
    REQUIRE(st.sectors.size() == 32);
    for (uint32_t l = 0; l < 32; ++l) {
        CHECK(st.sample.first.addr[l] - st.sample.first.addr[0] == 4096ull * l);
        CHECK(st.sectors[l] - st.sectors[0] == 128ull * l);
    }
    CHECK_THAT(st.why, Catch::Contains("4096 bytes apart"));
    // The whole run: 32 x 32 blocks x 8 warps x 4 iterations = 32768 requests of each.
    CHECK(st.run_cost.requests == 32768);
    CHECK(st.run_cost.sectors == 32768ull * 32);

    // The sector list is part of the lane-by-lane view (--lanes), not of the summary.
    CHECK_THAT(report::explain_text(x), !Catch::Contains("32 sectors, 128 apart"));
    const std::string text = report::explain_text(x, true);
    CHECK_THAT(text, Catch::Contains("+0 +128 +256 ... +3968: 32 sectors, 128 apart"));
    for (size_t pos = 0, next; pos < text.size(); pos = next + 1) {
        next = text.find('\n', pos);
        if (next == std::string::npos) next = text.size();
        INFO(text.substr(pos, next - pos));
        CHECK(next - pos <= 110);
    }
}

TEST_CASE("explain: the column read of tile[32][32] puts warp 0 in bank 0 32 times, [32][33] in 32 banks",
          "[examples][explain]") {
    report::ExplainRequest r;
    r.line = 11;  // out[base + r * 32 + c] = tile[c][r];
    r.block = std::array<uint32_t, 3>{0, 0, 0};
    r.warp = 0;  // threads (0..31, 0): r = 0, c = lane
    {
        auto e = prepared_run("shared_tile_32x32");
        const auto x = explain_ok(e, r);
        CHECK(x.warp_fully_named);
        const report::ExplainedAccess* ld = nullptr;
        for (const auto& a : x.accesses)
            if (a.what == "shared load") ld = &a;
        REQUIRE(ld != nullptr);
        // tile[c][0] is word 32 c: byte offset 128 c after the 1 KB the driver reserves, bank 0 for every
        // lane.
        for (uint32_t l = 0; l < 32; ++l) {
            CHECK(ld->sample.first.addr[l] == 1024 + 128ull * l);
            CHECK(report::lane_bank(ld->sample.first, l) == 0);
        }
        CHECK(ld->warp_cost.wavefronts == 32);
        CHECK(ld->warp_cost.ideal_wavefronts == 1);
        REQUIRE(ld->passes.size() == 1);
        CHECK(ld->passes[0].first_lane == 0);
        CHECK(ld->passes[0].last_lane == 31);
        CHECK(ld->passes[0].max_way == 32);
        CHECK(ld->passes[0].worst_bank == 0);
        CHECK_THAT(ld->why, Catch::Contains("32-way bank conflict") && Catch::Contains("bank 0"));
        CHECK_THAT(report::explain_text(x, true),
                   Catch::Contains("lanes 0-31: 32 wavefronts where 1 would do (bank 0 is asked for 32 "
                                   "different words)"));
    }
    {
        auto e = prepared_run("shared_tile_32x33");
        r.line = 20;  // the same statement in tile_32x33
        const auto x = explain_ok(e, r);
        const report::ExplainedAccess* ld = nullptr;
        for (const auto& a : x.accesses)
            if (a.what == "shared load") ld = &a;
        REQUIRE(ld != nullptr);
        // tile[c][0] is word 33 c (after the 1 KB reservation), bank 33 c mod 32 = c.
        for (uint32_t l = 0; l < 32; ++l) {
            CHECK(ld->sample.first.addr[l] == 1024 + 132ull * l);
            CHECK(report::lane_bank(ld->sample.first, l) == l);
        }
        CHECK(ld->warp_cost.wavefronts == 1);
        CHECK(ld->passes.size() == 1);
        CHECK_THAT(ld->why, Catch::Contains("no bank conflict"));
    }
}

TEST_CASE("explain: vector add n = 1000, block 3 warp 7 has 8 lanes in one sector", "[examples][explain]") {
    auto e = prepared_run("vector_add_1000");
    report::ExplainRequest r;
    r.line = 9;  // c[i] = a[i] + b[i];
    r.block = std::array<uint32_t, 3>{3, 0, 0};
    r.warp = 7;  // i = 3 * 256 + 7 * 32 + lane = 992 + lane: lanes 0-7 pass i < 1000
    const auto x = explain_ok(e, r);
    REQUIRE(x.accesses.size() == 3);  // a[i], b[i], c[i]
    for (const auto& a : x.accesses) {
        CHECK(a.from_chosen_warp);
        CHECK(a.sample.first.block.linear == 3);
        CHECK(a.sample.first.warp == 7);
        CHECK(a.sample.first.active_mask == 0xffu);
        // Element 992 is byte 3968 = 124 sectors into its 256-byte-aligned buffer: 32 bytes in one sector.
        CHECK(a.sample.first.addr[0] % 32 == 0);
        CHECK(a.warp_cost.sectors == 1);
        CHECK(a.warp_cost.ideal_sectors == 1);
        CHECK(a.sample.executions == 1);
    }
    CHECK(x.accesses[2].what == "global store");
    const auto j = report::explain_json(x);
    CHECK(j["line"] == 9);
    CHECK(j["warp"]["block"] == nlohmann::ordered_json::array({3, 0, 0}));
    CHECK(j["accesses"][0]["lanes"].size() == 8);
    CHECK(j["accesses"][0]["lanes"][7]["thread"] == nlohmann::ordered_json::array({231, 0, 0}));
    CHECK(j["accesses"][0]["this_warp"]["sectors"] == 1);
    CHECK(j["accesses"][0]["run"]["requests"] == 32);
}

TEST_CASE("explain: threads of a lane in a 2-D block", "[examples][explain]") {
    // Block (8, 32): thread 32 w + l of the block; warp 1 lane 9 is thread 41 = (41 mod 8, 41 / 8) = (1, 5).
    CHECK(report::lane_thread({8, 32, 1}, 1, 9) == std::array<uint32_t, 3>{1, 5, 0});
    // Block (16, 4, 2): 64 threads per z slice; warp 2 lane 0 is thread 64 = (0, 0, 1).
    CHECK(report::lane_thread({16, 4, 2}, 2, 0) == std::array<uint32_t, 3>{0, 0, 1});
}

TEST_CASE("explain: lines it cannot explain are errors that name the spec, the line and what to do",
          "[examples][explain]") {
    auto e = prepared_run("vector_add_1000");
    report::ExplainRequest r;
    r.line = 7;  // int i = blockIdx.x * blockDim.x + threadIdx.x;
    auto msg = explain_error(e, r);
    CHECK_THAT(msg, Catch::Contains("vector_add_1000.json") && Catch::Contains("line 7 of vector_add.cu") &&
                        Catch::Contains("no memory instruction") && Catch::Contains("--line 9"));
    r.line = 99;
    CHECK_THAT(explain_error(e, r),
               Catch::Contains("line 99 of vector_add.cu holds no instruction of kernel vecAdd"));
    r.line = 9;
    r.block = std::array<uint32_t, 3>{4, 0, 0};
    CHECK_THAT(explain_error(e, r), Catch::Contains("--block 4,0,0 is outside the grid (4,1,1)"));
    r.block.reset();
    r.warp = 8;
    CHECK_THAT(explain_error(e, r), Catch::Contains("--warp 8: a block of 256 threads has 8 warps (0 to 7)"));
    r.warp.reset();
    r.ptx_line = 51;  // both given
    CHECK_THAT(explain_error(e, r), Catch::Contains("--line N") && Catch::Contains("--ptx-line N"));

    // n = 0: every thread skips the store; the line has memory instructions but none ran.
    auto n0 = prepared_run("vector_add_n0", true);
    report::ExplainRequest line9;
    line9.line = 9;
    CHECK_THAT(explain_error(n0, line9),
               Catch::Contains("vector_add_n0.json") && Catch::Contains("line 9 of vector_add.cu") &&
                   Catch::Contains("no warp executed them") && Catch::Contains("skipped it"));
}

TEST_CASE("explain: atomicAdd inlined from a CUDA header is found under the calling line and the header's",
          "[examples][explain]") {
    auto e = prepared_run("grid_sum_int_65536");
    report::ExplainRequest r;
    // if (threadIdx.x % 32 == 0) atomicAdd(total, v);  -- PTX 256-258: `.loc 1 32 5`, `.loc 3 107 3,
    // function_name $L__info_string3, inlined_at 1 32 5`, atom.global.add.u32
    r.line = 32;
    const auto call = explain_ok(e, r);
    CHECK(call.source_file == "warp_reduce.cu");
    REQUIRE(call.accesses.size() == 1);
    CHECK(call.accesses[0].ptx_line == 258);
    CHECK(call.accesses[0].inlined ==
          "device_atomic_functions.hpp:107 in atomicAdd, inlined from warp_reduce.cu:32");
    r.line = 107;
    const auto x = explain_ok(e, r);
    CHECK(x.source_file == "device_atomic_functions.hpp");
    REQUIRE(x.accesses.size() == 1);
    const auto& a = x.accesses[0];
    CHECK(a.what == "global atomic");
    // Lane 0 of each warp adds its warp's sum: one lane, 4 bytes, one sector.
    CHECK(a.sample.first.active_mask == 1u);
    CHECK(a.warp_cost.sectors == 1);
    CHECK(a.warp_cost.ideal_sectors == 1);
    // A line of neither file: the hint names the kernel's access lines, the atomic at its calling line 32.
    r.line = 33;
    CHECK_THAT(explain_error(e, r), Catch::Contains("try --line") && Catch::Contains("32") &&
                                        !Catch::Contains("(of device_atomic_functions.hpp)"));
}

TEST_CASE("explain: 16-byte shared loads go in two half-warp passes; two words per bank there is no conflict",
          "[examples][explain]") {
    auto p = session::prepare(std::string(WARPSIM_SOURCE_DIR) + "/tests/specs/bank_patterns_wide.json");
    REQUIRE(p.ok());
    Explained e{std::move(p.value()), {}};
    e.run = simulate(e.p);
    report::ExplainRequest r;
    r.line = 32;  // float4 c = s4[lane];
    r.block = std::array<uint32_t, 3>{0, 0, 0};
    r.warp = 0;
    const auto x = explain_ok(e, r);
    REQUIRE(x.accesses.size() == 1);
    const auto& a = x.accesses[0];
    // Lane l reads words 4l..4l+3. A pass of 16 lanes asks for 64 distinct words: 2 per bank, 2 wavefronts,
    // which is also its ideal (ceil(64 / 32)); two passes make 4.
    REQUIRE(a.passes.size() == 2);
    CHECK(a.passes[0].first_lane == 0);
    CHECK(a.passes[0].last_lane == 15);
    CHECK(a.passes[1].first_lane == 16);
    for (const auto& pass : a.passes) {
        CHECK(pass.wavefronts == 2);
        CHECK(pass.ideal == 2);
    }
    CHECK(a.warp_cost.wavefronts == 4);
    CHECK(a.warp_cost.ideal_wavefronts == 4);
    CHECK_THAT(a.why, Catch::Contains("no bank conflict"));
    const std::string text = report::explain_text(x, true);
    CHECK(text.find("bank conflict)") == std::string::npos);
    CHECK_THAT(text, Catch::Contains("lanes 0-15: 2 wavefronts; lanes 16-31: 2 wavefronts"));
}

TEST_CASE("explain: an atomicAdd whose old value is unused costs what the run counts (a reduction)",
          "[examples][explain]") {
    // tests/ptx/atomics_global.cu:12 `atomicAdd(&counters[0], 1);` -> `atom.global.add.u32 %r15, [%rd8], 1;`
    // and %r15 is never read: ptxas emits RED, the engine runs and counts it as one. All 32 lanes of a warp
    // add to one word: one request, one 32-byte sector (the warp's adds combine), not one sector per lane.
    auto p = session::prepare(std::string(WARPSIM_SOURCE_DIR) + "/tests/specs/atomic_int_global.json");
    REQUIRE(p.ok());
    Explained e{std::move(p.value()), {}};
    e.run = simulate(e.p);
    report::ExplainRequest r;
    r.line = 12;
    const auto x = explain_ok(e, r);
    REQUIRE(x.accesses.size() == 1);
    const auto& a = x.accesses[0];
    CHECK(a.sample.first.active_mask == 0xffffffffu);
    CHECK(a.warp_cost.requests == 1);
    CHECK(a.warp_cost.sectors == 1);
    // The run's own counters for the line: 16 blocks x 8 warps, each one request and one sector.
    CHECK(a.run_cost.requests == 128);
    CHECK(a.run_cost.sectors == 128);
}

TEST_CASE("explain: a branch on lane parity splits every warp; one on warp parity splits none",
          "[examples][explain][branch]") {
    // divergence.cu line 17: if ((threadIdx.x & 1) == 0) x = heavy_path_a(...) else x = heavy_path_b(...).
    auto lanes = prepared_run("divergence_lanes");
    report::ExplainRequest r;
    r.line = 17;
    const auto x = explain_ok(lanes, r);
    CHECK(x.accesses.empty());
    REQUIRE(x.branches.size() == 1);
    const auto& b = x.branches[0];
    REQUIRE(b.sampled);
    CHECK(b.from_chosen_warp);
    CHECK_FALSE(b.backward);
    // The PTX jumps on "even" (not odd) to the inlined heavy_path_a (line 18); the odd lanes go on to
    // line 20.
    CHECK(b.sample.first.active_mask == 0xffffffffu);
    CHECK(b.taken.lanes == 0x55555555u);
    CHECK(b.not_taken.lanes == 0xaaaaaaaau);
    CHECK(b.taken.line == 18);
    CHECK(b.not_taken.line == 20);
    CHECK_FALSE(b.meets_at_exit);
    // 132 blocks of 8 warps each reach the branch once.
    CHECK(b.run_executions == 132 * 8);
    CHECK(b.sample.all_split == b.sample.all_executions);
    // Every warp runs both sides with half its lanes.
    REQUIRE(b.taken.warp_insts > 0);
    REQUIRE(b.not_taken.warp_insts > 0);
    CHECK(b.taken.thread_insts == 16 * b.taken.warp_insts);
    CHECK(b.not_taken.thread_insts == 16 * b.not_taken.warp_insts);
    CHECK_THAT(b.why, Catch::Contains("disagree on the condition"));
    const std::string text = report::explain_text(x);
    CHECK_THAT(text,
               Catch::Contains("the 16 even lanes jump to line 18") && Catch::Contains("at 16.0 active"));

    // divergence.cu line 27: if (((threadIdx.x / 32) & 1) == 0): whole warps go one way.
    auto warps = prepared_run("divergence_warps");
    r.line = 27;
    const auto y = explain_ok(warps, r);
    REQUIRE(y.branches.size() == 1);
    const auto& u = y.branches[0];
    REQUIRE(u.sampled);
    CHECK(u.sample.all_split == 0);
    CHECK(u.sample.first.taken_mask == 0xffffffffu);  // warp 0 is even: all its lanes jump
    CHECK(u.not_taken.lanes == 0);
    CHECK(u.taken.thread_insts == 32 * u.taken.warp_insts);
    CHECK(u.not_taken.thread_insts == 32 * u.not_taken.warp_insts);
    // The same work in half the issue slots: every warp of the split version runs both sides.
    CHECK(b.taken.warp_insts == 2 * u.taken.warp_insts);
    CHECK(b.not_taken.warp_insts == 2 * u.not_taken.warp_insts);
    CHECK_THAT(u.why, Catch::Contains("went the same way") && Catch::Contains("0 of"));
    const auto j = report::explain_json(y);
    REQUIRE(j["branches"].size() == 1);
    CHECK(j["branches"][0]["sample"]["split"] == 0);
}

TEST_CASE(
    "explain: the shuffles of a warp reduction read lane i+16, i+8, ... and keep their own value past 31",
    "[examples][explain][shuffle]") {
    // warp_reduce.cu line 6: v += __shfl_down_sync(0xffffffffu, v, offset) for offset 16, 8, 4, 2, 1,
    // unrolled by the compiler, in both calls of warp_reduce_sum (lines 14 and 21).
    auto e = prepared_run("block_sum_1000");
    report::ExplainRequest r;
    r.line = 6;
    r.block = std::array<uint32_t, 3>{0, 0, 0};
    r.warp = 0;
    const auto x = explain_ok(e, r);
    REQUIRE(x.collectives.size() >= 5);
    const uint32_t offsets[] = {16, 8, 4, 2, 1};
    for (size_t k = 0; k < 5; ++k) {
        const auto& c = x.collectives[k];
        INFO("shuffle " << k << ": " << c.instruction);
        REQUIRE(c.sampled);
        CHECK(c.what == "shuffle down");
        const auto& ev = c.sample.first;
        CHECK(ev.executing_mask == 0xffffffffu);
        // Clamp 31, no segments: lane l reads l + offset while that is at most 31.
        const uint32_t in_range = offsets[k] == 16 ? 0x0000ffffu : (1u << (32 - offsets[k])) - 1u;
        CHECK(ev.in_range_mask == in_range);
        for (uint32_t l = 0; l < 32 - offsets[k]; ++l) CHECK(ev.source_lane[l] == l + offsets[k]);
        CHECK_THAT(c.pattern, Catch::Contains(fmt::format("lane i reads lane i+{}", offsets[k])));
    }
    CHECK_THAT(report::explain_text(x), Catch::Contains("keep their own value"));
    // The summary gives each of the 10 shuffles one entry and the reason once; the tables of which lane each
    // lane read come with --lanes (one per shuffle). Lane 31 is alone past the end for offset 1.
    REQUIRE(x.collectives.size() == 10);
    const std::string text = report::explain_text(x);
    CHECK_THAT(text, !Catch::Contains("lane thread"));
    CHECK_THAT(
        x.collectives[4].pattern,
        Catch::Contains("lane 31 asks for a lane past the end of its segment and keeps its own value"));
    size_t whys = 0;
    for (size_t at = text.find("\n  why "); at != std::string::npos; at = text.find("\n  why ", at + 1))
        ++whys;
    CHECK(whys == 1);
    CHECK(std::count(text.begin(), text.end(), '\n') <= 32);
    const std::string full = report::explain_text(x, true);
    size_t tables = 0;
    for (size_t at = full.find("\n  lane thread       reads"); at != std::string::npos;
         at = full.find("\n  lane thread       reads", at + 1))
        ++tables;
    CHECK(tables == 10);
}

TEST_CASE("explain: a ballot shows which lanes voted true; inside a branch only the lanes that took it vote",
          "[examples][explain][vote]") {
    auto p = session::prepare(std::string(WARPSIM_SOURCE_DIR) + "/tests/specs/vote_ops.json");
    REQUIRE(p.ok());
    Explained e{std::move(p.value()), {}};
    e.run = simulate(e.p);
    report::ExplainRequest r;
    r.line = 10;  // __ballot_sync(0xffffffffu, (v * 7) % 3 == 0) with v = i: warp 0's lanes 0, 3, ..., 30
    r.block = std::array<uint32_t, 3>{0, 0, 0};
    r.warp = 0;
    const auto x = explain_ok(e, r);
    REQUIRE(x.collectives.size() == 1);
    CHECK(x.collectives[0].sample.first.vote_true_mask == 0x49249249u);
    r.line = 14;  // if (threadIdx.x % 3 == 0) ... __ballot_sync(active, v & 1): lanes 3, 9, 15, 21, 27
    const auto y = explain_ok(e, r);
    REQUIRE(y.collectives.size() == 1);
    const auto& ev = y.collectives[0].sample.first;
    CHECK(ev.executing_mask == 0x49249249u);
    CHECK((ev.vote_true_mask & ev.executing_mask) == 0x08208208u);
    CHECK_THAT(y.collectives[0].pattern,
               Catch::Contains("5 of the 11 executing lanes") && Catch::Contains("0x08208208"));
}

TEST_CASE("explain: the tiled matmul's addresses are named A and As, B and Bs, as check names them",
          "[examples][explain]") {
    // matmul.cu (TILE 32, n = 128): As and Bs are .b8 arrays of 4096 bytes in the PTX, so their elements are
    // counted in 4-byte units (As[ty][tx] is element 32 ty + tx); A and B are named after the C++ parameters.
    auto e = prepared_run("matmul_tiled32_128", true);
    report::ExplainRequest r;
    r.block = std::array<uint32_t, 3>{0, 0, 0};
    const std::string unit = " (in 4-byte elements)";
    {
        r.line = 24;  // As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
        r.warp = 0;   // ty = 0, row = 0; the first execution is t = 0: A[lane] into As[0][lane]
        const auto x = explain_ok(e, r);
        REQUIRE(x.accesses.size() == 2);
        const auto& ld = x.accesses[0];
        const auto& st = x.accesses[1];
        CHECK(ld.what == "global load");
        CHECK(ld.arrays == std::vector<std::string>{"args[0] A"});
        CHECK(ld.span == "A[0] to A[31]");
        CHECK(st.what == "shared store");
        CHECK(st.arrays == std::vector<std::string>{"As"});
        CHECK(st.span == "As[0] to As[31]" + unit);
        for (uint32_t l = 0; l < 32; ++l) {
            CHECK(ld.lane_names[l] == fmt::format("args[0] A[{}]", l));
            CHECK(st.lane_names[l] == fmt::format("As[{}]{}", l, unit));
        }
    }
    {
        r.line = 25;  // Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
        r.warp = 1;   // ty = 1, t = 0: B[128 + lane] into Bs[1][lane], element 32 + lane
        const auto x = explain_ok(e, r);
        REQUIRE(x.accesses.size() == 2);
        CHECK(x.accesses[0].arrays == std::vector<std::string>{"args[1] B"});
        CHECK(x.accesses[1].arrays == std::vector<std::string>{"Bs"});
        for (uint32_t l = 0; l < 32; ++l) {
            CHECK(x.accesses[0].lane_names[l] == fmt::format("args[1] B[{}]", 128 + l));
            CHECK(x.accesses[1].lane_names[l] == fmt::format("Bs[{}]{}", 32 + l, unit));
        }
    }
    r.line = 28;  // sum += As[threadIdx.y][k] * Bs[k][threadIdx.x]; (k unrolled: 32 loads of each)
    r.warp = 5;   // ty = 5: As[5][k] is element 160 + k for every lane; Bs[k][lane] is element 32 k + lane
    const auto x = explain_ok(e, r);
    REQUIRE(x.accesses.size() == 64);
    uint32_t as_k = 0, bs_k = 0;
    for (const auto& a : x.accesses) {
        REQUIRE(a.arrays.size() == 1);
        if (a.arrays[0] == "As") {
            for (uint32_t l = 0; l < 32; ++l)
                CHECK(a.lane_names[l] == fmt::format("As[{}]{}", 160 + as_k, unit));
            ++as_k;
        } else {
            CHECK(a.arrays[0] == "Bs");
            for (uint32_t l = 0; l < 32; ++l)
                CHECK(a.lane_names[l] == fmt::format("Bs[{}]{}", 32 * bs_k + l, unit));
            ++bs_k;
        }
    }
    CHECK(as_k == 32);
    CHECK(bs_k == 32);
    // The summary: one group per array. ptxas merges the As loads four at a time into LDS.128 (24 of the 32
    // are counted in the other 8); each Bs load is its own 1-wavefront request.
    REQUIRE(x.groups.size() == 2);
    for (const auto& g : x.groups) {
        CHECK(g.members.size() == 32);
        const auto& first = x.accesses[g.members.front()];
        if (first.arrays[0] == "As") {
            CHECK(g.merged == 24);
            CHECK(g.warp_cost.requests == 8);
        } else {
            CHECK(g.merged == 0);
            CHECK(g.warp_cost.requests == 32);
            CHECK(g.warp_cost.wavefronts == 32);
        }
    }
    // The default text is the summary: short, no lane table; --lanes adds the 64 tables.
    const std::string text = report::explain_text(x);
    const auto lines = std::count(text.begin(), text.end(), '\n');
    INFO(text);
    CHECK(lines <= 25);
    CHECK_THAT(text, Catch::Contains("32 shared loads of Bs, 32 shared loads of As"));
    CHECK_THAT(text, Catch::Contains("arrays      As: As[160] (in 4-byte elements)"));
    CHECK_THAT(text, !Catch::Contains("lane thread"));
    const std::string full = report::explain_text(x, true);
    size_t tables = 0;
    for (size_t at = full.find("\n  lane thread"); at != std::string::npos;
         at = full.find("\n  lane thread", at + 1))
        ++tables;
    CHECK(tables == 64);
    // Lane 1 of the second Bs load (k = 1): Bs[1][1], element 33, at byte 4096 + 132 of the block's shared
    // memory after the 1 KB the driver reserves (As comes first): offset 5252, word 1313, bank 1.
    CHECK_THAT(full, Catch::Contains("   1 (1,5,0)        5252   1313     1 Bs[33]"));
    for (size_t pos = 0, next; pos < full.size(); pos = next + 1) {
        next = full.find('\n', pos);
        if (next == std::string::npos) next = full.size();
        INFO(full.substr(pos, next - pos));
        CHECK(next - pos <= 110);
    }
    const auto j = report::explain_json(x);
    CHECK(j["accesses"][0]["lanes"][1]["element"] == "Bs[1]" + unit);
    CHECK(j["summary"]["groups"].size() == 2);
    CHECK(j["summary"]["groups"][1]["arrays"] == nlohmann::ordered_json::array({"As"}));
    CHECK(j["summary"]["groups"][1]["merged"] == 24);
    CHECK(j["warp"]["chosen_by"] == "requested");
}

TEST_CASE("explain: a shared array read mirrored, and the store named by the kernel's parameter",
          "[examples][explain]") {
    // explain_worst.cu shared_row, one block of 64 threads: lane l of warp 0 reads row[63 - l] (byte 4 (63 -
    // l) of the array), then writes out[l].
    auto e = prepared_run("explain_shared_row", true);
    report::ExplainRequest r;
    r.line = 21;
    r.block = std::array<uint32_t, 3>{0, 0, 0};
    r.warp = 0;
    const auto x = explain_ok(e, r);
    REQUIRE(x.accesses.size() == 2);
    const auto& ld = x.accesses[0];
    const auto& st = x.accesses[1];
    CHECK(ld.arrays == std::vector<std::string>{"row"});
    CHECK(st.arrays == std::vector<std::string>{"args[0] out"});
    for (uint32_t l = 0; l < 32; ++l) {
        CHECK(ld.lane_names[l] == fmt::format("row[{}] (in 4-byte elements)", 63 - l));
        CHECK(st.lane_names[l] == fmt::format("args[0] out[{}]", l));
    }
    // The span runs from the lowest address (lane 31's row[32]) to the highest (lane 0's row[63]).
    CHECK(ld.span == "row[32] to row[63] (in 4-byte elements)");
    CHECK(st.span == "out[0] to out[31]");
}

TEST_CASE(
    "explain --worst: the one misaligned warp, the partial warp of vector add, the one warp that splits",
    "[examples][explain]") {
    {
        // last_warp_shifted, grid 2 x 128 threads: only block 1 warp 3 (i = 224..255) reads in[i + 1],
        // in[225..256] = bytes 900..1027 of a 256-byte aligned buffer: sectors 28..32, 5 where 4 would do.
        // Every other warp reads and writes 4 aligned sectors, all 32 lanes active.
        auto e = prepared_run("explain_last_warp_shifted", true);
        report::ExplainRequest r;
        r.line = 12;  // out[i] = in[i + shift];
        const auto first = explain_ok(e, r);
        REQUIRE(first.block);
        CHECK((*first.block)[0] == 0);
        CHECK_FALSE(first.worst);
        r.worst = true;
        const auto x = explain_ok(e, r);
        REQUIRE(x.block);
        CHECK(*x.block == std::array<uint32_t, 3>{1, 0, 0});
        CHECK(x.warp == 3);
        REQUIRE(x.worst);
        CHECK(x.worst->warps == 8);
        CHECK(x.worst->complete);
        CHECK(x.worst->chosen.excess == 1);
        CHECK(x.worst->chosen.executions == 2);  // the load and the store, once each
        CHECK(x.worst->first.excess == 0);
        CHECK(x.worst->first_block == std::array<uint32_t, 3>{0, 0, 0});
        REQUIRE(x.accesses.size() == 2);
        CHECK(x.accesses[0].warp_cost.sectors == 5);
        CHECK(x.accesses[0].warp_cost.ideal_sectors == 4);
        CHECK(x.accesses[0].span == "in[225] to in[256]");
        const std::string text = report::explain_text(x);
        CHECK_THAT(text, Catch::Contains("picked by --worst, the costliest of the 8 warps"));
        CHECK(report::explain_json(x)["warp"]["chosen_by"] == "worst");
        CHECK(report::explain_json(x)["warp"]["worst"]["cost"]["excess"] == 1);
    }
    {
        // The same kernel with blocks of 112 threads: warp 3 of each block has 16 lanes (16 idle lanes in
        // each of its 2 accesses: 32), and `last` is warp 112 / 32 - 1 = 2 of block 1: i = 176..207 reads
        // in[177..208], bytes 708..835, sectors 22..26, 5 where 4 would do. Excess ranks before idle lanes,
        // so
        // --worst picks block 1 warp 2 (with idle lanes first it would be block 0 warp 3).
        auto e = prepared_run("explain_shifted_partial", true);
        report::ExplainRequest r;
        r.line = 12;
        r.worst = true;
        const auto x = explain_ok(e, r);
        REQUIRE(x.block);
        CHECK(*x.block == std::array<uint32_t, 3>{1, 0, 0});
        CHECK(x.warp == 2);
        REQUIRE(x.worst);
        CHECK(x.worst->warps == 8);
        CHECK(x.worst->chosen.excess == 1);
        CHECK(x.worst->chosen.idle == 0);
    }
    {
        // vector add, n = 1000, blocks of 256: every access costs its ideal; block 3 warp 7 (i = 992..1023)
        // has 8 lanes active, so 24 idle lanes in each of its 3 accesses: 72, the only warp with any.
        auto e = prepared_run("vector_add_1000");
        report::ExplainRequest r;
        r.line = 9;
        r.worst = true;
        const auto x = explain_ok(e, r);
        REQUIRE(x.block);
        CHECK(*x.block == std::array<uint32_t, 3>{3, 0, 0});
        CHECK(x.warp == 7);
        REQUIRE(x.worst);
        CHECK(x.worst->warps == 32);
        CHECK(x.worst->chosen.excess == 0);
        CHECK(x.worst->chosen.idle == 72);
        CHECK(x.worst->first.idle == 0);
    }
    {
        // last_warp_branch, one block of 128: at `if (threadIdx.x >= 112)` warps 0-2 all skip the body, warp
        // 3 (threads 96-127) splits: lanes 0-15 jump over it, lanes 16-31 go in. No access on the line.
        auto e = prepared_run("explain_last_warp_branch", true);
        report::ExplainRequest r;
        r.line = 28;
        r.worst = true;
        const auto x = explain_ok(e, r);
        REQUIRE(x.block);
        CHECK(x.warp == 3);
        REQUIRE(x.worst);
        CHECK(x.worst->warps == 4);
        CHECK(x.worst->chosen.splits == 1);
        CHECK(x.worst->chosen.excess == 0);
        CHECK(x.worst->first.splits == 0);
        REQUIRE(x.branches.size() == 1);
        CHECK(x.branches[0].taken.lanes == 0x0000ffffu);
        CHECK(x.branches[0].not_taken.lanes == 0xffff0000u);
    }
}
