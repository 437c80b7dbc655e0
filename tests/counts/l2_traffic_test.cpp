// tests/counts/l2_traffic_test.cpp — what reaches L2 and DRAM, rule by rule, with expected values derived by
// hand from the H200 kernels each rule was read off (tests/hardware/h200/results.json).
#include <catch2/catch.hpp>

#include "sim/counts/counters.hpp"
#include "tests/counts/access_builders.hpp"

using namespace warpsim::counts;
using namespace warpsim::counts::test;

namespace {
constexpr uint32_t kAll = 0xffffffffu;
constexpr uint64_t kLocal = 0x7ffe'0000'0000ull;  // the engine's local window (4 GiB aligned)

double metric(const KernelCounters& k, const std::string& name) {
    const auto m = k.metrics();
    const auto it = m.find(name);
    REQUIRE(it != m.end());
    return it->second;
}

CountsConfig no_code_fetch() {
    CountsConfig cfg;
    cfg.code_fetch_bytes = 0;
    cfg.code_fetch_bytes_per_instruction = 0;
    return cfg;
}

// Store k (0-based) of a thread writing field k of a record of `fields` 4-byte fields (vote_ops: 6).
WarpAccess record_store(uint32_t fields, uint32_t k, uint32_t warp = 0) {
    auto a = make_access(AccessSpace::global, AccessKind::store, 4, kAll,
                         [=](uint32_t lane) { return kBase + 4ull * fields * lane + 4ull * k; });
    a.warp = warp;
    return a;
}
}  // namespace

