// sim/engine/handlers_warp.cpp — warp collectives over the executing lanes: shfl.sync (up/down/bfly/idx
// with clamp, segment mask and predicate), vote.sync, match.sync, activemask, redux.sync, elect.sync.
#include <algorithm>

#include "sim/arith/float_ops.hpp"
#include "sim/engine/dispatch.hpp"
#include "sim/engine/handler_util.hpp"

namespace warpsim::engine {

namespace {

// Member-mask operand position per collective (kNone: the form has none, e.g. the pre-sm_70 shfl/vote).
uint32_t member_src(const DInst& in) {
    return in.member_src == kNoMemberMask ? kNone : in.src[in.member_src];
}

void observe(Exec& x, const DInst& in, uint32_t e, WarpSyncKind kind) {
    if (!x.launch->observer || !e) return;
    const uint32_t m = member_src(in);
    report_warp_sync(x, in, e, kind, m == kNone ? nullptr : lanes_of(x, m));
}

// The lane a shfl lane reads, and whether that lane lies inside the lane's segment (PTX ISA, shfl.sync): b is
// the lane/offset operand, c packs the clamp value (bits 0-4) and the segment mask (bits 8-12).
template <ir::ShflMode Mode>
std::pair<uint32_t, bool> shfl_source(uint32_t lane, uint64_t b, uint64_t c) {
    const int32_t bval = static_cast<int32_t>(b & 31), cval = static_cast<int32_t>(c & 31);
    const int32_t seg = static_cast<int32_t>((c >> 8) & 31);
    const int32_t l = static_cast<int32_t>(lane);
    const int32_t max_lane = (l & seg) | (cval & ~seg), min_lane = l & seg;
    int32_t j = l;
    bool pval = false;
    switch (Mode) {
        case ir::ShflMode::up:
            j = l - bval;
            pval = j >= max_lane;
            break;
        case ir::ShflMode::down:
            j = l + bval;
            pval = j <= max_lane;
            break;
        case ir::ShflMode::bfly:
            j = l ^ bval;
            pval = j <= max_lane;
            break;
        default:
            j = min_lane | (bval & ~seg);
            pval = j <= max_lane;
            break;
    }
    return {static_cast<uint32_t>(pval ? j : l), pval};
}

template <ir::ShflMode Mode>
void shfl(Exec& x, const DInst& in, uint32_t e) {
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]), *c = lanes_of(x, in.src[2]);
    if (x.launch->observer && e) {
        WarpSyncEvent ev;
        for_lanes(e, [&](uint32_t lane) {
            const auto [j, in_range] = shfl_source<Mode>(lane, b[lane], c[lane]);
            ev.source_lane[lane] = static_cast<uint8_t>(j);
            ev.in_range_mask |= uint32_t{in_range} << lane;
        });
        const uint32_t m = member_src(in);
        report_warp_sync(x, in, e, WarpSyncKind::shfl, m == kNone ? nullptr : lanes_of(x, m), &ev);
    }
    uint64_t* d = lanes_of(x, in.dst[0]);
    uint64_t* p = lanes_of(x, in.dst[1]);
    uint64_t src[32];
    std::copy(a, a + 32, src);  // read every source before any lane writes (d may alias a)
    for_lanes(e, [&](uint32_t lane) {
        const auto [j, in_range] = shfl_source<Mode>(lane, b[lane], c[lane]);
        d[lane] = src[j] & 0xffffffffu;  // an inactive source lane gives its stale register value
        p[lane] = in_range;
    });
}

