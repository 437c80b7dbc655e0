// sim/engine/handlers_cluster.cpp — thread-block clusters: mapa and getctarank over shared::cluster addresses
// (memory/address_map.hpp), barrier.cluster.arrive/.wait (.relaxed, .aligned), what thread exits do to it,
// and the report of a cluster barrier that cannot complete.
//
// barrier.cluster (PTX ISA 9.7.13.3): every thread arrives once per phase; a wait returns when every
// non-exited thread of the cluster has arrived in the phase of the waiting thread's last arrival. Arrivals
// are counted per warp, as bar.sync's are here (handlers_barrier.cpp): a warp that executes the arrive with
// any of its lanes has arrived, and a warp whose lanes have all exited no longer holds a phase up. (Counting
// threads would deadlock `if (tid >= n) return; ... cluster.sync()`: the returning lanes of a divergent warp
// wait at the reconvergence point, not exited, while the others wait at the barrier.) A warp that waits
// without having arrived waits for a phase that needs its own arrival: a deadlock, reported as one.
#include <fmt/format.h>
#include <algorithm>

#include "sim/engine/cluster.hpp"
#include "sim/engine/handler_util.hpp"
#include "sim/memory/address_map.hpp"

namespace warpsim::engine {

namespace {

uint32_t cluster_ctas(const LaunchContext& L) {
    return L.cluster[0] * L.cluster[1] * L.cluster[2];
}

std::size_t warp_slot(const LaunchContext& L, uint32_t rank, uint32_t warp) {
    return std::size_t{rank} * L.warps_per_block + warp;
}

uint32_t live_lanes(const Warp& w) {
    const uint32_t all = w.lanes == 32 ? 0xffffffffu : (1u << w.lanes) - 1;
    return all & ~w.exited;
}

uint64_t live_warps(const ClusterContext& c) {
    uint64_t n = 0;
    for (const BlockContext* b : c.ctas)
        for (const Warp& w : b->warps) n += live_lanes(w) != 0;
    return n;
}

// A launch without clusters: the block is a cluster of one, made when it first uses barrier.cluster.
ClusterContext& cluster_of(BlockContext& b) {
    if (b.cluster) return *b.cluster;
    b.own_cluster = std::make_unique<ClusterContext>();
    ClusterContext& c = *b.own_cluster;
    c.ctas = {&b};
    c.arrived.assign(b.launch->warps_per_block, 0);
    c.pending = live_warps(c);
    b.cluster = &c;
    return c;
}

bool released(const ClusterContext& c, const LaunchContext& L, uint32_t rank, uint32_t warp) {
    const uint64_t a = c.arrived[warp_slot(L, rank, warp)];
    return a != 0 && a - 1 < c.phase;
}

// The current phase completes once no live warp is still to arrive: the waiting warps whose arrival was in
// a completed phase run again.
void complete_phase(ClusterContext& c, const LaunchContext& L) {
    if (c.pending != 0) return;
    ++c.phase;
    if (L.observer) L.observer->on_barrier_release(c.ctas.front()->index(), kClusterBarrierEvent);
    c.where = nullptr;
    c.pending = live_warps(c);
    std::erase_if(c.waiting, [&](const ClusterContext::Waiter& wt) {
        if (!released(c, L, wt.rank, wt.warp)) return false;
        Warp& w = c.ctas[wt.rank]->warps[wt.warp];
        if (w.state == WarpState::at_barrier && w.barrier_id == kClusterBarrierId) w.state = WarpState::ready;
        return true;
    });
}

static_assert(kClusterBarrierEvent == kClusterBarrierId, "observer and engine name barrier.cluster alike");

// The checkers see barrier.cluster as a BarrierEvent of id kClusterBarrierEvent (observer.hpp).
void notify_cluster_barrier(Exec& x, const DInst& in, uint32_t e, BarrierKind kind) {
    BarrierEvent ev;
    ev.site = event_site(x, in);
    ev.barrier = kClusterBarrierEvent;
    ev.arriving_mask = e;
    ev.live_mask = live_lanes(*x.warp);
    ev.kind = kind;
    ev.aligned = in.ir->has_mod("aligned");
    x.launch->observer->on_barrier(ev);
}

template <bool Arrive, bool Wait>
void cluster_barrier(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    const LaunchContext& L = *x.launch;
    ClusterContext& c = cluster_of(*x.block);
    const uint32_t rank = x.block->cluster_rank, warp = x.warp->index;
    if (L.observer) notify_cluster_barrier(x, in, e, Arrive ? BarrierKind::arrive : BarrierKind::sync);
    if constexpr (Arrive) {
        uint64_t& a = c.arrived[warp_slot(L, rank, warp)];
        if (a != c.phase + 1) {  // a second arrival in one phase (undefined in PTX) counts once
            a = c.phase + 1;
            --c.pending;
            complete_phase(c, L);
        }
    }
    if constexpr (Wait) {
        if (released(c, L, rank, warp)) return;
        x.warp->state = WarpState::at_barrier;
        x.warp->barrier_id = kClusterBarrierId;
        c.waiting.push_back({rank, warp, e});
        if (!c.where) c.where = &in;
        x.stop = true;
    }
}

// mapa: the address of the same shared-memory location in CTA `rank` of the cluster.
template <bool Generic>
void mapa(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t* a = lanes_of(x, in.src[0]);
    const uint64_t* r = lanes_of(x, in.src[1]);
    const uint32_t ctas = cluster_ctas(*x.launch);
    const uint64_t mask = in.type == ir::Type::u32 || in.type == ir::Type::b32 ? 0xffffffffull : ~0ull;
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        const uint64_t rank = r[l] & 0xffffffffull;
        if (rank >= ctas) {  // the H200 fails the launch (tests/specs/launch_error_mapa_rank.json)
            raise_fault(
                x, in, l, Fault::launch_failure, {},
                fmt::format(
                    "mapa to CTA rank {}, but the cluster has {} CTA{} (ranks 0..{}): the result would "
                    "name no CTA's shared memory; map to a rank below %cluster_nctarank",
                    rank, ctas, ctas == 1 ? "" : "s", ctas - 1));
            return;
        }
        uint64_t off = a[l];
        if (Generic) {
            if (memory::classify_generic(off) != memory::GenericSpace::shared) {
                raise_fault(
                    x, in, l, Fault::illegal_address, {},
                    fmt::format(
                        "mapa of the generic address 0x{:x}, which is not in shared memory: mapa maps "
                        "shared-memory addresses only (cvta.shared / __cvta_generic_to_shared)",
                        off));
                return;
            }
            off -= memory::kSharedWindow;
        }
        const uint64_t mapped =
            ((rank + 1) << memory::kClusterRankShift) | (off & (memory::kClusterRankStride - 1));
        d[l] = ((Generic ? memory::kSharedWindow : 0) + mapped) & mask;
    }
}

// getctarank: the %cluster_ctarank of the CTA whose shared memory holds the address.
template <bool Generic>
void getctarank(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t* a = lanes_of(x, in.src[0]);
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        uint64_t off = a[l];
        if (Generic) {
            if (memory::classify_generic(off) != memory::GenericSpace::shared) {
                raise_fault(
                    x, in, l, Fault::illegal_address, {},
                    fmt::format("getctarank of the generic address 0x{:x}, which is not in shared memory",
                                off));
                return;
            }
            off -= memory::kSharedWindow;
        }
        const uint64_t tag = off >> memory::kClusterRankShift;
        d[l] = tag ? tag - 1 : x.block->cluster_rank;
    }
}

}  // namespace

