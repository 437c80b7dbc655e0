// tests/check/planted_tests.cpp — `warpsim check` on kernels with planted bugs: each must report its kind
// at the source lines where the bug was planted (lines read off the .cu files by hand), and the clean
// corpus (every spec without "expect_error" and with deterministic != false) must report nothing but the one
// race found in it (cluster_ring_4, explained below).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/check/run_check.hpp"
#include "sim/session/run.hpp"

using namespace warpsim;

namespace {

std::string path_of(const std::string& rel) {
    return std::string(WARPSIM_SOURCE_DIR) + "/" + rel;
}

check::CheckResult run_check(const std::string& spec) {
    auto p = session::prepare(path_of(spec));
    INFO(spec << ": " << (p ? "" : p.error()));
    REQUIRE(p.ok());
    auto r = check::check_prepared(*p, check::CheckOptions{});
    INFO((r ? "" : r.error()));
    REQUIRE(r.ok());
    return std::move(r.value());
}

const check::Finding* find_kind(const check::CheckResult& r, const std::string& kind) {
    for (const auto& f : r.log.findings())
        if (f.kind == kind) return &f;
    return nullptr;
}

std::string kinds(const check::CheckResult& r) {
    std::string s;
    for (const auto& f : r.log.findings()) s += f.kind + " ";
    return s;
}

}  // namespace

TEST_CASE("planted: reverse_blocks without its barrier races on s[]", "[check][planted]") {
    auto r = run_check("examples/specs/reverse_blocks_nosync_4096.json");
    INFO(kinds(r));
    // compute-sanitizer racecheck on the H200 (tests/hardware/h200/sanitizer.txt): one race, write at
    // reverse_blocks.cu:18 and read at :19. warpsim folds both orders of that pair into one finding too.
    REQUIRE(r.log.count(check::Tool::racecheck) == 1);
    const auto* f = find_kind(r, "race.rw.shared");
    REQUIRE(f);
    // reverse_blocks.cu: line 18 `s[t] = in[i];`, line 19 `out[i] = s[blockDim.x - 1 - t];`.
    CHECK(r.ctx.cuda_line(f->parties[0].at) == 18);
    CHECK(r.ctx.cuda_line(f->parties[1].at) == 19);
    CHECK(f->fix == "add __syncthreads() between line 18 and line 19");
    CHECK(f->variable.rfind("s[", 0) == 0);
    CHECK(r.log.count(check::Tool::memcheck) == 0);
    CHECK(run_check("examples/specs/reverse_blocks_4096.json").log.size() == 0);
}

TEST_CASE("planted: the i <= n off-by-one reads one element past the end", "[check][planted]") {
    auto r = run_check("examples/specs/launch_error_off_by_one.json");
    REQUIRE(r.log.size() == 1);
    const auto& f = r.log.findings()[0];
    CHECK(f.tool == check::Tool::memcheck);
    CHECK(f.kind == "mem.oob_in_granule.global");
    // i = 1000 is thread 232 of block 3 (3 * 256 + 232); launch_errors.cu line 19 is `c[i] = a[i] + b[i];`.
    CHECK(f.parties[0].thread == std::array<uint32_t, 3>{232, 0, 0});
    CHECK(f.parties[0].block == std::array<uint32_t, 3>{3, 0, 0});
    CHECK(r.ctx.cuda_line(f.parties[0].at) == 19);
    CHECK(f.variable.find("[1000]: 0 bytes past the end") != std::string::npos);
}

TEST_CASE("planted: __syncthreads() inside a branch half the block skips", "[check][planted]") {
    auto r = run_check("examples/specs/launch_error_barrier_in_branch.json");
    INFO(kinds(r));
    const auto* f = find_kind(r, "sync.barrier_exited_threads");
    REQUIRE(f);
    // launch_errors.cu: the barrier on line 59; threads 128..255 leave at the closing brace, line 62.
    CHECK(r.ctx.cuda_line(f->parties[0].at) == 59);
    CHECK(r.ctx.cuda_line(f->parties[1].at) == 62);
    CHECK(f->parties[1].thread == std::array<uint32_t, 3>{128, 0, 0});
    CHECK(r.log.size() == 1);  // the exited warps' writes come before the release: no race
}

