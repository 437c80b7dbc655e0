// tests/check/cluster_race_tests.cpp — racecheck across the CTAs of a thread-block cluster on hand-written
// event sequences: distributed shared memory (shared::cluster addresses) names another CTA's words,
// barrier.cluster arrive/wait orders the CTAs (not with .relaxed), bar.sync orders one CTA only. Expected
// findings are worked out by hand from the rules in sim/check/racecheck.hpp.
#include <catch2/catch.hpp>

#include <array>

#include "sim/check/racecheck.hpp"
#include "sim/memory/address_map.hpp"

using namespace warpsim;
using namespace warpsim::check;

namespace {

// Two CTAs (blocks (0,0,0) and (1,0,0), cluster ranks 0 and 1), one warp of 32 threads each, 64 bytes of
// shared memory each. pc 5 is a barrier.cluster.arrive.relaxed, every other pc a plain instruction.
struct ClusterFixture {
    ir::Module module;
    CheckContext ctx;
    FindingLog log;
    RaceChecker race{ctx, log};
    std::array<engine::BlockIndex, 2> ctas{engine::BlockIndex{{0, 0, 0}, 0},
                                           engine::BlockIndex{{1, 0, 0}, 1}};
    ClusterFixture() {
        module.functions.resize(1);
        module.functions[0].body.resize(16);
        module.functions[0].body[5].op = ir::Opcode::barrier;
        module.functions[0].body[5].mods = {"cluster", "arrive", "relaxed"};
        ctx.module = &module;
        ctx.block_dim = {32, 1, 1};
        race.begin_cluster(ctas);
        for (const auto& b : ctas) race.begin_block(b, 1, 32, 64);
    }
    engine::EventSite site(uint32_t rank, uint32_t pc) const {
        engine::EventSite s;
        s.block = ctas[rank];
        s.pc = pc;
        return s;
    }
    // Lane 0 of CTA `rank` accesses `addr` (a shared::cta offset, or a shared::cluster address from
    // cluster()).
    engine::MemoryEvent access(uint32_t rank, uint32_t pc, engine::MemoryKind kind, uint64_t addr) const {
        engine::MemoryEvent e;
        e.site = site(rank, pc);
        e.space = engine::MemorySpace::shared;
        e.kind = kind;
        e.bytes_per_lane = 4;
        e.active_mask = 1;
        e.addr[0] = addr;
        return e;
    }
    engine::BarrierEvent barrier(uint32_t rank, uint32_t pc, engine::BarrierKind kind, uint32_t id) const {
        engine::BarrierEvent b;
        b.site = site(rank, pc);
        b.barrier = id;
        b.arriving_mask = b.live_mask = 0xffffffffu;
        b.kind = kind;
        return b;
    }
    void cluster_arrive(uint32_t rank, uint32_t pc = 4) {
        race.on_barrier(barrier(rank, pc, engine::BarrierKind::arrive, engine::kClusterBarrierEvent));
    }
    void cluster_wait(uint32_t rank) {
        race.on_barrier(barrier(rank, 6, engine::BarrierKind::sync, engine::kClusterBarrierEvent));
    }
    void cluster_phase_done() { race.on_barrier_release(ctas[0], engine::kClusterBarrierEvent); }
};

// The shared::cluster address of byte `offset` of CTA `rank` (what mapa returns).
uint64_t cluster(uint32_t rank, uint64_t offset) {
    return (uint64_t{rank + 1} << memory::kClusterRankShift) + offset;
}

}  // namespace

TEST_CASE("racecheck dsmem: a remote write and the owner's read race without a cluster barrier",
          "[check][race][cluster]") {
    ClusterFixture f;
    f.race.on_memory(
        f.access(1, 2, engine::MemoryKind::write, cluster(0, 8)));  // CTA 1 writes CTA 0's word 2
    f.race.on_memory(f.access(0, 3, engine::MemoryKind::read, 8));  // CTA 0 reads it
    REQUIRE(f.log.size() == 1);
    const Finding& x = f.log.findings()[0];
    CHECK(x.kind == "race.rw.dsmem");
    CHECK(x.parties[0].what == "write");
    CHECK(x.parties[0].block == std::array<uint32_t, 3>{1, 0, 0});
    CHECK(x.parties[1].block == std::array<uint32_t, 3>{0, 0, 0});
    CHECK(x.address == 8u);  // the offset in CTA 0's window
    CHECK(x.title ==
          "Race between a write and a read of shared memory by threads of blocks (1,0,0) and (0,0,0) of "
          "one cluster");
    CHECK(x.fix.find("cluster.sync()") != std::string::npos);
}

