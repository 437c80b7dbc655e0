// sim/engine/memory_access.cpp — address resolution and checking for every guest memory access.
#include "sim/engine/memory_access.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <bit>
#include <new>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "kernels_ir/forms/form.hpp"
#include "sim/engine/handler_util.hpp"
#include "sim/memory/address_map.hpp"

namespace warpsim::engine {

namespace {

const char* kind_word(counts::AccessKind k) {
    switch (k) {
        case counts::AccessKind::load:
            return "read";
        case counts::AccessKind::store:
            return "write";
        default:
            return "atomic";
    }
}

void out_of_bounds(Exec& x, const DInst& in, uint32_t lane, uint64_t addr, uint32_t width,
                   counts::AccessKind kind, const char* space, std::string where_text) {
    FaultDetails f;
    f.address = addr;
    f.access_bytes = width;
    f.space = space;
    f.access = kind_word(kind);
    std::string details = fmt::format("Invalid __{}__ {} of size {} bytes\n    Address 0x{:x} {}", space,
                                      kind_word(kind), width, addr, where_text);
    if (std::string_view(space) == "global") {
        f.nearest = x.launch->memory->nearest(addr);
        if (f.nearest.found) {
            const auto& n = f.nearest;
            if (n.distance >= 0)
                details += fmt::format(
                    "is out of bounds\n    and is {} bytes after the nearest allocation at 0x{:x} of size {} "
                    "bytes ({})",
                    n.distance, n.base, n.size, n.label);
            else
                details += fmt::format(
                    "is out of bounds\n    and is {} bytes before the nearest allocation at 0x{:x} of size "
                    "{} bytes ({})",
                    -n.distance, n.base, n.size, n.label);
            if (n.distance >= 0 && n.distance < 256)
                details +=
                    "\n    note: on a real GPU this access may go unnoticed (allocations are rounded up to "
                    "larger granules); warpsim checks the exact size that was allocated";
        } else {
            details += "is out of bounds (outside every allocation)";
        }
    }
    raise_fault(x, in, lane, Fault::illegal_address, {}, details, f);
}

// Whether the instruction names the shared::cluster window (ld/st/atom .shared::cluster, cp.async.bulk's
// shared::cluster destination, mbarrier ops on a remote CTA's barrier).
bool names_shared_cluster(const DInst& in) {
    if (!in.ir) return false;
    if (in.ir->d.space == ir::Space::shared_cluster) return true;
    return std::find(in.ir->mods.begin(), in.ir->mods.end(), "shared::cluster") != in.ir->mods.end();
}

// A shared::cluster address with a CTA rank in its upper bits (kClusterRankShift): that CTA's shared memory.
bool resolve_cluster_shared(Exec& x, const DInst& in, uint32_t lane, uint64_t addr, uint32_t width,
                            counts::AccessKind kind, LaneTarget& out) {
    const auto& cd = x.launch->cluster;
    const uint64_t ctas = uint64_t{cd[0]} * cd[1] * cd[2];
    const uint64_t rank = (addr >> memory::kClusterRankShift) - 1;
    const uint64_t off = addr & (memory::kClusterRankStride - 1);
    if (rank >= ctas) {
        out_of_bounds(
            x, in, lane, addr, width, kind, "shared",
            fmt::format("names the shared memory of CTA rank {}, but the cluster has {} CTA{} (ranks 0..{}): "
                        "map addresses with mapa to a rank below %cluster_nctarank",
                        rank, ctas, ctas == 1 ? "" : "s", ctas - 1));
        return false;
    }
    BlockContext* b = rank == x.block->cluster_rank ? x.block
                      : x.block->cluster            ? x.block->cluster->ctas[rank]
                                                    : nullptr;
    if (!b || off > b->shared.size() || width > b->shared.size() - off) {
        out_of_bounds(
            x, in, lane, addr, width, kind, "shared",
            fmt::format("is out of bounds: the shared window of CTA rank {} of the cluster ends at {}", rank,
                        b ? b->shared.size() : 0));
        return false;
    }
    out.ptr = b->shared.data() + off;
    out.remote_shared = true;
    return true;
}

}  // namespace

bool resolve_lane(Exec& x, const DInst& in, uint32_t lane, uint32_t width, counts::AccessKind kind,
                  LaneTarget& out) {
    uint64_t addr =
        (in.addr_reg == kNone ? 0 : x.R[in.addr_reg * 32 + lane]) + static_cast<uint64_t>(in.offset);
    if (in.frame_relative) addr += in.space == AddrSpace::local ? x.frame->local_base : x.frame->param_base;
    return resolve_at(x, in, lane, addr, in.space, width, kind, out);
}

bool resolve_extra(Exec& x, const DInst& in, const ExtraAddr& a, uint32_t lane, uint32_t width,
                   counts::AccessKind kind, LaneTarget& out) {
    uint64_t addr = (a.reg == kNone ? 0 : x.R[a.reg * 32 + lane]) + static_cast<uint64_t>(a.offset);
    if (a.frame_relative) addr += a.space == AddrSpace::local ? x.frame->local_base : x.frame->param_base;
    return resolve_at(x, in, lane, addr, a.space, width, kind, out);
}

bool resolve_at(Exec& x, const DInst& in, uint32_t lane, uint64_t addr, AddrSpace sp, uint32_t width,
                counts::AccessKind kind, LaneTarget& out) {
    const bool generic = sp == AddrSpace::generic;
    if (generic) {
        switch (memory::classify_generic(addr)) {
            case memory::GenericSpace::shared:
                sp = AddrSpace::shared;
                addr -= memory::kSharedWindow;
                break;
            case memory::GenericSpace::local:
                sp = AddrSpace::local;
                addr -= memory::kLocalWindow;
                break;
            case memory::GenericSpace::param:
                sp = AddrSpace::kernel_param;
                addr -= memory::kParamWindow;
                break;
            default:
                sp = AddrSpace::global;
        }
    }
    if (width > 1 && addr % width != 0) {
        FaultDetails f;
        f.address = addr;
        f.access_bytes = width;
        f.access = kind_word(kind);
        raise_fault(x, in, lane, Fault::misaligned_address, {},
                    fmt::format("Misaligned {} of size {} bytes\n    Address 0x{:x} is not a multiple of {}",
                                kind_word(kind), width, addr, width),
                    f);
        return false;
    }
    out.addr = addr;
    switch (sp) {
        case AddrSpace::global:
        case AddrSpace::const_: {
            out.space = sp == AddrSpace::const_ ? counts::AccessSpace::const_ : counts::AccessSpace::global;
            const memory::Allocation* al = x.last_alloc;
            if (!al || addr - al->base >= al->size) {
                al = x.launch->memory->find(addr);  // what DeviceMemory::translate and is_read_only look up
                if (al) x.last_alloc = al;
            }
            out.ptr = al && width <= al->size - (addr - al->base) ? al->bytes() + (addr - al->base) : nullptr;
            out.global_memory = true;
            if (!out.ptr) {
                out_of_bounds(x, in, lane, addr, width, kind, sp == AddrSpace::const_ ? "const" : "global",
                              "");
                return false;
            }
            if (kind != counts::AccessKind::load && al->read_only) {
                out_of_bounds(x, in, lane, addr, width, kind, "global", "lies in read-only .const data and ");
                return false;
            }
            return true;
        }
        case AddrSpace::shared: {
            out.space = counts::AccessSpace::shared;
            // Only a generic or shared::cluster access reads a CTA rank in the upper bits; for .shared
            // (::cta) an address at 16 MiB or above is out of the block's window like any other past its end.
            if (addr >= memory::kClusterRankStride && (generic || names_shared_cluster(in))) {
                return resolve_cluster_shared(x, in, lane, addr, width, kind, out);
            }
            auto& sh = x.block->shared;
            if (addr > sh.size() || width > sh.size() - addr) {
                out_of_bounds(
                    x, in, lane, addr, width, kind, "shared",
                    fmt::format(
                        "is out of bounds: the block's shared window ends at {} ({} bytes reserved by "
                        "the driver, then {} of the kernel's)",
                        sh.size(), x.launch->shared_base, sh.size() - x.launch->shared_base));
                return false;
            }
            out.ptr = sh.data() + addr;
            return true;
        }
        case AddrSpace::local: {
            out.space = counts::AccessSpace::local;
            auto& st = x.warp->local[lane];
            if (addr > st.size() || width > st.size() - addr) {
                out_of_bounds(
                    x, in, lane, addr, width, kind, "local",
                    fmt::format("is out of bounds: the thread's live local frames have {} bytes", st.size()));
                return false;
            }
            out.ptr = st.data() + addr;
            out.addr = memory::kLocalWindow + addr;
            return true;
        }
        case AddrSpace::kernel_param: {
            out.space = counts::AccessSpace::param;
            auto p = x.launch->params;
            if (kind != counts::AccessKind::load || addr > p.size() || width > p.size() - addr) {
                out_of_bounds(x, in, lane, addr, width, kind, "param",
                              fmt::format("is outside the kernel's {} bytes of parameters", p.size()));
                return false;
            }
            out.ptr = const_cast<uint8_t*>(p.data() + addr);  // loads only (checked above)
            return true;
        }
        case AddrSpace::frame_param: {
            out.space = counts::AccessSpace::param;
            auto& st = x.warp->params[lane];
            if (addr > st.size() || width > st.size() - addr) {
                out_of_bounds(x, in, lane, addr, width, kind, "param",
                              "is outside the call frame's parameters");
                return false;
            }
            out.ptr = st.data() + addr;
            return true;
        }
        default:
            break;
    }
    return false;
}

bool warp_buffer(Exec& x, const DInst& in, uint32_t exec, uint32_t width, counts::AccessKind kind,
                 WarpTarget& out) {
    AddrSpace sp = in.space;
    if (in.frame_relative || sp == AddrSpace::local || sp == AddrSpace::frame_param ||
        !std::has_single_bit(width) || exec == 0)
        return false;
    uint64_t offset = static_cast<uint64_t>(in.offset);
    const uint64_t first =
        (in.addr_reg == kNone ? 0
                              : x.R[static_cast<std::size_t>(in.addr_reg) * 32 + std::countr_zero(exec)]) +
        offset;
    if (sp == AddrSpace::generic) {
        // A generic shared address is seen as its offset in the window; a lane outside the window fails the
        // bounds check (windows are contiguous and allocations never overlap one).
        switch (memory::classify_generic(first)) {
            case memory::GenericSpace::shared:
                sp = AddrSpace::shared;
                offset -= memory::kSharedWindow;
                break;
            case memory::GenericSpace::global:
                sp = AddrSpace::global;
                break;
            default:
                return false;
        }
    }
    uint64_t size = 0;
    switch (sp) {
        case AddrSpace::global:
        case AddrSpace::const_: {
            const memory::Allocation* al = x.last_alloc;
            if (!al || first - al->base >= al->size) {
                al = x.launch->memory->find(first);
                if (!al) return false;
                x.last_alloc = al;
            }
            if (kind != counts::AccessKind::load && al->read_only) return false;
            out.space = sp == AddrSpace::const_ ? counts::AccessSpace::const_ : counts::AccessSpace::global;
            out.data = al->bytes();
            out.origin = al->base;
            size = al->size;
            break;
        }
        case AddrSpace::shared:
            // An address of another CTA's shared memory (shared::cluster) fails the bounds check: per-lane
            // path.
            out.space = counts::AccessSpace::shared;
            out.data = x.block->shared.data();
            out.origin = 0;
            size = x.block->shared.size();
            break;
        case AddrSpace::kernel_param:
            if (kind != counts::AccessKind::load) return false;
            out.space = counts::AccessSpace::param;
            out.data = const_cast<uint8_t*>(x.launch->params.data());  // loads only (checked above)
            out.origin = 0;
            size = x.launch->params.size();
            break;
        default:
            return false;
    }
    if (width > size) return false;
    out.offset = offset;
    out.limit = size - width;
    out.addr = x.block->warp_access.addr.data();
    return true;
}

bool resolve_warp(Exec& x, const DInst& in, uint32_t exec, uint32_t width, counts::AccessKind kind,
                  WarpTarget& out) {
    if (!warp_buffer(x, in, exec, width, kind, out)) return false;
    const uint64_t offset = out.offset, origin = out.origin, limit = out.limit;
    uint64_t* addr = out.addr;
    LaneChecks checks;
    if (in.addr_reg == kNone) {
        for_lanes(exec, [&](uint32_t l) { addr[l] = offset; });
        checks.add(offset - origin, limit);
    } else {
        const uint64_t* r = x.R + static_cast<std::size_t>(in.addr_reg) * 32;
#if defined(__SSE2__)
        if (exec == 0xffffffffu) {
            // A full warp two lanes per SSE2 instruction, the same sums as the loop below (which GCC's -O2
            // cost model leaves scalar): the address pass was a quarter of an ld.shared.
            const __m128i off = _mm_set1_epi64x(static_cast<long long>(offset));
            const __m128i org = _mm_set1_epi64x(static_cast<long long>(origin));
            const __m128i lim = _mm_set1_epi64x(static_cast<long long>(limit));
            __m128i bits = _mm_setzero_si128(), outside = _mm_setzero_si128();
            for (uint32_t l = 0; l < 32; l += 2) {
                const __m128i a =
                    _mm_add_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r + l)), off);
                _mm_storeu_si128(reinterpret_cast<__m128i*>(addr + l), a);
                const __m128i d = _mm_sub_epi64(a, org);
                bits = _mm_or_si128(bits, d);
                outside = _mm_or_si128(outside, _mm_sub_epi64(lim, d));
            }
            std::array<uint64_t, 2> b, o;
            _mm_storeu_si128(reinterpret_cast<__m128i*>(b.data()), bits);
            _mm_storeu_si128(reinterpret_cast<__m128i*>(o.data()), outside);
            checks.bits = b[0] | b[1];
            checks.outside = o[0] | o[1];
            return checks.ok(width);
        }
