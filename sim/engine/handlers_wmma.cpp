// sim/engine/handlers_wmma.cpp — wmma.load.{a,b,c}, wmma.store.d and wmma.mma (sm_90's shapes m16n16k16,
// m32n8k16, m8n32k16 on f16/bf16/s8/u8 and m16n16k8 on tf32; f16, f32 and s32 accumulators).
//
// PTX leaves the fragment layouts unspecified; these are the H200's, read off tests/specs/wmma_probe_*.json
// (every element of every lane, both layouts, padded strides: all 36 fragments, 72 with both layouts, agree
// with fragment_element).
// They do not depend on the row/col qualifier: the layout only says how the matrix lies in memory. Each is
// built from mma.sync's m16n8 fragments (g = lane / 4, t = lane % 4):
//  * 16-bit A 16x16: element e at (g + 8 ((e / 2) % 2), 2t + e % 2 + 8 (e / 4)); 16-bit B 16x8 (k, n):
//    (2t + e % 2 + 8 ((e / 2) % 2), g); the accumulator 16x8: (g + 8 ((e / 2) % 2), 2t + e % 2);
//  * larger tiles take these in order, four (accumulator, B) or eight (A) elements per tile: m16n16 steps n
//  by
//    8, m32n8 steps m by 16; m8n32k16 is m32n8k16 transposed (its A is B's layout transposed, and so on);
//  * 8-bit A: (g + 8 (e / 4), 4t + e % 4) per 16-row tile, B: (4t + e % 4, g + 8 (e / 4));
//  * tf32 A 16x8: (g + 8 (e % 2), t + 4 (e / 2)); B 8x16: (t + 4 (e % 2), g + 8 (e / 2)).
// f16 A and B fragments always have 8 registers: a fragment with fewer distinct elements repeats them
// (element e holds element e mod the distinct count); loads fill every copy, wmma.mma reads the first.
//
// The sums: sim/arith/dot_sum.hpp, over all of K at once (HMMA.16816, as mma.sync m16n8k16), except for tf32:
// ptxas splits m16n16k8 into two k4 steps (HMMA.1684 twice), and the first step's f32 result, truncated, is
// the second's addend (tests/specs/wmma_tf32_m16n16k8.json matches only so; B's low 13 bits are ignored).
//
// Memory accesses follow what ptxas emits (SASS of tests/ptx/wmma.cu): one 32-bit access per register whose
// elements lie next to each other in memory, a transposed 32-bit access (LDG + MOVM) for a 16-bit register
// that does not, byte accesses for an 8-bit one that does not, and 64-bit accesses for pairs of adjacent
// 32-bit elements (the accumulator, row-major). Registers that repeat others are not loaded again.
#include <algorithm>
#include <array>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels_ir/forms/form.hpp"
#include "sim/arith/dot_sum.hpp"
#include "sim/engine/dispatch.hpp"
#include "sim/engine/handler_util.hpp"
#include "sim/engine/memory_access.hpp"

namespace warpsim::engine {

namespace {

enum class WShape : uint8_t { m16n16k16, m32n8k16, m8n32k16, m16n16k8 };
enum class WMat : uint8_t { a, b, c };
enum class WElem : uint8_t { f16, bf16, tf32, s8, u8, f32, s32 };

struct WShapeDims {
    uint32_t m, n, k;
};
constexpr std::array<WShapeDims, 4> kDims{{{16, 16, 16}, {32, 8, 16}, {8, 32, 16}, {16, 16, 8}}};

uint32_t elem_bits(WElem t) {
    switch (t) {
        case WElem::f16:
        case WElem::bf16:
            return 16;
        case WElem::s8:
        case WElem::u8:
            return 8;
        default:
            return 32;
    }
}

// One fragment: which matrix of which shape, its element type.
struct Frag {
    WShape shape = WShape::m16n16k16;
    WMat mat = WMat::a;
    WElem elem = WElem::f16;

