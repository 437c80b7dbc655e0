// tests/engine/test_wgmma.cpp — Hopper's warpgroup MMA: the matrix descriptor, the shared-memory layouts and
// swizzles, the register fragments (expected values worked out by hand from the PTX ISA's tables, figures
// and example layouts, section 9.7.15.5.1), and whole launches of tests/specs/wgmma_kernels.cu on integer
// inputs checked against plain integer arithmetic. The floating-point results are checked bit for bit
// against the H200 by the differential test (tests/specs/wgmma_*.json).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>

#include "sim/check/run_check.hpp"
#include "sim/engine/wgmma_layout.hpp"
#include "sim/session/run.hpp"
#include "tests/engine/engine_harness.hpp"

using namespace warpsim;
namespace wg = warpsim::engine::wgmma;

namespace {

std::string details(const engine::LaunchResult& r) {
    return r.error ? r.error->message + "\n" + r.error->details : "";
}

const test::Kernel& wgmma_kernels() {
    static const test::Kernel k = test::parse(
        test::read_text(std::string(WARPSIM_SOURCE_DIR) + "/tests/specs/wgmma_kernels.sm_90a.lineinfo.ptx"));
    return k;
}

wg::MatrixDescriptor desc(uint32_t start, uint32_t lbo, uint32_t sbo, wg::Swizzle s) {
    wg::MatrixDescriptor d;
    d.start = start, d.lbo = lbo, d.sbo = sbo, d.swizzle = s;
    return d;
}

}  // namespace

TEST_CASE("wgmma matrix descriptor fields") {
    // start 0x400 -> 0x40, LBO 256 -> 16, SBO 1024 -> 64 (each (x & 0x3ffff) >> 4), base offset 5, 128B
    // swizzle.
    const uint64_t bits = 0x40ull | 16ull << 16 | 64ull << 32 | 5ull << 49 | 1ull << 62;
    const auto d = wg::decode_descriptor(bits);
    CHECK(d.start == 0x400);
    CHECK(d.lbo == 256);
    CHECK(d.sbo == 1024);
    CHECK(d.base_offset == 5);
    CHECK(d.swizzle == wg::Swizzle::b128);
    CHECK(wg::decode_descriptor(3ull << 62).swizzle == wg::Swizzle::b32);
    CHECK(wg::decode_descriptor(2ull << 62).swizzle == wg::Swizzle::b64);
    CHECK(wg::decode_descriptor(0x3fffull).start == 0x3fff0);  // the largest start address, 14 bits << 4
    // Bits 14-15, 30-31 and 46-48 are not fields.
    const auto z = wg::decode_descriptor(0xc000ull | 0xc0000000ull | 0x1c00000000000ull);
    CHECK(z.start == 0);
    CHECK(z.lbo == 0);
    CHECK(z.sbo == 0);
    CHECK(z.base_offset == 0);
}

TEST_CASE("wgmma swizzle of shared addresses") {
    using S = wg::Swizzle;
    CHECK(wg::swizzle_row_bytes(S::none) == 16);
    CHECK(wg::swizzle_row_bytes(S::b32) == 32);
    CHECK(wg::swizzle_row_bytes(S::b64) == 64);
    CHECK(wg::swizzle_row_bytes(S::b128) == 128);
    // Without swizzle the address stays.
    CHECK(wg::swizzle_address(0x5a4, S::none) == 0x5a4);
    // 128B: chunk (bits 4-6) ^= bits 7-9. 0x080: row 1, chunk 0 -> chunk 1. 0x3f0: row 7, chunk 7 -> chunk 0.
    CHECK(wg::swizzle_address(0x080, S::b128) == 0x090);
    CHECK(wg::swizzle_address(0x3f0, S::b128) == 0x380);
    // 0x5a6: bits 7-9 = 0b011, chunk 0b010 -> 0b001, byte 6 in the chunk stays: 0x596. Bit 10 plays no part.
    CHECK(wg::swizzle_address(0x5a6, S::b128) == 0x596);
    // 64B: chunk bits 4-5 ^= bits 7-8. 0x180: bits 7-8 = 0b11, chunk 0 -> 3: 0x1b0. 0x200: bits 7-8 = 0 (bit
    // 9 is not used).
    CHECK(wg::swizzle_address(0x180, S::b64) == 0x1b0);
    CHECK(wg::swizzle_address(0x200, S::b64) == 0x200);
    // 32B: bit 4 ^= bit 7. 0x0a0 (bit 7 set, bit 4 clear) -> 0x0b0; 0x120 (bit 7 clear) stays.
    CHECK(wg::swizzle_address(0x0a0, S::b32) == 0x0b0);
    CHECK(wg::swizzle_address(0x120, S::b32) == 0x120);
}

