// tests/counts/counters_test.cpp — KernelCounters: instruction counts, metric names, L1/L2/DRAM, merging.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <vector>

#include "sim/counts/counters.hpp"
#include "tests/counts/access_builders.hpp"

using namespace warpsim::counts;
using namespace warpsim::counts::test;

namespace {
constexpr uint32_t kAll = 0xffffffffu;

double metric(const KernelCounters& k, const std::string& name) {
    const auto m = k.metrics();
    const auto it = m.find(name);
    REQUIRE(it != m.end());
    return it->second;
}

WarpAccess with_pc(WarpAccess a, uint32_t pc) {
    a.pc = pc;
    return a;
}

CountsConfig tiny_config() {
    CountsConfig cfg;
    cfg.l1_bytes = 512;  // 2 sets x 2 ways of 128-byte lines
    cfg.l1_ways = 2;
    cfg.l2_bytes = 1 << 20;
    cfg.l2_dirty_retained_fraction = 0;  // every dirty sector reaches DRAM, so writes stay visible
    cfg.code_fetch_bytes = 0;            // DRAM reads are the data's alone (code fetch: l2_traffic_test.cpp)
    cfg.code_fetch_bytes_per_instruction = 0;
    return cfg;
}
}  // namespace

TEST_CASE("instruction counts: predicated-off lanes are issued threads but not pred_on",
          "[counts][counters]") {
    KernelCounters k;
    k.on_instruction(0, 5, kAll, 0x0000ffffu);
    k.on_instruction(0, 5, 0xffu, 0xffu);
    k.on_instruction(1, 0, 0x1u, 0x0u);
    CHECK(metric(k, "smsp__inst_executed.sum") == 3);
    CHECK(metric(k, "smsp__thread_inst_executed.sum") == 32 + 8 + 1);
    CHECK(metric(k, "smsp__thread_inst_executed_pred_on.sum") == 16 + 8 + 0);
    const auto* line = k.line(0, 5);
    REQUIRE(line != nullptr);
    CHECK(line->warp_insts == 2);
    CHECK(line->thread_insts == 40);
    CHECK(line->thread_insts_pred_on == 24);
    CHECK(k.line(0, 4) == nullptr);
    CHECK(k.per_pc().size() == 2);
}

TEST_CASE("metric table: required names present, ncu list excludes warpsim-only names", "[counts][metrics]") {
    const auto names = ncu_metric_names();
    const std::set<std::string> unique(names.begin(), names.end());
    CHECK(unique.size() == names.size());
    for (const char* required :
         {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
          "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
          "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum", "smsp__inst_executed_op_local_st.sum",
          "smsp__inst_executed.sum", "smsp__thread_inst_executed.sum",
          "lts__t_sectors_srcunit_tex_op_write.sum", "dram__bytes_read.sum", "dram__bytes_write.sum"})
        CHECK(unique.count(required) == 1);
    for (const auto& n : names) CHECK(n.rfind("warpsim__", 0) == std::string::npos);
    const auto m = KernelCounters().metrics();
    CHECK(m.count("warpsim__ideal_sectors_global_op_ld.sum") == 1);
    for (const auto& n : names) CHECK(m.count(n) == 1);
}

