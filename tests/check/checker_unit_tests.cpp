// tests/check/checker_unit_tests.cpp — racecheck, synccheck and initcheck on hand-written event sequences;
// the expected findings are worked out by hand from the happens-before and mask rules in the headers.
#include <catch2/catch.hpp>

#include "sim/check/initcheck.hpp"
#include "sim/check/racecheck.hpp"
#include "sim/check/synccheck.hpp"

using namespace warpsim;
using namespace warpsim::check;

namespace {

engine::MemoryEvent shared_access(uint32_t warp, uint32_t pc, engine::MemoryKind kind, uint32_t lane,
                                  uint64_t offset) {
    engine::MemoryEvent e;
    e.site.warp = warp;
    e.site.pc = pc;
    e.space = engine::MemorySpace::shared;
    e.kind = kind;
    e.bytes_per_lane = 4;
    e.active_mask = 1u << lane;
    e.addr[lane] = offset;
    return e;
}

engine::BarrierEvent bar_sync(uint32_t warp, uint32_t pc,
                              engine::BarrierKind kind = engine::BarrierKind::sync) {
    engine::BarrierEvent b;
    b.site.warp = warp;
    b.site.pc = pc;
    b.arriving_mask = b.live_mask = 0xffffffffu;
    b.kind = kind;
    return b;
}

struct RaceFixture {
    CheckContext ctx;
    FindingLog log;
    RaceChecker race{ctx, log};
    RaceFixture() {
        ctx.block_dim = {64, 1, 1};
        race.begin_block({}, 2, 64, 256);
    }
};

}  // namespace

TEST_CASE("racecheck: a write and a read by different warps in one barrier epoch race", "[check][race]") {
    RaceFixture f;
    f.race.on_memory(shared_access(0, 1, engine::MemoryKind::write, 3, 12));
    f.race.on_memory(shared_access(1, 2, engine::MemoryKind::read, 0, 12));
    REQUIRE(f.log.size() == 1);
    const Finding& x = f.log.findings()[0];
    CHECK(x.kind == "race.rw.shared");
    CHECK(x.parties[0].thread == std::array<uint32_t, 3>{3, 0, 0});   // warp 0 lane 3
    CHECK(x.parties[1].thread == std::array<uint32_t, 3>{32, 0, 0});  // warp 1 lane 0
    CHECK(x.address == 12u);
}

TEST_CASE("racecheck: a completed barrier orders the two warps", "[check][race]") {
    RaceFixture f;
    f.race.on_memory(shared_access(0, 1, engine::MemoryKind::write, 0, 0));
    f.race.on_barrier(bar_sync(0, 2));
    f.race.on_barrier(bar_sync(1, 2));
    f.race.on_barrier_release({}, 0);
    f.race.on_memory(shared_access(1, 3, engine::MemoryKind::read, 0, 0));
    f.race.on_memory(shared_access(1, 4, engine::MemoryKind::write, 0, 0));
    CHECK(f.log.size() == 0);
}

TEST_CASE("racecheck: accesses after the barrier are concurrent again (write-after-read)", "[check][race]") {
    RaceFixture f;
    f.race.on_barrier(bar_sync(0, 2));
    f.race.on_barrier(bar_sync(1, 2));
    f.race.on_barrier_release({}, 0);
    f.race.on_memory(shared_access(0, 3, engine::MemoryKind::read, 0, 8));
    f.race.on_memory(shared_access(1, 4, engine::MemoryKind::write, 5, 8));
    REQUIRE(f.log.size() == 1);
    CHECK(f.log.findings()[0].kind == "race.rw.shared");
    CHECK(f.log.findings()[0].parties[0].what == "write");  // the write party first, as compute-sanitizer
    CHECK(f.log.findings()[0].parties[0].at.pc == 4);
}

TEST_CASE("racecheck: atomics do not race with atomics; two lanes of one warp are not checked",
          "[check][race]") {
    RaceFixture f;
    f.race.on_memory(shared_access(0, 1, engine::MemoryKind::atomic, 0, 4));
    f.race.on_memory(shared_access(1, 1, engine::MemoryKind::atomic, 0, 4));
    f.race.on_memory(shared_access(0, 5, engine::MemoryKind::write, 1, 16));
    f.race.on_memory(shared_access(0, 6, engine::MemoryKind::read, 2, 16));
    CHECK(f.log.size() == 0);
    f.race.on_memory(
        shared_access(0, 7, engine::MemoryKind::write, 0, 4));  // plain write after warp 1's atomic
    REQUIRE(f.log.size() == 1);
    CHECK(f.log.findings()[0].kind == "race.ww.shared");
}

