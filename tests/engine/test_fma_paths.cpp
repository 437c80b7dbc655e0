// tests/engine/test_fma_paths.cpp — every host path of fma.rn.f32 over a full warp (SSE2 two lanes, AVX2
// four lanes where the CPU has it, lane by lane) forced in turn: hand-computed bits for cases that take
// each branch (the fused product, the double-rounding midpoint, subnormal and NaN results), and the same
// bits as sim/arith's software fma for pseudo-random operands. The engine itself only ever takes the
// widest path, so without this the SSE2 path would go untested on an AVX2 machine.
#include <catch2/catch.hpp>

#include <array>
#include <vector>

#include "sim/arith/float_ops.hpp"
#include "sim/engine/fma_warp.hpp"

using namespace warpsim;
using engine::FmaWarpPath;

namespace {

struct Fma {
    uint32_t a, b, c, expect;
};
constexpr Fma kCases[8] = {
    {0x3f800001, 0x3f7ffffe, 0xbf800000, 0xa8800000},  // (1+2^-23)(1-2^-23) - 1 = -2^-46, fused
    {0x3f800001, 0x337ffffe, 0x3f800001, 0x3f800001},  // just below a midpoint: f64 rounds onto it
    {0x00400000, 0x7e800000, 0x3f800000, 0x3fc00000},  // 2^-127 * 2^126 + 1 = 1.5, subnormal input
    {0x7f800000, 0x00000000, 0x3f800000, 0x7fffffff},  // inf * 0 + 1: the canonical NaN
    {0x7f000000, 0x3f000000, 0xff800000, 0xff800000},  // 2^127 * 0.5 - inf = -inf
    {0x40000000, 0x40400000, 0x3f800000, 0x40e00000},  // 2 * 3 + 1 = 7
    {0x00800000, 0x3f000000, 0x00000000, 0x00400000},  // 2^-126 * 0.5 + 0 = 2^-127, subnormal
    {0x3f800000, 0x3f800000, 0xbf800000, 0x00000000},  // 1 * 1 - 1 = +0
};

struct Warp {
    std::array<uint64_t, 32> a{}, b{}, c{};
};

// The paths this host can run, each with its name.
std::vector<std::pair<FmaWarpPath, const char*>> host_paths() {
    std::vector<std::pair<FmaWarpPath, const char*>> out;
    const Warp w;
    std::array<uint64_t, 32> d{};
    for (auto [p, name] : {std::pair{FmaWarpPath::sse2, "sse2"}, std::pair{FmaWarpPath::avx2, "avx2"},
                           std::pair{FmaWarpPath::lanes, "lanes"}, std::pair{FmaWarpPath::widest, "widest"}})
        if (engine::f32_fma_rn_full_warp(d.data(), w.a.data(), w.b.data(), w.c.data(), p))
            out.push_back({p, name});
    return out;
}

uint32_t next(uint64_t& s) {  // xorshift64*
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return static_cast<uint32_t>((s * 0x2545f4914f6cdd1dull) >> 32);
}

}  // namespace

