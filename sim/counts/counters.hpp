// sim/counts/counters.hpp — per-launch statistics fed by the SIMT engine: instructions, lanes, memory
// requests, sectors, wavefronts, bank conflicts, cache and DRAM traffic, per kernel and per PTX line.
//
// The model, and what it assumes:
// - Global/local memory: one request per warp-level instruction with an active lane; sectors = distinct
//   aligned 32-byte sectors of the active lanes (global_sectors.hpp); ideal sectors = the active lanes'
//   bytes packed, rounded up to sectors.
// - Shared memory: per-pass bank model (shared_banks.hpp), rules from CountsConfig::shared_rules.
// - L1: a sectored LRU cache (sectored_cache.hpp) of CountsConfig::l1_bytes that caches global and local
//   loads (not .cg/.cs/.cv ones: WarpAccess::caches_in_l1), write-through and no-allocate for stores, and
//   bypassed by atomics and reductions. It is emptied at every on_block_begin: each block sees a cold L1 of
//   its own, so the result depends only on the order of accesses within a block, never on which worker ran
//   the block. Hits between blocks that share an SM are therefore not modelled. l1_bytes is the SM's L1 data
//   capacity during the launch: the combined L1/shared array less the shared-memory carve-out the driver
//   picks (l1_capacity.hpp; session::run_simulated sets it from the device preset and the occupancy).
// - L2 and DRAM: an order-independent footprint model (footprint.hpp). The L2 receives every L1 miss (and
//   every store, atomic and reduction sector); the distinct sectors read and written form a footprint that
//   merges by union. Within L2 capacity, each distinct sector read misses once (cold L2: ncu flushes caches
//   before each profiled pass by default) and each distinct sector written is written back once; beyond
//   capacity repeated touches miss with probability 1 - capacity/footprint. Not modelled: L2 partitions
//   (H100/H200 split L2 in two halves; data may be held in both), which dirty lines stay in L2 at kernel end
//   (a fitted share of L2, CountsConfig::l2_dirty_retained_fraction, stays unwritten), and ECC/compression.
//   DRAM reads come in 64-byte granules (CountsConfig::dram_read_granule_64, measured on an H200), and every
//   launch also reads its code and constant banks from DRAM (CountsConfig::code_fetch_*).
// - Store merging: a warp's store reaches L2 without the sectors its previous store already sent, when both
//   touch few 128-byte lines (CountsConfig::store_merge_max_lines): on the H200 a warp storing o[0..5] of a
//   6-int record per thread (six stores, 24 sectors each) sends each sector once (vote_ops: 4608 L1 store
//   sectors, 768 L2 write sectors). Stores over more lines merge partly or not at all, in proportions that
//   depend on the SASS schedule (f32_basic, eight 8-line stores: 3.5 of 8 reach L2; asm_logic_permute and
//   asm_bitfield_shift, ten back-to-back 10-line stores each: 1.8 and 7.0 of 8): those are not merged here.
// - Local memory: per-request sectors follow the hardware's interleaved layout (collect_local_sectors);
//   each warp of each block has its own stacks, so local traffic has a footprint of its own.
// - Cost: on_instruction is an array increment plus a per-line vector slot; on_access collects at most 64
//   sectors (linear for coalesced warps), L1 lookups are a short way scan, and footprint updates hit a
//   cached 64 KiB chunk bitmap.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/counts/access.hpp"
#include "sim/counts/atomic_contention.hpp"
#include "sim/counts/footprint.hpp"
#include "sim/counts/global_sectors.hpp"
#include "sim/counts/metric_table.hpp"
#include "sim/counts/sass_plan.hpp"
#include "sim/counts/sectored_cache.hpp"
#include "sim/counts/shared_banks.hpp"