TEST_CASE("racecheck dsmem: each CTA's shared memory has words of its own", "[check][race][cluster]") {
    ClusterFixture f;
    f.race.on_memory(f.access(0, 2, engine::MemoryKind::write, 8));  // CTA 0's word 2
    f.race.on_memory(f.access(1, 2, engine::MemoryKind::write, 8));  // CTA 1's word 2: another word
    f.race.on_memory(f.access(1, 3, engine::MemoryKind::read, cluster(1, 8)));  // its own, by address
    CHECK(f.log.size() == 0);
    f.race.on_memory(f.access(1, 4, engine::MemoryKind::read, cluster(0, 8)));  // CTA 0's word 2 from CTA 1
    REQUIRE(f.log.size() == 1);
    CHECK(f.log.findings()[0].kind == "race.rw.dsmem");
}

TEST_CASE("racecheck dsmem: arrive (release) and wait (acquire) of barrier.cluster order the CTAs",
          "[check][race][cluster]") {
    SECTION("the writer arrives first; the phase completes before the reader waits") {
        ClusterFixture f;
        f.race.on_memory(f.access(1, 2, engine::MemoryKind::write, cluster(0, 8)));
        f.cluster_arrive(1);
        f.cluster_arrive(0);
        f.cluster_phase_done();
        f.cluster_wait(0);  // its phase has completed: acquires at once
        f.race.on_memory(f.access(0, 7, engine::MemoryKind::read, 8));
        CHECK(f.log.size() == 0);
    }
    SECTION("the reader waits first and is released when the writer arrives") {
        ClusterFixture f;
        f.cluster_arrive(0);
        f.cluster_wait(0);  // phase 0 not complete: waits
        f.race.on_memory(f.access(1, 2, engine::MemoryKind::write, cluster(0, 8)));
        f.cluster_arrive(1);
        f.cluster_phase_done();
        f.race.on_memory(f.access(0, 7, engine::MemoryKind::read, 8));
        CHECK(f.log.size() == 0);
        // After the wait the two CTAs are concurrent again: CTA 1 writing the word once more races with the
        // read.
        f.race.on_memory(f.access(1, 8, engine::MemoryKind::write, cluster(0, 8)));
        REQUIRE(f.log.size() == 1);
        CHECK(f.log.findings()[0].kind == "race.rw.dsmem");
    }
    SECTION("the writer's arrival in a later phase does not order a read after an earlier phase") {
        ClusterFixture f;
        f.cluster_arrive(0);
        f.cluster_arrive(1);
        f.cluster_phase_done();  // phase 0: nothing written yet
        f.race.on_memory(f.access(1, 2, engine::MemoryKind::write, cluster(0, 8)));
        f.cluster_wait(0);  // waits for phase 0, which did not include the write
        f.race.on_memory(f.access(0, 7, engine::MemoryKind::read, 8));
        CHECK(f.log.size() == 1);
    }
}

TEST_CASE("racecheck dsmem: a .relaxed arrival releases nothing; bar.sync orders one CTA only",
          "[check][race][cluster]") {
    SECTION("barrier.cluster.arrive.relaxed") {
        ClusterFixture f;
        f.race.on_memory(f.access(1, 2, engine::MemoryKind::write, cluster(0, 8)));
        f.cluster_arrive(1, 5);  // pc 5: .relaxed
        f.cluster_arrive(0);
        f.cluster_phase_done();
        f.cluster_wait(0);
        f.race.on_memory(f.access(0, 7, engine::MemoryKind::read, 8));
        CHECK(f.log.size() == 1);
    }
    SECTION("__syncthreads() in the writer's CTA") {
        ClusterFixture f;
        f.race.on_memory(f.access(1, 2, engine::MemoryKind::write, cluster(0, 8)));
        f.race.on_barrier(f.barrier(1, 3, engine::BarrierKind::sync, 0));
        f.race.on_barrier_release(f.ctas[1], 0);
        f.race.on_barrier(f.barrier(0, 3, engine::BarrierKind::sync, 0));
        f.race.on_barrier_release(f.ctas[0], 0);
        f.race.on_memory(f.access(0, 7, engine::MemoryKind::read, 8));
        REQUIRE(f.log.size() == 1);
        CHECK(f.log.findings()[0].fix.find("cluster.sync()") != std::string::npos);
    }
}