TEST_CASE("wgmma element addresses in the canonical layouts of the PTX ISA's examples") {
    using S = wg::Swizzle;
    // K-major, no swizzle, tf32: exact layout ((8,2),(4,4)):((4,32),(1,64)) elements, LBO 64*4, SBO 32*4
    // bytes. Element (mn 9, k 5): mn = (1,1) -> 4 + 32, k = (1,1) -> 1 + 64: element 101, byte 404.
    CHECK(wg::element_address(desc(0, 256, 128, S::none), false, 4, 9, 5) == 404);
    CHECK(wg::element_address(desc(0x800, 256, 128, S::none), false, 4, 9, 5) == 0x800 + 404);
    // K-major, 32B swizzle, tf32: ((8,2),(4,4)):((8,64),(1,4)), SBO 64*4 bytes. (mn 12, k 6): mn = (4,1) ->
    // 32 + 64, k = (2,1) -> 2 + 4: element 102, byte 408 = 0x198; bit 7 set flips bit 4: 0x188.
    CHECK(wg::element_address(desc(0, 16, 256, S::b32), false, 4, 12, 6) == 0x188);
    // (mn 10, k 6): element 86, byte 344 = 0x158, bit 7 clear: unchanged.
    CHECK(wg::element_address(desc(0, 16, 256, S::b32), false, 4, 10, 6) == 344);
    // MN-major, no swizzle, bf16: ((8,1,2),(8,2)):((1,8,64),(8,128)), LBO 128*2, SBO 64*2 bytes. (mn 11, k
    // 12): mn = (3,0,1) -> 3 + 64, k = (4,1) -> 32 + 128: element 227, byte 454.
    CHECK(wg::element_address(desc(0, 256, 128, S::none), true, 2, 11, 12) == 454);
    // MN-major, 32B swizzle, bf16: ((8,2,2),(8,2)):((1,8,128),(16,256)), LBO 128*2, SBO 256*2 bytes. (mn 13,
    // k 9): mn = (5,1,0) -> 5 + 8, k = (1,1) -> 16 + 256: element 285, byte 570 = 0x23a, bit 7 clear:
    // unchanged.
    CHECK(wg::element_address(desc(0, 256, 512, S::b32), true, 2, 13, 9) == 570);
    // MN-major, 64B swizzle, bf16: ((8,4,2),(8,2)):((1,8,256),(32,512)), LBO 256*2, SBO 512*2 bytes. (mn 45,
    // k 10): mn = (5,1,1) -> 5 + 8 + 256, k = (2,1) -> 64 + 512: element 845, byte 1690 = 0x69a; bits 7-8 =
    // 0b01, chunk bits 4-5 = 0b01 -> 0: 0x68a.
    CHECK(wg::element_address(desc(0, 512, 1024, S::b64), true, 2, 45, 10) == 0x68a);
    // K-major, 128B swizzle, f16, a k-step inside the row: start 0x420 is the tile at 0x400 advanced by one
    // k-step of 16 elements (32 bytes). Element (mn 3, k 5) at 0x420 + 3*128 + 10 = 0x5aa: bits 7-9 = 0b011,
    // chunk 0b010
    // -> 0b001: 0x59a. The same element of the whole tile, (3, 16 + 5), from start 0x400: the same address.
    CHECK(wg::element_address(desc(0x420, 16, 1024, S::b128), false, 2, 3, 5) == 0x59a);
    CHECK(wg::element_address(desc(0x400, 16, 1024, S::b128), false, 2, 3, 21) == 0x59a);
}

