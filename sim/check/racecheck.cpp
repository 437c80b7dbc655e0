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

// Whether a backward branch of `fn` jumps from at or after `hi` to at or before `lo`: the two pcs share a loop.
bool in_one_loop(const ir::Module& m, uint32_t fn, uint32_t lo, uint32_t hi) {
    if (fn >= m.functions.size()) return false;
    const auto& body = m.functions[fn].body;
    for (uint32_t pc = hi; pc < body.size(); ++pc) {
        const auto& in = body[pc];
        if (in.op != ir::Opcode::bra) continue;
        for (const auto& a : in.args)
            if (a.kind == ir::Operand::Kind::symbol && a.imm >= 0 && static_cast<uint64_t>(a.imm) <= lo) return true;
    }
    return false;
}

}  // namespace

// Where a barrier must go: between the two accesses in program order, unless the one that ran first comes
// later in the program and a loop holds both (the hazard crosses an iteration: barrier at the iteration's end).
std::string RaceChecker::barrier_fix(Site first, Site second) const {
    const std::string l1 = ctx_.line_word(first), l2 = ctx_.line_word(second);
    const bool same_fn = first.function == second.function;
    if (first == second || l1 == l2)
        return fmt::format("add __syncthreads() between two executions of {} (in a loop: at the end of the iteration)",
                           l1);
    if (!same_fn || first.pc < second.pc) return fmt::format("add __syncthreads() between {} and {}", l1, l2);
    if (ctx_.module && in_one_loop(*ctx_.module, first.function, second.pc, first.pc))
        return fmt::format("add __syncthreads() after {} and before {} runs again: at the end of the loop iteration",
                           l1, l2);
    return fmt::format("add __syncthreads() between {} and {}", l2, l1);
}

void RaceChecker::report(const char* hazard, const Stamp& first, const Access& a, bool first_is_write,
                         bool second_is_write) {
    const auto& e = *a.ev;
    const bool shared = e.space == engine::MemorySpace::shared;
    const std::string space = shared ? "shared" : "global";
    const Site second_at{e.site.function, e.site.pc};
    Finding f;
    f.tool = Tool::racecheck;
    f.kind = fmt::format("race.{}.{}", hazard, space);
    const char* title = hazard == std::string_view("raw")   ? "Read-after-write"
                        : hazard == std::string_view("war") ? "Write-after-read"
                                                            : "Write-after-write";
    f.title = fmt::format("{} hazard on {} memory between threads of block {}", title, space, xyz(block_.ctaid));
    f.parties.push_back({first_is_write ? "write" : "read", first.at, ctx_.thread(first.warp, first.lane), block_.ctaid});
    f.parties.push_back({second_is_write ? access_word(e) : "read", second_at, ctx_.thread(e.site.warp, a.lane),
                         block_.ctaid});
    f.address = e.addr[a.lane];
    f.space = space;
    f.variable = shared ? ctx_.shared_name(e.addr[a.lane], e.bytes_per_lane) : ctx_.global_name(e.addr[a.lane]);
    f.notes.push_back(fmt::format("no barrier orders the two accesses: warp {} and warp {} are in the same barrier "
                                  "epoch; the outcome depends on which warp runs first",
                                  first.warp, e.site.warp));
    f.fix = barrier_fix(first.at, second_at);
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