// The same with b and c known at decode (DInst::shfl_lanes): the source lanes are the same for every
// execution, and a full warp runs a plain loop over its lanes instead of scanning the mask. With an
// observer, the general handler (the registers hold the same values) reports the event.
template <ir::ShflMode Mode>
void shfl_known(Exec& x, const DInst& in, uint32_t e) {
    if (x.launch->observer) return shfl<Mode>(x, in, e);
    const uint64_t* a = lanes_of(x, in.src[0]);
    uint64_t* d = lanes_of(x, in.dst[0]);
    uint64_t* p = lanes_of(x, in.dst[1]);
    const uint64_t b = in.shfl_lanes & 31u, c = ((in.shfl_lanes >> 5) & 31u) | ((in.shfl_lanes >> 10) & 31u)
                                                                                   << 8;
    uint64_t src[32];
    std::copy(a, a + 32, src);  // read every source before any lane writes (d may alias a)
    const auto lane_body = [&](uint32_t lane) {
        const auto [j, in_range] = shfl_source<Mode>(lane, b, c);
        d[lane] = src[j] & 0xffffffffu;  // an inactive source lane gives its stale register value
        p[lane] = in_range;
    };
    if (e != 0xffffffffu) return for_lanes(e, lane_body);
    const uint32_t shift = static_cast<uint32_t>(b), clamp = static_cast<uint32_t>(c & 31);
    if ((c >> 8) == 0 && (Mode == ir::ShflMode::down || Mode == ir::ShflMode::up)) {
        // One segment of 32 lanes: down reads lane l + b for the lanes l <= clamp - b and its own lane
        // above; up reads lane l - b for the lanes l >= clamp + b and its own lane below. Two runs of
        // consecutive lanes each, copied in plain loops.
        if constexpr (Mode == ir::ShflMode::down) {
            const uint32_t moved = clamp >= shift ? clamp - shift + 1 : 0;
            for (uint32_t lane = 0; lane < moved; ++lane) {
                d[lane] = src[lane + shift] & 0xffffffffu;
                p[lane] = 1;
            }
            for (uint32_t lane = moved; lane < 32; ++lane) {
                d[lane] = src[lane] & 0xffffffffu;
                p[lane] = 0;
            }
        } else {
            const uint32_t first = std::min<uint32_t>(clamp + shift, 32);
            for (uint32_t lane = 0; lane < first; ++lane) {
                d[lane] = src[lane] & 0xffffffffu;
                p[lane] = 0;
            }
            for (uint32_t lane = first; lane < 32; ++lane) {
                d[lane] = src[lane - shift] & 0xffffffffu;
                p[lane] = 1;
            }
        }
        return;
    }
    for (uint32_t lane = 0; lane < 32; ++lane) lane_body(lane);
}

// Collectives with a member mask compute over the lanes their mask names: the executing lanes are split
// into groups of equal member-mask values (cooperative-groups tiles pass one mask per tile) and each group
// gets the result over (its mask & the executing lanes). Without a mask operand: one group, all executing.
template <class F>
void for_member_groups(Exec& x, const DInst& in, uint32_t e, F&& f) {
    const uint32_t ms = member_src(in);
    if (ms == kNone) return f(e, e);
    const uint64_t* m = lanes_of(x, ms);
    for (uint32_t rest = e; rest;) {
        const uint32_t mask = static_cast<uint32_t>(m[std::countr_zero(rest)]);
        uint32_t group = 0;
        for_lanes(rest, [&](uint32_t l) {
            if (static_cast<uint32_t>(m[l]) == mask) group |= 1u << l;
        });
        f(group, mask & e);
        rest &= ~group;
    }
}

template <ir::VoteMode Mode>
void vote(Exec& x, const DInst& in, uint32_t e) {
    if (x.launch->observer && e) {
        WarpSyncEvent ev;
        for_lanes(e, [&](uint32_t l) { ev.vote_true_mask |= uint32_t{pred_src(x, in, 0, l)} << l; });
        const uint32_t m = member_src(in);
        report_warp_sync(x, in, e, WarpSyncKind::vote, m == kNone ? nullptr : lanes_of(x, m), &ev);
    }
    uint64_t* d = lanes_of(x, in.dst[0]);
    for_member_groups(x, in, e, [&](uint32_t group, uint32_t domain) {
        uint32_t ballot = 0;
        for_lanes(domain, [&](uint32_t l) { ballot |= uint32_t{pred_src(x, in, 0, l)} << l; });
        uint64_t v = 0;
        switch (Mode) {
            case ir::VoteMode::all:
                v = ballot == domain;
                break;
            case ir::VoteMode::any:
                v = ballot != 0;
                break;
            case ir::VoteMode::uni:
                v = ballot == 0 || ballot == domain;
                break;
            default:
                v = ballot;
                break;
        }
        for_lanes(group, [&](uint32_t l) { d[l] = v; });
    });
}