namespace warpsim::counts {

// Sizes of the modelled caches; filled from the device preset by the caller (the defaults are an H200's).
struct CountsConfig {
    uint64_t l1_bytes = 256 * 1024;  // L1 data capacity per SM: l1_data_bytes(preset, occupancy)
    uint64_t l2_bytes = 60ull * 1024 * 1024;
    uint32_t num_sms = 132;
    uint32_t l1_ways = 4;
    bool l1_cold_per_block = true;  // empty the L1 at every on_block_begin (see the header comment)
    // DRAM reads in 64-byte granules: on an H200 a kernel reading one sector of each 128-byte line of
    // 16 MiB (4 MiB requested) read 8.39 MB from DRAM (tests/counts/h200/h200_counts.txt).
    bool dram_read_granule_64 = true;
    // Share of L2 that still holds dirty data when the kernel ends (not written back within the kernel): on
    // an H200 a 16 MiB write kernel wrote 1 KB to DRAM and a 256 MiB one 241,081,600 B, i.e. 27.35 MB, or
    // 0.435 of 60 MiB, stayed in L2.
    double l2_dirty_retained_fraction = 0.435;
    // Stores touching at most this many 128-byte lines merge with the same warp's previous store (0: no
    // merging). On the H200, kernels whose stores span at most 6 lines and follow each other with only
    // arithmetic between them merged completely (vote_ops, redux_ops, half2_vector, divrem_*, shfl_modes),
    // but for cvt_saturate_reinterpret (6 lines, slow conversions between the stores) 2.25 of 6 reached L2.
    uint32_t store_merge_max_lines = 6;
    // ptxas keeps the kernel's local memory in registers (ptxas -v: 0 bytes stack frame): local accesses of
    // the PTX are not counted at all.
    bool local_in_registers = false;
    // DRAM bytes a launch reads besides its data: its code and constant banks, which ncu's cache flush leaves
    // in DRAM. Fitted on the H200 over 131 small launches (DRAM bytes read less their data's 64-byte
    // granules): 2304 B plus 27 B per distinct PTX instruction executed; 126 of them within 2 KiB of the fit.
    uint64_t code_fetch_bytes = 2304;
    double code_fetch_bytes_per_instruction = 27.0;
    SharedBankRules shared_rules = SharedBankRules::h200();
    // What ptxas made of the kernel's shared accesses (merged LDS/STS, if-converted branches): shared memory
    // is then counted per SASS instruction. nullptr: per PTX instruction ("PTX-level counts").
    std::shared_ptr<const SassPlan> sass;
    // What the L2's atomics cost per 512-byte region (measured on the H200; see atomic_contention.hpp).
    AtomicCost atomic_cost;
    // [function][pc]: a global atomic or reduction whose address is warp-uniform in the PTX
    // (ir::address_warp_uniform): ptxas combines a warp's lanes of an integer add/min/max/and/or/xor there
    // into one update. nullptr: none known.
    std::shared_ptr<const std::vector<std::vector<bool>>> uniform_atomics;
};

// One worker's statistics. The engine makes one per worker thread (or per block), calls on_instruction for
// every warp-level instruction it executes and on_access for every warp-level memory instruction, then
// merges the workers in block order; the result does not depend on how blocks were spread over workers.
class KernelCounters {
  public:
    KernelCounters() = default;
    explicit KernelCounters(const CountsConfig& cfg) : cfg_(cfg) { mark_unrolled_loops(); }

