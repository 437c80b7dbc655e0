// tests/counts/caches_test.cpp — hit/miss sequences of the sectored LRU cache and the L2/DRAM footprint
// model.
#include <catch2/catch.hpp>

#include "sim/counts/footprint.hpp"
#include "sim/counts/sectored_cache.hpp"

using namespace warpsim::counts;

TEST_CASE("tiny sectored cache: sector misses under a tag hit, LRU eviction", "[counts][cache]") {
    // 512 bytes, 2 ways, 128-byte lines: 2 sets. Sector s is in line s/4, set (s/4) % 2.
    SectoredCache c(CacheGeometry{512, 2, 128, 32});
    REQUIRE(c.sets() == 2);
    CHECK_FALSE(c.access(0, true));  // line 0 (set 0): cold miss
    CHECK(c.access(0, true));        // hit
    CHECK_FALSE(c.access(1, true));  // same line, other sector: sector miss
    CHECK(c.access(1, true));
    CHECK_FALSE(c.access(8, true));   // line 2, set 0: second way
    CHECK_FALSE(c.access(4, true));   // line 1, set 1: does not disturb set 0
    CHECK_FALSE(c.access(16, true));  // line 4, set 0: evicts the LRU line 0 (last used before line 2)
    CHECK(c.access(8, true));         // line 2 survived
    CHECK_FALSE(c.access(0, true));   // line 0 was evicted; now evicts line 4 (LRU after line 2's refresh)
    CHECK(c.access(8, true));
    CHECK_FALSE(c.access(16, true));
    CHECK(c.access(4, true));  // set 1 untouched throughout
}

TEST_CASE("no-allocate lookups never fill the cache; invalidate_all empties it", "[counts][cache]") {
    SectoredCache c(CacheGeometry{512, 2, 128, 32});
    CHECK_FALSE(c.access(40, false));
    CHECK_FALSE(c.access(40, true));  // the no-allocate miss left nothing behind
    CHECK(c.access(40, true));
    CHECK(c.access(40, false));  // a present sector hits without allocating
    c.invalidate_all();
    CHECK_FALSE(c.access(40, true));
    CHECK(c.access(40, true));
}

TEST_CASE("a one-line cache thrashes between two lines", "[counts][cache]") {
    SectoredCache c(CacheGeometry{128, 1, 128, 32});
    for (int round = 0; round < 3; ++round) {
        CHECK_FALSE(c.access(0, true));
        CHECK_FALSE(c.access(4, true));
    }
}

TEST_CASE("footprint: distinct sectors, union on merge", "[counts][footprint]") {
    SectorFootprint a, b;
    for (uint64_t s : {10ull, 11ull, 10ull, 5000ull}) a.add_read(s);
    a.add_write(11);
    for (uint64_t s : {11ull, 12ull, 1ull << 40}) b.add_read(s);
    b.add_write(99);
    auto ta = a.totals();
    CHECK(ta.read == 3);
    CHECK(ta.write == 1);
    CHECK(ta.either == 3);
    SectorFootprint ab = a, ba = b;
    ab.merge(b);
    ba.merge(a);
    // Reads {10, 11, 12, 5000, 2^40}, writes {11, 99}, either 6.
    for (const auto& t : {ab.totals(), ba.totals()}) {
        CHECK(t.read == 5);
        CHECK(t.write == 2);
        CHECK(t.either == 6);
    }
}

TEST_CASE("DRAM estimate: one miss per distinct sector within capacity, streaming past it",
          "[counts][footprint]") {
    const auto model = [](uint64_t l2, bool granule64, uint64_t retained) {
        return DramModel{l2, granule64, retained};
    };
    // 4 distinct sectors read 8 times in all, L2 of 100 sectors: 4 misses.
    auto d = estimate_dram({4, 0, 4, 2}, 8, 0, model(100, false, 0));
    CHECK(d.read_sectors == 4);
    CHECK(d.write_sectors == 0);
    // 8 distinct sectors, each read twice, L2 of 4 sectors: 8 cold + 8 repeats x (1 - 4/8) = 12.
    d = estimate_dram({8, 0, 8, 4}, 16, 0, model(4, false, 0));
    CHECK(d.read_sectors == 12);
    // Writes: 6 distinct written 3 times each, L2 of 3 sectors: 6 + 12 x (1 - 3/6) = 12.
    d = estimate_dram({0, 6, 6, 0}, 0, 18, model(3, false, 0));
    CHECK(d.write_sectors == 12);
}

TEST_CASE("DRAM estimate: 64-byte read granule and dirty data left in L2", "[counts][footprint]") {
    // One sector of each of 10 lines: 10 distinct sectors in 10 distinct 64-byte blocks -> 20 sectors
    // fetched.
    SectorFootprint f;
    for (uint64_t line = 0; line < 10; ++line) f.add_read(line * 4);
    const auto t = f.totals();
    CHECK(t.read_blocks64 == 10);
    CHECK(estimate_dram(t, 10, 0, DramModel{1000, true, 0}).read_sectors == 20);
    CHECK(estimate_dram(t, 10, 0, DramModel{1000, false, 0}).read_sectors == 10);
    // Sectors 0 and 1 share a block, 2 and 3 another: 4 sectors, 2 blocks.
    SectorFootprint g;
    for (uint64_t s : {0ull, 1ull, 2ull, 3ull}) g.add_read(s);
    CHECK(g.totals().read_blocks64 == 2);
    // 100 dirty sectors, 30 of them still in L2 at the end: 70 written back; 20 dirty, 30 retained: none.
    CHECK(estimate_dram({0, 100, 100, 0}, 0, 100, DramModel{1000, true, 30}).write_sectors == 70);
    CHECK(estimate_dram({0, 20, 20, 0}, 0, 20, DramModel{1000, true, 30}).write_sectors == 0);
}