TEST_CASE("fma.rn.f32 over a full warp: each host path forced gives the hand-computed bits") {
    const auto paths = host_paths();
#if defined(__x86_64__)
    // x86-64 always has SSE2, so its two-lane path must be there to test, whatever wider path the CPU has.
    bool has_sse2 = false;
    for (const auto& [p, name] : paths) has_sse2 |= p == FmaWarpPath::sse2;
    REQUIRE(has_sse2);
#endif
    // Lane l takes case (3 l) % 8 (every pair and group of four mixes shortcut and sim/arith cases), and the
    // upper halves of the slots hold junk that must not leak into the result.
    Warp w;
    for (uint32_t l = 0; l < 32; ++l) {
        const Fma& f = kCases[(3 * l) % 8];
        w.a[l] = 0xabcd000000000000ull | f.a;
        w.b[l] = 0x1234000000000000ull | f.b;
        w.c[l] = 0xffff000000000000ull | f.c;
    }
    for (const auto& [p, name] : paths) {
        std::array<uint64_t, 32> d;
        d.fill(0xdeadbeefdeadbeefull);
        REQUIRE(engine::f32_fma_rn_full_warp(d.data(), w.a.data(), w.b.data(), w.c.data(), p));
        for (uint32_t l = 0; l < 32; ++l) {
            INFO(name << " lane " << l << std::hex << ": got 0x" << d[l] << " expected 0x"
                      << kCases[(3 * l) % 8].expect);
            CHECK(d[l] == kCases[(3 * l) % 8].expect);
        }
        // The destination may be a source (fma.rn.f32 %f1, %f1, %f2, %f3).
        Warp v = w;
        REQUIRE(engine::f32_fma_rn_full_warp(v.a.data(), v.a.data(), v.b.data(), v.c.data(), p));
        for (uint32_t l = 0; l < 32; ++l) {
            INFO(name << " in place, lane " << l);
            CHECK(v.a[l] == kCases[(3 * l) % 8].expect);
        }
    }
}

TEST_CASE(
    "fma.rn.f32 over a full warp: each host path forced gives the hand-computed bits, one case a warp") {
    // Every lane the same case, so that each case alone decides whether a group of lanes leaves the vector
    // path (a mixed group would send the midpoint case lane by lane for its neighbour's sake).
    for (uint32_t k = 0; k < 8; ++k)
        for (const auto& [p, name] : host_paths()) {
            Warp w;
            w.a.fill(kCases[k].a);
            w.b.fill(kCases[k].b);
            w.c.fill(kCases[k].c);
            std::array<uint64_t, 32> d{};
            REQUIRE(engine::f32_fma_rn_full_warp(d.data(), w.a.data(), w.b.data(), w.c.data(), p));
            for (uint32_t l = 0; l < 32; ++l) {
                INFO(name << " case " << k << " lane " << l << std::hex << ": got 0x" << d[l]
                          << " expected 0x" << kCases[k].expect);
                CHECK(d[l] == kCases[k].expect);
            }
        }
}

TEST_CASE("fma.rn.f32 over a full warp: each host path forced matches sim/arith's fma on random operands") {
    const auto paths = host_paths();
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    uint32_t mismatches = 0;
    for (int round = 0; round < 2048; ++round) {
        Warp w;
        for (uint32_t l = 0; l < 32; ++l) {
            uint32_t a = next(seed), b = next(seed), c = next(seed);
            // Half the lanes: exponents close together (products near c, cancellation, midpoints of the
            // host's double rounding); the others: any bits (NaNs, infinities, subnormals, overflow).
            if (l % 2 == 0) {
                a = (a & 0x807fffffu) | (0x3f000000u + ((a >> 8) & 0x00800000u));
                b = (b & 0x807fffffu) | (0x3f000000u + ((b >> 9) & 0x00800000u));
                c = (c & 0x807fffffu) | (0x3e800000u + ((c >> 7) & 0x01800000u));
            }
            w.a[l] = a;
            w.b[l] = b;
            w.c[l] = c;
        }
        for (const auto& [p, name] : paths) {
            std::array<uint64_t, 32> d{};
            REQUIRE(engine::f32_fma_rn_full_warp(d.data(), w.a.data(), w.b.data(), w.c.data(), p));
            for (uint32_t l = 0; l < 32; ++l) {
                const uint64_t expect = arith::f32_fma(uint32_t(w.a[l]), uint32_t(w.b[l]), uint32_t(w.c[l]),
                                                       arith::Round::rn, false);
                if (d[l] == expect) continue;
                ++mismatches;
                INFO(name << std::hex << " a 0x" << w.a[l] << " b 0x" << w.b[l] << " c 0x" << w.c[l]
                          << ": got 0x" << d[l] << " expected 0x" << expect);
                CHECK(d[l] == expect);
            }
        }
    }
    CHECK(mismatches == 0);
}
