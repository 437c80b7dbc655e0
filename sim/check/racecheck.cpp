// sim/check/racecheck.cpp — vector clocks per warp, last write and reads per 4-byte word (see header).
#include "sim/check/racecheck.hpp"

#include <algorithm>
#include <fmt/format.h>

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
    return e.kind == engine::MemoryKind::atomic || e.async || (e.sem != ir::MemSem::none && e.sem != ir::MemSem::weak);
}

bool has_mod(const ir::Instruction& in, std::string_view m) {
    return std::find(in.mods.begin(), in.mods.end(), m) != in.mods.end();
}

// mbarrier.arrive* releases (PTX: .release by default), test_wait/try_wait acquire (.acquire by default).
ir::MemSem effective_sem(const engine::MemoryEvent& e, const ir::Instruction* in) {
    if (e.sem != ir::MemSem::none || !in || in->op != ir::Opcode::mbarrier) return e.sem;
    if (has_mod(*in, "test_wait") || has_mod(*in, "try_wait")) return ir::MemSem::acquire;
    if (has_mod(*in, "arrive") || has_mod(*in, "arrive_drop") || has_mod(*in, "complete_tx")) return ir::MemSem::release;
    return e.sem;
}
bool releases(ir::MemSem s) { return s == ir::MemSem::release || s == ir::MemSem::acq_rel || s == ir::MemSem::sc; }
bool acquires(ir::MemSem s) { return s == ir::MemSem::acquire || s == ir::MemSem::acq_rel || s == ir::MemSem::sc; }

const char* access_word(const engine::MemoryEvent& e) {
    switch (e.kind) {
    case engine::MemoryKind::read: return "read";
    case engine::MemoryKind::write: return "write";
    default: return "atomic";
    }
}

}  // namespace

void RaceChecker::begin_block(const engine::BlockIndex& b, uint32_t warps, uint32_t threads, uint32_t shared_bytes) {
    block_ = b;
    warps_ = warps;
    live_.assign(warps, 0xffffffffu);
    if (warps && threads % 32) live_.back() = (1u << (threads % 32)) - 1;
    exited_join_.clear();
    clock_.assign(warps, Clock(warps, 0));
    released_.assign(warps, Clock{});
    pending_.assign(warps, Clock{});
    barrier_join_.assign(kBarrierIds, Clock{});
    barrier_waiters_.assign(kBarrierIds, 0);
    shared_.assign((uint64_t{shared_bytes} + 3) / 4, Word{});
    global_.clear();
    sync_objects_.clear();
}

bool RaceChecker::ordered(const Stamp& earlier, uint32_t warp) const {
    return earlier.warp == warp || clock_[warp][earlier.warp] > earlier.epoch;
}

void RaceChecker::release_point(uint32_t warp) {
    acquire_point(warp);
    ++clock_[warp][warp];  // accesses before carry a smaller epoch than the published clock, those after do not
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
            if (op.kind == ir::Operand::Kind::symbol && op.imm >= 0 && static_cast<uint64_t>(op.imm) <= lo) return true;
    }
    return false;
}

// Whether a bar/barrier instruction (not bar.warp.sync) lies strictly between two pcs of one function.
bool barrier_between(const ir::Module& m, uint32_t fn, uint32_t lo, uint32_t hi) {
    if (fn >= m.functions.size()) return false;
    const auto& body = m.functions[fn].body;
    for (uint32_t pc = lo + 1; pc < hi && pc < body.size(); ++pc) {
        const auto& in = body[pc];
        if ((in.op == ir::Opcode::bar || in.op == ir::Opcode::barrier) && in.d.bar != ir::BarMode::warp_sync &&
            !has_mod(in, "warp"))
            return true;
    }
    return false;
}

}  // namespace