    // A warp executed the instruction at (function, pc) with these lanes active (guard already applied:
    // pass the lanes whose guard predicate was true; lanes masked off by the guard still count as issued
    // for warp-instruction counts, so `issued_mask` is the warp's active mask and `exec_mask` the subset
    // that executed). smsp__thread_inst_executed counts issued lanes, _pred_on the executed ones. `warp`: the
    // warp's index in its block (the trips of the plan's unrolled loops are followed per warp).
    // Inline: the engine calls it for every warp-level instruction.
    void on_instruction(uint32_t function, uint32_t pc, uint32_t issued_mask, uint32_t exec_mask,
                        uint32_t warp = 0) {
        if (!loop_marks_.empty()) follow_unrolled_loops(function, pc, warp, issued_mask);
        const auto issued = static_cast<uint64_t>(std::popcount(issued_mask));
        const auto executed = static_cast<uint64_t>(std::popcount(exec_mask));
        add(Stat::warp_insts, 1);
        add(Stat::thread_insts, issued);
        add(Stat::thread_insts_pred_on, executed);
        LineStats& line = line_of(function, pc);
        ++line.warp_insts;
        line.thread_insts += issued;
        line.thread_insts_pred_on += executed;
        line.warps_guard_on += exec_mask != 0 ? 1 : 0;
        line.warps_guard_off += exec_mask != issued_mask ? 1 : 0;
    }
    // The lanes `slow` of a warp executing the f32 division or reciprocal at (function, pc) have operands for
    // which the SASS leaves the fast sequence for the slow-path subroutine (sim/arith/slow_path.hpp).
    void on_slow_path(uint32_t function, uint32_t pc, uint32_t slow) {
        LineStats& line = line_of(function, pc);
        ++line.warps_slow_path;
        line.lanes_slow_path += static_cast<uint64_t>(std::popcount(slow));
    }
    // The lanes `scaled` of a warp executing the f32 .approx instruction at (function, pc) have operands that
    // ptxas's sequence scales around the MUFU (sim/arith/slow_path.hpp, SassPlan::Lanes::scaled).
    void on_scaled(uint32_t function, uint32_t pc, uint32_t scaled) {
        LineStats& line = line_of(function, pc);
        line.lanes_scaled += static_cast<uint64_t>(std::popcount(scaled));
    }
    // The lanes `chose_a` of a warp executing the selp at (function, pc) had a true predicate: they took its
    // first operand (SassPlan::Lanes::selected).
    void on_select(uint32_t function, uint32_t pc, uint32_t chose_a) {
        LineStats& line = line_of(function, pc);
        line.lanes_selected += static_cast<uint64_t>(std::popcount(chose_a));
    }
    // Warps that took a slow path the SASS plan counts on not being taken (its Runs::on_slow_path blocks),
    // and the PTX pc of the first such instruction: the instruction totals are then PTX-level.
    struct SlowPaths {
        uint64_t warps = 0;
        uint32_t function = 0, pc = 0;
    };
    SlowPaths slow_paths_taken() const;
    // Whether the instruction totals are counted per SASS instruction (the plan maps them and no warp left
    // the paths it counts).
    bool sass_instructions_counted() const;
    // Why the plan's unrolled loops (SassPlan::loops) cannot be counted per SASS instruction ("" when they
    // can): a warp whose lanes left a loop after different trip counts, an entry that never left its loop,
    // or a trip count the loop's SASS blocks do not make.
    std::string unrolled_loops_failure() const;
    // Per unrolled loop of the plan: trip count -> (entries, their active lanes summed); entries whose lanes
    // left after different trip counts: (trip count, lanes) of each -> entries (counts::walk_lane_groups).
    struct LoopTrips {
        std::map<uint64_t, std::pair<uint64_t, uint64_t>> entries;
        std::map<std::vector<std::pair<uint64_t, uint32_t>>, uint64_t> grouped;
        // entries where a lane that had left ran the loop again; entries that never left
        uint64_t split = 0, unfinished = 0;
    };
    const std::vector<LoopTrips>& loop_trips() const { return loop_trips_; }
    // A warp-level memory instruction with at least one active lane (const and param accesses are ignored).
    void on_access(const WarpAccess& access);
    // The engine calls this when a block starts and finishes, with the block's linear index and the SM it
    // was placed on (cache models that are per SM need it).
    // A bulk copy (cp.async.bulk, the TMA) moved `bytes` from (read) or to (write) global memory at `addr`:
    // it goes through L2 outside the LSU (no L1 request or sector), and the H200 counts it in
    // lts__t_sectors_srcunit_tex_op_read (bulk_copy_tx: 1024 sectors for 32 KiB).
    void on_bulk_transfer(uint64_t addr, uint64_t bytes, bool write);
    // A tex, suld or sust warp instruction with an active lane (Stat::inst_texture, inst_surface_ld,
    // inst_surface_st): counted; its memory traffic is not modelled.
    void on_texture_instruction(Stat s) { add(s, 1); }
    void on_block_begin(uint64_t block_linear, uint32_t sm);
    void on_block_end(uint64_t block_linear, uint32_t sm);

    void merge(const KernelCounters& other);
    // Adds `weight` times the other's sums (rounded to integers), its footprint by union: the blocks of a
    // sampled launch standing for `weight` blocks each. Maxima (bank ways, the most lanes on one word) stay
    // maxima.
    void merge_scaled(const KernelCounters& other, double weight);
    // From now on the L2/DRAM figures use these footprint totals instead of the sectors seen (a sampled
    // launch's estimate of the whole grid's footprint).
    void set_footprint_estimate(const SectorFootprint::Totals& totals) { footprint_estimate_ = totals; }