TEST_CASE("planted: a shuffle whose mask names lanes that do not execute it", "[check][planted]") {
    auto r = run_check("tests/check/data/shfl_wrong_mask.json");
    REQUIRE(r.log.size() == 1);
    const auto& f = r.log.findings()[0];
    CHECK(f.kind == "sync.warp_mask_inactive_lanes");
    CHECK(f.count == 4);  // two warps in each of two blocks
    CHECK(f.notes[0].find("member mask 0xffffffff, executing lanes 0-15; lanes 16-31") != std::string::npos);
    auto after = run_check("tests/check/data/shfl_after_return.json");
    INFO(kinds(after));
    REQUIRE(after.log.size() == 1);
    // n = 40: warp 1 keeps lanes 0..7 (threads 32..39); lanes 8..31 took the early return (planted.cu line
    // 17) to the kernel's closing brace, line 21, where they wait only to exit.
    CHECK(after.log.findings()[0].kind == "sync.warp_mask_exited_lanes");
    CHECK(after.log.findings()[0].notes[0].find(
              "executing lanes 0-7; lanes 8-31 have exited at planted.cu:21 (") != std::string::npos);
}

TEST_CASE("planted: per-lane member masks of a grouped shuffle", "[check][planted]") {
    auto r = run_check("tests/check/data/shfl_group_mask.json");
    INFO(kinds(r));
    // planted.cu line 70: mask = 0xffff << (lane / 16). Lanes 0..15 pass 0x0000ffff (their own group: right);
    // lanes 16..31 pass 0xffff << 1 = 0x0001fffe, lanes 1..16: lanes 17..31 are not in the mask they pass,
    // and it names lanes 1..15, which pass 0x0000ffff. Two warps in each of two blocks.
    REQUIRE(r.log.size() == 2);
    const auto* self = find_kind(r, "sync.warp_mask_excludes_self");
    const auto* other = find_kind(r, "sync.warp_mask_mismatch");
    REQUIRE(self);
    REQUIRE(other);
    CHECK(self->count == 4);
    CHECK(other->count == 4);
    CHECK(self->notes[0] ==
          "warp 0: lanes 16-31 pass member mask 0x0001fffe (executing lanes 0-31); lanes 17-31 "
          "are not in the mask");
    CHECK(other->notes[0].find(
              "lanes 16-31 pass member mask 0x0001fffe (executing lanes 0-31); lanes 1-15 execute "
              "it with a different member mask (lane 1: 0x0000ffff)") != std::string::npos);
    // The shuffle is planted.cu line 72, __shfl_xor_sync inlined there: planted.ptx line 490, shfl.sync.bfly,
    // after `.loc 2 449 9, function_name $L__info_string1, inlined_at 1 72 5`. compute-sanitizer's synccheck
    // on the H200 reports it "at __shfl_xor_sync(...) in sm_30_intrinsics.hpp:449", device frame
    // planted.cu:72, first thread (16,0,0) of block (0,0,0) (tests/hardware/h200/sanitizer_planted.txt).
    CHECK(r.ctx.ptx_line(self->parties[0].at) == 490);
    CHECK(r.ctx.cuda_line(self->parties[0].at) == 72);
    CHECK(r.ctx.where(self->parties[0].at) ==
          "sm_30_intrinsics.hpp:449 in __shfl_xor_sync, inlined from planted.cu:72 (planted.ptx:490)");
    CHECK(self->parties[0].thread == std::array<uint32_t, 3>{16, 0, 0});
    CHECK(self->parties[0].block == std::array<uint32_t, 3>{0, 0, 0});
}

TEST_CASE("planted: __syncwarp() whose mask names lanes that returned", "[check][planted]") {
    auto r = run_check("tests/check/data/syncwarp_after_return.json");
    INFO(kinds(r));
    // n = 40 in a block of 64: warp 0 is whole; warp 1 keeps lanes 0..7 (t = 32..39); lanes 8..31 returned at
    // line 79 and wait at the closing brace, line 83. The full-mask __syncwarp() is line 81 (PTX line 537).
    REQUIRE(r.log.size() == 1);
    const auto& f = r.log.findings()[0];
    CHECK(f.kind == "sync.warp_mask_exited_lanes");
    CHECK(f.count == 1);
    CHECK(r.ctx.ptx_line(f.parties[0].at) == 537);  // planted.ptx: bar.warp.sync -1 (inlined __syncwarp)
    CHECK(f.parties[0].thread == std::array<uint32_t, 3>{32, 0, 0});
    CHECK(f.notes[0].rfind("warp 1: member mask 0xffffffff, executing lanes 0-7; lanes 8-31 have exited at "
                           "planted.cu:83 (",
                           0) == 0);
}

TEST_CASE("planted: half of a shared tile read before anyone wrote it", "[check][planted]") {
    auto r = run_check("tests/check/data/unwritten_tile.json");
    REQUIRE(r.log.size() == 1);
    const auto& f = r.log.findings()[0];
    CHECK(f.kind == "init.shared");
    CHECK(f.count == 64);  // threads 0..31 of each of 2 blocks read tile[63 - t], never written
    CHECK(r.ctx.cuda_line(f.parties[0].at) == 30);
    CHECK(f.variable == "tile[63] (in 4-byte elements)");
}