TEST_CASE("wgmma register fragments of A and of the accumulator") {
    // Thread 37: warp 1, lane 5 (lane/4 = 1, lane%4 = 1). Register 6: row 16 + 1 + 8, column 8 + 2.
    auto p = wg::accumulator_position(37, 6);
    CHECK(p.row == 25);
    CHECK(p.col == 10);
    p = wg::accumulator_position(37, 3);  // row 16 + 1 + 8, column 2 + 1
    CHECK(p.row == 25);
    CHECK(p.col == 3);
    p = wg::accumulator_position(127, 127);  // m64n256: warp 3 lane 31, the last register: row 63, column 255
    CHECK(p.row == 63);
    CHECK(p.col == 255);
    // Every register of every thread of m64n64 names a different element, and all 64 x 64 are named.
    std::vector<int> seen(64 * 64, 0);
    for (uint32_t t = 0; t < 128; ++t)
        for (uint32_t i = 0; i < 32; ++i) {
            const auto q = wg::accumulator_position(t, i);
            REQUIRE(q.row < 64);
            REQUIRE(q.col < 64);
            ++seen[q.row * 64 + q.col];
        }
    CHECK(std::count(seen.begin(), seen.end(), 1) == 64 * 64);
    // A, f16 (two per register, K = 16): thread 70 = warp 2 lane 6 (lane/4 = 1, lane%4 = 2); register 3,
    // upper half: row 32 + 1 + 8, column 2*2 + 1 + 8.
    p = wg::a_fragment_position(70, 3, 1, 2);
    CHECK(p.row == 41);
    CHECK(p.col == 13);
    // tf32 (one per register, K = 8): register 2 of thread 70: row 32 + 1, column 2 + 4.
    p = wg::a_fragment_position(70, 2, 0, 1);
    CHECK(p.row == 33);
    CHECK(p.col == 6);
    // s8 (four per register, K = 32): register 3 byte 2 of thread 70: row 41, column 2*4 + 2 + 16.
    p = wg::a_fragment_position(70, 3, 2, 4);
    CHECK(p.row == 41);
    CHECK(p.col == 26);
}

namespace {

// wgmma_s8u8_m64n64k32 on chosen bytes: A[m][k] = (a_rand >> 7) & 0xff as s8, B[n][k] = (b_rand >> 11) & 0xff
// as u8, D = C + A * B with 32-bit wrap-around.
struct IntCase {
    std::vector<uint32_t> a_rand, b_rand, c;
    std::vector<int32_t> expected;
};

IntCase int_case() {
    IntCase ic;
    ic.a_rand.resize(64 * 32);
    ic.b_rand.resize(64 * 32);
    ic.c.resize(64 * 64);
    std::vector<int8_t> a(64 * 32);
    std::vector<uint8_t> b(64 * 32);
    for (uint32_t i = 0; i < 64 * 32; ++i) {
        a[i] = static_cast<int8_t>(static_cast<int>((i * 37 + 11) % 256) - 128);
        b[i] = static_cast<uint8_t>((i * 91 + 5) % 256);
        ic.a_rand[i] =
            static_cast<uint32_t>(static_cast<uint8_t>(a[i])) << 7 | (i & 0x7f);  // low bits ignored
        ic.b_rand[i] = static_cast<uint32_t>(b[i]) << 11 | 0x7ff;
    }
    ic.expected.resize(64 * 64);
    for (uint32_t m = 0; m < 64; ++m)
        for (uint32_t n = 0; n < 64; ++n) {
            ic.c[m * 64 + n] = m * 1000003u + n * 7919u + (m == 5 && n == 7 ? 0x7fffff00u : 0);
            int64_t s = static_cast<int32_t>(ic.c[m * 64 + n]);
            for (uint32_t k = 0; k < 32; ++k) s += int64_t{a[m * 32 + k]} * int64_t{b[n * 32 + k]};
            ic.expected[m * 64 + n] = static_cast<int32_t>(static_cast<uint32_t>(s));
        }
    return ic;
}

engine::LaunchResult run_int(const IntCase& ic, uint32_t threads, int mode, std::vector<int32_t>* out,
                             engine::ExecutionObserver* observer = nullptr) {
    const auto& k = wgmma_kernels();
    const ir::Function* fn = test::kernel_named(k, "wgmma_s8u8_m64n64k32");
    engine::Simulator sim;
    const uint64_t da = test::upload(sim, ic.a_rand), db = test::upload(sim, ic.b_rand),
                   dc = test::upload(sim, ic.c), dd = test::upload(sim, std::vector<int32_t>(64 * 64, 0));
    test::Params p;
    p.add(da).add(db).add(dc).add(dd).add(mode);
    auto cfg = test::config({1, 1, 1}, {threads, 1, 1});
    cfg.observer = observer;
    auto r = sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr);
    if (out) *out = test::download<int32_t>(sim, dd, 64 * 64);
    return r;
}

}  // namespace