#endif
        for_lanes(exec, [&](uint32_t l) {
            const uint64_t a = r[l] + offset;
            addr[l] = a;
            checks.add(a - origin, limit);
        });
    }
    return checks.ok(width);
}

AccessFlags access_flags(const ir::Instruction& inst) {
    const auto& d = inst.d;
    AccessFlags f;
    f.valid = true;
    f.non_coherent = d.nc || inst.op == ir::Opcode::ldu;
    f.l1_cache_op = d.cache != ir::CacheOp::cg && d.cache != ir::CacheOp::cs && d.cache != ir::CacheOp::cv;
    f.combinable_atom = d.atom == ir::AtomOp::add || d.atom == ir::AtomOp::min || d.atom == ir::AtomOp::max ||
                        d.atom == ir::AtomOp::and_ || d.atom == ir::AtomOp::or_ || d.atom == ir::AtomOp::xor_;
    const ir::CpForm* cp = ir::form_as<ir::CpForm>(inst);
    f.async_copy = inst.op == ir::Opcode::cp && cp && !ir::is_bulk(cp->op);
    f.barrier_object = counts::is_barrier_object_op(inst);
    return f;
}

AccessHeader access_header(const AccessFlags& f, ir::Type type, counts::AccessKind kind,
                           uint32_t bytes_per_lane) {
    AccessHeader h;
    h.kind = kind;
    h.bytes_per_lane = static_cast<uint8_t>(bytes_per_lane);
    h.non_coherent = f.non_coherent;
    h.caches_in_l1 = kind == counts::AccessKind::load && f.l1_cache_op;
    // For the counts: a 32-bit integer add/min/max/and/or/xor atomic (REDUX can combine a warp's lanes), and
    // the shared-memory write of a (non-bulk) cp.async, which the H200 does not count as an LSU shared store.
    h.redux_op = bytes_per_lane == 4 && !ir::is_float(type) && f.combinable_atom;
    h.async_fill = kind == counts::AccessKind::store && f.async_copy;
    h.barrier_object = f.barrier_object;
    h.float_op = ir::is_float(type);
    return h;
}

