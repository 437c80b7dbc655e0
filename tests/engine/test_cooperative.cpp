// tests/engine/test_cooperative.cpp — cooperative launches: the grid workspace in %envreg1:%envreg2, all
// blocks running at the same time (a spin barrier across blocks ends), and the launches the engine refuses.
#include <catch2/catch.hpp>

#include "tests/engine/engine_harness.hpp"

using namespace warpsim;

namespace {

// Thread 0 of each block writes the workspace address it sees and the workspace's first word; then it adds 1
// to a counter in global memory and spins until every block has arrived, then writes the count it saw.
// Without all blocks running together the spin never ends.
constexpr const char* kArrive = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry arrive(.param .u64 seen, .param .u64 counter, .param .u64 after)
{
    .reg .pred %p<3>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<16>;
    mov.u32 %r1, %tid.x;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra DONE;
    ld.param.u64 %rd1, [seen];
    ld.param.u64 %rd2, [counter];
    ld.param.u64 %rd3, [after];
    mov.u32 %r2, %ctaid.x;
    mul.wide.u32 %rd4, %r2, 16;
    add.u64 %rd5, %rd1, %rd4;
    mov.u32 %r3, %envreg1;
    mov.u32 %r4, %envreg2;
    cvt.u64.u32 %rd6, %r3;
    cvt.u64.u32 %rd7, %r4;
    shl.b64 %rd6, %rd6, 32;
    or.b64 %rd8, %rd6, %rd7;
    st.global.u64 [%rd5], %rd8;
    setp.eq.u64 %p2, %rd8, 0;
    @%p2 bra DONE;
    ld.global.u32 %r5, [%rd8];
    st.global.u32 [%rd5+8], %r5;
    atom.global.add.u32 %r6, [%rd2], 1;
    mov.u32 %r7, %nctaid.x;
SPIN:
    ld.volatile.global.u32 %r8, [%rd2];
    setp.lt.u32 %p2, %r8, %r7;
    @%p2 bra SPIN;
    mul.wide.u32 %rd9, %r2, 4;
    add.u64 %rd10, %rd3, %rd9;
    st.global.u32 [%rd10], %r8;
DONE:
    ret;
}
)";

}  // namespace

TEST_CASE("a cooperative launch runs all blocks together and gives them the grid workspace") {
    auto k = test::parse(kArrive);
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    const ir::Function* fn = test::kernel_named(k, "arrive");
    REQUIRE(fn);
    constexpr uint32_t blocks = 40;
    engine::Simulator sim;
    const uint64_t seen = test::upload(sim, std::vector<uint64_t>(2 * blocks, 0));
    const uint64_t counter = test::upload(sim, std::vector<uint32_t>{0});
    const uint64_t after = test::upload(sim, std::vector<uint32_t>(blocks, 0));
    test::Params p;
    p.add(seen).add(counter).add(after);

    auto cfg = test::config({blocks, 1, 1}, {64, 1, 1});
    cfg.cooperative = true;
    cfg.max_instructions = 50'000'000;  // a spin that never ends fails quickly
    auto r = sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr);
    INFO((r.error ? r.error->message + ": " + r.error->details : std::string()));
    REQUIRE(r.ok());
    const auto s = test::download<uint64_t>(sim, seen, 2 * blocks);
    const auto a = test::download<uint32_t>(sim, after, blocks);
    CHECK(s[0] != 0);
    for (uint32_t b = 0; b < blocks; ++b) {
        CHECK(s[2 * b] == s[0]);                   // one workspace for the whole grid
        CHECK((s[2 * b + 1] & 0xffffffffu) == 8);  // its wsSize word, as the driver's ABI lays it out
        CHECK(a[b] == blocks);                     // every block saw all blocks arrive
    }

    // A plain launch has no workspace: %envreg1:%envreg2 read 0 (grid.sync() traps there).
    sim.write(seen, std::vector<uint8_t>(16 * blocks, 0xff));
    cfg.cooperative = false;
    REQUIRE(sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr).ok());
    CHECK(test::download<uint64_t>(sim, seen, 1)[0] == 0);
}

TEST_CASE("a cooperative launch larger than the device can hold at once is refused before it runs") {
    auto k = test::parse(kArrive);
    REQUIRE(k.parsed.ok());
    const ir::Function* fn = test::kernel_named(k, "arrive");
    engine::Simulator sim;
    const uint64_t buf = test::upload(sim, std::vector<uint64_t>(2, 0));
    test::Params p;
    p.add(buf).add(buf).add(buf);
    auto cfg = test::config({132 * 32 + 1, 1, 1}, {32, 1, 1});  // one block more than 132 SMs x 32 blocks
    cfg.cooperative = true;
    auto r = sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error->name == "cudaErrorCooperativeLaunchTooLarge");
    CHECK(r.error->message == "too many blocks in cooperative launch");
    CHECK(r.warp_instructions == 0);
}