TEST_CASE("wgmma s8.u8 m64n64k32 through every swizzle mode equals the integer product") {
    const auto& k = wgmma_kernels();
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    const IntCase ic = int_case();
    for (int mode = 0; mode < 4; ++mode) {
        std::vector<int32_t> out;
        auto r = run_int(ic, 128, mode, &out);
        INFO("swizzle mode " << mode << ": " << details(r));
        REQUIRE(r.ok());
        for (uint32_t i = 0; i < 64 * 64; ++i) {
            INFO("row " << i / 64 << " column " << i % 64);
            REQUIRE(out[i] == ic.expected[i]);
        }
    }
}

namespace {

struct SharedReads : engine::ExecutionObserver {
    std::vector<engine::MemoryEvent> reads;  // shared-memory reads of wgmma.mma_async
    const ir::Function* fn = nullptr;
    void on_memory(const engine::MemoryEvent& e) override {
        if (e.space == engine::MemorySpace::shared && e.kind == engine::MemoryKind::read &&
            fn->body[e.site.pc].op == ir::Opcode::wgmma)
            reads.push_back(e);
    }
};

}  // namespace

TEST_CASE("wgmma reports the shared memory it reads to the checkers") {
    const IntCase ic = int_case();
    SharedReads obs;
    obs.fn = test::kernel_named(wgmma_kernels(), "wgmma_s8u8_m64n64k32");
    REQUIRE(obs.fn);
    auto r = run_int(ic, 128, 0, nullptr, &obs);
    INFO(details(r));
    REQUIRE(r.ok());
    // No swizzle, K-major, 32 bytes of K per row: a warp reads its 16 rows of A (32 chunks of 16 bytes) and
    // all 64 rows of B (128 chunks): 160 chunks, reported as 5 events of 32.
    REQUIRE(obs.reads.size() == 20);
    std::map<uint64_t, int> times;  // chunk -> warps that read it
    for (const auto& e : obs.reads) {
        CHECK(e.bytes_per_lane == 16);
        CHECK(e.active_mask == 0xffffffffu);
        CHECK_FALSE(e.async);
        for (uint32_t l = 0; l < 32; ++l) {
            CHECK(e.addr[l] % 16 == 0);
            ++times[e.addr[l]];
        }
    }
    // A: 2048 bytes, each chunk read by one warp; B: 2048 bytes, each chunk read by all four warps.
    REQUIRE(times.size() == 256);
    const uint64_t a0 = times.begin()->first, b0 = std::next(times.begin(), 128)->first;
    CHECK(a0 % 1024 == 0);
    CHECK(b0 % 1024 == 0);
    int i = 0;
    for (const auto& [addr, n] : times) {
        INFO("chunk " << i << " at " << addr);
        CHECK(addr == (i < 128 ? a0 + 16 * i : b0 + 16 * (i - 128)));
        CHECK(n == (i < 128 ? 1 : 4));
        ++i;
    }
}

TEST_CASE("racecheck: a tile written by other warps without a barrier before wgmma") {
    // wgmma_s8u8_tile with and without the kernel's __syncthreads() (bar.sync between the tile stores and the
    // MMA), written to a temporary folder with a copy of the spec.
    const std::string dir = std::string(WARPSIM_BINARY_DIR) + "/test_wgmma_racecheck";
    std::filesystem::create_directories(dir);
    std::string ptx =
        test::read_text(std::string(WARPSIM_SOURCE_DIR) + "/tests/specs/wgmma_kernels.sm_90a.lineinfo.ptx");
    std::string spec = test::read_text(std::string(WARPSIM_SOURCE_DIR) + "/tests/specs/wgmma_s8u8_tile.json");
    const std::string source = "\"source\": \"wgmma_kernels.sm_90a.lineinfo.ptx\"";
    REQUIRE(spec.find(source) != std::string::npos);
    spec.replace(spec.find(source), source.size(), "\"source\": \"kernels.ptx\"");
    auto check_with = [&](bool barrier) {
        std::string text = ptx;
        if (!barrier) {
            const std::size_t kernel = text.find(".visible .entry wgmma_s8u8_m64n64k32(");
            const std::size_t bar = text.find("bar.sync \t0;", kernel);
            REQUIRE(bar != std::string::npos);
            text.replace(bar, 12, "// no barrier");
        }
        std::ofstream(dir + "/kernels.ptx") << text;
        std::ofstream(dir + "/spec.json") << spec;
        auto p = session::prepare(dir + "/spec.json");
        INFO((p ? "" : p.error()));
        REQUIRE(p.ok());
        check::CheckOptions options;
        options.memcheck = options.synccheck = options.initcheck = false;
        auto r = check::check_prepared(*p, options);
        REQUIRE(r.ok());
        return std::move(r.value());
    };
    const auto clean = check_with(true);
    CHECK(clean.log.size() == 0);
    const auto racy = check_with(false);
    REQUIRE(racy.log.count(check::Tool::racecheck) == 2);  // the A tile and the B tile
    for (const auto& f : racy.log.findings()) {
        CHECK(f.kind == "race.rw.shared");
        CHECK(f.fix.find("add __syncthreads() between line") != std::string::npos);
        // wgmma_kernels.cu: lines 280 and 281 store the A and B tiles (sa, sb), lines 289-291 are the asm
        // wgmma.
        const uint32_t write = racy.ctx.cuda_line(f.parties[0].at),
                       read = racy.ctx.cuda_line(f.parties[1].at);
        CHECK(write == (f.variable.rfind("sa[", 0) == 0 ? 280u : 281u));
        CHECK(read >= 289u);
        CHECK(read <= 291u);
    }
}

