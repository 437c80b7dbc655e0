// tests/examples/access_pattern_test.cpp — the one wording for lanes that share addresses (same-address
// atomics, broadcasts, duplicates), golden per pattern: first on hand-built warps, then end to end on the
// kernels of tests/examples/patterns/access_patterns.cu, where the report, `warpsim explain` and the HTML
// page must say the same thing. Every count is worked out by hand from the kernel's index arithmetic and the
// counting rules.
#include <catch2/catch.hpp>

#include "sim/report/access_pattern.hpp"
#include "sim/report/explain.hpp"
#include "sim/report/html_report.hpp"
#include "sim/report/text_report.hpp"
#include "tests/examples/example_support.hpp"

using namespace warpsim;
using namespace warpsim::report;
using namespace warpsim::examples_test;

namespace {

LaneSample warp_of(uint32_t width, uint32_t mask, unsigned long long (*addr)(uint32_t)) {
    LaneSample s;
    s.bytes_per_lane = width;
    s.active_mask = mask;
    for (uint32_t l = 0; l < 32; ++l) s.addr[l] = addr(l);
    return s;
}

struct PatternRun {
    session::PreparedLaunch p;
    session::SimRun run;
    LaneSamples samples;
};

PatternRun pattern_run(const std::string& kernel) {
    PatternRun r{prepare_example("pattern_" + kernel, true), {}, {}};
    r.run = simulate(r.p);
    auto s = sample_lanes(r.p, r.run);
    REQUIRE(s.ok());
    r.samples = std::move(s.value());
    return r;
}

std::string why_of(const PatternRun& r, uint32_t line, size_t access) {
    ExplainRequest req;
    req.line = line;
    auto x = explain_line(r.p, r.run, req);
    INFO((x ? std::string() : x.error()));
    REQUIRE(x.ok());
    REQUIRE(x->accesses.size() > access);
    return x->accesses[access].why;
}

const std::string kSharedBin =
    "atomic contention: all 32 lanes update the same 4-byte word; updates of one address are serialised, 32 "
    "one "
    "after another in this warp (not a bank conflict: no bank is asked for different words); fewer updates "
    "per "
    "address (a per-warp or per-block partial result first) is the fix; 32.00 wavefronts per request where "
    "1.00 "
    "would do";

}  // namespace

TEST_CASE("address sharing of one warp", "[report][pattern]") {
    const auto pairs =
        address_sharing(warp_of(4, 0xffffffffu, [](uint32_t l) { return 1024 + 4ull * (l / 2); }));
    CHECK(pairs.lanes == 32);
    CHECK(pairs.distinct_addresses == 16);
    CHECK(pairs.most_on_one == 2);
    CHECK(pairs.distinct_bytes == 64);
    const auto partial = address_sharing(warp_of(4, 0x0000000fu, [](uint32_t) { return 64ull; }));
    CHECK(partial.lanes == 4);
    CHECK(partial.most_on_one == 4);
    CHECK(partial.distinct_bytes == 4);
}

TEST_CASE("sharing sentences, one per pattern, by hand", "[report][pattern]") {
    const auto one_word = warp_of(4, 0xffffffffu, [](uint32_t) { return 12ull; });
    // Shared atomics on one word: 32 wavefronts (each lane's update in turn), ideal 1.
    CHECK(sharing_sentence(AccessSpace::shared, AccessKind::atomic, one_word, {32, 1}) == kSharedBin);
    // Global: 32 sectors (one pass per update of the address), ideal 1 (4 distinct bytes): 3.1 % used.
    CHECK(sharing_sentence(AccessSpace::global, AccessKind::atomic, one_word, {32, 1}) ==
          "atomic contention: all 32 lanes update the same 4-byte word; updates of one address are "
          "serialised, 32 "
          "one after another in this warp; fewer updates per address (a per-warp or per-block partial result "
          "first) is the fix; 32.00 sectors per request where 1.00 would do; 3.1 % of the bytes moved are "
          "used");
    // A warp-wide integer reduction the hardware combines (REDUX): 1 sector, nothing to gain.
    CHECK(sharing_sentence(AccessSpace::global, AccessKind::reduction, one_word, {1, 1}) ==
          "all 32 lanes update the same 4-byte word, and the hardware combines the lanes into one update per "
          "word "
          "first (a warp-wide reduction): no contention; 1.00 sectors per request where 1.00 would do; 100.0 "
          "% of "
          "the bytes moved are used");
    // Eight words, four lanes each.
    const auto eight = warp_of(4, 0xffffffffu, [](uint32_t l) { return 4ull * (l % 8); });
    CHECK(sharing_sentence(AccessSpace::global, AccessKind::atomic, eight, {4, 1})
              ->rfind("atomic contention: up to 4 of the 32 lanes update the same 4-byte word (8 distinct "
                      "words in this "
                      "warp); updates of one address are serialised, 4 one after another",
                      0) == 0);
    // Broadcasts are free, in global and in shared memory.
    CHECK(sharing_sentence(AccessSpace::global, AccessKind::load, one_word, {1, 1}) ==
          "all 32 lanes read the same 4 bytes: one sector serves the whole warp (a broadcast, free); 1.00 "
          "sectors "
          "per request where 1.00 would do; 100.0 % of the bytes moved are used");
    CHECK(sharing_sentence(AccessSpace::shared, AccessKind::load, one_word, {1, 1}) ==
          "all 32 lanes read the same 4 bytes: one word serves the whole warp (a broadcast, free); 1.00 "
          "wavefronts "
          "per request where 1.00 would do");
    CHECK(sharing_sentence(AccessSpace::global, AccessKind::store, one_word, {1, 1})
              ->rfind("all 32 lanes write the same 4 bytes: one of the writes lands", 0) == 0);
    // Duplicates: the ideal is the distinct bytes.
    const auto rows = warp_of(4, 0xffffffffu, [](uint32_t l) { return 4096ull * (l / 16); });
    CHECK(sharing_sentence(AccessSpace::global, AccessKind::load, rows, {2, 1}) ==
          "the 32 lanes read 2 distinct addresses (up to 16 lanes share one): lanes that share an address "
          "are served "
          "by the same bytes at no extra cost, so the ideal counts the 8 distinct bytes; 2.00 sectors per "
          "request "
          "where 1.00 would do; 50.0 % of the bytes moved are used");
    // Every lane on its own address: no sharing sentence (the stride explanations apply).
    const auto own = warp_of(4, 0xffffffffu, [](uint32_t l) { return 4ull * l; });
    CHECK_FALSE(sharing_sentence(AccessSpace::global, AccessKind::load, own, {4, 4}));
}