    uint32_t rows() const { return mat == WMat::b ? kDims[idx()].k : kDims[idx()].m; }
    uint32_t cols() const { return mat == WMat::a ? kDims[idx()].k : kDims[idx()].n; }
    uint32_t distinct() const { return rows() * cols() / 32; }  // elements per lane, without repeats
    uint32_t regs() const {
        if (elem == WElem::f16 && mat != WMat::c) return 8;
        return distinct() * elem_bits(elem) / 32;
    }
    uint32_t elems() const { return regs() * 32 / elem_bits(elem); }
    std::size_t idx() const { return static_cast<std::size_t>(shape); }
};

using RC = std::pair<uint32_t, uint32_t>;

RC a16(uint32_t g, uint32_t t, uint32_t e) {
    return {g + 8 * ((e / 2) % 2), 2 * t + e % 2 + 8 * (e / 4)};
}
RC b16(uint32_t g, uint32_t t, uint32_t e) {
    return {2 * t + e % 2 + 8 * ((e / 2) % 2), g};
}
RC acc(uint32_t g, uint32_t t, uint32_t e) {
    return {g + 8 * ((e / 2) % 2), 2 * t + e % 2};
}
RC swap(RC p) {
    return {p.second, p.first};
}

// (row, col) of distinct element e (< f.distinct()) of lane `lane`; A is M x K, B is K x N, C is M x N.
RC fragment_element(const Frag& f, uint32_t lane, uint32_t e) {
    const uint32_t g = lane / 4, t = lane % 4;
    if (f.mat == WMat::c) {
        const RC p = acc(g, t, e % 4);
        switch (f.shape) {
            case WShape::m32n8k16:
                return {p.first + 16 * (e / 4), p.second};
            case WShape::m8n32k16:
                return {p.second, p.first + 16 * (e / 4)};
            default:
                return {p.first, p.second + 8 * (e / 4)};  // m16n16k16, m16n16k8
        }
    }
    if (f.elem == WElem::tf32)
        return f.mat == WMat::a ? RC{g + 8 * (e % 2), t + 4 * (e / 2)} : RC{t + 4 * (e % 2), g + 8 * (e / 2)};
    const bool a = f.mat == WMat::a;
    if (elem_bits(f.elem) == 8) {
        const uint32_t k = 4 * t + e % 4;
        switch (f.shape) {
            case WShape::m32n8k16:
                return a ? RC{g + 8 * ((e / 4) % 2) + 16 * (e / 8), k} : RC{k, g};
            case WShape::m8n32k16:
                return a ? RC{g, k} : RC{k, g + 8 * ((e / 4) % 2) + 16 * (e / 8)};
            default:
                return a ? RC{g + 8 * (e / 4), k} : RC{k, g + 8 * (e / 4)};
        }
    }
    switch (f.shape) {  // 16-bit elements
        case WShape::m32n8k16: {
            if (!a) return b16(g, t, e);
            const RC p = a16(g, t, e % 8);
            return {p.first + 16 * (e / 8), p.second};
        }
        case WShape::m8n32k16: {
            if (a) return swap(b16(g, t, e));
            const RC p = a16(g, t, e % 8);
            return {p.second, p.first + 16 * (e / 8)};
        }
        default: {
            if (a) return a16(g, t, e);
            const RC p = b16(g, t, e % 4);
            return {p.first, p.second + 8 * (e / 4)};
        }
    }
}

// ---- decoding the instruction ----------------------------------------------------------------------------

// The shape and element type of a WmmaForm as the engine's fragments know them; nullopt for the forms it does
// not execute (.m8n8k4 .f64, .m8n8k32 .s4/.u4, .m8n8k128 .b1).
std::optional<WShape> shape_of(const ir::MatrixShape& s) {
    if (s == ir::MatrixShape{16, 16, 16}) return WShape::m16n16k16;
    if (s == ir::MatrixShape{32, 8, 16}) return WShape::m32n8k16;
    if (s == ir::MatrixShape{8, 32, 16}) return WShape::m8n32k16;
    if (s == ir::MatrixShape{16, 16, 8}) return WShape::m16n16k8;
    return std::nullopt;
}

std::optional<WElem> elem_of(ir::Type t) {
    switch (t) {
        case ir::Type::f16:
            return WElem::f16;
        case ir::Type::bf16:
            return WElem::bf16;
        case ir::Type::tf32:
            return WElem::tf32;
        case ir::Type::s8:
            return WElem::s8;
        case ir::Type::u8:
            return WElem::u8;
        case ir::Type::f32:
            return WElem::f32;
        case ir::Type::s32:
            return WElem::s32;
        default:
            return std::nullopt;
    }
}

// Whether the element type fits the matrix and the shape (tf32 only on m16n16k8, which takes nothing else).
bool valid(const Frag& f) {
    const bool k8 = f.shape == WShape::m16n16k8;
    if (f.mat == WMat::c)
        return f.elem == WElem::f32 || (!k8 && (f.elem == WElem::f16 || f.elem == WElem::s32));
    if (f.elem == WElem::tf32) return k8;
    return !k8 &&
           (f.elem == WElem::f16 || f.elem == WElem::bf16 || f.elem == WElem::s8 || f.elem == WElem::u8);
}

struct MemOp {
    Frag f;
    bool col = false;  // column-major in memory
    bool store = false;
};

// The fragment a wmma.load / wmma.store moves, from its form; false for the forms the engine does not run.
bool mem_op_of(const ir::WmmaForm& wf, MemOp& op) {
    const auto shape = shape_of(wf.shape);
    const auto elem = elem_of(wf.type);
    if (wf.op == ir::WmmaOp::mma || !shape || !elem) return false;
    op.store = wf.op == ir::WmmaOp::store;
    op.f.shape = *shape;
    op.f.mat = wf.matrix == ir::WmmaMatrix::a ? WMat::a : wf.matrix == ir::WmmaMatrix::b ? WMat::b : WMat::c;
    op.f.elem = *elem;
    op.col = wf.layout == ir::MatrixLayout::col;
    return valid(op.f);
}

bool immediate(const ir::Operand& o) {
    return o.kind == ir::Operand::Kind::imm_int || o.kind == ir::Operand::Kind::imm_f32;
}

// The operand holding a value per lane: a register or an immediate (an f32 immediate's bits).
uint64_t operand_value(const Exec& x, const ir::Operand& o, uint32_t lane) {
    return o.kind == ir::Operand::Kind::reg ? x.R[std::size_t{o.reg} * 32 + lane]
                                            : static_cast<uint64_t>(o.imm);
}

// ---- wmma.load / wmma.store
// ----------------------------------------------------------------------------------

// The byte address of every distinct element of every lane (before any check).
struct ElementAddrs {
    std::array<std::array<uint64_t, 32>, 32> at{};  // at[e][lane]
    uint32_t n = 0;
};

// Stride: in elements between rows (row-major) or columns (column-major); without one, the matrix's own
// width.
ElementAddrs element_addresses(const Exec& x, const DInst& in, const MemOp& op, uint32_t exec) {
    const ir::Instruction& inst = *in.ir;
    constexpr std::size_t stride_arg = 2;
    const uint32_t esize = elem_bits(op.f.elem) / 8;
    ElementAddrs out;
    out.n = op.f.distinct();
    for (uint32_t l = 0; l < 32; ++l) {
        if (!((exec >> l) & 1)) continue;
        uint64_t base = in.addr_reg == kNone ? 0 : x.R[std::size_t{in.addr_reg} * 32 + l];
        base += static_cast<uint64_t>(in.offset);
        if (in.frame_relative)
            base += in.space == AddrSpace::local ? x.frame->local_base : x.frame->param_base;
        const uint64_t ld = inst.args.size() > stride_arg
                                ? static_cast<uint32_t>(operand_value(x, inst.args[stride_arg], l))
                                : (op.col ? op.f.rows() : op.f.cols());
        for (uint32_t e = 0; e < out.n; ++e) {
            const auto [r, c] = fragment_element(op.f, l, e);
            out.at[e][l] = base + (op.col ? c * ld + r : r * ld + c) * esize;
        }
    }
    return out;
}

// One warp-level memory instruction as ptxas would emit it: `width` bytes per lane at addr[lane].
struct Access {
    uint32_t width = 4;
    std::array<uint64_t, 32> addr{};
};

bool adjacent(const ElementAddrs& a, uint32_t e0, uint32_t count, uint32_t esize, uint32_t exec) {
    for (uint32_t l = 0; l < 32; ++l) {
        if (!((exec >> l) & 1)) continue;
        for (uint32_t i = 1; i < count; ++i)
            if (a.at[e0 + i][l] != a.at[e0][l] + i * esize) return false;
        if (a.at[e0][l] % (count * esize) != 0) return false;
    }
    return true;
}

std::vector<Access> plan_accesses(const ElementAddrs& a, const Frag& f, uint32_t exec) {
    std::vector<Access> out;
    const uint32_t bits = elem_bits(f.elem), esize = bits / 8;
    auto single = [&](uint32_t e, uint32_t width) {
        Access acc;
        acc.width = width;
        acc.addr = a.at[e];
        out.push_back(acc);
    };
    if (bits == 32) {
        for (uint32_t e = 0; e < a.n; ++e) {
            if (e % 2 == 0 && e + 1 < a.n && adjacent(a, e, 2, 4, exec)) {
                single(e, 8);
                ++e;
            } else {
                single(e, 4);
            }
        }
        return out;
    }
    const uint32_t per_reg = 32 / bits;
    for (uint32_t e = 0; e < a.n; e += per_reg) {
        if (adjacent(a, e, per_reg, esize, exec)) {
            single(e, 4);
        } else if (bits == 16) {
            // LDG/STG of the transposed 8x8 block and MOVM: the lanes together touch the same 64 elements,
            // lane l the l-th pair of them in address order.
            std::vector<uint64_t> all;
            for (uint32_t l = 0; l < 32; ++l)
                if ((exec >> l) & 1) all.push_back(a.at[e][l]), all.push_back(a.at[e + 1][l]);
            std::sort(all.begin(), all.end());
            Access acc;
            acc.width = 4;
            for (uint32_t l = 0, i = 0; l < 32; ++l)
                if ((exec >> l) & 1) acc.addr[l] = all[i] & ~uint64_t{3}, i += 2;
            out.push_back(acc);
        } else {
            for (uint32_t i = 0; i < per_reg; ++i) single(e + i, 1);
        }
    }
    return out;
}

void report_accesses(Exec& x, const DInst& in, const std::vector<Access>& plan, bool store, uint32_t exec) {
    const auto kind = store ? counts::AccessKind::store : counts::AccessKind::load;
    for (const Access& acc : plan) {
        AccessRecorder rec(x, in, kind, acc.width);
        for (uint32_t l = 0; l < 32; ++l) {
            if (!((exec >> l) & 1)) continue;
            LaneTarget t;
            if (!resolve_at(x, in, l, acc.addr[l], in.space, acc.width, kind, t)) return;
            rec.add(l, t);
        }
        rec.flush(x);
    }
}

template <bool Store>
void wmma_memory(Exec& x, const DInst& in, uint32_t exec) {
    if (!exec) return;
    MemOp op;
    mem_op_of(*ir::form_as<ir::WmmaForm>(*in.ir), op);  // the selector checked that it is one the engine runs
    const ElementAddrs a = element_addresses(x, in, op, exec);
    const uint32_t bits = elem_bits(op.f.elem), esize = bits / 8, per_reg = 32 / bits;
    const auto kind = Store ? counts::AccessKind::store : counts::AccessKind::load;
    const auto& regs = in.ir->args[Store ? 1 : 0].elems;
    const auto& masks = x.frame->code->reg_width_mask;
    // Every element is checked (and faults) before anything is written.
    std::array<std::array<uint8_t*, 32>, 32> ptr{};
    for (uint32_t l = 0; l < 32; ++l) {
        if (!((exec >> l) & 1)) continue;
        for (uint32_t e = 0; e < a.n; ++e) {
            LaneTarget t;
            if (!resolve_at(x, in, l, a.at[e][l], in.space, esize, kind, t)) return;
            ptr[e][l] = t.ptr;
        }
    }
    for (uint32_t l = 0; l < 32; ++l) {
        if (!((exec >> l) & 1)) continue;
        if constexpr (Store) {
            for (uint32_t e = 0; e < a.n; ++e) {
                const uint64_t v = operand_value(x, regs[e / per_reg], l) >> (bits * (e % per_reg));
                for (uint32_t b = 0; b < esize; ++b) ptr[e][l][b] = static_cast<uint8_t>(v >> (8 * b));
            }
        } else {
            for (uint32_t r = 0; r < regs.size(); ++r) {
                uint64_t v = 0;
                for (uint32_t s = 0; s < per_reg; ++s) {
                    const uint32_t e = (r * per_reg + s) % a.n;
                    uint64_t el = 0;
                    for (uint32_t b = 0; b < esize; ++b) el |= uint64_t{ptr[e][l][b]} << (8 * b);
                    v |= el << (bits * s);
                }
                if (regs[r].kind == ir::Operand::Kind::reg)
                    x.R[std::size_t{regs[r].reg} * 32 + l] = v & masks[regs[r].reg];
            }
        }
    }
    report_accesses(x, in, plan_accesses(a, op.f, exec), Store, exec);
}

Handler select_memory_op(const ir::Instruction& inst, const ir::WmmaForm& wf) {
    MemOp op;
    if (!mem_op_of(wf, op)) return nullptr;
    const bool store = op.store;
    const std::size_t frag_arg = store ? 1 : 0, addr_arg = store ? 0 : 1;
    if (inst.args.size() < 2 || inst.args.size() > 3) return nullptr;
    const ir::Operand& v = inst.args[frag_arg];
    if (v.kind != ir::Operand::Kind::vector || v.elems.size() != op.f.regs()) return nullptr;
    for (const auto& e : v.elems)
        if (e.kind != ir::Operand::Kind::reg && (!store || !immediate(e))) return nullptr;
    if (inst.args[addr_arg].kind != ir::Operand::Kind::address) return nullptr;
    const auto stride_kind = inst.args.size() == 3 ? inst.args[2].kind : ir::Operand::Kind::reg;
    if (stride_kind != ir::Operand::Kind::reg && stride_kind != ir::Operand::Kind::imm_int) return nullptr;
    return store ? &wmma_memory<true> : &wmma_memory<false>;
}

// ---- wmma.mma
// ----------------------------------------------------------------------------------------------

struct MmaOp {
    WShape shape = WShape::m16n16k16;
    WElem in = WElem::f16, c = WElem::f32, d = WElem::f32;
    bool sat = false;
};

// The operation of a wmma.mma from its form (whose decoder checked the ISA's type rules); false for the forms
// the engine does not run.
bool mma_op_of(const ir::WmmaForm& wf, MmaOp& op) {
    const auto shape = shape_of(wf.shape);
    const auto in = elem_of(wf.atype), c = elem_of(wf.ctype), d = elem_of(wf.dtype);
    if (wf.op != ir::WmmaOp::mma || !shape || !in || !c || !d) return false;
    op.shape = *shape;
    op.in = *in;
    op.c = *c;
    op.d = *d;
    op.sat = wf.satfinite;
    return valid(Frag{op.shape, WMat::a, op.in}) && valid(Frag{op.shape, WMat::c, op.c});
}

// Element e of lane l's fragment operand `arg` (raw bits).
uint32_t read_element(const Exec& x, const DInst& in, std::size_t arg, WElem t, uint32_t lane, uint32_t e) {
    const uint32_t bits = elem_bits(t), per_reg = 32 / bits;
    const uint64_t v = operand_value(x, in.ir->args[arg].elems[e / per_reg], lane) >> (bits * (e % per_reg));
    return static_cast<uint32_t>(bits == 32 ? v & 0xffffffffu : v & ((uint64_t{1} << bits) - 1));
}

template <class Fn>
void for_fragment(const Frag& f, Fn fn) {
    for (uint32_t l = 0; l < 32; ++l)
        for (uint32_t e = 0; e < f.distinct(); ++e) fn(l, e, fragment_element(f, l, e));
}

void wmma_mma(Exec& x, const DInst& in, uint32_t exec) {
    if (!exec) return;
    MmaOp op;
    mma_op_of(*ir::form_as<ir::WmmaForm>(*in.ir), op);  // the selector checked that it is one the engine runs
    const WShapeDims dm = kDims[static_cast<std::size_t>(op.shape)];
    std::vector<uint32_t> a(dm.m * dm.k), b(dm.n * dm.k), c(dm.m * dm.n);  // a[r][k], b[col][k], c[r][col]
    for_fragment(Frag{op.shape, WMat::a, op.in}, [&](uint32_t l, uint32_t e, RC p) {
        a[p.first * dm.k + p.second] = read_element(x, in, 1, op.in, l, e);
    });
    for_fragment(Frag{op.shape, WMat::b, op.in}, [&](uint32_t l, uint32_t e, RC p) {
        b[p.second * dm.k + p.first] = read_element(x, in, 2, op.in, l, e);
    });
    const Frag cf{op.shape, WMat::c, op.c};
    for_fragment(cf, [&](uint32_t l, uint32_t e, RC p) {
        c[p.first * dm.n + p.second] = read_element(x, in, 3, op.c, l, e);
    });
    std::vector<uint32_t> d(dm.m * dm.n);
    const bool integer = op.in == WElem::s8 || op.in == WElem::u8;
    const auto fmt = op.in == WElem::bf16   ? arith::DotFormat::bf16
                     : op.in == WElem::tf32 ? arith::DotFormat::tf32
                                            : arith::DotFormat::f16;
    const auto acc = [](WElem t) { return t == WElem::f16 ? arith::DotAcc::f16 : arith::DotAcc::f32; };
    for (uint32_t r = 0; r < dm.m; ++r)
        for (uint32_t col = 0; col < dm.n; ++col) {
            const std::span<const uint32_t> ar(&a[r * dm.k], dm.k), bc(&b[col * dm.k], dm.k);
            if (op.in == WElem::tf32) {  // two k4 steps, the first's f32 result the second's addend
                const uint32_t half = arith::dot_f32(ar.first(4), bc.first(4), fmt, c[r * dm.n + col]);
                d[r * dm.n + col] = arith::dot_f32(ar.subspan(4), bc.subspan(4), fmt, half);
                continue;
            }
            if (!integer) {
                d[r * dm.n + col] = arith::dot_acc(ar, bc, fmt, c[r * dm.n + col], acc(op.c), acc(op.d));
                continue;
            }
            int64_t s = static_cast<int32_t>(c[r * dm.n + col]);
            for (uint32_t k = 0; k < dm.k; ++k)
                s += op.in == WElem::s8 ? int64_t{static_cast<int8_t>(ar[k])} * static_cast<int8_t>(bc[k])
                                        : int64_t{ar[k]} * int64_t{bc[k]};
            if (op.sat) s = std::clamp<int64_t>(s, INT32_MIN, INT32_MAX);
            d[r * dm.n + col] = static_cast<uint32_t>(s);  // without .satfinite the sum wraps
        }
    // D: every register of every active lane (f16 results two to a register, the first in the low half).
    const Frag df{op.shape, WMat::c, op.d};
    const uint32_t bits = elem_bits(op.d), per_reg = 32 / bits;
    const auto& regs = in.ir->args[0].elems;
    std::array<std::array<uint64_t, 8>, 32> out{};
    for_fragment(df, [&](uint32_t l, uint32_t e, RC p) {
        out[l][e / per_reg] |= uint64_t{d[p.first * dm.n + p.second]} << (bits * (e % per_reg));
    });
    const auto& masks = x.frame->code->reg_width_mask;
    for_lanes(exec, [&](uint32_t l) {
        for (uint32_t r = 0; r < regs.size(); ++r)
            if (regs[r].kind == ir::Operand::Kind::reg)
                x.R[std::size_t{regs[r].reg} * 32 + l] = out[l][r] & masks[regs[r].reg];
    });
}

bool fragment_operand(const ir::Operand& o, std::size_t regs, bool dest) {
    if (o.kind != ir::Operand::Kind::vector || o.elems.size() != regs) return false;
    for (const auto& e : o.elems)
        if (e.kind != ir::Operand::Kind::reg && (dest || !immediate(e))) return false;
    return true;
}

// wmma.mma: the types come from the form, the fragments' sizes are checked here.
Handler select_mma_op(const ir::Instruction& inst, const ir::WmmaForm& wf) {
    MmaOp op;
    if (!mma_op_of(wf, op)) return nullptr;
    if (inst.args.size() != 4 ||
        !fragment_operand(inst.args[0], Frag{op.shape, WMat::c, op.d}.regs(), true) ||
        !fragment_operand(inst.args[1], Frag{op.shape, WMat::a, op.in}.regs(), false) ||
        !fragment_operand(inst.args[2], Frag{op.shape, WMat::b, op.in}.regs(), false) ||
        !fragment_operand(inst.args[3], Frag{op.shape, WMat::c, op.c}.regs(), false))
        return nullptr;
    return &wmma_mma;
}

}  // namespace

Handler select_wmma(const ir::Instruction& inst, DInst&, const SelectContext&) {
    const ir::WmmaForm* wf = ir::form_as<ir::WmmaForm>(inst);
    if (!wf) return nullptr;  // not a wmma instruction PTX has (the verifier says why)
    return wf->op == ir::WmmaOp::mma ? select_mma_op(inst, *wf) : select_memory_op(inst, *wf);
}

}  // namespace warpsim::engine