    // Metrics keyed by Nsight Compute metric names (see stats.def), derived L2/DRAM figures included.
    std::map<std::string, double> metrics() const;
    // One statistic by id (accumulated ones; the derived L2/DRAM ones are filled by derived_stats()).
    uint64_t stat(Stat s) const { return stats_[static_cast<std::size_t>(s)]; }
    // All statistics with the footprint-derived ones (L2 hits/misses, DRAM bytes) filled in.
    std::array<uint64_t, kStatCount> derived_stats() const;

    struct LineStats {
        uint64_t warp_insts = 0, thread_insts = 0;
        uint64_t requests = 0, sectors = 0, ideal_sectors = 0;
        uint64_t wavefronts = 0, ideal_wavefronts = 0;
        uint64_t thread_insts_pred_on = 0;
        // Warps that ran the instruction with some lane's guard true, and with some lane's guard false: at a
        // guarded branch, how often the warp took each of its edges (SASS blocks that ptxas put on one).
        uint64_t warps_guard_on = 0, warps_guard_off = 0;
        // Warps (and their lanes) whose operands sent an f32 div.rn/rcp.rn down the slow-path subroutine that
        // ptxas calls (SassPlan::Runs::on_slow_path): the SASS counts hold only while no warp did.
        uint64_t warps_slow_path = 0, lanes_slow_path = 0;
        // Lanes whose operands an f32 .approx instruction's SASS scales around the MUFU (on_scaled).
        uint64_t lanes_scaled = 0;
        // Lanes of a selp whose predicate was true (on_select).
        uint64_t lanes_selected = 0;
        uint64_t l1_hits = 0;  // sectors of this line's global loads that hit in L1
        // Distinct 128-byte lines of this line's global load requests, summed over the requests: a request's
        // latency grows with its lines (tests/timing/scatter).
        uint64_t load_lines = 0, load_requests = 0;
        uint32_t max_way = 0;  // worst bank's way count of any shared access on this line ("N-way conflict")
        // Accumulates another line's (or worker's) statistics into this one, each sum through `scale` (a
        // sampled launch weighs a block by the blocks it stands for); the worst way count is a maximum.
        template <class Scale = std::identity>
        void add(const LineStats& s, Scale scale = {}) {
            warp_insts += scale(s.warp_insts);
            thread_insts += scale(s.thread_insts);
            requests += scale(s.requests);
            sectors += scale(s.sectors);
            ideal_sectors += scale(s.ideal_sectors);
            wavefronts += scale(s.wavefronts);
            ideal_wavefronts += scale(s.ideal_wavefronts);
            thread_insts_pred_on += scale(s.thread_insts_pred_on);
            warps_guard_on += scale(s.warps_guard_on);
            warps_guard_off += scale(s.warps_guard_off);
            warps_slow_path += scale(s.warps_slow_path);
            lanes_slow_path += scale(s.lanes_slow_path);
            lanes_scaled += scale(s.lanes_scaled);
            lanes_selected += scale(s.lanes_selected);
            l1_hits += scale(s.l1_hits);
            load_lines += scale(s.load_lines);
            load_requests += scale(s.load_requests);
            max_way = s.max_way > max_way ? s.max_way : max_way;
        }
    };
    // Per (function, pc) statistics, for per-source-line reports. Rebuilt from the per-function tables on
    // each call; call it after the workers are merged, not while they run.
    const std::map<std::pair<uint32_t, uint32_t>, LineStats>& per_pc() const;
    // per_pc() as the reports count it: where the SASS plan maps the kernel's instructions
    // (SassPlan::instructions_mapped), warp_insts and thread_insts (and thread_insts_pred_on where its
    // predicates are known) are those of the SASS instructions carrying each PTX line; the PTX-level ones
    // otherwise. per_pc() itself stays PTX-level (the timing model works on the PTX).
    std::map<std::pair<uint32_t, uint32_t>, LineStats> counted_per_pc() const;
    // The statistics of one line, or nullptr if nothing ran there.
    const LineStats* line(uint32_t function, uint32_t pc) const;