// Where a barrier must go, from the program alone (the same answer whichever access ran first). With `lo`
// and `hi` the two accesses in program order: between them, unless a loop holds both and either a barrier
// already separates them (the hazard crosses iterations) or the source puts `lo` after `hi` (an unrolled
// loop): then the missing barrier closes the iteration.
std::string RaceChecker::barrier_fix(Site a, Site b) const {
    if (a == b || ctx_.line_word(a) == ctx_.line_word(b))
        return fmt::format("add __syncthreads() between two executions of {} (in a loop: at the end of the iteration)",
                           ctx_.line_word(a));
    const Site lo = a.pc <= b.pc ? a : b, hi = a.pc <= b.pc ? b : a;
    const std::string llo = ctx_.line_word(lo), lhi = ctx_.line_word(hi);
    if (a.function != b.function || !ctx_.module) return fmt::format("add __syncthreads() between {} and {}", llo, lhi);
    const bool loop = in_one_loop(*ctx_.module, lo.function, lo.pc, hi.pc);
    const bool separated = barrier_between(*ctx_.module, lo.function, lo.pc, hi.pc);
    const uint32_t clo = ctx_.cuda_line(lo), chi = ctx_.cuda_line(hi);
    if (loop && separated)
        return fmt::format("add __syncthreads() at the end of the loop iteration: after {} and before {} runs again",
                           lhi, llo);
    if (loop && clo && chi && clo > chi)
        return fmt::format("add __syncthreads() at the end of the loop iteration: after {} and before {} runs again",
                           llo, lhi);
    return fmt::format("add __syncthreads() between {} and {}", llo, lhi);
}

void RaceChecker::report(const char* hazard, const Stamp& first, const Access& a, bool first_is_write,
                         bool second_is_write) {
    const auto& e = *a.ev;
    const bool shared = e.space == engine::MemorySpace::shared;
    const std::string space = shared ? "shared" : "global";
    const bool both_write = first_is_write && second_is_write;
    Finding f;
    f.tool = Tool::racecheck;
    // Like compute-sanitizer, one finding per pair of instructions whichever ran first: the write party
    // comes first, so read-after-write and write-after-read between the same two pcs fold together.
    f.kind = fmt::format("race.{}.{}", both_write ? "ww" : "rw", space);
    f.title = fmt::format("Race between {} of {} memory by threads of block {}",
                          both_write ? "two writes" : "a write and a read", space, xyz(block_.ctaid));
    Party p1{first_is_write ? "write" : "read", first.at, ctx_.thread(first.warp, first.lane), block_.ctaid};
    Party p2{second_is_write ? access_word(e) : "read", Site{e.site.function, e.site.pc},
             ctx_.thread(e.site.warp, a.lane), block_.ctaid};
    const bool swap = !both_write && !first_is_write;
    f.parties.push_back(swap ? p2 : p1);
    f.parties.push_back(swap ? p1 : p2);
    f.address = e.addr[a.lane];
    f.space = space;
    f.variable = shared ? ctx_.shared_name(e.addr[a.lane], e.bytes_per_lane) : ctx_.global_name(e.addr[a.lane]);
    const char* order = std::string_view(hazard) == "raw"   ? "read-after-write"
                        : std::string_view(hazard) == "war" ? "write-after-read"
                                                            : "write-after-write";
    f.notes.push_back(fmt::format("first seen as a {} hazard: thread {} (warp {}) then thread {} (warp {}), with no "
                                  "barrier between them; the outcome depends on which warp runs first",
                                  order, xyz(p1.thread), first.warp, xyz(p2.thread), e.site.warp));
    f.fix = barrier_fix(f.parties[0].at, f.parties[1].at);
    log_.add(std::move(f));
}