TEST_CASE("wgmma needs the whole warpgroup") {
    const IntCase ic = int_case();
    SECTION("a block of 96 threads has no complete warpgroup") {
        auto r = run_int(ic, 96, 0, nullptr);
        REQUIRE(r.error);
        CHECK(r.error->name == "cudaErrorIllegalInstruction");
        CHECK(r.error->details.find("warps 0..3") != std::string::npos);
        CHECK(r.error->details.find("has 96 threads") != std::string::npos);
        CHECK(r.error->details.find("wgmma_kernels.cu:") != std::string::npos);  // the CUDA line of the asm
    }
    const char* ptx = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry half_warp_fence()
{
    .reg .pred %p<2>;
    .reg .b32 %r<2>;
    mov.u32 %r0, %tid.x;
    setp.lt.u32 %p0, %r0, 16;
    @%p0 wgmma.fence.sync.aligned;
    ret;
}
.visible .entry every_thread_fences()
{
    wgmma.fence.sync.aligned;
    wgmma.commit_group.sync.aligned;
    wgmma.wait_group.sync.aligned 0;
    ret;
}
)";
    auto k = test::parse(ptx);
    REQUIRE(k.parsed.ok());
    SECTION("the second warpgroup of a 160-thread block is incomplete") {
        engine::Simulator sim;
        auto r = sim.launch(k.parsed.module, *k.find("every_thread_fences"),
                            test::config({1, 1, 1}, {160, 1, 1}), {}, nullptr);
        REQUIRE(r.error);
        INFO(details(r));
        CHECK(r.error->details.find("warps 4..7 (threads 128..255 of the block) is incomplete") !=
              std::string::npos);
        CHECK(r.error->details.find("test.ptx:16") != std::string::npos);
        CHECK(r.error->where.thread == std::array<uint32_t, 3>{128, 0, 0});
    }
    SECTION("256 threads are two whole warpgroups") {
        engine::Simulator sim;
        auto r = sim.launch(k.parsed.module, *k.find("every_thread_fences"),
                            test::config({1, 1, 1}, {256, 1, 1}), {}, nullptr);
        INFO(details(r));
        CHECK(r.ok());
    }
    SECTION("lanes under a guard") {
        engine::Simulator sim;
        auto r = sim.launch(k.parsed.module, *k.find("half_warp_fence"), test::config({1, 1, 1}, {128, 1, 1}),
                            {}, nullptr);
        REQUIRE(r.error);
        CHECK(r.error->details.find("test.ptx:11") != std::string::npos);
        CHECK(r.error->details.find("0x0000ffff") != std::string::npos);
    }
}

TEST_CASE("wgmma forms the engine does not execute are reported by name") {
    const char* ptx = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry f16_accumulator()
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<2>;
    mov.u64 %rd0, 0;
    wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {%r0, %r1}, %rd0, %rd0, 1, 1, 1, 0, 0;
    ret;
}
)";
    auto k = test::parse(ptx);
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    auto r = sim.launch(k.parsed.module, *k.find("f16_accumulator"), test::config({1, 1, 1}, {128, 1, 1}), {},
                        nullptr);
    REQUIRE(r.error);
    CHECK(r.error->message.find("does not execute `wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16`") !=
          std::string::npos);
}
