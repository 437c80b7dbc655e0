// sim/check/racecheck.cpp — vector clocks per warp, last write and reads per byte, kept per 4-byte word (see
// header).
#include "sim/check/racecheck.hpp"

#include <fmt/format.h>
#include <algorithm>

#include "kernels_ir/forms/form.hpp"
#include "sim/memory/address_map.hpp"

namespace warpsim::check {
namespace {

constexpr uint64_t kSharedKey = 1ull << 63;  // sync-object keys: shared offsets apart from device addresses
constexpr uint32_t kBarrierIds = 16;

void join(std::vector<uint32_t>& into, const std::vector<uint32_t>& from) {
    if (into.size() < from.size()) into.resize(from.size(), 0);
    for (size_t i = 0; i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}

// Async copies (cp.async, cp.async.bulk) count as strong: their completion is ordered by the mbarrier or
// cp.async.wait_* the program waits on, which the events do not tie to the copy.
bool is_strong(const engine::MemoryEvent& e) {
    return e.kind == engine::MemoryKind::atomic || e.async ||
           (e.sem != ir::MemSem::none && e.sem != ir::MemSem::weak);
}

bool has_mod(const ir::Instruction& in, std::string_view m) {
    return std::find(in.mods.begin(), in.mods.end(), m) != in.mods.end();
}

// mbarrier.arrive* releases (PTX: .release by default), test_wait/try_wait acquire (.acquire by default).
ir::MemSem effective_sem(const engine::MemoryEvent& e, const ir::Instruction* in) {
    const ir::MbarrierForm* f = in ? ir::form_as<ir::MbarrierForm>(*in) : nullptr;
    if (e.sem != ir::MemSem::none || !f) return e.sem;
    switch (f->op) {
        case ir::MbarrierOp::test_wait:
        case ir::MbarrierOp::try_wait:
            return ir::MemSem::acquire;
        case ir::MbarrierOp::arrive:
        case ir::MbarrierOp::arrive_drop:
        case ir::MbarrierOp::complete_tx:
            return ir::MemSem::release;
        default:
            return e.sem;
    }
}
bool releases(ir::MemSem s) {
    return s == ir::MemSem::release || s == ir::MemSem::acq_rel || s == ir::MemSem::sc;
}
bool acquires(ir::MemSem s) {
    return s == ir::MemSem::acquire || s == ir::MemSem::acq_rel || s == ir::MemSem::sc;
}

const char* access_word(const engine::MemoryEvent& e) {
    switch (e.kind) {
        case engine::MemoryKind::read:
            return "read";
        case engine::MemoryKind::write:
            return "write";
        default:
            return "atomic";
    }
}

}  // namespace

void RaceChecker::begin_cluster(std::span<const engine::BlockIndex> ctas) {
    ctas_.assign(ctas.begin(), ctas.end());
    awaiting_ = static_cast<uint32_t>(ctas_.size());
}

void RaceChecker::begin_block(const engine::BlockIndex& b, uint32_t warps, uint32_t threads,
                              uint32_t shared_bytes) {
    if (awaiting_ > 0 &&
        rank_of(b) < ctas_.size()) {  // a CTA of the announced cluster: one group for them all
        if (awaiting_-- == ctas_.size()) start_group(warps, threads, shared_bytes);
        return;
    }
    awaiting_ = 0;
    ctas_.assign(1, b);
    start_group(warps, threads, shared_bytes);
}

void RaceChecker::WordTable::clear() {
    used_ = 0;
    if (++current_ == 0) {  // the generation wrapped: forget every slot for real
        std::fill(gen_.begin(), gen_.end(), 0u);
        current_ = 1;
    }
}

void RaceChecker::WordTable::grow() {
    const std::size_t size = keys_.empty() ? 1024 : keys_.size() * 2;
    std::vector<uint64_t> keys(size);
    std::vector<uint32_t> gen(size, 0);
    std::vector<Word> words(size);
    for (std::size_t i = 0; i < keys_.size(); ++i) {
        if (gen_[i] != current_) continue;
        std::size_t slot = (keys_[i] * 0x9E3779B97F4A7C15ull) & (size - 1);
        while (gen[slot] == current_) slot = (slot + 1) & (size - 1);
        keys[slot] = keys_[i];
        gen[slot] = current_;
        words[slot] = std::move(words_[i]);
    }
    keys_ = std::move(keys);
    gen_ = std::move(gen);
    words_ = std::move(words);
}

RaceChecker::Word& RaceChecker::WordTable::at(uint64_t key) {
    if (2 * (used_ + 1) > keys_.size()) grow();  // at most half full: short probe sequences
    const std::size_t mask = keys_.size() - 1;
    std::size_t slot = (key * 0x9E3779B97F4A7C15ull) & mask;
    while (gen_[slot] == current_) {
        if (keys_[slot] == key) return words_[slot];
        slot = (slot + 1) & mask;
    }
    keys_[slot] = key;
    gen_[slot] = current_;
    ++used_;
    Word& w = words_[slot];
    w.written = w.write_strong = 0;  // the write stamps are read only for bytes marked written
    w.reads.clear();                 // keeps its capacity for the next group
    return w;
}

void RaceChecker::start_group(uint32_t warps, uint32_t threads, uint32_t shared_bytes) {
    const auto ctas = static_cast<uint32_t>(ctas_.size());
    const uint32_t all = warps * ctas;
    warps_ = warps;
    live_.assign(all, 0xffffffffu);
    if (warps && threads % 32)
        for (uint32_t r = 0; r < ctas; ++r) live_[r * warps + warps - 1] = (1u << (threads % 32)) - 1;
    exited_join_.assign(ctas, Clock{});
    cluster_exited_join_.clear();
    clock_.assign(all, Clock(all, 0));
    released_.assign(all, Clock{});
    pending_.assign(all, Clock{});
    barrier_join_.assign(ctas, std::vector<Clock>(kBarrierIds));
    barrier_waiters_.assign(ctas, std::vector<uint64_t>(kBarrierIds, 0));
    // Reset in place: the words (and their read lists' capacity) are reused from block to block.
    shared_.resize(ctas);
    for (auto& words : shared_) {
        words.resize((uint64_t{shared_bytes} + 3) / 4);
        for (Word& w : words) {
            w.written = w.write_strong = 0;
            w.reads.clear();
        }
    }
    global_.clear();
    sync_objects_.clear();
    cluster_arrived_.assign(all, 0);
    cluster_join_.clear();
    cluster_phase_ = 0;
    cluster_waiting_.clear();
}

uint32_t RaceChecker::rank_of(const engine::BlockIndex& b) const {
    for (uint32_t r = 0; r < ctas_.size(); ++r)
        if (ctas_[r].linear == b.linear) return r;
    return static_cast<uint32_t>(ctas_.size());
}

uint32_t RaceChecker::warp_of(const engine::EventSite& s) const {
    const uint32_t rank = rank_of(s.block);
    if (rank >= ctas_.size() || s.warp >= warps_) return kNoWarp;
    return rank * warps_ + s.warp;
}

bool RaceChecker::ordered(const Stamp& earlier, uint32_t warp) const {
    return earlier.warp == warp || clock_[warp][earlier.warp] > earlier.epoch;
}

void RaceChecker::release_point(uint32_t warp) {
    acquire_point(warp);
    ++clock_[warp]
            [warp];  // accesses before carry a smaller epoch than the published clock, those after do not
    released_[warp] = clock_[warp];
}

void RaceChecker::acquire_point(uint32_t warp) {
    if (pending_[warp].empty()) return;
    join(clock_[warp], pending_[warp]);
    pending_[warp].clear();
}

void RaceChecker::publish(uint32_t warp, uint64_t key) {
    if (!released_[warp].empty()) join(sync_objects_[key], released_[warp]);
}

void RaceChecker::observe(uint32_t warp, uint64_t key) {
    if (auto it = sync_objects_.find(key); it != sync_objects_.end()) join(pending_[warp], it->second);
}

namespace {

// Whether a backward branch at or after `hi` jumps to at or before `lo`: a loop holds both pcs.
bool in_one_loop(const ir::Module& m, uint32_t fn, uint32_t lo, uint32_t hi) {
    if (fn >= m.functions.size()) return false;
    const auto& body = m.functions[fn].body;
    for (uint32_t pc = hi; pc < body.size(); ++pc) {
        if (body[pc].op != ir::Opcode::bra) continue;
        for (const auto& op : body[pc].args)
            if (op.kind == ir::Operand::Kind::symbol && op.imm >= 0 && static_cast<uint64_t>(op.imm) <= lo)
                return true;
    }
    return false;
}

// Whether a bar/barrier instruction (not bar.warp.sync) lies strictly between two pcs of one function.
bool barrier_between(const ir::Module& m, uint32_t fn, uint32_t lo, uint32_t hi) {
    if (fn >= m.functions.size()) return false;
    const auto& body = m.functions[fn].body;
    for (uint32_t pc = lo + 1; pc < hi && pc < body.size(); ++pc) {
        const auto& in = body[pc];
        if ((in.op == ir::Opcode::bar || in.op == ir::Opcode::barrier) &&
            in.d.bar != ir::BarMode::warp_sync && !has_mod(in, "warp"))
            return true;
    }
    return false;
}

}  // namespace

// Where a barrier must go, from the program alone (the same answer whichever access ran first). With `lo`
// and `hi` the two accesses in program order: between them, unless a loop holds both and either a barrier
// already separates them (the hazard crosses iterations) or the source puts `lo` after `hi` (an unrolled
// loop): then the missing barrier closes the iteration. Accesses of two CTAs of a cluster need the cluster's
// barrier: __syncthreads() orders the threads of one block only.
std::string RaceChecker::barrier_fix(Site a, Site b, bool across_ctas) const {
    const char* barrier =
        across_ctas ? "cluster.sync() (barrier.cluster.arrive and barrier.cluster.wait)" : "__syncthreads()";
    if (a == b || ctx_.line_word(a) == ctx_.line_word(b))
        return fmt::format("add {} between two executions of {} (in a loop: at the end of the iteration)",
                           barrier, ctx_.line_word(a));
    const Site lo = a.pc <= b.pc ? a : b, hi = a.pc <= b.pc ? b : a;
    const std::string llo = ctx_.line_word(lo), lhi = ctx_.line_word(hi);
    if (a.function != b.function || !ctx_.module)
        return fmt::format("add {} between {} and {}", barrier, llo, lhi);
    const bool loop = in_one_loop(*ctx_.module, lo.function, lo.pc, hi.pc);
    const bool separated = barrier_between(*ctx_.module, lo.function, lo.pc, hi.pc);
    const uint32_t clo = ctx_.cuda_line(lo), chi = ctx_.cuda_line(hi);
    if (loop && separated)
        return fmt::format("add {} at the end of the loop iteration: after {} and before {} runs again",
                           barrier, lhi, llo);
    if (loop && clo && chi && clo > chi)
        return fmt::format("add {} at the end of the loop iteration: after {} and before {} runs again",
                           barrier, llo, lhi);
    return fmt::format("add {} between {} and {}", barrier, llo, lhi);
}

void RaceChecker::report(const char* hazard, const Stamp& first, const Access& a, bool first_is_write,
                         bool second_is_write) {
    const auto& e = *a.ev;
    const bool shared = e.space == engine::MemorySpace::shared;
    const bool both_write = first_is_write && second_is_write;
    const uint32_t first_rank = first.warp / warps_, second_rank = a.warp / warps_;
    const bool across = first_rank != second_rank;
    const auto& first_block = ctas_[first_rank].ctaid;
    const auto& second_block = e.site.block.ctaid;
    // Shared words of another CTA (or of one CTA reached by two): distributed shared memory.
    const bool dsmem = shared && (across || a.owner != second_rank);
    const std::string space = dsmem ? "dsmem" : shared ? "shared" : "global";
    Finding f;
    f.tool = Tool::racecheck;
    // Like compute-sanitizer, one finding per pair of instructions whichever ran first: the write party
    // comes first, so read-after-write and write-after-read between the same two pcs fold together.
    f.kind = fmt::format("race.{}.{}", both_write ? "ww" : "rw", space);
    const std::string whose = across ? fmt::format("threads of blocks {} and {} of one cluster",
                                                   xyz(first_block), xyz(second_block))
                                     : fmt::format("threads of block {}", xyz(second_block));
    f.title =
        fmt::format("Race between {} of {} memory by {}", both_write ? "two writes" : "a write and a read",
                    shared ? "shared" : "global", whose);
    const uint32_t first_warp = first.warp % warps_, second_warp = a.warp % warps_;
    Party p1{first_is_write ? "write" : "read", first.at, ctx_.thread(first_warp, first.lane), first_block};
    Party p2{second_is_write ? access_word(e) : "read", Site{e.site.function, e.site.pc},
             ctx_.thread(second_warp, a.lane), second_block};
    const bool swap = !both_write && !first_is_write;
    f.parties.push_back(swap ? p2 : p1);
    f.parties.push_back(swap ? p1 : p2);
    f.address = a.offset;
    f.space = shared ? "shared" : "global";
    f.variable = shared ? ctx_.shared_name(a.offset, e.bytes_per_lane) : ctx_.global_name(a.offset);
    const char* order = std::string_view(hazard) == "raw"   ? "read-after-write"
                        : std::string_view(hazard) == "war" ? "write-after-read"
                                                            : "write-after-write";
    const auto who = [&](const Party& p, uint32_t warp) {
        return across ? fmt::format("thread {} of block {} (warp {})", xyz(p.thread), xyz(p.block), warp)
                      : fmt::format("thread {} (warp {})", xyz(p.thread), warp);
    };
    f.notes.push_back(
        fmt::format("first seen as a {} hazard: {} then {}, with no barrier between them; the outcome "
                    "depends on which warp runs first",
                    order, who(p1, first_warp), who(p2, second_warp)));
    if (dsmem)
        f.notes.push_back(
            fmt::format("the word is in the shared memory of block {} (cluster rank {}), reached from "
                        "other CTAs through shared::cluster addresses (mapa)",
                        xyz(ctas_[a.owner].ctaid), a.owner));
    f.fix = barrier_fix(f.parties[0].at, f.parties[1].at, across);
    log_.add(std::move(f));
}

// One access of `bytes` (a mask) of a word: at most one hazard is reported per word and access, as before
// byte tracking; an access of the whole word behaves exactly as the per-word checker did.
void RaceChecker::check_word(Word& w, const Access& a, bool reads, bool writes, uint8_t bytes) {
    const uint32_t me = a.warp;
    const Stamp now{me, a.lane, clock_[me][me], Site{a.ev->site.function, a.ev->site.pc}};
    auto bits = [](uint8_t m, auto&& each) {
        for (uint32_t b = 0; b < 4; ++b)
            if (m & (1u << b)) each(b);
    };
    if (reads && !writes) {
        bool reported = false;
        bits(bytes & w.written & ~w.write_strong, [&](uint32_t b) {
            if (!reported && !ordered(w.write[b], me)) {
                report("raw", w.write[b], a, true, false);
                reported = true;
            }
        });
        // This warp's latest read of these bytes replaces its earlier ones (in place when it read the same).
        for (auto& r : w.reads)
            if (r.at.warp == me && r.bytes == bytes) {
                r.at = now;
                r.strong = a.strong;
                return;
            }
        for (auto& r : w.reads)
            if (r.at.warp == me) r.bytes &= static_cast<uint8_t>(~bytes);
        std::erase_if(w.reads, [](const Read& r) { return r.bytes == 0; });
        w.reads.push_back({now, bytes, a.strong});
        return;
    }
    if (!writes) return;
    bool waw = false;
    bits(bytes & w.written, [&](uint32_t b) {
        if (!waw && !ordered(w.write[b], me) && !((w.write_strong & (1u << b)) && a.strong)) {
            report("waw", w.write[b], a, true, true);
            waw = true;
        }
    });
    if (!waw && !a.strong) {
        for (const auto& r : w.reads)
            if ((r.bytes & bytes) && !ordered(r.at, me)) {
                report("war", r.at, a, false, true);
                break;
            }
    }
    bits(bytes, [&](uint32_t b) { w.write[b] = now; });
    w.written |= bytes;
    w.write_strong = static_cast<uint8_t>(a.strong ? (w.write_strong | bytes) : (w.write_strong & ~bytes));
    for (auto& r : w.reads) r.bytes &= static_cast<uint8_t>(~bytes);
    std::erase_if(w.reads, [](const Read& r) { return r.bytes == 0; });
}

void RaceChecker::begin_launch() {
    mirror_.clear();
    if (!memory_ || !check_global_) return;
    for (const auto& a : ctx_.allocations)
        if (auto bytes = memory_->read(a.base, a.size)) mirror_[a.base] = std::move(*bytes);
}

// Updates the mirror with what each writing lane left in memory and returns the lanes whose write changed
// nothing (the value was already there).
uint32_t RaceChecker::drop_silent_lanes(const engine::MemoryEvent& e) {
    uint32_t silent = 0;
    for (uint32_t m = e.active_mask; m; m &= m - 1) {
        const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
        const uint64_t addr = e.addr[lane];
        auto it = mirror_.upper_bound(addr);
        if (it == mirror_.begin()) continue;
        --it;
        auto& bytes = it->second;
        if (addr - it->first + e.bytes_per_lane > bytes.size()) continue;
        auto now = memory_->read(addr, e.bytes_per_lane);
        if (!now) continue;
        uint8_t* old = bytes.data() + (addr - it->first);
        if (std::equal(now->begin(), now->end(), old)) silent |= 1u << lane;
        std::copy(now->begin(), now->end(), old);
    }
    return silent;
}

void RaceChecker::on_memory(const engine::MemoryEvent& input) {
    engine::MemoryEvent e = input;
    e.sem = effective_sem(e, ctx_.instruction(Site{e.site.function, e.site.pc}));
    if (memory_ && !mirror_.empty() && e.space == engine::MemorySpace::global &&
        e.kind != engine::MemoryKind::read) {
        const uint32_t silent = drop_silent_lanes(e);
        if (e.kind == engine::MemoryKind::write && !is_strong(e)) e.active_mask &= ~silent;
    }

    const bool shared = e.space == engine::MemorySpace::shared;
    if (!shared && !(check_global_ && e.space == engine::MemorySpace::global)) return;
    const uint32_t me = warp_of(e.site);
    if (me == kNoWarp) return;
    const uint32_t my_rank = me / warps_;
    const bool strong = is_strong(e);
    const bool writes = e.kind != engine::MemoryKind::read;
    const bool reads = e.kind == engine::MemoryKind::read;
    if (strong && writes && releases(e.sem)) release_point(me);
    const uint32_t bytes = std::max<uint32_t>(e.bytes_per_lane, 1);
    for (uint32_t m = e.active_mask; m; m &= m - 1) {
        const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
        uint32_t owner = my_rank;
        uint64_t addr = e.addr[lane];
        if (shared && addr >= memory::kClusterRankStride) {  // a shared::cluster address: CTA rank, offset
            owner = static_cast<uint32_t>((addr >> memory::kClusterRankShift) - 1);
            addr &= memory::kClusterRankStride - 1;
            if (owner >= shared_.size()) continue;
        }
        const uint64_t first = addr / 4, last = (addr + bytes - 1) / 4;
        for (uint64_t word = first; word <= last; ++word) {
            Access a{&e, lane, me, owner, addr, strong};
            // The bytes of this word that [addr, addr + bytes) covers.
            const uint64_t lo = std::max(addr, word * 4), hi = std::min(addr + bytes, word * 4 + 4);
            const auto mask = static_cast<uint8_t>(((1u << (hi - lo)) - 1) << (lo - word * 4));
            Word* w = nullptr;
            if (shared) {
                if (word >= shared_[owner].size()) continue;
                w = &shared_[owner][word];
            } else {
                w = &global_.at(word);
            }
            check_word(*w, a, reads, writes, mask);
            if (!strong) continue;
            const uint64_t key = shared ? (kSharedKey | (uint64_t{owner} << 40) | word) : word;
            if (writes) publish(me, key);
            if (e.kind == engine::MemoryKind::read || e.read_modify_write || acquires(e.sem))
                observe(me, key);
        }
    }
    if (strong && acquires(e.sem)) acquire_point(me);
}

void RaceChecker::on_barrier(const engine::BarrierEvent& e) {
    const uint32_t me = warp_of(e.site);
    if (me == kNoWarp) return;
    if (e.barrier == engine::kClusterBarrierEvent) return cluster_barrier(e, me);
    if (e.barrier >= kBarrierIds) return;
    const uint32_t rank = me / warps_;
    acquire_point(me);
    ++clock_[me][me];
    join(barrier_join_[rank][e.barrier], clock_[me]);
    if (e.kind != engine::BarrierKind::arrive) barrier_waiters_[rank][e.barrier] |= 1ull << (me % warps_);
}

void RaceChecker::on_barrier_release(const engine::BlockIndex& b, uint32_t barrier) {
    if (barrier == engine::kClusterBarrierEvent) return cluster_release();
    const uint32_t rank = rank_of(b);
    if (barrier >= kBarrierIds || rank >= ctas_.size()) return;
    for (uint32_t w = 0; w < warps_; ++w)
        if (barrier_waiters_[rank][barrier] >> w & 1) {
            Clock& c = clock_[rank * warps_ + w];
            join(c, barrier_join_[rank][barrier]);
            if (!exited_join_[rank].empty()) join(c, exited_join_[rank]);
        }
    barrier_join_[rank][barrier].clear();
    barrier_waiters_[rank][barrier] = 0;
}

// barrier.cluster.arrive: the warp's first arrival of the current phase releases what it did before (unless
// .relaxed; a second arrival in one phase counts once, as in the engine). barrier.cluster.wait: the warp
// waits for the phase of its last arrival; if that phase has completed it acquires it now, else at its
// release.
void RaceChecker::cluster_barrier(const engine::BarrierEvent& e, uint32_t warp) {
    if (e.kind == engine::BarrierKind::arrive) {
        if (cluster_arrived_[warp] == cluster_phase_ + 1) return;
        cluster_arrived_[warp] = cluster_phase_ + 1;
        const ir::Instruction* in = ctx_.instruction(Site{e.site.function, e.site.pc});
        if (in && in->has_mod("relaxed")) return;
        acquire_point(warp);
        ++clock_[warp][warp];
        join(cluster_join_[cluster_phase_], clock_[warp]);
        return;
    }
    if (cluster_arrived_[warp] == 0)
        return;  // a wait without an arrival never returns (the engine reports it)
    const uint64_t phase = cluster_arrived_[warp] - 1;
    if (phase >= cluster_phase_) {
        cluster_waiting_.emplace_back(warp, phase);
        return;
    }
    if (auto it = cluster_join_.find(phase); it != cluster_join_.end()) join(clock_[warp], it->second);
    if (!cluster_exited_join_.empty()) join(clock_[warp], cluster_exited_join_);
}

void RaceChecker::cluster_release() {
    ++cluster_phase_;
    std::erase_if(cluster_waiting_, [&](const std::pair<uint32_t, uint64_t>& wt) {
        if (wt.second >= cluster_phase_) return false;
        if (auto it = cluster_join_.find(wt.second); it != cluster_join_.end())
            join(clock_[wt.first], it->second);
        if (!cluster_exited_join_.empty()) join(clock_[wt.first], cluster_exited_join_);
        return true;
    });
    // A live warp that has not waited yet arrived in the phase just completed or later (the phase could not
    // complete without it): older phases are done with.
    if (cluster_phase_ >= 2)
        cluster_join_.erase(cluster_join_.begin(), cluster_join_.lower_bound(cluster_phase_ - 1));
}

void RaceChecker::on_thread_exit(const engine::EventSite& s, uint32_t mask) {
    const uint32_t warp = warp_of(s);
    if (warp == kNoWarp) return;
    live_[warp] &= ~mask;
    if (live_[warp]) return;
    // The engine releases barriers (bar.sync of the block, barrier.cluster of the cluster) without warps
    // whose every lane exited: what such a warp did before it exited is ordered before those releases
    // (synccheck reports the exit itself).
    ++clock_[warp][warp];
    join(exited_join_[warp / warps_], clock_[warp]);
    join(cluster_exited_join_, clock_[warp]);
}

void RaceChecker::on_fence(const engine::FenceEvent& e) {
    const uint32_t warp = warp_of(e.site);
    if (warp == kNoWarp || e.kind == engine::FenceKind::fence_proxy) return;
    release_point(warp);
}

}  // namespace warpsim::check