TEST_CASE("racecheck: bar.arrive orders the producer before the consumer, not the reverse", "[check][race]") {
    RaceFixture f;
    f.race.on_memory(shared_access(0, 1, engine::MemoryKind::write, 0, 0));
    f.race.on_barrier(bar_sync(0, 2, engine::BarrierKind::arrive));
    f.race.on_barrier(bar_sync(1, 3, engine::BarrierKind::sync));
    f.race.on_barrier_release({}, 0);
    f.race.on_memory(shared_access(1, 4, engine::MemoryKind::read, 0, 0));
    CHECK(f.log.size() == 0);
    f.race.on_memory(shared_access(1, 5, engine::MemoryKind::write, 0, 32));
    f.race.on_memory(shared_access(0, 6, engine::MemoryKind::read, 0, 32));  // producer never waited
    REQUIRE(f.log.size() == 1);
    CHECK(f.log.findings()[0].kind == "race.rw.shared");
}

TEST_CASE("racecheck: fence then atomic flag hands data to the warp that reads the flag and fences",
          "[check][race]") {
    RaceFixture f;
    f.race.on_memory(shared_access(0, 1, engine::MemoryKind::write, 0, 64));  // data
    engine::FenceEvent fence;
    fence.site.warp = 0;
    f.race.on_fence(fence);
    auto flag = shared_access(0, 2, engine::MemoryKind::atomic, 0, 128);
    flag.read_modify_write = true;
    f.race.on_memory(flag);
    auto poll = shared_access(1, 3, engine::MemoryKind::atomic, 0, 128);
    poll.read_modify_write = true;
    f.race.on_memory(poll);
    fence.site.warp = 1;
    f.race.on_fence(fence);
    f.race.on_memory(shared_access(1, 4, engine::MemoryKind::read, 0, 64));
    CHECK(f.log.size() == 0);
}

TEST_CASE("synccheck: shuffle masks naming inactive, exited and missing lanes", "[check][sync]") {
    CheckContext ctx;
    ctx.block_dim = {48, 1, 1};
    FindingLog log;
    SyncChecker sync(ctx, log);
    sync.begin_block({}, 2, 48);
    engine::WarpSyncEvent e;
    e.member_mask = 0xffffffffu;
    e.member_masks.fill(0xffffffffu);
    e.executing_mask = 0x0000ffffu;
    e.active_mask = 0x0000ffffu;
    e.live_mask = 0xffffffffu;
    sync.on_warp_sync(e);
    REQUIRE(log.size() == 1);
    CHECK(log.findings()[0].kind == "sync.warp_mask_inactive_lanes");
    // Warp 1 of a 48-thread block has lanes 0..15; lanes 8..15 exited.
    e.site.warp = 1;
    e.site.pc = 1;
    e.executing_mask = e.active_mask = 0xffu;
    e.live_mask = 0xffu;
    sync.on_warp_sync(e);
    REQUIRE(log.size() == 3);
    CHECK(log.findings()[1].kind == "sync.warp_mask_missing_lanes");
    CHECK(log.findings()[2].kind == "sync.warp_mask_exited_lanes");
    // A correct mask: nothing new.
    e.site.pc = 2;
    e.member_mask = 0xffu;
    e.member_masks.fill(0xffu);
    sync.on_warp_sync(e);
    CHECK(log.size() == 3);
}