AccessHeader access_header(const ir::Instruction& inst, ir::Type type, counts::AccessKind kind,
                           uint32_t bytes_per_lane) {
    return access_header(access_flags(inst), type, kind, bytes_per_lane);
}

AccessRecorder::AccessRecorder(const Exec& x, const DInst& in, counts::AccessKind kind,
                               uint32_t bytes_per_lane)
    : block_event_(&x.block->warp_access),
      header_(in.access.valid ? access_header(in.access, in.type, kind, bytes_per_lane)
                              : access_header(*in.ir, in.type, kind, bytes_per_lane)),
      in_(&in) {
    pc_ = in.pc;
    function_ = x.frame->code->index;
    warp_ = x.warp->index;
}

void AccessRecorder::fill_header(counts::WarpAccess& a, counts::AccessSpace space) const {
    a.space = space;
    a.kind = header_.kind;
    a.bytes_per_lane = header_.bytes_per_lane;
    a.pc = pc_;
    a.function = function_;
    a.warp = warp_;
    a.non_coherent = header_.non_coherent;
    a.caches_in_l1 = header_.caches_in_l1;
    a.redux_op = header_.redux_op;
    a.async_fill = header_.async_fill;
    a.barrier_object = header_.barrier_object;
    a.float_op = header_.float_op;
}

