// sim/engine/handlers_async.cpp — asynchronous copies and shared-memory barrier objects, executed
// synchronously: cp.async (ca/cg, 4/8/16 bytes, src-size zero fill) with commit/wait groups,
// cp.async.mbarrier.arrive, mbarrier.* (init/arrive/arrive_drop/expect_tx/complete_tx/test_wait/try_wait/
// inval/pending_count), cp.async.bulk global<->shared with complete_tx, and the no-op hints (griddepcontrol,
// setmaxnreg, createpolicy). Copying at issue time is one legal schedule of an asynchronous copy: every
// wait that the PTX memory model allows to complete then finds the data in place.
#include <fmt/format.h>
#include <algorithm>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "kernels_ir/forms/form.hpp"
#include "sim/engine/dispatch.hpp"
#include "sim/engine/handler_util.hpp"
#include "sim/engine/memory_access.hpp"

namespace warpsim::engine {

namespace {

// ---- cp.async [dst], [src], cp-size{, src-size} -----------------------------------------------------
void cp_async(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    const uint64_t *size = lanes_of(x, in.src[0]), *src_size = lanes_of(x, in.src[1]);
    const bool has_src_size = in.nsrc >= 2;
    const uint32_t first = static_cast<uint32_t>(std::countr_zero(e));
    const uint32_t n = static_cast<uint32_t>(size[first]);
    if (n != 4 && n != 8 && n != 16) {
        raise_fault(x, in, first, Fault::illegal_instruction, {},
                    fmt::format("cp.async copy size {} must be 4, 8 or 16", n));
        return;
    }
    AccessRecorder reads(x, in, counts::AccessKind::load, n), writes(x, in, counts::AccessKind::store, n);
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        LaneTarget dst, src;
        const uint32_t valid = has_src_size ? std::min<uint32_t>(n, static_cast<uint32_t>(src_size[l])) : n;
        if (!resolve_lane(x, in, l, n, counts::AccessKind::store, dst)) return;
        if (valid && !resolve_extra(x, in, in.more_addr[0], l, n, counts::AccessKind::load, src)) return;
        if (valid) reads.add(l, src);
        writes.add(l, dst);
        uint8_t buf[16] = {};
        if (valid) std::memcpy(buf, src.ptr, valid);  // bytes past src-size are zero-filled
        std::memcpy(dst.ptr, buf, n);
    }
    reads.flush(x);
    writes.flush(x);
}

void nop(Exec&, const DInst&, uint32_t) {}

// ---- mbarrier objects ---------------------------------------------------------------------------------
// The 8-byte object in shared memory holds (our encoding; the hardware's is opaque to PTX):
// bits 0..19 pending arrivals, 20..39 expected arrivals, 40..62 transaction count (signed), 63 phase.
struct MBar {
    uint32_t pending = 0, expected = 0;
    int32_t tx = 0;
    uint32_t phase = 0;
    static MBar load(const uint8_t* p) {
        uint64_t w;
        std::memcpy(&w, p, 8);
        MBar b;
        b.pending = w & 0xfffff;
        b.expected = (w >> 20) & 0xfffff;
        b.tx = static_cast<int32_t>(static_cast<uint32_t>(w >> 40) << 9) >> 9;
        b.phase = static_cast<uint32_t>(w >> 63);
        return b;
    }
    void store(uint8_t* p) const {
        const uint64_t w = uint64_t{pending & 0xfffff} | (uint64_t{expected & 0xfffff} << 20) |
                           (uint64_t{static_cast<uint32_t>(tx) & 0x7fffff} << 40) |
                           (uint64_t{phase & 1} << 63);
        std::memcpy(p, &w, 8);
    }
    // The phase completes when every expected arrival came and every expected transaction byte landed.
    void settle() {
        if (pending == 0 && tx == 0) {
            phase ^= 1;
            pending = expected;
        }
    }
};

enum class MOp : uint8_t {
    init,
    arrive,
    arrive_drop,
    expect_tx,
    complete_tx,
    test_wait,
    try_wait,
    inval,
    pending_count,
    cp_arrive
};

// Lanes act in lane order on their own (or a shared) barrier object; the state token returned by arrive is
// the phase parity it arrived in, which test_wait compares with the object's current phase.
template <MOp Op>
void mbarrier(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    if constexpr (Op == MOp::pending_count) {
        uint64_t* d = lanes_of(x, in.dst[0]);
        const uint64_t* st = lanes_of(x, in.src[0]);
        for_lanes(e, [&](uint32_t l) { d[l] = st[l] & 0xfffff; });
        return;
    }
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t* arg = lanes_of(x, in.src[0]);
    const bool has_arg = in.nsrc >= 1;
    const ir::MbarrierForm* form = ir::form_as<ir::MbarrierForm>(*in.ir);
    const ir::CpForm* cp_form = ir::form_as<ir::CpForm>(*in.ir);  // cp.async.mbarrier.arrive
    const bool parity = form && form->parity, expect_tx = form && form->expect_tx;
    const bool noinc = cp_form && cp_form->noinc;
    AccessRecorder rec(x, in, counts::AccessKind::atomic, 8);
    bool waiting = false;
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        LaneTarget t;
        if (!resolve_lane(x, in, l, 8, counts::AccessKind::atomic, t)) return;
        rec.add(l, t);
        MBar b = MBar::load(t.ptr);
        const uint32_t v = static_cast<uint32_t>(arg[l]);
        switch (Op) {
            case MOp::init:
                b = MBar{v, v, 0, 0};
                break;
            case MOp::inval:
                b = MBar{};
                break;
            case MOp::arrive:
            case MOp::arrive_drop: {
                d[l] = uint64_t{b.phase} << 63;
                if (expect_tx) b.tx += static_cast<int32_t>(v);
                const uint32_t count = has_arg && !expect_tx ? v : 1;
                b.pending -= std::min(b.pending, count);
                if (Op == MOp::arrive_drop) b.expected -= std::min(b.expected, count);
                b.settle();
                break;
            }
            case MOp::cp_arrive:  // without .noinc the increment and the copy-completion arrival cancel out
                if (noinc) {
                    b.pending -= std::min<uint32_t>(b.pending, 1);
                    b.settle();
                }
                break;
            case MOp::expect_tx:
                b.tx += static_cast<int32_t>(v);
                break;
            case MOp::complete_tx:
                b.tx -= static_cast<int32_t>(v);
                b.settle();
                break;
            default: {  // test_wait / try_wait: has the phase named by the token (or parity) completed?
                const uint32_t asked = parity ? (v & 1) : static_cast<uint32_t>(arg[l] >> 63);
                const bool done = b.phase != asked;
                d[l] = done;
                if (!done && !waiting) {
                    x.block->last_failed_wait = &in;
                    x.block->last_failed_wait_addr = t.addr;
                }
                waiting = waiting || !done;
                break;
            }
        }
        if (Op != MOp::test_wait && Op != MOp::try_wait) {
            b.store(t.ptr);
            ++x.block->mbarrier_updates;
        }
    }
    rec.flush(x);
    if constexpr (Op == MOp::test_wait || Op == MOp::try_wait) x.warp->wait_failed = waiting;
    // A try_wait that fails suspends the thread for a while on the GPU: end this warp's turn so that the
    // producers (other warps) run before it polls again.
    if (Op == MOp::try_wait && waiting) {
        x.warp->yield = true;
        x.stop = true;
    }
}

