// sim/engine/handlers_barrier.cpp — bar/barrier .sync/.arrive/.red (with ids and thread counts) and
// bar.warp.sync. Arrivals count threads; a completed barrier releases its waiting warps.
#include <algorithm>
#include <fmt/format.h>

#include "sim/engine/dispatch.hpp"
#include "sim/engine/handler_util.hpp"

namespace warpsim::engine {

namespace {

enum class RedKind : uint8_t { none, popc, and_, or_ };

void release(BlockContext& b, BarrierState& bs, uint32_t id, RedKind red) {
    for (uint32_t wi : bs.waiting) {
        Warp& w = b.warps[wi];
        if (w.state == WarpState::at_barrier && w.barrier_id == id) w.state = WarpState::ready;
    }
    // bar.red: every participating warp gets the reduction in the destination it named.
    for (const auto& r : bs.red_targets) {
        Warp& w = b.warps[r.warp];
        uint64_t* d = w.frames.back().regs.data() + static_cast<std::size_t>(r.reg) * 32;
        const uint64_t v = red == RedKind::popc ? bs.red_popc : red == RedKind::and_ ? bs.red_and : bs.red_or;
        for_lanes(r.lanes, [&](uint32_t l) { d[l] = v; });
    }
    bs = BarrierState{};
}

template <bool Wait, RedKind Red>
void barrier(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    BlockContext& b = *x.block;
    const uint32_t first = static_cast<uint32_t>(std::countr_zero(e));
    const uint32_t id = static_cast<uint32_t>(x.R[in.src[0] * 32 + first]);
    const bool has_count = Red == RedKind::none ? in.nsrc >= 2 : in.nsrc >= 3;
    const uint32_t count = has_count ? static_cast<uint32_t>(x.R[in.src[1] * 32 + first]) : b.threads;
    if (id >= b.barriers.size()) {
        raise_fault(x, in, first, "cudaErrorIllegalInstruction", "an illegal instruction was encountered",
                    fmt::format("barrier id {} is out of range (0..15)", id));
        return;
    }
    if (has_count && (count == 0 || count % 32 != 0 || count > b.warps.size() * 32)) {
        raise_fault(x, in, first, "cudaErrorIllegalInstruction", "an illegal instruction was encountered",
                    fmt::format("barrier thread count {} must be a non-zero multiple of 32 up to the block's {} "
                                "warps", count, b.warps.size()));
        return;
    }
    BarrierState& bs = b.barriers[id];
    if (bs.expected == 0) {
        bs.expected = count;
        bs.where = &in;
    }
    bs.arrived += static_cast<uint32_t>(std::popcount(e));
    if constexpr (Red != RedKind::none) {
        const uint32_t psrc = has_count ? 2 : 1;
        for_lanes(e, [&](uint32_t l) {
            const bool v = pred_src(x, in, static_cast<int>(psrc), l);
            bs.red_popc += v;
            bs.red_and = bs.red_and && v;
            bs.red_or = bs.red_or || v;
        });
        bs.red_targets.push_back({x.warp->index, in.dst[0], e});
    }
    if (Wait) {
        x.warp->state = WarpState::at_barrier;
        x.warp->barrier_id = id;
        bs.waiting.push_back(x.warp->index);
        x.stop = true;
    }
    if (bs.arrived >= bs.expected) release(b, bs, id, Red);
}

void warp_sync(Exec&, const DInst&, uint32_t) {}

}  // namespace

Handler select_barrier(const ir::Instruction& inst, DInst&, const SelectContext&) {
    const auto& d = inst.d;
    const bool warp = std::find(inst.mods.begin(), inst.mods.end(), std::string("warp")) != inst.mods.end();
    if (warp || d.bar == ir::BarMode::warp_sync) return &warp_sync;
    switch (d.bar) {
    case ir::BarMode::arrive: return &barrier<false, RedKind::none>;
    case ir::BarMode::red:
        switch (d.atom) {
        case ir::AtomOp::popc: return &barrier<true, RedKind::popc>;
        case ir::AtomOp::and_: return &barrier<true, RedKind::and_>;
        case ir::AtomOp::or_: return &barrier<true, RedKind::or_>;
        default: return nullptr;
        }
    default: return &barrier<true, RedKind::none>;  // bar.sync, bar (no suffix), barrier.sync
    }
}

}  // namespace warpsim::engine
