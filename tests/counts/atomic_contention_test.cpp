// tests/counts/atomic_contention_test.cpp — the L2's busy time per region for global atomics, worked out by
// hand from the rule in sim/counts/atomic_contention.hpp (a request to a 512-byte region costs the longest of
// 75 ps per lane, 660 ps per distinct sector, and 740 ps (integer) or 1760 ps (float) per lane on its
// most-asked word).
#include <catch2/catch.hpp>

#include "sim/counts/atomic_contention.hpp"
#include "sim/counts/counters.hpp"
#include "tests/counts/access_builders.hpp"

using namespace warpsim::counts;
using warpsim::counts::test::kBase;
using warpsim::counts::test::make_access;

namespace {

WarpAccess atomic(uint32_t mask, const std::function<uint64_t(uint32_t)>& address, bool float_op = false,
                  AccessKind kind = AccessKind::atomic) {
    WarpAccess a = make_access(AccessSpace::global, kind, 4, mask, address);
    a.float_op = float_op;
    a.redux_op = !float_op;
    return a;
}

}  // namespace

TEST_CASE("atomic contention: one request per region, its cost the longest of lanes, sectors and one word") {
    const AtomicCost cost;
    SECTION("a whole warp on one integer word: 32 x 740 ps") {
        AtomicContention c;
        c.add(atomic(~0u, [](uint32_t) { return kBase; }), false, cost);
        const auto s = c.summary();
        CHECK(s.busiest_ps == 23680);
        CHECK(s.total_ps == 23680);
        CHECK(s.requests == 1);
        CHECK(s.regions == 1);
        CHECK(s.max_same_word == 32);
        CHECK(s.busiest_address == kBase);
    }
    SECTION("a whole warp on one float word: 32 x 1760 ps") {
        AtomicContention c;
        c.add(atomic(
                  ~0u, [](uint32_t) { return kBase + 64; }, true),
              false, cost);
        CHECK(c.summary().busiest_ps == 56320);
    }
    SECTION("32 consecutive words: 4 sectors x 660 ps") {
        AtomicContention c;
        c.add(atomic(~0u, [](uint32_t i) { return kBase + 4 * i; }), false, cost);
        CHECK(c.summary().busiest_ps == 2640);
        CHECK(c.summary().max_same_word == 1);
    }
    SECTION("8 words, 4 lanes each, in one sector: 4 x 740 ps") {
        AtomicContention c;
        c.add(atomic(~0u, [](uint32_t i) { return kBase + 4 * (i % 8); }), false, cost);
        CHECK(c.summary().busiest_ps == 2960);
    }
    SECTION("16 words, 2 lanes each, in 2 sectors: 32 lanes x 75 ps") {
        AtomicContention c;
        c.add(atomic(~0u, [](uint32_t i) { return kBase + 4 * (i % 16); }), false, cost);
        CHECK(c.summary().busiest_ps == 2400);
    }
    SECTION("half the lanes in each of two regions: two requests, the busiest one of them") {
        AtomicContention c;
        c.add(atomic(~0u, [](uint32_t i) { return kBase + (i < 16 ? 4 * i : 512 + 4 * i); }), false, cost);
        const auto s = c.summary();
        CHECK(s.requests == 2);
        CHECK(s.regions == 2);
        CHECK(s.busiest_ps == 1320);  // 16 lanes (1200 ps) on 16 words in 2 sectors (1320 ps)
        CHECK(s.total_ps == 2640);
        CHECK(s.busiest_address == kBase);  // tie: the lower region
    }
    SECTION("a combined warp-wide reduction: one update") {
        AtomicContention c;
        c.add(atomic(
                  ~0u, [](uint32_t) { return kBase; }, false, AccessKind::reduction),
              true, cost);
        CHECK(c.summary().busiest_ps == 740);
        CHECK(c.summary().max_same_word == 1);
    }
    SECTION("inactive lanes do not count") {
        AtomicContention c;
        c.add(atomic(0x3u, [](uint32_t) { return kBase; }), false, cost);
        CHECK(c.summary().busiest_ps == 1480);  // 2 x 740
        CHECK(c.summary().max_same_word == 2);
    }
}

TEST_CASE("atomic contention: workers merge by summing regions, in any order") {
    const AtomicCost cost;
    AtomicContention a, b, ab, ba;
    a.add(atomic(~0u, [](uint32_t) { return kBase; }), false, cost);            // 23680 at region 0
    b.add(atomic(~0u, [](uint32_t i) { return kBase + 4 * i; }), false, cost);  // 2640 at region 0
    b.add(atomic(~0u, [](uint32_t) { return kBase + 4096; }), false, cost);     // 23680 at region 8
    ab.merge(a);
    ab.merge(b);
    ba.merge(b);
    ba.merge(a);
    for (const auto* m : {&ab, &ba}) {
        const auto s = m->summary();
        CHECK(s.busiest_ps == 26320);
        CHECK(s.busiest_address == kBase);
        CHECK(s.total_ps == 50000);
        CHECK(s.requests == 3);
    }
}

TEST_CASE(
    "atomic contention: KernelCounters feeds global atomics and reductions, not loads or shared atomics") {
    auto one_word = [](uint32_t) { return kBase + 1024; };
    SECTION("an address equal in every lane at run time is 32 updates") {
        KernelCounters k(CountsConfig{});
        k.on_access(atomic(~0u, [](uint32_t) { return kBase; }));
        k.on_access(
            make_access(AccessSpace::global, AccessKind::load, 4, ~0u, [](uint32_t) { return kBase; }));
        k.on_access(make_access(AccessSpace::shared, AccessKind::atomic, 4, ~0u, [](uint32_t) { return 0; }));
        k.on_access(atomic(~0u, one_word, false, AccessKind::reduction));
        const auto s = k.atomic_contention();
        CHECK(s.requests == 2);
        CHECK(s.busiest_ps == 23680);
        CHECK(s.total_ps == 2 * 23680);
    }
    SECTION("one at a warp-uniform address (as ptxas sees it) is one update") {
        CountsConfig cfg;
        cfg.uniform_atomics = std::make_shared<std::vector<std::vector<bool>>>(
            std::vector<std::vector<bool>>{{false, false, false, true}});
        KernelCounters k(cfg);
        WarpAccess a = atomic(~0u, one_word, false, AccessKind::reduction);
        a.pc = 3;
        k.on_access(a);
        a.float_op = true;  // a float add is not combined
        a.redux_op = false;
        k.on_access(a);
        const auto s = k.atomic_contention();
        CHECK(s.total_ps == 740 + 32 * 1760);
    }
}