    const CountsConfig& config() const { return cfg_; }
    // Distinct sectors read and written so far (the footprint the L2/DRAM estimate works from).
    SectorFootprint::Totals footprint_totals() const {
        return footprint_estimate_ ? *footprint_estimate_ : footprint_.totals();
    }
    const SectorFootprint& footprint() const { return footprint_; }
    // The L2's busy time per region for the global atomics and reductions so far.
    AtomicContention::Summary atomic_contention() const { return atomics_.summary(); }

  private:
    void mark_unrolled_loops();
    void follow_unrolled_loops(uint32_t function, uint32_t pc, uint32_t warp, uint32_t issued_mask);
    void close_unfinished_loops();
    // Per loop and node of the plan's unrolled loops: runs, lanes, branches taken and their lanes.
    struct LoopNodeCounts {
        uint64_t runs = 0, lanes = 0, taken = 0, taken_lanes = 0;
        uint64_t divergent = 0;  // runs whose branch split the warp's lanes (SassPlan::LoopRejoin)
    };
    // The node list of a loop ends with one more entry: runs and lanes of the loop's entries, and of those
    // that went in by the branch of the block before it.
    std::vector<std::vector<LoopNodeCounts>> unrolled_counts(std::string* failure) const;
    LineStats& line_slot(uint32_t function, uint32_t pc);
    // The slot of (function, pc): the sized table's, else line_slot's (which grows it). Inline: the engine
    // reaches it for every warp-level instruction.
    LineStats& line_of(uint32_t function, uint32_t pc) {
        return function < lines_.size() && pc < lines_[function].size() ? lines_[function][pc]
                                                                        : line_slot(function, pc);
    }
    void count_global_like(const WarpAccess& a, bool local, LineStats& line);
    void count_shared(const WarpAccess& a, LineStats& line);
    void add(Stat s, uint64_t n) { stats_[static_cast<std::size_t>(s)] += n; }
    SectoredCache& l1();
    uint32_t l2_store_sectors(uint32_t warp, const SectorList& list);
    uint64_t executed_instructions_static() const;
    // The shared and global loads and stores of if-converted regions issued by warps that branched around
    // them in the PTX.
    void add_predicated_issues(std::array<uint64_t, kStatCount>& s) const;
    void add_grouped_loop_accesses(std::array<uint64_t, kStatCount>& s) const;
    // Warp- and thread-level instruction totals per SASS instruction, where the plan maps every SASS block
    // onto the PTX block it runs with (SassPlan::blocks).
    void count_sass_instructions(std::array<uint64_t, kStatCount>& s) const;
    std::map<std::pair<uint32_t, uint32_t>, LineStats> sass_lines() const;

    CountsConfig cfg_;
    std::array<uint64_t, kStatCount> stats_{};
    std::vector<std::vector<LineStats>> lines_;  // [function][pc]
    template <class Scale>
    void merge_with(const KernelCounters& other, Scale scale);

    SectorFootprint footprint_;
    std::optional<SectorFootprint::Totals> footprint_estimate_;
    AtomicContention atomics_;
    SectoredCache l1_;  // built on the first cached load: a counter per block should not pay for it
    bool l1_built_ = false;
    // Per warp of the running block: the sectors its last store sent to L2, and whether that store was narrow
    // enough to merge with (store_merge_max_lines). Reset at every on_block_begin.
    struct StoreMemo {
        SectorList last;
        bool mergeable = false;
    };
    std::vector<StoreMemo> store_memo_;
    SharedCostMemo shared_memo_;
    uint64_t block_linear_ = 0;
    mutable std::map<std::pair<uint32_t, uint32_t>, LineStats> per_pc_view_;
    // [function][pc]: the unrolled loop (SassPlan::loops) whose PTX loop block starts there, and the one it
    // leaves to there (-1: none). Empty when the plan has no unrolled loop.
    struct LoopMark {
        int32_t header = -1, exit = -1;
    };
    std::vector<std::vector<LoopMark>> loop_marks_;
    // [warp][loop]: the running entry of each warp of the running block.
    struct LoopEntry {
        uint64_t trips = 0;
        uint32_t mask = 0, last = 0;  // the lanes of its first trip and of its latest one
        bool split = false;
        std::array<uint32_t, 32> lane_trips{};  // the trips of each lane that left before the last ones
    };
    std::vector<std::vector<LoopEntry>> loop_entries_;
    std::vector<LoopTrips> loop_trips_;
};

}  // namespace warpsim::counts