TEST_CASE("shared atomics on one bin: contention, the same words in the report, explain and the HTML",
          "[examples][pattern]") {
    auto r = pattern_run("shared_one_bin");
    // access_patterns.cu:11 atomicAdd(&bins[3], 1u): 32 lanes, one word, 32 wavefronts where 1 would do.
    CHECK(why_of(r, 11, 0) == kSharedBin);
    const auto model = build_model(r.p, r.run, &r.samples);
    const auto items = look_at(model);
    REQUIRE_FALSE(items.empty());
    CHECK(items[0].where == "line 11");
    CHECK(items[0].what ==
          "shared atomic: 32.00 wavefronts per request where 1.00 would do (atomic contention: 32 "
          "updates of one word)");
    TextReportOptions opts;
    opts.samples = &r.samples;
    const std::string text = text_report(r.p, r.run, opts);
    CHECK_THAT(text, Catch::Contains("32x same"));
    CHECK_THAT(text, !Catch::Contains("-way bank conflict"));
    CHECK_THAT(text, !Catch::Contains("different words,"));
    const std::string html = html_report(r.p, r.run, &r.samples);
    CHECK_THAT(html, Catch::Contains(
                         "<p class=\"caption\">In this warp atomic contention: all 32 lanes update the same "
                         "4-byte word;"));
    CHECK_THAT(html, Catch::Contains("<title>bank 3: 32 updates</title>"));
    CHECK_THAT(html, !Catch::Contains("busiest bank is asked for 1 different word"));
}

TEST_CASE("a global counter every lane takes a ticket from: contention, 32 sectors where 1 would do",
          "[examples][pattern]") {
    auto r = pattern_run("global_one_counter");
    // access_patterns.cu:18: the atom (the old value is stored, so no reduction) and the ticket store.
    CHECK_THAT(why_of(r, 18, 0),
               Catch::StartsWith("atomic contention: all 32 lanes update the same 4-byte word;"));
    CHECK_THAT(why_of(r, 18, 0),
               Catch::EndsWith("32.00 sectors per request where 1.00 would do; 3.1 % of the bytes "
                               "moved are used"));
}

TEST_CASE("a broadcast read costs its ideal: 1 sector, nothing flagged", "[examples][pattern]") {
    auto r = pattern_run("broadcast_read");
    CHECK(why_of(r, 23, 0) ==
          "all 32 lanes read the same 4 bytes: one sector serves the whole warp (a broadcast, "
          "free); 1.00 sectors per request where 1.00 would do; 100.0 % of the bytes moved are used");
    const auto model = build_model(r.p, r.run, &r.samples);
    CHECK(look_at(model).empty());
}

TEST_CASE("pairs of lanes on one float: 2 sectors, 2 ideal from the 64 distinct bytes",
          "[examples][pattern]") {
    auto r = pattern_run("pair_read");
    CHECK_THAT(why_of(r, 28, 0),
               Catch::StartsWith("the 32 lanes read 16 distinct addresses (up to 2 lanes share one)"));
    CHECK_THAT(why_of(r, 28, 0), Catch::Contains("2.00 sectors per request where 2.00 would do; 100.0 %"));
}

TEST_CASE("two rows, 16 lanes each: 2 sectors where 1 would do", "[examples][pattern]") {
    auto r = pattern_run("two_rows_read");
    CHECK_THAT(why_of(r, 33, 0),
               Catch::Contains("the 32 lanes read 2 distinct addresses (up to 16 lanes share one)"));
    const auto items = look_at(build_model(r.p, r.run, &r.samples));
    REQUIRE_FALSE(items.empty());
    CHECK(items[0].what ==
          "global load: 2.00 sectors per request where 1.00 would do (50.0 % of the bytes used)");
}