// What a bulk operation does besides its piece operation: its name for the size fault, how it accesses the
// destination, which side is global memory (reached through L2 by the TMA, not through the LSU) and whether
// it completes the transaction bytes of an mbarrier (its third memory operand).
struct BulkOp {
    std::string_view name;
    counts::AccessKind dst_kind = counts::AccessKind::store;
    MemoryKind dst_report = MemoryKind::write;
    bool global_dst = false;  // the destination is the global side; else the source may be
    bool completes_mbarrier = false;
};

// The per-lane loop of cp.async.bulk and cp.reduce.async.bulk: `size` bytes in 16-byte pieces (alignment
// and bounds checked per piece), each one handed to piece(dst, src); then the L2 transfer, the observer's
// two accesses and the mbarrier's complete_tx.
template <typename Piece>
void bulk_lanes(Exec& x, const DInst& in, uint32_t e, const BulkOp& op, Piece&& piece) {
    const uint64_t* size = lanes_of(x, in.src[0]);
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        const uint32_t n = static_cast<uint32_t>(size[l]);
        if (n % 16 != 0) {
            raise_fault(x, in, l, Fault::illegal_instruction, {},
                        fmt::format("{} size {} is not a multiple of 16", op.name, n));
            return;
        }
        for (uint32_t off = 0; off < n; off += 16) {
            LaneTarget dst, src;
            DInst at = in;
            at.offset += off;
            at.more_addr[0].offset += off;
            if (!resolve_lane(x, at, l, 16, op.dst_kind, dst)) return;
            if (!resolve_extra(x, at, at.more_addr[0], l, 16, counts::AccessKind::load, src)) return;
            piece(dst.ptr, src.ptr);
        }
        if (x.block->counters && n) {
            LaneTarget global;
            const bool ok = op.global_dst ? resolve_lane(x, in, l, 16, op.dst_kind, global)
                                          : resolve_extra(x, in, in.more_addr[0], l, 16,
                                                          counts::AccessKind::load, global);
            if (ok && global.space == counts::AccessSpace::global)
                x.block->counters->on_bulk_transfer(global.addr, n, op.global_dst);
        }
        if (x.launch->observer && n) {
            std::array<uint64_t, 32> a{};
            LaneTarget dst, src;
            resolve_lane(x, in, l, 16, op.dst_kind, dst);
            resolve_extra(x, in, in.more_addr[0], l, 16, counts::AccessKind::load, src);
            a[l] = src.addr;
            report_memory(x, in, MemoryKind::read, static_cast<MemorySpace>(src.space), n, 1u << l, a, true);
            a[l] = dst.addr;
            report_memory(x, in, op.dst_report, static_cast<MemorySpace>(dst.space), n, 1u << l, a, true);
        }
        if (op.completes_mbarrier && in.naddr >= 3) {  // complete_tx on the mbarrier: the bytes have landed
            LaneTarget mb;
            if (!resolve_extra(x, in, in.more_addr[1], l, 8, counts::AccessKind::atomic, mb)) return;
            MBar b = MBar::load(mb.ptr);
            b.tx -= static_cast<int32_t>(n);
            b.settle();
            b.store(mb.ptr);
            ++x.block->mbarrier_updates;
        }
    }
}

// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar] and
// cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size: one copy per executing lane.
template <bool ToShared>
void bulk_copy(Exec& x, const DInst& in, uint32_t e) {
    static constexpr BulkOp kOp{"cp.async.bulk", counts::AccessKind::store, MemoryKind::write, !ToShared,
                                ToShared};
    bulk_lanes(x, in, e, kOp, [](uint8_t* dst, const uint8_t* src) { std::memcpy(dst, src, 16); });
}

// The copies run at issue, so the group operations have nothing left to wait for. Tensor copies and
// prefetches are not executed.
Handler select_cp(const ir::Instruction& inst, const DInst& in) {
    const ir::CpForm* f = ir::form_as<ir::CpForm>(inst);
    if (!f) return nullptr;
    using C = ir::CpOp;
    switch (f->op) {
        case C::async_commit_group:
        case C::async_wait_group:
        case C::async_wait_all:
        case C::bulk_commit_group:
        case C::bulk_wait_group:
            return &nop;
        case C::async_mbarrier_arrive:
            return &mbarrier<MOp::cp_arrive>;
        case C::async_copy:
            return in.naddr == 2 ? &cp_async : nullptr;
        case C::bulk_copy:
            if (in.naddr < 2) return nullptr;
            return f->dst == ir::Space::global ? &bulk_copy<false> : &bulk_copy<true>;
        default:
            return nullptr;
    }
}

Handler select_mbarrier(const ir::Instruction& inst) {
    const ir::MbarrierForm* f = ir::form_as<ir::MbarrierForm>(inst);
    if (!f) return nullptr;
    using O = ir::MbarrierOp;
    switch (f->op) {
        case O::init:
            return &mbarrier<MOp::init>;
        case O::inval:
            return &mbarrier<MOp::inval>;
        case O::arrive:
            return &mbarrier<MOp::arrive>;
        case O::arrive_drop:
            return &mbarrier<MOp::arrive_drop>;
        case O::expect_tx:
            return &mbarrier<MOp::expect_tx>;
        case O::complete_tx:
            return &mbarrier<MOp::complete_tx>;
        case O::test_wait:
            return &mbarrier<MOp::test_wait>;
        case O::try_wait:
            return &mbarrier<MOp::try_wait>;
        case O::pending_count:
            return &mbarrier<MOp::pending_count>;
    }
    return nullptr;
}

