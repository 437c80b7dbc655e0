// sim/counts/counters.cpp — KernelCounters: accumulation, merging and the metric table.
#include "sim/counts/counters.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "sim/counts/global_sectors.hpp"

namespace warpsim::counts {

namespace {

std::size_t kind_index(AccessKind k) {
    return static_cast<std::size_t>(k);
}

// kind_stat and shared_stat below rely on stats.def listing each group as ld, st, atom(, red), in
// AccessKind's order.
constexpr bool follows(Stat a, Stat b) {
    return static_cast<std::size_t>(a) + 1 == static_cast<std::size_t>(b);
}
static_assert(static_cast<int>(AccessKind::load) == 0 && static_cast<int>(AccessKind::store) == 1 &&
              static_cast<int>(AccessKind::atomic) == 2 && static_cast<int>(AccessKind::reduction) == 3);
static_assert(follows(Stat::inst_global_ld, Stat::inst_global_st) &&
              follows(Stat::inst_global_st, Stat::inst_global_atom) &&
              follows(Stat::inst_global_atom, Stat::inst_global_red));
static_assert(follows(Stat::global_ld_requests, Stat::global_st_requests) &&
              follows(Stat::global_st_requests, Stat::global_atom_requests) &&
              follows(Stat::global_atom_requests, Stat::global_red_requests));
static_assert(follows(Stat::global_ld_sectors, Stat::global_st_sectors) &&
              follows(Stat::global_st_sectors, Stat::global_atom_sectors) &&
              follows(Stat::global_atom_sectors, Stat::global_red_sectors));
static_assert(follows(Stat::global_ld_ideal_sectors, Stat::global_st_ideal_sectors) &&
              follows(Stat::global_st_ideal_sectors, Stat::global_atom_ideal_sectors) &&
              follows(Stat::global_atom_ideal_sectors, Stat::global_red_ideal_sectors));
static_assert(follows(Stat::inst_shared_ld, Stat::inst_shared_st) &&
              follows(Stat::inst_shared_st, Stat::inst_shared_atom));
static_assert(follows(Stat::shared_ld_wavefronts, Stat::shared_st_wavefronts) &&
              follows(Stat::shared_st_wavefronts, Stat::shared_atom_wavefronts));
static_assert(follows(Stat::shared_ld_conflicts, Stat::shared_st_conflicts) &&
              follows(Stat::shared_st_conflicts, Stat::shared_atom_conflicts));
static_assert(follows(Stat::shared_ld_ideal_wavefronts, Stat::shared_st_ideal_wavefronts) &&
              follows(Stat::shared_st_ideal_wavefronts, Stat::shared_atom_ideal_wavefronts));

// Stats laid out ld, st, atom, red in stats.def, so an AccessKind offsets from the group's first id.
Stat kind_stat(Stat first, AccessKind k) {
    return static_cast<Stat>(static_cast<std::size_t>(first) + kind_index(k));
}

// Shared reductions (red.shared) run as shared atomics; shared has no op_red counters.
Stat shared_stat(Stat first, AccessKind k) {
    const std::size_t i = k == AccessKind::reduction ? kind_index(AccessKind::atomic) : kind_index(k);
    return static_cast<Stat>(static_cast<std::size_t>(first) + i);
}

}  // namespace

KernelCounters::LineStats& KernelCounters::line_slot(uint32_t function, uint32_t pc) {
    if (function >= lines_.size()) lines_.resize(function + 1);
    auto& fn = lines_[function];
    if (pc >= fn.size()) fn.resize(std::max<std::size_t>(pc + 1, fn.size() * 2));
    return fn[pc];
}

SectoredCache& KernelCounters::l1() {
    if (!l1_built_) {
        l1_ = SectoredCache(CacheGeometry{cfg_.l1_bytes, cfg_.l1_ways, 128, kSectorBytes});
        l1_built_ = true;
    }
    return l1_;
}

void KernelCounters::on_access(const WarpAccess& access) {
    if (access.active_mask == 0) return;
    if (access.space == AccessSpace::local && cfg_.local_in_registers) return;
    // Any other memory instruction of the warp (a load, an atomic, a shared access: something it may wait
    // for) ends the run of stores that merge: device_globals stores twice to one sector around a global load
    // and the H200 sends both (513 L2 write sectors); mbarrier_phases likewise around its barrier waits.
    const bool global_like_store = access.kind == AccessKind::store && (access.space == AccessSpace::global ||
                                                                        access.space == AccessSpace::local);
    if (!global_like_store && access.warp < store_memo_.size()) store_memo_[access.warp].mergeable = false;
    if (access.barrier_object) return;  // mbarrier operations: no LSU counter (access.hpp)
    switch (access.space) {
        case AccessSpace::global:
            count_global_like(access, false, line_of(access.function, access.pc));
            break;
        case AccessSpace::local:
            count_global_like(access, true, line_of(access.function, access.pc));
            break;
        case AccessSpace::shared:
            count_shared(access, line_of(access.function, access.pc));
            break;
        case AccessSpace::const_:
        case AccessSpace::param:
            break;
    }
}

void KernelCounters::count_global_like(const WarpAccess& a, bool local, LineStats& line) {
    SectorList list;
    // Each warp's local stacks get a 16 MiB window of their own (512 KiB per thread, CUDA's limit), far above
    // any device address.
    const uint64_t local_base = (uint64_t{1} << 62) + ((block_linear_ * 64 + a.warp) << 24);
    const uint32_t touched =
        local ? collect_local_sectors(a, local_base, list) : (collect_sectors(a, list), list.size);
    const uint32_t ideal = ideal_sectors(a, local);
    const bool rmw = a.kind == AccessKind::atomic || a.kind == AccessKind::reduction;
    uint32_t sectors = touched;
    if (rmw && !local) {
        const SortedLanes lanes = sorted_lane_addresses(a);
        sectors = rmw_sectors(a, lanes);
        // ptxas combines the lanes of an integer atomic at a warp-uniform address into one update (a leader
        // lane sends the warp's sum); an address that is equal in every lane only at run time is not (the
        // H200 spends 32 updates' time on a warp of atomic_spread8, whose word depends on %tid).
        const auto* u = cfg_.uniform_atomics.get();
        const bool combined = a.redux_op && u && a.function < u->size() && a.pc < (*u)[a.function].size() &&
                              (*u)[a.function][a.pc];
        atomics_.add(a, lanes, combined, cfg_.atomic_cost);
    }
    ++line.requests;
    line.sectors += sectors;
    line.ideal_sectors += ideal;
    const bool is_load = a.kind == AccessKind::load;
    if (local) {
        // Local atomics do not exist in PTX; anything but a load is a store.
        add(is_load ? Stat::inst_local_ld : Stat::inst_local_st, 1);
        add(is_load ? Stat::local_ld_requests : Stat::local_st_requests, 1);
        add(is_load ? Stat::local_ld_sectors : Stat::local_st_sectors, touched);
    } else {
        add(kind_stat(Stat::inst_global_ld, a.kind), 1);
        add(kind_stat(Stat::global_ld_requests, a.kind), 1);
        add(kind_stat(Stat::global_ld_sectors, a.kind), sectors);
        add(kind_stat(Stat::global_ld_ideal_sectors, a.kind), ideal);
    }
    if (is_load) {
        uint64_t hits = 0;
        if (a.caches_in_l1) {
            SectoredCache& cache = l1();
            for (uint32_t i = 0; i < list.size; ++i) {
                if (cache.access(list.sector[i], true)) {
                    ++hits;
                } else {
                    footprint_.add_read(list.sector[i]);
                }
            }
        } else {
            for (uint32_t i = 0; i < list.size; ++i) footprint_.add_read(list.sector[i]);
        }
        if (!local) {
            add(Stat::l1_global_ld_hits, hits);
            add(Stat::l1_global_ld_misses, list.size - hits);
            line.l1_hits += hits;
            // The sectors are ascending, so a line's sectors are neighbours.
            uint64_t lines = 0;
            for (uint32_t i = 0; i < list.size; ++i)
                if (i == 0 || (list.sector[i] >> 2) != (list.sector[i - 1] >> 2)) ++lines;
            line.load_lines += lines;
            ++line.load_requests;
        }
        add(Stat::l2_read_sectors, touched - hits);
        return;
    }
    // Global stores write through without allocating (present lines are updated in place, so L1 is
    // untouched). Local stores write through and allocate: the thread reads its stack back from L1 (the
    // H200 sends math_f32_precise's 762 local load sectors, all after stores, none to L2: 130 L2 read
    // sectors, the global loads' own). Atomics and reductions are performed at L2 and read and write their
    // sectors there, one L2 sector access per pass (the H200's lts__t_sectors_srcunit_tex_op_{atom,red} equal
    // the L1's op_atom/op_red sectors: 26368 for atomic_int_global's reductions, where the distinct sectors
    // are 2560).
    SectoredCache* stack_cache = local ? &l1() : nullptr;
    for (uint32_t i = 0; i < list.size; ++i) {
        footprint_.add_write(list.sector[i]);
        if (rmw) footprint_.add_read(list.sector[i]);
        if (stack_cache) stack_cache->access(list.sector[i], true);
    }
    if (a.kind == AccessKind::store)
        add(Stat::l2_write_sectors, l2_store_sectors(a.warp, list) + touched - list.size);
    if (a.kind == AccessKind::atomic) add(Stat::l2_atom_sectors, sectors);
    if (a.kind == AccessKind::reduction) add(Stat::l2_red_sectors, sectors);
}

// The sectors of this store that reach L2: all of them, less those the same warp's previous store sent when
// both stores are narrow enough to merge (see counters.hpp). `list` is ascending.
uint32_t KernelCounters::l2_store_sectors(uint32_t warp, const SectorList& list) {
    if (cfg_.store_merge_max_lines == 0) return list.size;
    if (warp >= store_memo_.size()) store_memo_.resize(warp + 1);
    StoreMemo& memo = store_memo_[warp];
    uint32_t lines = 0;
    for (uint32_t i = 0; i < list.size; ++i)
        if (i == 0 || (list.sector[i] >> 2) != (list.sector[i - 1] >> 2)) ++lines;
    const bool mergeable = lines <= cfg_.store_merge_max_lines;
    uint32_t sent = list.size;
    if (mergeable && memo.mergeable) {
        uint32_t j = 0;
        for (uint32_t i = 0; i < list.size; ++i) {
            while (j < memo.last.size && memo.last.sector[j] < list.sector[i]) ++j;
            if (j < memo.last.size && memo.last.sector[j] == list.sector[i]) --sent;
        }
    }
    memo.mergeable = mergeable;
    memo.last.size = list.size;
    std::copy(list.sector.begin(), list.sector.begin() + list.size, memo.last.sector.begin());
    return sent;
}

void KernelCounters::count_shared(const WarpAccess& a, LineStats& line) {
    // LDGSTS fills shared memory behind the LSU pipe: the H200 counts no shared store instruction or
    // wavefront for it (cp_async_sizes, cp_async_pipeline_8x4, pipeline_memcpy_async: op_st 0).
    if (a.async_fill) return;
    // Counted per SASS instruction: the members of a merged LDS/STS after the first are part of its access,
    // and the first one is an access of the merged width from its lanes' addresses (sass_plan.hpp).
    const SassPlan::Shared* role = cfg_.sass ? cfg_.sass->role(a.function, a.pc) : nullptr;
    if (role && role->role == SassPlan::Role::follower) return;
    const uint32_t bytes =
        role && role->role == SassPlan::Role::leader ? uint32_t{role->bytes} : uint32_t{a.bytes_per_lane};
    const SharedCost cost = shared_memo_.cost(a, cfg_.shared_rules, bytes);
    if (!role || role->role != SassPlan::Role::generic) add(shared_stat(Stat::inst_shared_ld, a.kind), 1);
    add(shared_stat(Stat::shared_ld_wavefronts, a.kind), cost.wavefronts);
    add(shared_stat(Stat::shared_ld_conflicts, a.kind), cost.conflicts());
    add(shared_stat(Stat::shared_ld_ideal_wavefronts, a.kind), cost.ideal);
    ++line.requests;
    line.wavefronts += cost.wavefronts;
    line.ideal_wavefronts += cost.ideal;
    line.max_way = std::max(line.max_way, cost.max_way);
}

void KernelCounters::on_bulk_transfer(uint64_t addr, uint64_t bytes, bool write) {
    if (bytes == 0) return;
    const uint64_t first = addr >> kSectorShift, last = (addr + bytes - 1) >> kSectorShift;
    for (uint64_t sector = first; sector <= last; ++sector) {
        if (write) {
            footprint_.add_write(sector);
        } else {
            footprint_.add_read(sector);
        }
    }
    add(write ? Stat::l2_write_sectors : Stat::l2_read_sectors, last - first + 1);
}

void KernelCounters::mark_unrolled_loops() {
    if (!cfg_.sass || cfg_.sass->loops.empty()) return;
    const auto& loops = cfg_.sass->loops;
    loop_trips_.assign(loops.size(), {});
    auto mark = [this](uint32_t f, uint32_t pc) -> LoopMark& {
        if (f >= loop_marks_.size()) loop_marks_.resize(f + 1);
        if (pc >= loop_marks_[f].size()) loop_marks_[f].resize(pc + 1);
        return loop_marks_[f][pc];
    };
    for (std::size_t k = 0; k < loops.size(); ++k) {
        mark(loops[k].function, loops[k].header_pc).header = static_cast<int32_t>(k);
        for (uint32_t pc : loops[k].exit_pcs) mark(loops[k].function, pc).exit = static_cast<int32_t>(k);
    }
}

void KernelCounters::follow_unrolled_loops(uint32_t function, uint32_t pc, uint32_t warp,
                                           uint32_t issued_mask) {
    if (function >= loop_marks_.size() || pc >= loop_marks_[function].size()) return;
    const LoopMark m = loop_marks_[function][pc];
    if (m.header < 0 && m.exit < 0) return;
    if (warp >= loop_entries_.size()) loop_entries_.resize(warp + 1);
    auto& entries = loop_entries_[warp];
    if (entries.size() < loop_trips_.size()) entries.resize(loop_trips_.size());
    if (m.exit >= 0) {
        // The warp left the loop (an edge into one of its exit blocks; reaching one from elsewhere finds no
        // running entry).
        LoopEntry& e = entries[static_cast<std::size_t>(m.exit)];
        LoopTrips& t = loop_trips_[static_cast<std::size_t>(m.exit)];
        if (e.trips != 0) {
            if (e.split) {
                ++t.split;
            } else if (e.last == e.mask) {
                auto& slot = t.entries[e.trips];
                ++slot.first;
                slot.second += static_cast<uint64_t>(std::popcount(e.mask));
            } else {
                std::map<uint64_t, uint32_t> lanes;
                for (uint32_t lane = 0; lane < 32; ++lane)
                    if ((e.mask >> lane) & 1u) ++lanes[(e.last >> lane) & 1u ? e.trips : e.lane_trips[lane]];
                ++t.grouped[{lanes.begin(), lanes.end()}];
            }
        }
        e = {};
    }
    if (m.header >= 0) {
        LoopEntry& e = entries[static_cast<std::size_t>(m.header)];
        if (e.trips == 0) {
            e.mask = e.last = issued_mask;
        } else if (issued_mask != e.last) {
            // Lanes leave the loop one trip after another; one that comes back splits the entry.
            e.split = e.split || (issued_mask & ~e.last) != 0;
            for (uint32_t left = e.last & ~issued_mask; left != 0; left &= left - 1)
                e.lane_trips[static_cast<std::size_t>(std::countr_zero(left))] =
                    static_cast<uint32_t>(e.trips);
            e.last = issued_mask;
        }
        ++e.trips;
    }
}

void KernelCounters::close_unfinished_loops() {
    for (auto& entries : loop_entries_)
        for (std::size_t k = 0; k < entries.size(); ++k) {
            if (entries[k].trips != 0) ++loop_trips_[k].unfinished;
            entries[k] = {};
        }
}

void KernelCounters::on_block_begin(uint64_t block_linear, uint32_t sm) {
    (void)sm;
    block_linear_ = block_linear;
    close_unfinished_loops();
    for (auto& memo : store_memo_) memo.mergeable = false;
    if (cfg_.l1_cold_per_block && l1_built_) l1_.invalidate_all();
}

void KernelCounters::on_block_end(uint64_t block_linear, uint32_t sm) {
    (void)block_linear;
    (void)sm;
    close_unfinished_loops();
}

template <class Scale>
void KernelCounters::merge_with(const KernelCounters& other, Scale scale) {
    for (std::size_t i = 0; i < kStatCount; ++i) stats_[i] += scale(other.stats_[i]);
    if (other.lines_.size() > lines_.size()) lines_.resize(other.lines_.size());
    for (std::size_t f = 0; f < other.lines_.size(); ++f) {
        const auto& theirs = other.lines_[f];
        auto& mine = lines_[f];
        if (theirs.size() > mine.size()) mine.resize(theirs.size());
        for (std::size_t pc = 0; pc < theirs.size(); ++pc) mine[pc].add(theirs[pc], scale);
    }
    footprint_.merge(other.footprint_);
    atomics_.merge(other.atomics_, scale);
    if (other.loop_trips_.size() > loop_trips_.size()) loop_trips_.resize(other.loop_trips_.size());
    for (std::size_t k = 0; k < other.loop_trips_.size(); ++k) {
        const LoopTrips& theirs = other.loop_trips_[k];
        LoopTrips& mine = loop_trips_[k];
        for (const auto& [trips, n] : theirs.entries) {
            auto& slot = mine.entries[trips];
            slot.first += scale(n.first);
            slot.second += scale(n.second);
        }
        for (const auto& [lanes, n] : theirs.grouped) mine.grouped[lanes] += scale(n);
        mine.split += scale(theirs.split);
        mine.unfinished += scale(theirs.unfinished);
    }
}

void KernelCounters::merge(const KernelCounters& other) {
    merge_with(other, std::identity{});
}

void KernelCounters::merge_scaled(const KernelCounters& other, double weight) {
    merge_with(other, [weight](uint64_t v) {
        return static_cast<uint64_t>(std::llround(static_cast<double>(v) * weight));
    });
}

std::array<uint64_t, kStatCount> KernelCounters::derived_stats() const {
    auto s = stats_;
    auto at = [&s](Stat id) -> uint64_t& { return s[static_cast<std::size_t>(id)]; };
    const uint64_t reads = at(Stat::l2_read_sectors);
    const uint64_t rmw = at(Stat::l2_atom_sectors) + at(Stat::l2_red_sectors);
    const uint64_t l2_sectors = cfg_.l2_bytes / kSectorBytes;
    const DramModel model{
        l2_sectors, cfg_.dram_read_granule_64,
        static_cast<uint64_t>(static_cast<double>(l2_sectors) * cfg_.l2_dirty_retained_fraction)};
    const DramEstimate dram =
        estimate_dram(footprint_totals(), reads + rmw, at(Stat::l2_write_sectors) + rmw, model);
    at(Stat::l2_read_misses) = std::min(dram.read_sectors, reads);
    at(Stat::l2_read_hits) = reads - at(Stat::l2_read_misses);
    at(Stat::code_instructions) = executed_instructions_static();
    add_predicated_issues(s);
    add_grouped_loop_accesses(s);
    count_sass_instructions(s);
    at(Stat::dram_read_bytes) =
        dram.read_sectors * kSectorBytes + cfg_.code_fetch_bytes +
        static_cast<uint64_t>(
            cfg_.code_fetch_bytes_per_instruction * static_cast<double>(at(Stat::code_instructions)) + 0.5);
    at(Stat::dram_write_bytes) = dram.write_sectors * kSectorBytes;
    return s;
}

// Distinct instructions (function, pc) that ran at least once: the code a launch fetches.
uint64_t KernelCounters::executed_instructions_static() const {
    uint64_t n = 0;
    for (const auto& fn : lines_)
        for (const auto& l : fn) n += l.warp_insts != 0 ? 1 : 0;
    return n;
}

void KernelCounters::add_predicated_issues(std::array<uint64_t, kStatCount>& s) const {
    if (!cfg_.sass) return;
    auto executions = [this](uint32_t f, uint32_t pc) -> uint64_t {
        return f < lines_.size() && pc < lines_[f].size() ? lines_[f][pc].warp_insts : 0;
    };
    for (const auto& r : cfg_.sass->regions) {
        const uint64_t head = executions(r.function, r.head_pc), entered = executions(r.function, r.first_pc);
        const uint64_t skipped = head > entered ? head - entered : 0;
        s[static_cast<std::size_t>(Stat::inst_shared_ld)] += skipped * r.shared_loads;
        s[static_cast<std::size_t>(Stat::inst_shared_st)] += skipped * r.shared_stores;
        s[static_cast<std::size_t>(Stat::inst_global_ld)] += skipped * r.global_loads;
        s[static_cast<std::size_t>(Stat::inst_global_st)] += skipped * r.global_stores;
    }
}

// The global loads and stores of unrolled loops in entries whose lanes left after different trip counts:
// the PTX counts the body once per trip of the busiest lane, the SASS issues each chunk a lane needs
// (counts::walk_lane_groups). A node runs only where a lane of the warp needs it, so each of its unpredicated
// LDG/STG is also one request. Kept PTX-level where the loop's copies do not hold equal accesses; the
// sectors stay PTX-level (the chunks part the lanes' addresses otherwise).
void KernelCounters::add_grouped_loop_accesses(std::array<uint64_t, kStatCount>& s) const {
    if (!cfg_.sass) return;
    const auto& loops = cfg_.sass->loops;
    for (std::size_t k = 0; k < loops.size() && k < loop_trips_.size(); ++k) {
        const UnrolledLoop& loop = loops[k];
        uint64_t copies = 0, loads = 0, stores = 0;
        bool guarded = false;
        for (const auto& node : loop.nodes) {
            guarded = guarded || node.guarded_access;
            if (node.copies == 0) continue;
            copies += node.copies;
            loads += node.global_loads;
            stores += node.global_stores;
        }
        if (copies == 0 || loads % copies != 0 || stores % copies != 0) continue;
        for (const auto& [lanes, n] : loop_trips_[k].grouped) {
            const auto walk = walk_lane_groups(loop, lanes);
            if (!walk || lanes.empty()) continue;
            uint64_t sass_loads = 0, sass_stores = 0;
            for (std::size_t node = 0; node < loop.nodes.size(); ++node) {
                sass_loads += walk->nodes[node].runs * loop.nodes[node].global_loads;
                sass_stores += walk->nodes[node].runs * loop.nodes[node].global_stores;
            }
            const uint64_t trips = lanes.back().first;  // the busiest lane's (ascending)
            const uint64_t more_loads = n * sass_loads - n * trips * (loads / copies);
            const uint64_t more_stores = n * sass_stores - n * trips * (stores / copies);
            s[static_cast<std::size_t>(Stat::inst_global_ld)] += more_loads;
            s[static_cast<std::size_t>(Stat::inst_global_st)] += more_stores;
            if (guarded) continue;
            s[static_cast<std::size_t>(Stat::global_ld_requests)] += more_loads;
            s[static_cast<std::size_t>(Stat::global_st_requests)] += more_stores;
        }
    }
}

namespace {

// How often a SASS block ran, and on how many lanes, from the statistics of its anchor (SassPlan::Block).
uint64_t block_runs(const SassPlan::Block& b, const KernelCounters::LineStats& l) {
    switch (b.runs) {
        case SassPlan::Runs::with_block:
            return l.warp_insts;
        case SassPlan::Runs::on_taken:
            return l.warps_guard_on;
        case SassPlan::Runs::on_fallthrough:
            return l.warps_guard_off;
        case SassPlan::Runs::on_slow_path:
            return l.warps_slow_path;
        case SassPlan::Runs::in_unrolled_loop:
            return 0;  // counted from the loop's walks (KernelCounters::unrolled_counts)
    }
    return 0;
}

uint64_t block_lanes(const SassPlan::Block& b, const KernelCounters::LineStats& l) {
    switch (b.runs) {
        case SassPlan::Runs::with_block:
            return l.thread_insts;
        case SassPlan::Runs::on_taken:
            return l.thread_insts_pred_on;
        case SassPlan::Runs::on_fallthrough:
            return l.thread_insts - l.thread_insts_pred_on;
        case SassPlan::Runs::on_slow_path:
            return l.lanes_slow_path;
        case SassPlan::Runs::in_unrolled_loop:
            return 0;
    }
    return 0;
}

}  // namespace

KernelCounters::SlowPaths KernelCounters::slow_paths_taken() const {
    SlowPaths out;
    if (!cfg_.sass) return out;
    for (const auto& b : cfg_.sass->blocks) {
        if (b.runs != SassPlan::Runs::on_slow_path || b.function >= lines_.size() ||
            b.anchor_pc >= lines_[b.function].size())
            continue;
        const uint64_t warps = lines_[b.function][b.anchor_pc].warps_slow_path;
        if (warps != 0 && out.warps == 0) {
            out.function = b.function;
            out.pc = b.anchor_pc;
        }
        out.warps += warps;
    }
    return out;
}

bool KernelCounters::sass_instructions_counted() const {
    return cfg_.sass && cfg_.sass->instructions_mapped && slow_paths_taken().warps == 0 &&
           unrolled_loops_failure().empty();
}

std::vector<std::vector<KernelCounters::LoopNodeCounts>> KernelCounters::unrolled_counts(
    std::string* failure) const {
    std::vector<std::vector<LoopNodeCounts>> out;
    if (!cfg_.sass) return out;
    const auto& loops = cfg_.sass->loops;
    out.resize(loops.size());
    for (std::size_t k = 0; k < loops.size(); ++k) {
        const UnrolledLoop& loop = loops[k];
        out[k].resize(loop.nodes.size() + 1);
        const LoopTrips none{};
        const LoopTrips& trips = k < loop_trips_.size() ? loop_trips_[k] : none;
        const uint32_t line = loop.header_line;
        if (failure && failure->empty() && trips.split != 0)
            *failure = fmt::format(
                "lanes of {} warp entr{} of the unrolled loop at PTX line {} ran it again after "
                "leaving it",
                trips.split, trips.split == 1 ? "y" : "ies", line);
        if (failure && failure->empty() && trips.unfinished != 0)
            *failure = fmt::format("{} warp entr{} never left the unrolled loop at PTX line {}",
                                   trips.unfinished, trips.unfinished == 1 ? "y" : "ies", line);
        for (const auto& [count, n] : trips.entries) {
            const auto walk = walk_unrolled_loop(loop, count);
            if (!walk) {
                if (failure && failure->empty())
                    *failure =
                        fmt::format("{} trips do not fit the SASS blocks of the unrolled loop at PTX line {}",
                                    count, line);
                continue;
            }
            for (std::size_t node = 0; node < loop.nodes.size(); ++node) {
                LoopNodeCounts& c = out[k][node];
                c.runs += walk->runs[node] * n.first;
                c.lanes += walk->runs[node] * n.second;
                c.taken += walk->taken[node] * n.first;
                c.taken_lanes += walk->taken[node] * n.second;
            }
            LoopNodeCounts& entry = out[k].back();
            entry.runs += n.first;
            entry.lanes += n.second;
            entry.taken += walk->entry_taken ? n.first : 0;
            entry.taken_lanes += walk->entry_taken ? n.second : 0;
        }
        for (const auto& [lanes, n] : trips.grouped) {
            const auto walk = walk_lane_groups(loop, lanes);
            if (!walk) {
                if (failure && failure->empty())
                    *failure = fmt::format(
                        "the lanes of a warp entry left the unrolled loop at PTX line {} after trip "
                        "counts its SASS blocks do not make as one group",
                        line);
                continue;
            }
            for (std::size_t node = 0; node < walk->nodes.size(); ++node) {
                const GroupWalk::Node& w = walk->nodes[node];
                LoopNodeCounts& c = out[k][node];
                c.runs += w.runs * n;
                c.lanes += w.lanes * n;
                c.taken += w.taken * n;
                c.taken_lanes += w.taken_lanes * n;
                c.divergent += w.divergent * n;
            }
        }
    }
    return out;
}

std::string KernelCounters::unrolled_loops_failure() const {
    std::string failure;
    if (cfg_.sass && !cfg_.sass->loops.empty()) unrolled_counts(&failure);
    return failure;
}

// Per (function, pc): the SASS instructions carrying its PTX line, as often and on as many lanes as they ran.
std::map<std::pair<uint32_t, uint32_t>, KernelCounters::LineStats> KernelCounters::sass_lines() const {
    std::map<std::pair<uint32_t, uint32_t>, LineStats> out;
    if (!sass_instructions_counted()) return out;
    const LineStats none{};
    auto at = [this, &none](uint32_t f, uint32_t pc) -> const LineStats& {
        return f < lines_.size() && pc < lines_[f].size() ? lines_[f][pc] : none;
    };
    const auto loops = unrolled_counts(nullptr);
    for (const auto& share : cfg_.sass->line_shares) {
        const auto& b = cfg_.sass->blocks[share.block];
        const LineStats& anchor = at(b.function, b.anchor_pc);
        const LineStats& lanes = at(b.function, share.lanes_pc);
        const bool in_loop = b.runs == SassPlan::Runs::in_unrolled_loop;
        const LoopNodeCounts node = in_loop ? loops.at(b.loop).at(b.node) : LoopNodeCounts{};
        const uint64_t runs = in_loop ? node.runs : block_runs(b, anchor);
        const uint64_t issued = in_loop ? node.lanes : block_lanes(b, anchor);
        LineStats& l = out[{b.function, share.pc}];
        l.warp_insts += runs;
        l.thread_insts += issued;
        switch (share.lanes) {
            case SassPlan::Lanes::loop_branch:
                l.thread_insts_pred_on += node.taken_lanes;
                break;
            case SassPlan::Lanes::loop_entry:
                l.thread_insts_pred_on += loops.at(share.loop).back().taken_lanes;
                break;
            case SassPlan::Lanes::issued:
            case SassPlan::Lanes::unknown:
                l.thread_insts_pred_on += issued;
                break;
            case SassPlan::Lanes::entered:
                l.thread_insts_pred_on += lanes.thread_insts;
                break;
            case SassPlan::Lanes::guard_on:
                l.thread_insts_pred_on += lanes.thread_insts_pred_on;
                break;
            case SassPlan::Lanes::guard_off:
                l.thread_insts_pred_on += lanes.thread_insts - lanes.thread_insts_pred_on;
                break;
            case SassPlan::Lanes::leader:
                l.thread_insts_pred_on += runs;
                break;
            case SassPlan::Lanes::scaled:
                l.thread_insts_pred_on += lanes.lanes_scaled;
                break;
            case SassPlan::Lanes::selected:
                l.thread_insts_pred_on += lanes.lanes_selected;
                break;
            case SassPlan::Lanes::rejected:
                l.thread_insts_pred_on += lanes.thread_insts - lanes.lanes_selected;
                break;
        }
    }
    for (const auto& r : cfg_.sass->rejoins) {
        const LineStats& l = at(r.function, r.branch_pc);
        out[{r.function, r.bsync_pc}].warp_insts += l.warps_guard_on + l.warps_guard_off - l.warp_insts;
    }
    for (const auto& r : cfg_.sass->loop_rejoins)
        out[{cfg_.sass->loops.at(r.loop).function, r.bsync_pc}].warp_insts +=
            loops.at(r.loop).at(r.node).divergent;
    return out;
}

void KernelCounters::count_sass_instructions(std::array<uint64_t, kStatCount>& s) const {
    if (!sass_instructions_counted()) return;
    uint64_t warp = 0, threads = 0, on = 0;
    for (const auto& [key, l] : sass_lines()) {
        warp += l.warp_insts;
        threads += l.thread_insts;
        on += l.thread_insts_pred_on;
    }
    s[static_cast<std::size_t>(Stat::warp_insts)] = warp;
    s[static_cast<std::size_t>(Stat::thread_insts)] = threads;
    if (cfg_.sass->pred_on_mapped) s[static_cast<std::size_t>(Stat::thread_insts_pred_on)] = on;
}

std::map<std::pair<uint32_t, uint32_t>, KernelCounters::LineStats> KernelCounters::counted_per_pc() const {
    auto out = per_pc();
    if (!sass_instructions_counted()) return out;
    const bool pred_on = cfg_.sass->pred_on_mapped;
    for (auto& [key, l] : out) {
        l.warp_insts = l.thread_insts = 0;
        if (pred_on) l.thread_insts_pred_on = 0;
    }
    for (const auto& [key, sass] : sass_lines()) {
        LineStats& l = out[key];
        l.warp_insts = sass.warp_insts;
        l.thread_insts = sass.thread_insts;
        if (pred_on) l.thread_insts_pred_on = sass.thread_insts_pred_on;
    }
    return out;
}

std::map<std::string, double> KernelCounters::metrics() const {
    const auto s = derived_stats();
    std::map<std::string, double> out;
    for (const auto& info : stat_table())
        out.emplace(std::string(info.metric), static_cast<double>(s[static_cast<std::size_t>(info.id)]));
    for (const auto& r : ratio_table()) {
        const uint64_t den = s[static_cast<std::size_t>(r.denominator)];
        const double num = static_cast<double>(s[static_cast<std::size_t>(r.numerator)]);
        out.emplace(std::string(r.metric), den == 0 ? 0.0 : 100.0 * num / static_cast<double>(den));
    }
    return out;
}

const std::map<std::pair<uint32_t, uint32_t>, KernelCounters::LineStats>& KernelCounters::per_pc() const {
    per_pc_view_.clear();
    for (std::size_t f = 0; f < lines_.size(); ++f)
        for (std::size_t pc = 0; pc < lines_[f].size(); ++pc)
            if (lines_[f][pc].warp_insts != 0 || lines_[f][pc].requests != 0)
                per_pc_view_.emplace(std::pair{static_cast<uint32_t>(f), static_cast<uint32_t>(pc)},
                                     lines_[f][pc]);
    return per_pc_view_;
}

const KernelCounters::LineStats* KernelCounters::line(uint32_t function, uint32_t pc) const {
    if (function >= lines_.size() || pc >= lines_[function].size()) return nullptr;
    const auto& l = lines_[function][pc];
    return l.warp_insts == 0 && l.requests == 0 ? nullptr : &l;
}

}  // namespace warpsim::counts