TEST_CASE("global requests, sectors and ideal sectors per op and per line", "[counts][counters]") {
    KernelCounters k(tiny_config());
    k.on_access(with_pc(global_load(4, kAll, [](uint32_t i) { return kBase + 8ull * i; }), 3));   // 8 sectors
    k.on_access(with_pc(global_load(4, 0xffu, [](uint32_t i) { return kBase + 4ull * i; }), 3));  // 1 sector
    auto st = make_access(AccessSpace::global, AccessKind::store, 16, kAll,
                          [](uint32_t i) { return kBase + 16ull * i; });
    st.pc = 4;
    k.on_access(st);  // 16 sectors
    auto red =
        make_access(AccessSpace::global, AccessKind::reduction, 4, kAll, [](uint32_t) { return kBase; });
    red.pc = 6;
    red.redux_op = true;  // a 32-bit integer add at one address: ptxas combines the warp (see rmw_sectors)
    k.on_access(red);     // 1 sector, 1 ideal (4 distinct bytes)
    CHECK(metric(k, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 2);
    CHECK(metric(k, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 9);
    CHECK(metric(k, "warpsim__ideal_sectors_global_op_ld.sum") == 5);
    CHECK(metric(k, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") == 16);
    CHECK(metric(k, "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum") == 1);
    CHECK(metric(k, "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum") == 1);
    CHECK(metric(k, "warpsim__ideal_sectors_global_op_red.sum") == 1);
    CHECK(metric(k, "smsp__inst_executed_op_global_ld.sum") == 2);
    CHECK(metric(k, "smsp__inst_executed_op_global_st.sum") == 1);
    CHECK(metric(k, "smsp__inst_executed_op_global_red.sum") == 1);
    CHECK(metric(k, "lts__t_sectors_srcunit_tex_op_write.sum") == 16);
    CHECK(metric(k, "lts__t_sectors_srcunit_tex_op_red.sum") == 1);
    const auto* line = k.line(0, 3);
    REQUIRE(line != nullptr);
    CHECK(line->requests == 2);
    CHECK(line->sectors == 9);
    CHECK(line->ideal_sectors == 5);
    CHECK(metric(k, "warpsim__sector_efficiency_global_op_ld.pct") == Approx(100.0 * 5 / 9));
}

TEST_CASE("shared metrics: wavefronts, conflicts and the worst way per line", "[counts][counters]") {
    KernelCounters k;
    k.on_access(
        with_pc(shared_load(4, kAll, [](uint32_t i) { return 128ull * i; }), 7));  // 32 wf, 31 conflicts
    k.on_access(with_pc(shared_load(4, kAll, [](uint32_t i) { return 132ull * i; }), 7));  // 1 wf
    auto st =
        make_access(AccessSpace::shared, AccessKind::store, 8, kAll, [](uint32_t i) { return 8ull * i; });
    k.on_access(st);  // 2 wf, 0 conflicts
    auto atom =
        make_access(AccessSpace::shared, AccessKind::atomic, 4, kAll, [](uint32_t i) { return 8ull * i; });
    k.on_access(atom);  // stride 2 words: 2 wf, 1 conflict
    CHECK(metric(k, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 33);
    CHECK(metric(k, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") == 31);
    CHECK(metric(k, "warpsim__ideal_wavefronts_shared_op_ld.sum") == 2);
    CHECK(metric(k, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum") == 2);
    CHECK(metric(k, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum") == 0);
    CHECK(metric(k, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum") == 2);
    CHECK(metric(k, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum") == 1);
    CHECK(metric(k, "smsp__inst_executed_op_shared_ld.sum") == 2);
    CHECK(metric(k, "smsp__inst_executed_op_shared_st.sum") == 1);
    CHECK(metric(k, "smsp__inst_executed_op_shared_atom.sum") == 1);
    const auto* line = k.line(0, 7);
    REQUIRE(line != nullptr);
    CHECK(line->wavefronts == 33);
    CHECK(line->ideal_wavefronts == 2);
    CHECK(line->max_way == 32);
}

TEST_CASE("L1: loads allocate, stores and .cg loads do not, each block starts cold", "[counts][l1]") {
    KernelCounters k(tiny_config());
    const auto row =
        global_load(4, kAll, [](uint32_t i) { return kBase + 4ull * i; });  // sectors 0..3 of a line
    k.on_block_begin(0, 0);
    k.on_access(row);  // 4 misses
    k.on_access(row);  // 4 hits
    auto st = make_access(AccessSpace::global, AccessKind::store, 4, kAll,
                          [](uint32_t i) { return kBase + 512 + 4ull * i; });
    k.on_access(st);
    k.on_access(
        global_load(4, kAll, [](uint32_t i) { return kBase + 512 + 4ull * i; }));  // 4 misses: no allocate
    auto cg = global_load(4, kAll, [](uint32_t i) { return kBase + 1024 + 4ull * i; });
    cg.caches_in_l1 = false;
    k.on_access(cg);  // 4 misses, not allocated
    k.on_access(global_load(4, kAll, [](uint32_t i) { return kBase + 1024 + 4ull * i; }));  // 4 misses
    k.on_block_end(0, 0);
    k.on_block_begin(1, 1);
    k.on_access(row);  // cold again: 4 misses
    CHECK(metric(k, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum") == 4);
    CHECK(metric(k, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum") == 20);
    CHECK(metric(k, "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct") == Approx(100.0 * 4 / 24));
    // L2 reads are the L1 misses (20); distinct sectors read: row 4, +512 4, +1024 4 = 12 -> 12 DRAM misses.
    CHECK(metric(k, "lts__t_sectors_srcunit_tex_op_read.sum") == 20);
    CHECK(metric(k, "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum") == 12);
    CHECK(metric(k, "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum") == 8);
    CHECK(metric(k, "dram__bytes_read.sum") == 12 * 32);
    CHECK(metric(k, "dram__bytes_write.sum") == 4 * 32);
    CHECK(k.line(0, 0)->l1_hits == 4);
}

TEST_CASE("dirty data that fits in the retained share of L2 is not written back", "[counts][l2]") {
    CountsConfig cfg = tiny_config();
    cfg.l2_bytes = 100 * 32;
    cfg.l2_dirty_retained_fraction = 0.5;  // 50 sectors stay dirty in L2
    KernelCounters k(cfg);
    // 64 float4 stores per warp, 2 warps: 2 x 16 = 32 sectors -> all retained.
    for (uint64_t w = 0; w < 2; ++w)
        k.on_access(make_access(AccessSpace::global, AccessKind::store, 16, kAll,
                                [w](uint32_t i) { return kBase + 512 * w + 16ull * i; }));
    CHECK(metric(k, "dram__bytes_write.sum") == 0);
    // Two more warps: 64 sectors dirty, 50 retained -> 14 written back.
    for (uint64_t w = 2; w < 4; ++w)
        k.on_access(make_access(AccessSpace::global, AccessKind::store, 16, kAll,
                                [w](uint32_t i) { return kBase + 512 * w + 16ull * i; }));
    CHECK(metric(k, "dram__bytes_write.sum") == 14 * 32);
}

TEST_CASE("L2 past capacity: streaming estimate of DRAM reads", "[counts][l2]") {
    CountsConfig cfg = tiny_config();
    cfg.l2_bytes = 4 * 32;  // 4 sectors
    KernelCounters k(cfg);
    // 8 distinct sectors (one per lane-group of a stride-32-byte read with 8 lanes), read twice through .cg.
    auto a = global_load(4, 0xffu, [](uint32_t i) { return kBase + 32ull * i; });
    a.caches_in_l1 = false;
    k.on_access(a);
    k.on_access(a);
    // 8 cold misses + 8 repeats x (1 - 4/8) = 12 sectors.
    CHECK(metric(k, "dram__bytes_read.sum") == 12 * 32);
    CHECK(metric(k, "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum") == 4);
}

namespace {
// Four blocks: each reads a row twice (second read hits L1), block b also reads block b-1's row (an L2 hit
// but, with a cold L1 per block, an L1 miss), writes its own output row and does a conflicted shared read.
void run_block(KernelCounters& k, uint32_t b) {
    k.on_block_begin(b, b % 132);
    const uint64_t in = kBase + 128ull * b;
    const uint64_t prev = kBase + 128ull * (b == 0 ? 3 : b - 1);
    const uint64_t out = kBase + 65536 + 128ull * b;
    for (int rep = 0; rep < 2; ++rep) {
        k.on_instruction(0, 1, kAll, kAll);
        k.on_access(with_pc(global_load(4, kAll, [in](uint32_t i) { return in + 4ull * i; }), 1));
    }
    k.on_instruction(0, 2, kAll, kAll);
    k.on_access(with_pc(global_load(4, kAll, [prev](uint32_t i) { return prev + 4ull * i; }), 2));
    k.on_instruction(0, 3, kAll, 0xffffu);
    k.on_access(with_pc(shared_load(4, 0xffffu, [](uint32_t i) { return 128ull * i; }), 3));
    k.on_instruction(0, 4, kAll, kAll);
    auto st = make_access(AccessSpace::global, AccessKind::store, 4, kAll,
                          [out](uint32_t i) { return out + 4ull * i; });
    st.pc = 4;
    k.on_access(st);
    k.on_block_end(b, b % 132);
}
}  // namespace

TEST_CASE("merge: any split of blocks over workers gives the same counts", "[counts][merge]") {
    const CountsConfig cfg = tiny_config();
    KernelCounters whole(cfg);
    for (uint32_t b = 0; b < 4; ++b) run_block(whole, b);

    KernelCounters even(cfg), odd(cfg);
    for (uint32_t b : {0u, 2u}) run_block(even, b);
    for (uint32_t b : {3u, 1u}) run_block(odd, b);  // out of order on purpose
    KernelCounters a = even;
    a.merge(odd);
    KernelCounters b = odd;
    b.merge(even);
    std::vector<KernelCounters> singles;
    KernelCounters c(cfg);
    for (uint32_t blk = 0; blk < 4; ++blk) {
        KernelCounters one(cfg);
        run_block(one, blk);
        c.merge(one);
    }

    // By hand: per block 3 loads (12 sectors, 4 L1 hits on the repeat), 1 store (4 sectors), 16-way shared.
    CHECK(metric(whole, "smsp__inst_executed.sum") == 20);
    CHECK(metric(whole, "smsp__thread_inst_executed_pred_on.sum") == 4 * (4 * 32 + 16));
    CHECK(metric(whole, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 48);
    CHECK(metric(whole, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum") == 16);
    CHECK(metric(whole, "lts__t_sectors_srcunit_tex_op_read.sum") == 32);
    CHECK(metric(whole, "dram__bytes_read.sum") == 16 * 32);  // four 128-byte input rows
    CHECK(metric(whole, "dram__bytes_write.sum") == 16 * 32);
    CHECK(metric(whole, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 64);
    CHECK(metric(whole, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") == 60);

    for (const KernelCounters* merged : {&a, &b, &c}) {
        CHECK(merged->metrics() == whole.metrics());
        const auto& lines = merged->per_pc();
        const auto& expected = whole.per_pc();
        REQUIRE(lines.size() == expected.size());
        for (const auto& [key, s] : expected) {
            const auto& got = lines.at(key);
            CHECK(got.warp_insts == s.warp_insts);
            CHECK(got.thread_insts_pred_on == s.thread_insts_pred_on);
            CHECK(got.sectors == s.sectors);
            CHECK(got.wavefronts == s.wavefronts);
            CHECK(got.l1_hits == s.l1_hits);
            CHECK(got.max_way == s.max_way);
        }
    }
}

TEST_CASE("cp.async shared fills are no LSU shared stores; global reds count per pass",
          "[counts][counters]") {
    KernelCounters k;
    // cp_async_sizes / pipeline_memcpy_async on the H200: op_st wavefronts and instructions 0.
    auto fill =
        make_access(AccessSpace::shared, AccessKind::store, 16, kAll, [](uint32_t i) { return 16ull * i; });
    fill.async_fill = true;
    k.on_access(fill);
    CHECK(metric(k, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum") == 0);
    CHECK(metric(k, "smsp__inst_executed_op_shared_st.sum") == 0);
    // atomic_float_one_block: red.add.f32 by 32 lanes at one address: 1 request, 32 sectors.
    k.on_access(
        make_access(AccessSpace::global, AccessKind::reduction, 4, kAll, [](uint32_t) { return kBase; }));
    CHECK(metric(k, "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum") == 1);
    CHECK(metric(k, "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum") == 32);
}

TEST_CASE("mbarrier operations are in no LSU shared counter, and still end a run of merging stores",
          "[counts][counters]") {
    KernelCounters k;
    // mbarrier_phases on the H200: 8 warps per block arrive on one 8-byte barrier object and poll it with
    // test_wait, yet op_atom wavefronts and shared atomic instructions are 0.
    auto arrive =
        make_access(AccessSpace::shared, AccessKind::atomic, 8, kAll, [](uint32_t) { return 1024ull; });
    arrive.barrier_object = true;
    k.on_access(arrive);
    CHECK(metric(k, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum") == 0);
    CHECK(metric(k, "smsp__inst_executed_op_shared_atom.sum") == 0);
    CHECK(metric(k, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 0);
    CHECK(metric(k, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum") == 0);
    // The same access without the flag is a shared atomic: 32 lanes on one word, one instruction.
    arrive.barrier_object = false;
    k.on_access(arrive);
    CHECK(metric(k, "smsp__inst_executed_op_shared_atom.sum") == 1);

    // A warp stores 32 consecutive ints (128 bytes, 4 sectors) twice. Back to back the second store merges
    // with the first (4 L2 write sectors in all); with an mbarrier operation between them (something the
    // warp waits on) both reach L2 (8).
    const auto store = make_access(AccessSpace::global, AccessKind::store, 4, kAll,
                                   [](uint32_t i) { return kBase + 4ull * i; });
    arrive.barrier_object = true;
    KernelCounters merged, apart;
    merged.on_access(store);
    merged.on_access(store);
    apart.on_access(store);
    apart.on_access(arrive);
    apart.on_access(store);
    CHECK(metric(merged, "lts__t_sectors_srcunit_tex_op_write.sum") == 4);
    CHECK(metric(apart, "lts__t_sectors_srcunit_tex_op_write.sum") == 8);
}