TEST_CASE("a warp's narrow stores to the sectors of its previous store merge before L2", "[counts][l2]") {
    KernelCounters k(no_code_fetch());
    k.on_block_begin(0, 0);
    // vote_ops: six stores of a 24-byte record per thread, 24 sectors over 6 lines each. The H200: 4608 L1
    // store sectors, 768 L2 write sectors for 32 warps = 24 per warp.
    for (uint32_t f = 0; f < 6; ++f) k.on_access(record_store(6, f));
    CHECK(metric(k, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") == 6 * 24);
    CHECK(metric(k, "lts__t_sectors_srcunit_tex_op_write.sum") == 24);
}

TEST_CASE("stores over more than six lines reach L2 whole", "[counts][l2]") {
    KernelCounters k(no_code_fetch());
    k.on_block_begin(0, 0);
    // f32_rounding_modes: sixteen stores of a 64-byte record, 32 sectors over 16 lines each (H200: 14784 of
    // 16384 sectors reach L2; merging would give 2048).
    for (uint32_t f = 0; f < 16; ++f) k.on_access(record_store(16, f));
    CHECK(metric(k, "lts__t_sectors_srcunit_tex_op_write.sum") == 16 * 32);
}

TEST_CASE("a load between two stores, or another warp, keeps them apart", "[counts][l2]") {
    KernelCounters k(no_code_fetch());
    k.on_block_begin(0, 0);
    k.on_access(record_store(4, 0));  // 16 sectors
    k.on_access(global_load(4, kAll, [](uint32_t i) { return kBase + 65536 + 4ull * i; }));
    k.on_access(record_store(4, 1));     // 16 again (device_globals)
    k.on_access(record_store(4, 2, 1));  // warp 1: 16
    k.on_access(record_store(4, 3));     // merges with warp 0's: 0
    CHECK(metric(k, "lts__t_sectors_srcunit_tex_op_write.sum") == 48);
    // A new block starts with nothing to merge with.
    k.on_block_begin(1, 1);
    k.on_access(record_store(4, 3));
    CHECK(metric(k, "lts__t_sectors_srcunit_tex_op_write.sum") == 64);
}

TEST_CASE("local memory is interleaved per warp and read back from L1", "[counts][local]") {
    KernelCounters k(no_code_fetch());
    k.on_block_begin(0, 0);
    // Every lane stores its stack word at offset 8: 32 x 4 bytes of one 128-byte line = 4 sectors (the H200's
    // math_f32_precise: 448 requests, 1778 sectors; a thread-contiguous layout would give one).
    auto st =
        make_access(AccessSpace::local, AccessKind::store, 4, kAll, [](uint32_t) { return kLocal + 8; });
    k.on_access(st);
    CHECK(metric(k, "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum") == 4);
    CHECK(metric(k, "lts__t_sectors_srcunit_tex_op_write.sum") == 4);
    // 16 lanes x 8 bytes: two 4-byte words each, 128 bytes apart; half a line of each word = 2 + 2 sectors.
    auto wide =
        make_access(AccessSpace::local, AccessKind::load, 8, 0xffffu, [](uint32_t) { return kLocal + 64; });
    k.on_access(wide);
    CHECK(metric(k, "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum") == 4);
    // Reading the stored word back hits L1 (stores to the stack allocate): nothing more reaches L2.
    const double reads_before = metric(k, "lts__t_sectors_srcunit_tex_op_read.sum");
    k.on_access(
        make_access(AccessSpace::local, AccessKind::load, 4, kAll, [](uint32_t) { return kLocal + 8; }));
    CHECK(metric(k, "lts__t_sectors_srcunit_tex_op_read.sum") == reads_before);
    // Another warp's stack is other memory.
    auto other = st;
    other.warp = 1;
    k.on_access(other);
    CHECK(metric(k, "lts__t_sectors_srcunit_tex_op_write.sum") == 8);
}

TEST_CASE("L2 counts every pass of an atomic or reduction, as L1 does", "[counts][l2]") {
    KernelCounters k(no_code_fetch());
    // Four float adds at one address: four passes, four L2 sector accesses (atomic_int_global: 26368 red
    // sectors at L1 and at L2).
    auto red =
        make_access(AccessSpace::global, AccessKind::reduction, 4, 0xfu, [](uint32_t) { return kBase; });
    k.on_access(red);
    CHECK(metric(k, "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum") == 4);
    CHECK(metric(k, "lts__t_sectors_srcunit_tex_op_red.sum") == 4);
}

TEST_CASE("every launch reads its code from DRAM", "[counts][dram]") {
    KernelCounters k;  // the H200 fit: 2304 B + 27 B per distinct PTX instruction executed
    CHECK(metric(k, "dram__bytes_read.sum") == 2304);
    for (uint32_t pc = 0; pc < 10; ++pc) k.on_instruction(0, pc, kAll, kAll);
    k.on_instruction(0, 3, kAll, kAll);  // a repeat fetches nothing new
    CHECK(metric(k, "warpsim__code_instructions_executed.sum") == 10);
    CHECK(metric(k, "dram__bytes_read.sum") == 2304 + 270);
}

TEST_CASE("bulk copies (TMA) reach L2 without an L1 request", "[counts][l2]") {
    KernelCounters k(no_code_fetch());
    // bulk_copy_tx: 32 KiB copied global -> shared in 1 KiB pieces; the H200 counts 1024 L2 read sectors, 0
    // L1 load sectors, and reads 32 KiB (plus code) from DRAM.
    for (uint64_t piece = 0; piece < 32; ++piece) k.on_bulk_transfer(kBase + 1024 * piece, 1024, false);
    CHECK(metric(k, "lts__t_sectors_srcunit_tex_op_read.sum") == 1024);
    CHECK(metric(k, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 0);
    CHECK(metric(k, "dram__bytes_read.sum") == 32 * 1024);
    k.on_bulk_transfer(kBase + 16, 48, true);  // bytes 16..63: sectors 0 and 1
    CHECK(metric(k, "lts__t_sectors_srcunit_tex_op_write.sum") == 2);
}

TEST_CASE("local memory that ptxas keeps in registers is not counted", "[counts][local]") {
    CountsConfig cfg = no_code_fetch();
    cfg.local_in_registers =
        true;  // ptxas -v: 0 bytes stack frame (local_array_sort on the H200: no local traffic)
    KernelCounters k(cfg);
    k.on_access(
        make_access(AccessSpace::local, AccessKind::store, 4, kAll, [](uint32_t) { return kLocal + 8; }));
    k.on_access(
        make_access(AccessSpace::local, AccessKind::load, 4, kAll, [](uint32_t) { return kLocal + 8; }));
    CHECK(metric(k, "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum") == 0);
    CHECK(metric(k, "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum") == 0);
    CHECK(metric(k, "lts__t_sectors_srcunit_tex_op_write.sum") == 0);
}