void cluster_lanes_exited(Exec& x, uint32_t lanes) {
    BlockContext& b = *x.block;
    const Warp& w = *x.warp;
    // Only the exit of a warp's last live lanes matters (arrivals are per warp).
    if (!b.cluster || !lanes || live_lanes(w) != 0) return;
    ClusterContext& c = *b.cluster;
    const LaunchContext& L = *x.launch;
    if (c.arrived[warp_slot(L, b.cluster_rank, w.index)] != c.phase + 1) --c.pending;
    complete_phase(c, L);
}

bool report_cluster_deadlock(BlockContext& b) {
    if (!b.cluster || b.cluster->waiting.empty()) return false;
    const ClusterContext& c = *b.cluster;
    const LaunchContext& L = *b.launch;
    uint64_t waiting = 0;
    for (const auto& w : c.waiting) waiting += static_cast<uint64_t>(std::popcount(w.lanes));
    std::string per_cta;
    for (uint32_t r = 0; r < c.ctas.size(); ++r) {
        const BlockContext& cta = *c.ctas[r];
        std::string missing, warps;
        for (const Warp& w : cta.warps) {
            if (live_lanes(w) && c.arrived[warp_slot(L, r, w.index)] != c.phase + 1)
                missing += fmt::format("{}{}", missing.empty() ? "" : ",", w.index);
            if (w.state == WarpState::at_barrier && w.barrier_id == kClusterBarrierId)
                warps += fmt::format("{}{}", warps.empty() ? "" : ",", w.index);
        }
        per_cta += fmt::format(
            "\n    CTA rank {} (block ({},{},{})): warps not arrived in this phase: {}; warps "
            "waiting: {}",
            r, cta.ctaid[0], cta.ctaid[1], cta.ctaid[2], missing.empty() ? "none" : missing,
            warps.empty() ? "none" : warps);
    }
    const auto cl = [&](int i) { return b.ctaid[i] / L.cluster[i]; };
    std::string details = fmt::format(
        "cluster barrier deadlock in cluster ({},{},{}) of {} CTA{}: {} threads wait at barrier.cluster.wait "
        "({}) "
        "for phase {}, which {} warps with non-exited threads never complete with barrier.cluster.arrive{}"
        "\n    on a GPU this kernel would hang; every non-exited thread of every CTA of the cluster must "
        "arrive "
        "(barrier.cluster.arrive, cluster.sync()) before a wait can return",
        cl(0), cl(1), cl(2), c.ctas.size(), c.ctas.size() == 1 ? "" : "s", waiting,
        source_line_text(L, c.where), c.phase, c.pending, per_cta);
    FaultDetails f;
    f.block = b.ctaid;
    if (c.where && c.where->ir) {
        f.ptx_line = c.where->ir->loc.ptx_line;
        f.cuda_location = cuda_location(L, c.where);
    }
    f.function = L.program->functions[L.kernel].fn->name;
    b.error = LaunchError(Fault::cluster_deadlock, details, f);
    return true;
}

Handler select_cluster(const ir::Instruction& inst, DInst& in, const SelectContext&) {
    const bool generic = inst.d.space != ir::Space::shared_cluster && inst.d.space != ir::Space::shared &&
                         inst.d.space != ir::Space::shared_cta;
    switch (inst.op) {
        case ir::Opcode::mapa:
            if (in.ndst != 1 || in.nsrc != 2) return nullptr;
            return generic ? &mapa<true> : &mapa<false>;
        case ir::Opcode::getctarank:
            if (in.ndst != 1 || in.nsrc != 1) return nullptr;
            return generic ? &getctarank<true> : &getctarank<false>;
        default:
            return nullptr;
    }
}

Handler select_cluster_barrier(const ir::Instruction& inst, DInst&, const SelectContext&) {
    if (inst.has_mod("arrive")) return &cluster_barrier<true, false>;
    if (inst.has_mod("wait")) return &cluster_barrier<false, true>;
    return nullptr;
}

}  // namespace warpsim::engine