TEST_CASE("planted: a tiled loop with one barrier per iteration", "[check][planted]") {
    auto r = run_check("tests/check/data/tile_loop_one_sync.json");
    INFO(kinds(r));
    const auto* war = find_kind(r, "race.rw.shared");
    REQUIRE(war);
    // planted.cu: line 40 writes tile[t], line 42 reads tile[(t + 32) % blockDim.x].
    CHECK(r.ctx.cuda_line(war->parties[0].at) == 40);
    CHECK(r.ctx.cuda_line(war->parties[1].at) == 42);
    CHECK(
        war->fix ==
        "add __syncthreads() at the end of the loop iteration: after line 42 and before line 40 runs again");
    CHECK(r.log.count(check::Tool::racecheck) == r.log.size());
}

TEST_CASE("planted: early return before __syncthreads() and a global flag read without a barrier",
          "[check][planted]") {
    auto r = run_check("tests/check/data/return_before_barrier.json");
    INFO(kinds(r));
    REQUIRE(find_kind(r, "sync.barrier_exited_threads"));
    CHECK(r.ctx.cuda_line(find_kind(r, "sync.barrier_exited_threads")->parties[0].at) == 54);
    auto g = run_check("tests/check/data/global_flag_no_sync.json");
    REQUIRE(g.log.size() == 1);
    const auto& f = g.log.findings()[0];
    CHECK(f.kind == "race.rw.global");
    CHECK(g.ctx.cuda_line(f.parties[0].at) == 61);
    CHECK(g.ctx.cuda_line(f.parties[1].at) == 62);
    CHECK(f.count == 4 * 96);  // warps 1..3 of each of 4 blocks (lanes of warp 0 are intra-warp)
}

TEST_CASE("planted: two CTAs of a cluster exchange through distributed shared memory without cluster.sync()",
          "[check][planted][cluster]") {
    auto r = run_check("tests/check/data/dsmem_exchange_nosync.json");
    INFO(kinds(r));
    // planted_cluster.cu: line 17 `partner[threadIdx.x] = in[i];` writes the other CTA's buf through a mapa
    // address, line 18 `out[i] = buf[threadIdx.x];` reads the CTA's own buf. The own buf[t] = -1 (line 15) is
    // ordered before the partner's write by the first cluster.sync() (line 16): no finding for it.
    REQUIRE(r.log.size() == 1);
    const auto& f = r.log.findings()[0];
    CHECK(f.kind == "race.rw.dsmem");
    CHECK(r.ctx.cuda_line(f.parties[0].at) == 17);
    CHECK(r.ctx.cuda_line(f.parties[1].at) == 18);
    CHECK(f.parties[0].what == "write");
    // CTAs take turns in rank order, warps in warp order. At the first cluster.sync() block 1's warp 1
    // arrives last; the phase completes and that warp runs on in the same turn: it writes block 0's
    // buf[32..63] and reads its own buf[32..63] (written only by itself so far). Next round, block 0's warp 0
    // writes block 1's buf[0..31] (nobody read those yet) and reads its own buf[0..31]; block 0's warp 1
    // writes block 1's buf[32..63], which block 1's warp 1 read with nothing ordering the two: the first
    // hazard, write by thread 32 of block (0,0,0) after a read by thread 32 of block (1,0,0), on buf[32]
    // (byte 128). Then its read of its own buf[32..63] meets block 1's write (read-after-write), and block
    // 1's warp 0 does the same against block 0's warp 0: 4 warps x 32 hazards, one word each, all on one pair
    // of lines.
    CHECK(f.parties[0].block == std::array<uint32_t, 3>{0, 0, 0});
    CHECK(f.parties[1].block == std::array<uint32_t, 3>{1, 0, 0});
    CHECK(f.parties[0].thread == std::array<uint32_t, 3>{32, 0, 0});
    CHECK(f.parties[1].thread == std::array<uint32_t, 3>{32, 0, 0});
    CHECK(f.count == 128);
    CHECK(f.title ==
          "Race between a write and a read of shared memory by threads of blocks (1,0,0) and (0,0,0) of "
          "one cluster");
    CHECK(f.address == 1024u + 128u);  // buf[32], after the block's 1 KB reserved by the driver
    CHECK(f.variable == "buf[32] (in 4-byte elements)");
    CHECK(f.fix ==
          "add cluster.sync() (barrier.cluster.arrive and barrier.cluster.wait) between line 17 and line 18");
    // With the cluster barrier between the write (line 30) and the read (line 32) nothing is found, by any
    // tool (initcheck counts the partner's DSMEM writes as writes of the owner's buf).
    auto fixed = run_check("tests/check/data/dsmem_exchange.json");
    INFO(kinds(fixed));
    CHECK(fixed.log.size() == 0);
}