template <bool All>
void match(Exec& x, const DInst& in, uint32_t e) {
    observe(x, in, e, WarpSyncKind::match);
    const uint64_t* a = lanes_of(x, in.src[0]);
    uint64_t* d = lanes_of(x, in.dst[0]);
    uint64_t* p = lanes_of(x, in.dst[1]);
    const uint64_t m = in.type == ir::Type::b64 ? ~0ull : 0xffffffffull;
    uint64_t av[32];
    std::copy(a, a + 32, av);  // d may alias a
    uint32_t res[32] = {}, same[32] = {};
    for_member_groups(x, in, e, [&](uint32_t group, uint32_t domain) {
        uint32_t same_all = domain;
        const uint32_t first = domain ? static_cast<uint32_t>(std::countr_zero(domain)) : 0;
        for_lanes(domain, [&](uint32_t l) {
            if ((av[l] & m) != (av[first] & m)) same_all = 0;
        });
        for_lanes(group, [&](uint32_t l) {
            uint32_t eq = 0;
            for_lanes(domain, [&](uint32_t k) {
                if ((av[k] & m) == (av[l] & m)) eq |= 1u << k;
            });
            res[l] = eq;
            same[l] = same_all;
        });
    });
    for_lanes(e, [&](uint32_t l) {
        d[l] = All ? same[l] : res[l];
        p[l] = same[l] != 0;
    });
}

void activemask(Exec& x, const DInst& in, uint32_t e) {
    observe(x, in, e, WarpSyncKind::activemask);
    uint64_t* d = lanes_of(x, in.dst[0]);
    for_lanes(e, [&](uint32_t l) { d[l] = e; });
}

template <ir::AtomOp Op, bool Signed>
void redux(Exec& x, const DInst& in, uint32_t e) {
    observe(x, in, e, WarpSyncKind::redux);
    const uint64_t* a = lanes_of(x, in.src[0]);
    uint64_t av[32];
    std::copy(a, a + 32, av);  // d may alias a
    uint64_t* d = lanes_of(x, in.dst[0]);
    for_member_groups(x, in, e, [&](uint32_t group, uint32_t domain) {
        uint64_t acc = 0;
        bool first = true;
        for_lanes(domain, [&](uint32_t l) {
            const uint32_t v = static_cast<uint32_t>(av[l]);
            if (first) {
                acc = v;
                first = false;
                return;
            }
            switch (Op) {
                case ir::AtomOp::add:
                    acc = static_cast<uint32_t>(acc + v);
                    break;
                case ir::AtomOp::min:
                    acc = Signed ? static_cast<uint32_t>(
                                       std::min(static_cast<int32_t>(acc), static_cast<int32_t>(v)))
                                 : std::min<uint64_t>(acc, v);
                    break;
                case ir::AtomOp::max:
                    acc = Signed ? static_cast<uint32_t>(
                                       std::max(static_cast<int32_t>(acc), static_cast<int32_t>(v)))
                                 : std::max<uint64_t>(acc, v);
                    break;
                case ir::AtomOp::and_:
                    acc &= v;
                    break;
                case ir::AtomOp::or_:
                    acc |= v;
                    break;
                default:
                    acc ^= v;
                    break;
            }
        });
        for_lanes(group, [&](uint32_t l) { d[l] = acc; });
    });
}