// ---- cp.reduce.async.bulk.dst.src.completion.redOp.type [dst], [src], size{, [mbar]} --------------------
// Each element of the destination array becomes (destination op source), element by element, at issue (one
// legal schedule, as for bulk_copy); the .mbarrier::complete_tx::bytes form then completes `size` bytes of
// the mbarrier's transaction count. inc/dec are atom's: inc d = d >= s ? 0 : d + 1, dec d = d == 0 || d > s
// ? s : d - 1.
template <typename T>
T reduce_element(ir::AtomOp op, T d, T s) {
    using A = ir::AtomOp;
    switch (op) {
        case A::add:
            return static_cast<T>(d + s);  // unsigned types: wraps modulo 2^bits
        case A::min:
            return std::min(d, s);
        case A::max:
            return std::max(d, s);
        case A::inc:
            return d >= s ? T{0} : static_cast<T>(d + 1);
        case A::dec:
            return d == 0 || d > s ? s : static_cast<T>(d - 1);
        case A::and_:
            return d & s;
        case A::or_:
            return d | s;
        default:
            return d ^ s;
    }
}

template <typename T>
void reduce_piece(ir::AtomOp op, uint8_t* dst, const uint8_t* src) {
    for (uint32_t off = 0; off < 16; off += sizeof(T)) {
        T d, s;
        std::memcpy(&d, dst + off, sizeof(T));
        std::memcpy(&s, src + off, sizeof(T));
        // Signed add in the unsigned type: two's-complement wrap without signed overflow.
        if constexpr (std::is_signed_v<T>) {
            if (op == ir::AtomOp::add) {
                using U = std::make_unsigned_t<T>;
                d = static_cast<T>(static_cast<U>(d) + static_cast<U>(s));
                std::memcpy(dst + off, &d, sizeof(T));
                continue;
            }
        }
        d = reduce_element(op, d, s);
        std::memcpy(dst + off, &d, sizeof(T));
    }
}

using ReducePiece = void (*)(ir::AtomOp, uint8_t*, const uint8_t*);

// The integer element types (the ISA's table); floating-point reductions are not executed.
ReducePiece reduce_piece_for(ir::Type t) {
    using T = ir::Type;
    switch (t) {
        case T::b32:
        case T::u32:
            return &reduce_piece<uint32_t>;
        case T::s32:
            return &reduce_piece<int32_t>;
        case T::b64:
        case T::u64:
            return &reduce_piece<uint64_t>;
        case T::s64:
            return &reduce_piece<int64_t>;
        default:
            return nullptr;
    }
}

void bulk_reduce(Exec& x, const DInst& in, uint32_t e) {
    const ir::CpForm& f = *ir::form_as<ir::CpForm>(*in.ir);
    const ReducePiece piece_fn = reduce_piece_for(f.type);
    const BulkOp op{"cp.reduce.async.bulk", counts::AccessKind::atomic, MemoryKind::atomic,
                    f.dst == ir::Space::global, f.completion == ir::CpCompletion::mbarrier_complete_tx};
    const ir::AtomOp red = f.red;
    bulk_lanes(x, in, e, op, [piece_fn, red](uint8_t* dst, const uint8_t* src) { piece_fn(red, dst, src); });
}

Handler select_cp_reduce(const ir::Instruction& inst, const DInst& in) {
    const ir::CpForm* f = ir::form_as<ir::CpForm>(inst);
    if (!f || f->op != ir::CpOp::reduce_bulk || in.naddr < 2 || !reduce_piece_for(f->type)) return nullptr;
    if (f->completion == ir::CpCompletion::mbarrier_complete_tx && in.naddr < 3) return nullptr;
    return &bulk_reduce;
}

// createpolicy.fractional.L2::evict_last.b64 d, f: a cache policy the engine ignores (its value is opaque).
void createpolicy(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    for_lanes(e, [&](uint32_t l) { d[l] = 0x1000000000000000ull; });
}

}  // namespace

Handler select_async(const ir::Instruction& inst, DInst& in, const SelectContext&) {
    using O = ir::Opcode;
    switch (inst.op) {
        case O::cp:
            return select_cp(inst, in);
        case O::cp_reduce:
            return select_cp_reduce(inst, in);
        case O::mbarrier:
            return select_mbarrier(inst);
        case O::griddepcontrol:
        case O::setmaxnreg:
            return &nop;  // no dependent grids; registers are not modelled
        case O::createpolicy:
            return &createpolicy;
        default:
            return nullptr;
    }
}

}  // namespace warpsim::engine
