// sim/engine/handlers_barrier.cpp — bar/barrier .sync/.arrive/.red (with ids and thread counts),
// bar.warp.sync, and what thread exits do to barriers.
//
// The sm_70+ rules modelled (PTX ISA 9.7.13.1 "bar, barrier" and 9.7.8.x "exit"):
//  * Arrivals are counted per warp: a warp that executes the barrier instruction with any of its lanes
//    counts as one arrived warp (32 threads), whichever of its lanes executed it. A divergent warp whose
//    other lanes never reach the barrier therefore does not hold it up (the same warp-granular counting
//    that makes bar.sync's thread count a multiple of 32). bar.sync/bar.red stop the whole warp until the
//    barrier completes.
//  * Without a thread count the barrier expects every warp of the block that still has a non-exited lane:
//    when a warp's last lane exits, barriers waiting on all threads are re-checked and released if the
//    exited warp was the one holding them up (the `if (i >= n) return; ... __syncthreads();` pattern).
//  * With a thread count b it expects b/32 warp arrivals; exits never release it.
//  * Misuse that the hardware tolerates (a barrier in a branch skipped by whole warps that then exit) runs
//    to completion here too; the synccheck tool diagnoses it from the observer's BarrierEvents.
#include <fmt/format.h>
#include <algorithm>

#include "sim/engine/cluster.hpp"
#include "sim/engine/dispatch.hpp"
#include "sim/engine/handler_util.hpp"
#include "sim/engine/warp_runner.hpp"