// redux.sync.{min,max}{.abs}{.NaN}.f32 (sm_100a): min/max over the member lanes with PTX's NaN rules.
template <bool Max>
void redux_f32(Exec& x, const DInst& in, uint32_t e) {
    observe(x, in, e, WarpSyncKind::redux);
    const uint64_t* a = lanes_of(x, in.src[0]);
    uint64_t av[32];
    std::copy(a, a + 32, av);
    uint64_t* d = lanes_of(x, in.dst[0]);
    const bool abs = in.ir->d.abs, nan = in.ir->d.nan;
    for_member_groups(x, in, e, [&](uint32_t group, uint32_t domain) {
        uint32_t acc = 0;
        bool first = true;
        for_lanes(domain, [&](uint32_t l) {
            const uint32_t v = static_cast<uint32_t>(av[l]) & (abs ? 0x7fffffffu : 0xffffffffu);
            acc = first ? v : Max ? arith::f32_max(acc, v, false, nan) : arith::f32_min(acc, v, false, nan);
            first = false;
        });
        for_lanes(group, [&](uint32_t l) { d[l] = acc; });
    });
}

void elect(Exec& x, const DInst& in, uint32_t e) {
    observe(x, in, e, WarpSyncKind::elect);
    uint64_t* d = lanes_of(x, in.dst[0]);
    uint64_t* p = lanes_of(x, in.dst[1]);
    const uint32_t leader = e ? static_cast<uint32_t>(std::countr_zero(e)) : 0;
    for_lanes(e, [&](uint32_t l) {
        d[l] = leader;
        p[l] = l == leader;
    });
    // With a single destination the predicate is dst[0].
    if (in.ndst == 1) for_lanes(e, [&](uint32_t l) { d[l] = l == leader; });
}

template <ir::AtomOp Op>
Handler redux_for(ir::Type t) {
    return ir::is_signed_int(t) ? &redux<Op, true> : &redux<Op, false>;
}

// Which source holds the member mask: the last one of the .sync forms (shfl.sync d|p, a, b, c, mask;
// vote.sync d, p, mask; match.sync d, a, mask; redux.sync d, a, mask; elect.sync d|p, mask).
void set_member_src(const ir::Instruction& inst, DInst& in) {
    const bool sync = inst.d.sync || inst.op == ir::Opcode::elect;
    const bool has = sync && in.nsrc > 0 && inst.op != ir::Opcode::activemask;
    in.member_src = has ? static_cast<uint8_t>(in.nsrc - 1u) : kNoMemberMask;
}

// Lanes parked on the kernel frame's reconvergence stack at an unguarded ret/exit, below the running entry:
// they have finished the kernel and wait only to reconverge (the engine retires them there; a GPU already
// has). Lanes of entries above an entry are still running towards it, so they do not count.
void leaving_lanes(const Warp& w, WarpSyncEvent& ev) {
    const Frame& kernel = w.frames.front();
    const auto& st = kernel.stack;
    uint32_t above = st.empty() ? 0 : st.back().mask;
    for (std::size_t i = st.size() - (st.empty() ? 0 : 1); i-- > 0;) {
        const StackEntry& entry = st[i];
        const uint32_t parked = entry.mask & ~above;
        above |= entry.mask;
        if (!parked || entry.pc >= kernel.code->code.size()) continue;
        const DInst& at = kernel.code->code[entry.pc];
        if (!at.ir || at.guard != kNone) continue;
        if (at.ir->op != ir::Opcode::ret && at.ir->op != ir::Opcode::exit) continue;
        if (!ev.leaving_mask || std::countr_zero(parked) < std::countr_zero(ev.leaving_mask))
            ev.leaving_pc = entry.pc;
        ev.leaving_mask |= parked;
    }
}

}  // namespace

