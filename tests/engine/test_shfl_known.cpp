// tests/engine/test_shfl_known.cpp — shfl.sync up/down/bfly/idx with b and c known at decode (nvcc's form:
// each a register set once by a mov of a constant, which the engine runs on its own handler) and with b
// and c loaded at run time (the general handler), over full and partial executing masks: every lane's value
// and predicate as the PTX ISA's pseudo-code for shfl.sync gives them, computed here.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "tests/engine/engine_harness.hpp"

using namespace warpsim;

namespace {

struct Expect {
    uint32_t source;
    bool in_range;
};

// PTX ISA, shfl.sync: lane, bval = b[4:0], cval = c[4:0], segmask = c[12:8].
Expect isa_shfl(const char* mode, uint32_t lane, uint32_t b, uint32_t c) {
    const int32_t bval = b & 31, cval = c & 31, seg = (c >> 8) & 31, l = static_cast<int32_t>(lane);
    const int32_t max_lane = (l & seg) | (cval & ~seg), min_lane = l & seg;
    int32_t j = 0;
    bool p = false;
    if (std::string_view(mode) == "up") {
        j = l - bval;
        p = j >= max_lane;
    } else if (std::string_view(mode) == "down") {
        j = l + bval;
        p = j <= max_lane;
    } else if (std::string_view(mode) == "bfly") {
        j = l ^ bval;
        p = j <= max_lane;
    } else {
        j = min_lane | (bval & ~seg);
        p = j <= max_lane;
    }
    return {static_cast<uint32_t>(p ? j : l), p};
}

// `known`: b and c moved in as constants; else loaded from the kernel's parameters. `guarded`: only lanes
// below 20 execute the shfl.
std::string kernel(const char* mode, uint32_t b, uint32_t c, bool known, bool guarded) {
    const std::string bc = known ? fmt::format("    mov.u32 %r2, {};\n    mov.u32 %r3, {};\n", b, c)
                                 : "    ld.param.u32 %r2, [bp];\n    ld.param.u32 %r3, [cp];\n";
    return fmt::format(R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry shuffle(.param .u64 out, .param .u32 bp, .param .u32 cp)
{{
    .reg .b32 %r<8>;
    .reg .pred %p<3>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mad.lo.u32 %r5, %r1, 3, 100;
{}    setp.lt.u32 %p2, %r1, 20;
    {}shfl.sync.{}.b32 %r4|%p1, %r5, %r2, %r3, -1;
    selp.u32 %r6, 1, 0, %p1;
    mul.wide.u32 %rd2, %r1, 8;
    add.s64 %rd3, %rd1, %rd2;
    st.global.v2.u32 [%rd3], {{%r4, %r6}};
    ret;
}}
)",
                       bc, guarded ? "@%p2 " : "", mode);
}

}  // namespace

TEST_CASE(
    "shfl.sync with b and c known at decode and loaded at run time: the PTX ISA's lanes and predicates") {
    const uint32_t bs[] = {0, 1, 2, 5, 16, 31};
    const uint32_t cs[] = {0x1f, 0x0, 0x7, 0x1a, 0x101f, 0x100f, 0x1807, 0x1c00};
    for (const char* mode : {"up", "down", "bfly", "idx"})
        for (uint32_t b : bs)
            for (uint32_t c : cs)
                for (bool known : {true, false})
                    for (bool guarded : {false, true}) {
                        auto k = test::parse(kernel(mode, b, c, known, guarded));
                        INFO(k.diagnostics);
                        REQUIRE(k.parsed.ok());
                        engine::Simulator sim;
                        const uint64_t out = test::upload(sim, std::vector<uint32_t>(64, 0xdeadbeef));
                        test::Params p;
                        p.add(out).add(static_cast<int32_t>(b)).add(static_cast<int32_t>(c));
                        auto r = sim.launch(k.parsed.module, *k.find("shuffle"),
                                            test::config({1, 1, 1}, {32, 1, 1}), p.span(), nullptr);
                        REQUIRE(r.ok());
                        const auto got = test::download<uint32_t>(sim, out, 64);
                        for (uint32_t l = 0; l < 32; ++l) {
                            const bool runs = !guarded || l < 20;
                            const Expect e = isa_shfl(mode, l, b, c);
                            INFO(mode << " b " << b << " c 0x" << std::hex << c << std::dec << " known "
                                      << known << " guarded " << guarded << " lane " << l);
                            CHECK(got[2 * l] == (runs ? 100 + 3 * e.source : 0u));
                            CHECK(got[2 * l + 1] == (runs && e.in_range ? 1u : 0u));
                        }
                    }
}