counts::WarpAccess& AccessRecorder::start(counts::AccessSpace space) {
    const auto s = static_cast<uint32_t>(space);
    if (!(used_ & (1u << s))) {
        fill_header(*new (&acc_[s].a) counts::WarpAccess(), space);
        used_ |= 1u << s;
    }
    return slot(s);
}

void AccessRecorder::add(uint32_t lane, const LaneTarget& t) {
    if (t.remote_shared) {
        remote_mask_ |= 1u << lane;
        remote_addr_[lane] = t.addr;
        return;
    }
    auto& a = start(t.space);
    a.active_mask |= 1u << lane;
    a.addr[lane] = t.addr;
}

void AccessRecorder::add_warp(uint32_t exec, const WarpTarget& t) {
    // The same event as a zeroed WarpAccess filled lane by lane: the header, the mask, the addresses
    // resolve_warp wrote for the lanes of `exec` and zero for the others.
    counts::WarpAccess& a = *block_event_;
    fill_header(a, t.space);
    a.active_mask = exec;
    if (exec != 0xffffffffu) for_lanes(~exec, [&](uint32_t l) { a.addr[l] = 0; });
    whole_ = &a;
    used_ = 1u << static_cast<uint32_t>(t.space);
}

void AccessRecorder::flush(Exec& x) {
    if (x.launch->observer) notify(x);
    if (!x.block->counters) return;
    for (uint32_t s = 0; s < 5; ++s)
        if (used_ & (1u << s)) x.block->counters->on_access(slot(s));
}

}  // namespace warpsim::engine