void report_warp_sync(Exec& x, const DInst& in, uint32_t e, WarpSyncKind kind, const uint64_t* member,
                      WarpSyncEvent* filled) {
    WarpSyncEvent local;
    WarpSyncEvent& ev = filled ? *filled : local;
    ev.site = event_site(x, in);
    ev.kind = kind;
    ev.executing_mask = e;
    ev.active_mask = x.frame->stack.empty() ? e : x.frame->stack.back().mask;
    const uint32_t all = x.warp->lanes == 32 ? 0xffffffffu : (1u << x.warp->lanes) - 1;
    ev.live_mask = all & ~x.warp->exited;
    const uint32_t first = static_cast<uint32_t>(std::countr_zero(e));
    ev.member_mask = member ? static_cast<uint32_t>(member[first]) : e;
    for_lanes(e, [&](uint32_t l) {
        ev.member_masks[l] = member ? static_cast<uint32_t>(member[l]) : e;
        ev.member_mask_uniform &= ev.member_masks[l] == ev.member_mask;
    });
    leaving_lanes(*x.warp, ev);
    x.launch->observer->on_warp_sync(ev);
}

Handler shfl_with_known_lanes(const ir::Instruction& inst) {
    if (inst.op != ir::Opcode::shfl || ir::type_bytes(inst.d.type) != 4) return nullptr;
    switch (inst.d.shfl) {
        case ir::ShflMode::up:
            return &shfl_known<ir::ShflMode::up>;
        case ir::ShflMode::down:
            return &shfl_known<ir::ShflMode::down>;
        case ir::ShflMode::bfly:
            return &shfl_known<ir::ShflMode::bfly>;
        case ir::ShflMode::idx:
            return &shfl_known<ir::ShflMode::idx>;
        default:
            return nullptr;
    }
}

Handler select_warp(const ir::Instruction& inst, DInst& in, const SelectContext&) {
    using O = ir::Opcode;
    const auto& d = inst.d;
    set_member_src(inst, in);
    switch (inst.op) {
        case O::shfl:
            if (ir::type_bytes(d.type) != 4) return nullptr;
            switch (d.shfl) {
                case ir::ShflMode::up:
                    return &shfl<ir::ShflMode::up>;
                case ir::ShflMode::down:
                    return &shfl<ir::ShflMode::down>;
                case ir::ShflMode::bfly:
                    return &shfl<ir::ShflMode::bfly>;
                case ir::ShflMode::idx:
                    return &shfl<ir::ShflMode::idx>;
                default:
                    return nullptr;
            }
        case O::vote:
            switch (d.vote) {
                case ir::VoteMode::all:
                    return &vote<ir::VoteMode::all>;
                case ir::VoteMode::any:
                    return &vote<ir::VoteMode::any>;
                case ir::VoteMode::uni:
                    return &vote<ir::VoteMode::uni>;
                case ir::VoteMode::ballot:
                    return &vote<ir::VoteMode::ballot>;
                default:
                    return nullptr;
            }
        case O::match: {
            const bool all = inst.has_mod("all");
            return all ? &match<true> : &match<false>;
        }
        case O::activemask:
            return &activemask;
        case O::redux:
            if (d.type == ir::Type::f32 && d.atom == ir::AtomOp::min) return &redux_f32<false>;
            if (d.type == ir::Type::f32 && d.atom == ir::AtomOp::max) return &redux_f32<true>;
            if (ir::type_bytes(d.type) != 4 || ir::is_float(d.type)) return nullptr;
            switch (d.atom) {
                case ir::AtomOp::add:
                    return redux_for<ir::AtomOp::add>(d.type);
                case ir::AtomOp::min:
                    return redux_for<ir::AtomOp::min>(d.type);
                case ir::AtomOp::max:
                    return redux_for<ir::AtomOp::max>(d.type);
                case ir::AtomOp::and_:
                    return redux_for<ir::AtomOp::and_>(d.type);
                case ir::AtomOp::or_:
                    return redux_for<ir::AtomOp::or_>(d.type);
                case ir::AtomOp::xor_:
                    return redux_for<ir::AtomOp::xor_>(d.type);
                default:
                    return nullptr;
            }
        case O::elect:
            return &elect;
        default:
            (void)in;
            return nullptr;
    }
}

}  // namespace warpsim::engine