namespace warpsim::engine {

namespace {

enum class RedKind : uint8_t { none, popc, and_, or_ };

void release(BlockContext& b, uint32_t id) {
    BarrierState& bs = b.barriers[id];
    for (uint32_t wi : bs.waiting) {
        Warp& w = b.warps[wi];
        if (w.state == WarpState::at_barrier && w.barrier_id == id) w.state = WarpState::ready;
    }
    // bar.red: every participating warp gets the reduction in the destination it named.
    for (const auto& r : bs.red_targets) {
        Warp& w = b.warps[r.warp];
        uint64_t* d = w.frames.back().regs.data() + static_cast<std::size_t>(r.reg) * 32;
        const uint64_t v = r.kind == 0 ? bs.red_popc : r.kind == 1 ? bs.red_and : bs.red_or;
        for_lanes(r.lanes, [&](uint32_t l) { d[l] = v; });
    }
    bs = BarrierState{};
    if (b.launch->observer) b.launch->observer->on_barrier_release(b.index(), id);
}

bool complete(const BlockContext& b, const BarrierState& bs) {
    return bs.started && bs.arrived >= (bs.expected ? bs.expected : b.live_warps);
}

void notify(Exec& x, const DInst& in, uint32_t e, uint32_t id, uint32_t count, BarrierKind kind) {
    BarrierEvent ev;
    ev.site = event_site(x, in);
    ev.barrier = id;
    ev.arriving_mask = e;
    const uint32_t all = x.warp->lanes == 32 ? 0xffffffffu : (1u << x.warp->lanes) - 1;
    ev.live_mask = all & ~x.warp->exited;
    ev.expected_threads = count;
    ev.kind = kind;
    ev.aligned = in.ir->op == ir::Opcode::bar ||
                 std::find(in.ir->mods.begin(), in.ir->mods.end(), "aligned") != in.ir->mods.end();
    x.launch->observer->on_barrier(ev);
}

template <bool Wait, RedKind Red>
void barrier(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    BlockContext& b = *x.block;
    const uint32_t first = static_cast<uint32_t>(std::countr_zero(e));
    const uint32_t id = static_cast<uint32_t>(x.R[in.src[0] * 32 + first]);
    const bool has_count = Red == RedKind::none ? in.nsrc >= 2 : in.nsrc >= 3;
    const uint32_t count = has_count ? static_cast<uint32_t>(x.R[in.src[1] * 32 + first]) : 0;
    if (id >= b.barriers.size()) {
        raise_fault(x, in, first, Fault::illegal_instruction, {},
                    fmt::format("barrier id {} is out of range (0..15)", id));
        return;
    }
    if (has_count && (count == 0 || count % 32 != 0 || count > b.warps.size() * 32)) {
        raise_fault(
            x, in, first, Fault::illegal_instruction, {},
            fmt::format("barrier thread count {} must be a non-zero multiple of 32 up to the block's {} "
                        "warps",
                        count, b.warps.size()));
        return;
    }
    if (x.launch->observer)
        notify(x, in, e, id, count,
               !Wait                  ? BarrierKind::arrive
               : Red == RedKind::none ? BarrierKind::sync
                                      : BarrierKind::red);
    BarrierState& bs = b.barriers[id];
    if (!bs.started) {
        bs.started = true;
        bs.expected = count / 32;
        bs.where = &in;
    }
    ++bs.arrived;
    if constexpr (Red != RedKind::none) {
        const uint32_t psrc = has_count ? 2 : 1;
        for_lanes(e, [&](uint32_t l) {
            const bool v = pred_src(x, in, static_cast<int>(psrc), l);
            bs.red_popc += v;
            bs.red_and = bs.red_and && v;
            bs.red_or = bs.red_or || v;
        });
        const uint8_t kind = Red == RedKind::popc ? 0 : Red == RedKind::and_ ? 1 : 2;
        bs.red_targets.push_back({x.warp->index, in.dst[0], e, kind});
    }
    if (Wait) {
        x.warp->state = WarpState::at_barrier;
        x.warp->barrier_id = id;
        bs.waiting.push_back(x.warp->index);
        x.stop = true;
    }
    if (complete(b, bs)) release(b, id);
}

// bar.warp.sync membermask: lanes of one warp already execute in lock step here; only the observer cares.
void warp_sync(Exec& x, const DInst& in, uint32_t e) {
    if (!x.launch->observer || !e) return;
    report_warp_sync(x, in, e, WarpSyncKind::bar_warp_sync, lanes_of(x, in.src[0]));
}

}  // namespace

void lanes_exited(Exec& x, const DInst& in, uint32_t lanes) {
    Warp& w = *x.warp;
    BlockContext& b = *x.block;
    const uint32_t all = w.lanes == 32 ? 0xffffffffu : (1u << w.lanes) - 1;
    const bool was_live = (w.exited & all) != all;
    lanes &= ~w.exited;
    w.exited |= lanes;
    cluster_lanes_exited(x, lanes);
    if (lanes && x.launch->observer) x.launch->observer->on_thread_exit(event_site(x, in), lanes);
    if (!was_live || (w.exited & all) != all) return;
    --b.live_warps;
    for (uint32_t id = 0; id < b.barriers.size(); ++id)
        if (b.barriers[id].started && b.barriers[id].expected == 0 && complete(b, b.barriers[id]))
            release(b, id);
}

Handler select_barrier(const ir::Instruction& inst, DInst& in, const SelectContext& ctx) {
    const auto& d = inst.d;
    if (inst.op == ir::Opcode::barrier && inst.has_mod("cluster"))
        return select_cluster_barrier(inst, in, ctx);
    const bool warp = inst.has_mod("warp");
    if (warp || d.bar == ir::BarMode::warp_sync) return &warp_sync;
    switch (d.bar) {
        case ir::BarMode::arrive:
            return &barrier<false, RedKind::none>;
        case ir::BarMode::red:  // bar.red.popc.u32 (atom), bar.red.and.pred / .or.pred (bop)
            if (d.atom == ir::AtomOp::popc) return &barrier<true, RedKind::popc>;
            if (d.bop == ir::BoolOp::and_ || d.atom == ir::AtomOp::and_) return &barrier<true, RedKind::and_>;
            if (d.bop == ir::BoolOp::or_ || d.atom == ir::AtomOp::or_) return &barrier<true, RedKind::or_>;
            return nullptr;
        default:
            return &barrier<true, RedKind::none>;  // bar.sync, bar (no suffix), barrier.sync
    }
}

}  // namespace warpsim::engine