TEST_CASE("synccheck: member masks checked lane by lane", "[check][sync]") {
    CheckContext ctx;
    ctx.block_dim = {64, 1, 1};
    FindingLog log;
    SyncChecker sync(ctx, log);
    sync.begin_block({}, 2, 64);
    engine::WarpSyncEvent e;
    e.executing_mask = e.active_mask = e.live_mask = 0xffffffffu;
    // Two tiles of 16 lanes, each naming itself: legal although the lanes pass different masks.
    for (uint32_t l = 0; l < 32; ++l) e.member_masks[l] = l < 16 ? 0x0000ffffu : 0xffff0000u;
    e.member_mask = 0x0000ffffu;
    e.member_mask_uniform = false;
    sync.on_warp_sync(e);
    CHECK(log.size() == 0);
    // Lane 20 passes 0xffff0001 instead. Groups in lane order: lanes 0-15 (0x0000ffff) are fine; lanes
    // 16-19,21-31 (0xffff0000) name lane 20, which passes another mask; lane 20's mask names lane 0 and lanes
    // 16-19,21-31, which pass other masks. Two mismatches at one instruction: one finding counted twice, with
    // the first one's note.
    e.site.pc = 1;
    e.member_masks[20] = 0xffff0001u;
    sync.on_warp_sync(e);
    REQUIRE(log.size() == 1);
    CHECK(log.findings()[0].kind == "sync.warp_mask_mismatch");
    CHECK(log.findings()[0].count == 2);
    CHECK(log.findings()[0].notes[0] ==
          "warp 0: lanes 16-19,21-31 pass member mask 0xffff0000 (executing lanes "
          "0-31); lanes 20 execute it with a different member mask (lane 20: "
          "0xffff0001)");
    // Lanes 8..31 finished the kernel and wait at its ret (pc 9): a full mask names them as exited.
    e.site.pc = 2;
    e.member_masks.fill(0xffffffffu);
    e.member_mask = 0xffffffffu;
    e.member_mask_uniform = true;
    e.executing_mask = e.active_mask = 0xffu;
    e.leaving_mask = 0xffffff00u;
    e.leaving_pc = 9;
    sync.on_warp_sync(e);
    REQUIRE(log.size() == 2);
    CHECK(log.findings()[1].kind == "sync.warp_mask_exited_lanes");
    CHECK(log.findings()[1].notes[0].find("executing lanes 0-7; lanes 8-31 have exited at ") !=
          std::string::npos);
}

TEST_CASE("synccheck: threads that exit before a barrier the others pass", "[check][sync]") {
    CheckContext ctx;
    ctx.block_dim = {64, 1, 1};
    FindingLog log;
    SyncChecker sync(ctx, log);
    sync.begin_block({}, 2, 64);
    sync.on_thread_exit(engine::EventSite{{}, 1, 0, 9}, 0xffffffffu);  // warp 1 leaves at pc 9
    sync.on_barrier(bar_sync(0, 4));
    sync.on_barrier_release({}, 0);
    REQUIRE(log.size() == 1);
    const Finding& f = log.findings()[0];
    CHECK(f.kind == "sync.barrier_exited_threads");
    CHECK(f.parties[0].at.pc == 4);
    CHECK(f.parties[1].at.pc == 9);
    CHECK(f.parties[1].thread == std::array<uint32_t, 3>{32, 0, 0});
    sync.end_block({});
    CHECK(log.size() == 1);
}

TEST_CASE("synccheck: a barrier left waiting at the end of the block", "[check][sync]") {
    CheckContext ctx;
    FindingLog log;
    SyncChecker sync(ctx, log);
    sync.begin_block({}, 2, 64);
    auto b = bar_sync(0, 4);
    b.barrier = 1;
    b.expected_threads = 64;
    sync.on_barrier(b);
    sync.end_block({});
    REQUIRE(log.size() == 1);
    CHECK(log.findings()[0].kind == "sync.barrier_incomplete");
    CHECK(log.findings()[0].title.find("32 of 64 threads") != std::string::npos);
}

TEST_CASE("initcheck: shared bytes read before any write, per block", "[check][init]") {
    CheckContext ctx;
    FindingLog log;
    InitChecker init(ctx, log, nullptr);
    init.begin_block({}, 64);
    init.on_memory(shared_access(0, 1, engine::MemoryKind::write, 0, 0));
    init.on_memory(shared_access(0, 2, engine::MemoryKind::read, 0, 0));
    CHECK(log.size() == 0);
    auto wide = shared_access(0, 3, engine::MemoryKind::read, 0, 0);
    wide.bytes_per_lane = 8;  // bytes 4..7 were never written
    init.on_memory(wide);
    REQUIRE(log.size() == 1);
    CHECK(log.findings()[0].kind == "init.shared");
    init.begin_block({{1, 0, 0}, 1}, 64);  // a new block starts with nothing written
    auto next_block = shared_access(0, 2, engine::MemoryKind::read, 0, 0);
    next_block.site.block = {{1, 0, 0}, 1};  // events name their block
    init.on_memory(next_block);
    REQUIRE(log.size() == 2);
}