namespace warpsim::engine {

static_assert(static_cast<int>(MemorySpace::param) == static_cast<int>(counts::AccessSpace::param) &&
              static_cast<int>(MemorySpace::shared) == static_cast<int>(counts::AccessSpace::shared) &&
              static_cast<int>(MemorySpace::local) == static_cast<int>(counts::AccessSpace::local));

namespace {
bool is_async_copy_op(ir::Opcode op) {
    return op == ir::Opcode::cp || op == ir::Opcode::cp_reduce;
}

MemoryEvent base_event(const Exec& x, const DInst& in, MemoryKind kind, MemorySpace space,
                       uint32_t bytes_per_lane, uint32_t mask) {
    MemoryEvent ev;
    ev.site = event_site(x, in);
    ev.space = space;
    ev.kind = kind;
    ev.bytes_per_lane = bytes_per_lane;
    ev.active_mask = mask;
    const auto& d = in.ir->d;
    ev.sem = d.sem;
    ev.scope = d.scope;
    if (kind == MemoryKind::atomic) {
        ev.atomic_op = d.atom;
        const ir::MbarrierForm* mb = ir::form_as<ir::MbarrierForm>(*in.ir);
        const bool init = mb && mb->op == ir::MbarrierOp::init;
        ev.read_modify_write = d.atom != ir::AtomOp::exch && !init;
        ev.returns_value = in.ir->op == ir::Opcode::atom;
    }
    return ev;
}
}  // namespace

void AccessRecorder::notify(Exec& x) const {
    for (uint32_t s = 0; s < 5; ++s) {
        if (!(used_ & (1u << s))) continue;
        const auto& a = slot(s);
        const MemoryKind kind = a.kind == counts::AccessKind::load    ? MemoryKind::read
                                : a.kind == counts::AccessKind::store ? MemoryKind::write
                                                                      : MemoryKind::atomic;
        MemoryEvent ev =
            base_event(x, *in_, kind, static_cast<MemorySpace>(s), a.bytes_per_lane, a.active_mask);
        ev.addr = a.addr;
        ev.async = is_async_copy_op(in_->ir->op);
        x.launch->observer->on_memory(ev);
    }
    if (!remote_mask_) return;
    const MemoryKind kind = header_.kind == counts::AccessKind::load    ? MemoryKind::read
                            : header_.kind == counts::AccessKind::store ? MemoryKind::write
                                                                        : MemoryKind::atomic;
    MemoryEvent ev = base_event(x, *in_, kind, MemorySpace::shared, header_.bytes_per_lane, remote_mask_);
    for_lanes(remote_mask_, [&](uint32_t l) { ev.addr[l] = remote_addr_[l]; });
    ev.async = is_async_copy_op(in_->ir->op);
    x.launch->observer->on_memory(ev);
}

void report_memory(Exec& x, const DInst& in, MemoryKind kind, MemorySpace space, uint32_t bytes_per_lane,
                   uint32_t mask, const std::array<uint64_t, 32>& addr, bool async) {
    MemoryEvent ev = base_event(x, in, kind, space, bytes_per_lane, mask);
    ev.addr = addr;
    ev.async = async;
    x.launch->observer->on_memory(ev);
}

}  // namespace warpsim::engine