TEST_CASE("clean corpus: no findings", "[check][corpus]") {
    std::vector<std::string> specs;
    for (const char* dir : {"examples/specs", "tests/specs"})
        for (const auto& e : std::filesystem::directory_iterator(path_of(dir)))
            if (e.path().extension() == ".json") specs.push_back(e.path().string());
    std::sort(specs.begin(), specs.end());
    int checked = 0;
    for (const auto& spec : specs) {
        std::ifstream in(spec);
        std::stringstream text;
        text << in.rdbuf();
        const std::string s = text.str();
        if (s.find("\"expect_error\"") != std::string::npos) continue;
        // Planted bugs the GPU runs without an error (so their specs expect none): checked above, not clean.
        if (spec.find("launch_error_") != std::string::npos) continue;
        auto p = session::prepare(spec);
        if (!p || !p->spec.deterministic) continue;
        if (spec.find("matmul_tiled32_4096") != std::string::npos) continue;  // > 5 min on one host thread
        auto r = check::check_prepared(*p, check::CheckOptions{});
        REQUIRE(r.ok());
        if (r->error) {
            // The simulator itself fails this spec (an engine gap, not the kernel): the plain run agrees.
            WARN(spec << ": the run stops: " << r->error->name << " " << r->error->details);
            continue;
        }
        if (!r->incomplete.empty()) {
            WARN(spec << ": incomplete: " << r->incomplete);
            continue;
        }
        INFO(spec << ": " << kinds(*r));
        if (spec.find("tests/specs/cluster_ring_4.json") != std::string::npos) {
            // cluster_ring (tests/ptx/clusters.cu) has a real race: thread 0 of each CTA stores into its
            // predecessor's inbox with st.shared::cluster (line 51) and then arrives with
            // barrier.cluster.arrive.relaxed; the predecessor reads its inbox (line 65) after
            // barrier.cluster.wait. A .relaxed arrival orders nothing before it (PTX ISA, barrier.cluster),
            // and the fence.acq_rel.cluster comes after the arrival, so nothing orders the store before the
            // read. One inbox word per CTA, 8 CTAs: 8 occurrences. (The atom.shared::cluster on rank 0's
            // counter is strong: no plain write, no race.)
            REQUIRE(r->log.size() == 1);
            const auto& f = r->log.findings()[0];
            CHECK(f.kind == "race.rw.dsmem");
            CHECK(r->ctx.cuda_line(f.parties[0].at) == 51);
            CHECK(r->ctx.cuda_line(f.parties[1].at) == 65);
            CHECK(f.count == 8);
            ++checked;
            continue;
        }
        CHECK(r->log.size() == 0);
        ++checked;
    }
    CHECK(checked > 140);
}

TEST_CASE("racecheck per byte: warps that own different bytes of a shared word do not race",
          "[check][race][bytes]") {
    // tests/check/data/byte_bins.ptx: thread t (warp w, lane l) adds 1 four times to byte l * 8 + w, so warps
    // w..w+3 share each 4-byte word without a barrier; a per-word checker reported write-after-write there.
    auto clean = run_check("tests/check/data/byte_bins.json");
    INFO(kinds(clean));
    CHECK(clean.log.count(check::Tool::racecheck) == 0);
    CHECK(clean.log.size() == 0);
    // Its result, by hand: every byte was added to four times by its one owner.
    auto p = session::prepare(path_of("tests/check/data/byte_bins.json"));
    REQUIRE(p.ok());
    session::SimOptions options;
    options.keep_buffers = true;
    auto run = session::run_simulated(*p, options);
    REQUIRE(run.ok());
    REQUIRE(run->final_buffers.size() >= 1);
    REQUIRE(run->final_buffers[0].size() == 256);
    for (uint8_t v : run->final_buffers[0]) CHECK(v == 4);
    // Two warps on one byte (warps w and w ^ 1 both own byte l * 8 + (w & 6)) is still a race,
    // write-after-write between the store of the loop (line 37) and the one that zeroes the byte (line 32) or
    // itself.
    auto racy = run_check("tests/check/data/byte_bins_shared.json");
    INFO(kinds(racy));
    CHECK(racy.log.count(check::Tool::racecheck) == 1);
    CHECK(find_kind(racy, "race.ww.shared") != nullptr);
}