TEST_CASE("findings: deduplicated by kind and sites, counted, summarised", "[check]") {
    CheckContext ctx;
    FindingLog log;
    Finding f;
    f.tool = Tool::racecheck;
    f.kind = "race.rw.shared";
    f.parties = {{"write", {0, 1}, {}, {}}, {"read", {0, 2}, {}, {}}};
    log.add(f);
    log.add(f);
    f.parties[1].at.pc = 3;
    log.add(f);
    REQUIRE(log.size() == 2);
    CHECK(log.findings()[0].count == 2);
    CHECK(log.occurrences() == 3);
    const std::string text = render_text(log, ctx, "");
    CHECK(text.find("========= ERROR SUMMARY: 2 errors") != std::string::npos);
    FindingLog empty;
    CHECK(render_text(empty, ctx, "").find("========= ERROR SUMMARY: 0 errors\n") != std::string::npos);
}

// The 64-bin u8 histogram: threads of two warps each own different bytes of the same words. Tracked per
// 4-byte word, each write "raced" with the other warp's byte (512 reports on the real kernel); per byte none.
TEST_CASE("racecheck: byte-disjoint accesses to one word by two warps do not race", "[check][race][bytes]") {
    RaceFixture f;
    for (uint64_t word = 0; word < 16; ++word) {
        for (uint32_t warp = 0; warp < 2; ++warp) {
            for (uint64_t b = warp; b < 4; b += 2) {  // warp 0: bytes 0 and 2, warp 1: bytes 1 and 3
                auto rd =
                    shared_access(warp, 1, engine::MemoryKind::read, static_cast<uint32_t>(b), word * 4 + b);
                rd.bytes_per_lane = 1;
                auto wr =
                    shared_access(warp, 2, engine::MemoryKind::write, static_cast<uint32_t>(b), word * 4 + b);
                wr.bytes_per_lane = 1;
                f.race.on_memory(rd);
                f.race.on_memory(wr);
            }
        }
    }
    CHECK(f.log.size() == 0);
}

TEST_CASE("racecheck: a byte written by one warp and read by another still races", "[check][race][bytes]") {
    RaceFixture f;
    auto wr = shared_access(0, 1, engine::MemoryKind::write, 0, 13);
    wr.bytes_per_lane = 1;
    auto rd = shared_access(1, 2, engine::MemoryKind::read, 5, 13);
    rd.bytes_per_lane = 1;
    f.race.on_memory(wr);
    f.race.on_memory(rd);
    REQUIRE(f.log.size() == 1);
    CHECK(f.log.findings()[0].kind == "race.rw.shared");
    // A 4-byte read of the word holding byte 13 overlaps it: a race too; a 2-byte read of bytes 14-15 does
    // not.
    RaceFixture g;
    g.race.on_memory(wr);
    auto half = shared_access(1, 3, engine::MemoryKind::read, 5, 14);
    half.bytes_per_lane = 2;
    g.race.on_memory(half);
    CHECK(g.log.size() == 0);
    auto whole = shared_access(1, 4, engine::MemoryKind::read, 6, 12);
    g.race.on_memory(whole);
    CHECK(g.log.size() == 1);
}

// Two writers of byte 0 and byte 1, then a read of byte 0 by a third warp: the first writer's byte is still
// tracked (per word, the second write would have replaced it).
TEST_CASE("racecheck: each byte keeps its own last writer", "[check][race][bytes]") {
    CheckContext ctx;
    ctx.block_dim = {96, 1, 1};
    FindingLog log;
    RaceChecker race{ctx, log};
    race.begin_block({}, 3, 96, 256);
    auto w0 = shared_access(0, 1, engine::MemoryKind::write, 0, 0);
    w0.bytes_per_lane = 1;
    auto w1 = shared_access(1, 2, engine::MemoryKind::write, 0, 1);
    w1.bytes_per_lane = 1;
    auto r2 = shared_access(2, 3, engine::MemoryKind::read, 0, 0);
    r2.bytes_per_lane = 1;
    race.on_memory(w0);
    race.on_memory(w1);
    race.on_memory(r2);
    REQUIRE(log.size() == 1);
    CHECK(log.findings()[0].parties[0].thread == std::array<uint32_t, 3>{0, 0, 0});  // warp 0's write
}
