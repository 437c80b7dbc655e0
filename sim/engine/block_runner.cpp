// sim/engine/block_runner.cpp — warps of a block take turns (a fixed quantum each, in warp order, or in the
// seeded order of LaunchConfig::schedule_seed), which makes every intra-block interleaving deterministic;
// barriers and deadlocks are resolved here.
#include "sim/engine/block_runner.hpp"

#include <fmt/format.h>

#include "sim/engine/cluster.hpp"
#include "sim/engine/handler_util.hpp"
#include "sim/engine/schedule.hpp"
#include "sim/engine/warp_runner.hpp"

namespace warpsim::engine {

// Every warp that has not finished waits at a barrier that cannot complete: the threads wait at different
// barriers (or at one with a thread count that the others never make up).
void report_deadlock(BlockContext& b) {
    if (report_cluster_deadlock(b)) return;
    const LaunchContext& L = *b.launch;
    uint32_t exited = 0, waiting = 0, first_warp = kNone;
    for (const auto& w : b.warps) {
        exited += static_cast<uint32_t>(std::popcount(w.exited));
        if (w.state != WarpState::at_barrier) continue;
        waiting += w.lanes - static_cast<uint32_t>(std::popcount(w.exited));
        if (first_warp == kNone) first_warp = w.index;
    }
    std::string per_barrier;
    for (uint32_t id = 0; id < b.barriers.size(); ++id) {
        const auto& bs = b.barriers[id];
        if (!bs.started) continue;
        std::string warps;
        for (uint32_t wi : bs.waiting) warps += fmt::format("{}{}", warps.empty() ? "" : ",", wi);
        const uint32_t expected = bs.expected ? bs.expected : b.live_warps;
        per_barrier += fmt::format(
            "\n    barrier {} at {}: {} of {} warps arrived ({} of {} threads; waiting warps: {})", id,
            source_line_text(L, bs.where), bs.arrived, expected, bs.arrived * 32, expected * 32,
            warps.empty() ? "none" : warps);
    }
    std::string details = fmt::format(
        "barrier deadlock in block ({},{},{}): {} threads wait at barriers that the other threads never "
        "reach "
        "({} threads have exited, {} threads in all){}\n    on a GPU this kernel would hang; every "
        "non-exited "
        "warp of the block must reach the same barrier (bar.sync / __syncthreads())",
        b.ctaid[0], b.ctaid[1], b.ctaid[2], waiting, exited, b.threads, per_barrier);
    FaultDetails f;
    f.block = b.ctaid;
    for (const auto& bs : b.barriers)
        if (bs.started && bs.where && bs.where->ir) {
            f.ptx_line = bs.where->ir->loc.ptx_line;
            f.cuda_location = cuda_location(L, bs.where);
            f.function = L.program->functions[L.kernel].fn->name;
            break;
        }
    if (first_warp != kNone) {
        const uint32_t t = first_warp * 32;
        f.thread = {t % L.block[0], (t / L.block[0]) % L.block[1], t / (L.block[0] * L.block[1])};
    }
    b.error = LaunchError(Fault::barrier_deadlock, details, f);
}

std::string hottest_loop(const BlockContext& b) {
    const LaunchContext& L = *b.launch;
    if (!b.backedges) return {};
    uint64_t best = 0;
    const DInst* where = nullptr;
    for (std::size_t f = 0; f < b.backedges->size(); ++f) {
        const auto& counts = (*b.backedges)[f];
        for (std::size_t pc = 0; pc < counts.size(); ++pc)
            if (counts[pc] > best) {
                best = counts[pc];
                const DInst& br = L.program->functions[f].code[pc];
                const auto& code = L.program->functions[f].code;
                where = br.target < code.size() ? &code[br.target] : &br;
            }
    }
    if (!where) return {};
    return fmt::format("; the hottest loop starts at {} (its back edge was taken {} times in this block)",
                       source_line_text(L, where), best);
}

namespace {

// Whether the launch has run past its wall-clock limit; the clock is read once per 2^20 thread-instructions
// charged (every few milliseconds), not on every turn.
bool past_deadline(const LaunchContext& L, uint64_t used, uint64_t charged) {
    if (!L.deadline || (used >> 20) == ((used - charged) >> 20)) return false;
    return std::chrono::steady_clock::now() > *L.deadline;
}

// Charges the budget; false (with the error in b) once the launch has run past it or past its time limit.
bool within_budget(BlockContext& b, uint64_t thread_insts) {
    const LaunchContext& L = *b.launch;
    const uint64_t used = L.budget_used->fetch_add(thread_insts) + thread_insts;
    if (used <= L.cfg->max_instructions && !past_deadline(L, used, thread_insts)) return true;
    FaultDetails f;
    f.block = b.ctaid;
    const bool out_of_budget = used > L.cfg->max_instructions;
    const std::string limit =
        out_of_budget ? fmt::format("instruction budget of {} thread-instructions", L.cfg->max_instructions)
                      : fmt::format("time limit of {} s of wall-clock time (--time-limit; 0 turns it off)",
                                    L.cfg->time_limit_seconds);
    b.error = LaunchError(out_of_budget ? Fault::budget_exhausted : Fault::time_limit,
                          fmt::format("the kernel ran past warpsim's {}{}", limit, hottest_loop(b)), f);
    return false;
}

}  // namespace

bool run_warp_turns(BlockContext& b, WarpOrder& order, bool& any_ran, bool& all_done) {
    order.next_round();
    const uint64_t updates = b.mbarrier_updates;
    bool ran = false, all_waited_in_vain = true;
    for (uint32_t k = 0; k < b.warps.size(); ++k) {
        Warp& w = b.warps[order.warp(k)];
        if (w.state == WarpState::done) continue;
        all_done = false;
        if (w.state == WarpState::at_barrier) continue;
        const uint64_t before = b.thread_insts;
        w.wait_failed = false;
        const RunStatus s = run_warp(w, b, order.quantum());
        any_ran = ran = true;
        all_waited_in_vain = all_waited_in_vain && w.wait_failed && s != RunStatus::done;
        if (s == RunStatus::error || !within_budget(b, b.thread_insts - before)) return false;
    }
    const bool stalled = ran && all_waited_in_vain && b.mbarrier_updates == updates;
    b.stalled_rounds = stalled ? b.stalled_rounds + 1 : 0;
    return true;
}

void report_mbarrier_deadlock(BlockContext& b) {
    const LaunchContext& L = *b.launch;
    FaultDetails f;
    f.block = b.ctaid;
    if (b.last_failed_wait && b.last_failed_wait->ir) {
        f.ptx_line = b.last_failed_wait->ir->loc.ptx_line;
        f.cuda_location = cuda_location(L, b.last_failed_wait);
        f.function = L.program->functions[L.kernel].fn->name;
    }
    f.address = b.last_failed_wait_addr;
    f.space = "shared";
    std::string details = fmt::format(
        "mbarrier deadlock in block ({},{},{}): every running warp waits in mbarrier.test_wait/try_wait for "
        "a "
        "phase that cannot complete (the mbarrier at shared offset 0x{:x}, waited on at {}); no thread "
        "changed any "
        "mbarrier in the last {} rounds of the block's warps\n    on a GPU this kernel would hang; every "
        "expected "
        "arrival (mbarrier.arrive) and every expected transaction byte (expect_tx / complete_tx) must come",
        b.ctaid[0], b.ctaid[1], b.ctaid[2], b.last_failed_wait_addr,
        b.last_failed_wait ? source_line_text(L, b.last_failed_wait) : std::string("an unknown line"),
        kMbarrierStallRounds);
    b.error = LaunchError(Fault::mbarrier_deadlock, details, f);
}

void run_block(BlockContext& b) {
    const LaunchContext& L = *b.launch;
    start_warps(b);
    if (b.error) return;
    if (b.counters) b.counters->on_block_begin(b.linear, b.sm);
    if (L.observer) L.observer->on_block_begin(b.index());
    WarpOrder order(L.cfg->schedule_seed, b.linear, static_cast<uint32_t>(b.warps.size()), kWarpQuantum);
    for (;;) {
        bool any_ran = false, all_done = true;
        if (!run_warp_turns(b, order, any_ran, all_done)) return;
        if (all_done) break;
        if (!any_ran) {
            report_deadlock(b);
            return;
        }
        if (b.stalled_rounds >= kMbarrierStallRounds) {
            report_mbarrier_deadlock(b);
            return;
        }
    }
    if (b.counters) b.counters->on_block_end(b.linear, b.sm);
    if (L.observer) L.observer->on_block_end(b.index());
}

}  // namespace warpsim::engine