void RaceChecker::check_word(Word& w, const Access& a, bool reads, bool writes) {
    const uint32_t me = a.ev->site.warp;
    const Stamp now{me, a.lane, clock_[me][me], Site{a.ev->site.function, a.ev->site.pc}};
    if (reads && !writes) {
        if (w.written && !w.write_strong && !ordered(w.write, me)) report("raw", w.write, a, true, false);
        for (size_t i = 0; i < w.reads.size(); ++i)
            if (w.reads[i].warp == me) {
                w.reads[i] = now;
                w.read_strong[i] = a.strong;
                return;
            }
        w.reads.push_back(now);
        w.read_strong.push_back(a.strong);
        return;
    }
    if (!writes) return;
    if (w.written && !ordered(w.write, me) && !(w.write_strong && a.strong)) {
        report("waw", w.write, a, true, true);
    } else {
        for (size_t i = 0; i < w.reads.size(); ++i)
            if (!a.strong && !ordered(w.reads[i], me)) {
                report("war", w.reads[i], a, false, true);
                break;
            }
    }
    w.write = now;
    w.written = true;
    w.write_strong = a.strong;
    w.reads.clear();
    w.read_strong.clear();
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
    if (memory_ && !mirror_.empty() && e.space == engine::MemorySpace::global && e.kind != engine::MemoryKind::read) {
        const uint32_t silent = drop_silent_lanes(e);
        if (e.kind == engine::MemoryKind::write && !is_strong(e)) e.active_mask &= ~silent;
    }

    const bool shared = e.space == engine::MemorySpace::shared;
    if (!shared && !(check_global_ && e.space == engine::MemorySpace::global)) return;
    const uint32_t me = e.site.warp;
    if (me >= warps_) return;
    const bool strong = is_strong(e);
    const bool writes = e.kind != engine::MemoryKind::read;
    const bool reads = e.kind == engine::MemoryKind::read;
    if (strong && writes && releases(e.sem)) release_point(me);
    const uint32_t bytes = std::max<uint32_t>(e.bytes_per_lane, 1);
    for (uint32_t m = e.active_mask; m; m &= m - 1) {
        const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
        const uint64_t first = e.addr[lane] / 4, last = (e.addr[lane] + bytes - 1) / 4;
        for (uint64_t word = first; word <= last; ++word) {
            Access a{&e, lane, word * 4, strong};
            Word* w = nullptr;
            if (shared) {
                if (word >= shared_.size()) continue;
                w = &shared_[word];
            } else {
                w = &global_[word];
            }
            check_word(*w, a, reads, writes);
            if (!strong) continue;
            const uint64_t key = shared ? (kSharedKey | word) : word;
            if (writes) publish(me, key);
            if (e.kind == engine::MemoryKind::read || e.read_modify_write || acquires(e.sem)) observe(me, key);
        }
    }
    if (strong && acquires(e.sem)) acquire_point(me);
}

void RaceChecker::on_barrier(const engine::BarrierEvent& e) {
    const uint32_t me = e.site.warp;
    if (me >= warps_ || e.barrier >= kBarrierIds) return;
    acquire_point(me);
    ++clock_[me][me];
    join(barrier_join_[e.barrier], clock_[me]);
    if (e.kind != engine::BarrierKind::arrive) barrier_waiters_[e.barrier] |= 1ull << me;
}

void RaceChecker::on_barrier_release(uint32_t barrier) {
    if (barrier >= kBarrierIds) return;
    for (uint32_t w = 0; w < warps_; ++w)
        if (barrier_waiters_[barrier] >> w & 1) {
            join(clock_[w], barrier_join_[barrier]);
            if (!exited_join_.empty()) join(clock_[w], exited_join_);
        }
    barrier_join_[barrier].clear();
    barrier_waiters_[barrier] = 0;
}

void RaceChecker::on_thread_exit(uint32_t warp, uint32_t mask) {
    if (warp >= warps_) return;
    live_[warp] &= ~mask;
    if (live_[warp]) return;
    // The engine releases barriers without warps whose every lane exited: what such a warp did before it
    // exited is ordered before those releases (synccheck reports the exit itself).
    ++clock_[warp][warp];
    join(exited_join_, clock_[warp]);
}

void RaceChecker::on_fence(const engine::FenceEvent& e) {
    if (e.site.warp >= warps_ || e.kind == engine::FenceKind::fence_proxy) return;
    release_point(e.site.warp);
}

}  // namespace warpsim::check
