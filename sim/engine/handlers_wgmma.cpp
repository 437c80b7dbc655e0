// sim/engine/handlers_wgmma.cpp — Hopper's warpgroup MMA (sm_90a): wgmma.mma_async.sync.aligned on
// m64nNk16 f16/bf16 -> f32, m64nNk8 tf32 -> f32 and m64nNk32 s8/u8 -> s32 (N = 8..256 in steps of 8), A from
// shared memory through a matrix descriptor or from registers, B through a descriptor; wgmma.fence,
// wgmma.commit_group and wgmma.wait_group.
//
// Each warp of the warpgroup (4 consecutive warps, the first a multiple of 4) owns 16 rows of A and of the
// accumulator D, and every warp reads all of B: a warp's part of the product depends on no other warp's
// registers, so the engine computes it when the warp issues the instruction. Completing at issue is one
// legal schedule of an asynchronous MMA: a program that waits (wgmma.wait_group) before reading the
// accumulators sees the same values. One that reads them earlier has undefined results on the GPU and sees
// the finished product here: the engine does not report that hazard (nor a missing wgmma.fence), a known
// limitation (docs/VALIDATION.md).
// The floating-point sums follow sim/arith/dot_sum.hpp (K = 16 / 8 products per instruction, one 25-bit
// window); tests/specs/wgmma_*.json measured on the H200 agree bit for bit.
#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "kernels_ir/forms/form.hpp"
#include "sim/arith/dot_sum.hpp"
#include "sim/engine/dispatch.hpp"
#include "sim/engine/handler_util.hpp"
#include "sim/engine/memory_access.hpp"
#include "sim/engine/wgmma_layout.hpp"

namespace warpsim::engine {

namespace wgmma {

MatrixDescriptor decode_descriptor(uint64_t bits) {
    MatrixDescriptor d;
    d.start = static_cast<uint32_t>(bits & 0x3fff) << 4;
    d.lbo = static_cast<uint32_t>((bits >> 16) & 0x3fff) << 4;
    d.sbo = static_cast<uint32_t>((bits >> 32) & 0x3fff) << 4;
    d.base_offset = static_cast<uint32_t>((bits >> 49) & 7);
    d.swizzle = static_cast<Swizzle>((bits >> 62) & 3);
    return d;
}

uint32_t swizzle_row_bytes(Swizzle s) {
    switch (s) {
        case Swizzle::b128:
            return 128;
        case Swizzle::b64:
            return 64;
        case Swizzle::b32:
            return 32;
        default:
            return 16;
    }
}

uint32_t swizzle_address(uint32_t addr, Swizzle s) {
    const uint32_t chunks = swizzle_row_bytes(s) / 16;  // 1 (none), 2, 4 or 8 sixteen-byte chunks per row
    return addr ^ (((addr >> 7) & (chunks - 1)) << 4);
}

uint32_t element_address(const MatrixDescriptor& d, bool mn_major, uint32_t element_bytes, uint32_t mn,
                         uint32_t k) {
    const uint32_t w = swizzle_row_bytes(d.swizzle);
    const bool swizzled = d.swizzle != Swizzle::none;
    uint32_t off;
    if (!mn_major) {
        const uint32_t kb = k * element_bytes;
        off = swizzled ? (mn % 8) * w + (mn / 8) * d.sbo + kb
                       : (mn % 8) * 16 + (mn / 8) * d.sbo + kb % 16 + (kb / 16) * d.lbo;
    } else {
        const uint32_t mb = mn * element_bytes;
        off = swizzled ? mb % w + (mb / w) * d.lbo + (k % 8) * w + (k / 8) * d.sbo
                       : mb % 16 + (mb / 16) * d.sbo + (k % 8) * 16 + (k / 8) * d.lbo;
    }
    return swizzle_address(d.start + off, d.swizzle);
}

RowCol accumulator_position(uint32_t thread, uint32_t reg) {
    const uint32_t lane = thread % 32;
    return {16 * (thread / 32) + lane / 4 + 8 * ((reg / 2) % 2), 8 * (reg / 4) + 2 * (lane % 4) + reg % 2};
}

RowCol a_fragment_position(uint32_t thread, uint32_t reg, uint32_t sub, uint32_t per_reg) {
    const uint32_t lane = thread % 32, k = 8 * per_reg;
    return {16 * (thread / 32) + lane / 4 + 8 * (reg % 2), (lane % 4) * per_reg + sub + (reg / 2) * (k / 2)};
}

}  // namespace wgmma

namespace {

using wgmma::MatrixDescriptor;

enum class Kind : uint8_t { f16, bf16, tf32, s8s8, s8u8, u8s8, u8u8 };

// One mma_async: N, the kind and .satfinite from the instruction's WgmmaForm (kernels_ir/forms/tensor.hpp),
// and what the selector read off the operands (DInst::wgmma: where A comes from, the scale and transpose
// immediates).
struct Config {
    uint32_t n = 0;
    Kind kind = Kind::f16;
    WgmmaOperands ops;
    bool satfinite = false;
    uint32_t element_bytes() const {
        return kind == Kind::tf32 ? 4 : kind == Kind::f16 || kind == Kind::bf16 ? 2 : 1;
    }
    uint32_t k() const { return 32 / element_bytes(); }
    bool is_int() const { return kind >= Kind::s8s8; }
};

// The kind of a dense mma_async the engine executes (f32 accumulators from f16/bf16/tf32, s32 from 8-bit
// integers), or nullopt.
std::optional<Kind> kind_of(const ir::WgmmaForm& f) {
    using T = ir::Type;
    if (f.dtype == T::f32 && f.atype == f.btype) {
        if (f.atype == T::f16) return Kind::f16;
        if (f.atype == T::bf16) return Kind::bf16;
        if (f.atype == T::tf32) return Kind::tf32;
    }
    const bool a8 = f.atype == T::s8 || f.atype == T::u8, b8 = f.btype == T::s8 || f.btype == T::u8;
    if (f.dtype != T::s32 || !a8 || !b8) return std::nullopt;
    const bool as = f.atype == T::s8, bs = f.btype == T::s8;
    return as ? (bs ? Kind::s8s8 : Kind::s8u8) : (bs ? Kind::u8s8 : Kind::u8u8);
}

// The form (N, kind, .satfinite) and the operands the selector read.
Config config_of(const ir::WgmmaForm& f, WgmmaOperands ops) {
    Config c;
    c.n = f.shape.n;
    c.kind = kind_of(f).value_or(Kind::f16);
    c.ops = ops;
    c.satfinite = f.satfinite;
    return c;
}

std::string spelled(const ir::Instruction& inst) {
    std::string s(ir::opcode_name(inst.op));
    for (const auto& m : inst.mods) s += "." + m;
    return s;
}

// The value of operand `arg` (or of element `i` of a {..} vector) in `lane`.
uint64_t operand(const Exec& x, const ir::Operand& o, uint32_t lane) {
    return o.kind == ir::Operand::Kind::reg ? x.R[std::size_t{o.reg} * 32 + lane]
                                            : static_cast<uint64_t>(o.imm);
}

void illegal(Exec& x, const DInst& in, uint32_t lane, const std::string& why) {
    raise_fault(x, in, lane, Fault::illegal_instruction, {},
                fmt::format("`{}` ({}): {}", spelled(*in.ir), ptx_location(x, in), why));
}

// .sync.aligned over a warpgroup: all 128 threads of the four warps must execute the same instruction. The
// engine runs warps one at a time, so it checks what it can see from this warp: every lane executes it and
// the block has the whole warpgroup. A warp of the group that takes another path (or exits) before the
// instruction is not detected: it cannot be told from one that already executed it and went on.
bool whole_warpgroup(Exec& x, const DInst& in, uint32_t e) {
    const uint32_t w = x.warp->index, first = w / 4 * 4;
    const std::string group = fmt::format("the warpgroup of warps {}..{} (threads {}..{} of the block)",
                                          first, first + 3, 32 * first, 32 * first + 127);
    if (e != 0xffffffffu || x.warp->lanes != 32) {
        illegal(x, in, e ? static_cast<uint32_t>(std::countr_zero(e)) : 0,
                fmt::format(
                    "all 128 threads of {} must execute it, but only lanes with mask {:#010x} of warp {} do "
                    "(a divergent branch or a guard around a warpgroup instruction)",
                    group, e, w));
        return false;
    }
    const auto& warps = x.block->warps;
    if (warps.size() < first + 4 || warps[first + 3].lanes != 32) {
        illegal(x, in, 0,
                fmt::format("{} is incomplete: the block has {} threads; wgmma needs blocks whose size "
                            "is a multiple of 128 threads",
                            group, x.block->threads));
        return false;
    }
    return true;
}

// A descriptor operand: the same value in every lane (the PTX ISA requires it across the warpgroup).
bool uniform_descriptor(Exec& x, const DInst& in, std::size_t arg, const char* which, uint64_t& out) {
    const ir::Operand& o = in.ir->args[arg];
    out = operand(x, o, 0);
    for (uint32_t l = 1; l < 32; ++l)
        if (operand(x, o, l) != out) {
            illegal(
                x, in, l,
                fmt::format("the {} descriptor differs between lanes (lane 0 {:#018x}, lane {} {:#018x}); "
                            "it must be the same in every thread of the warpgroup",
                            which, out, l, operand(x, o, l)));
            return false;
        }
    const MatrixDescriptor d = wgmma::decode_descriptor(out);
    if (d.base_offset != 0) {
        raise_fault(
            x, in, 0, Fault::not_supported,
            fmt::format("warpsim does not model the matrix-descriptor base offset yet ({})",
                        ptx_location(x, in)),
            fmt::format("the {} descriptor {:#018x} has base offset {} (bits 49-51); warpsim reads tiles "
                        "whose swizzle pattern starts at a multiple of its repeat (base offset 0)",
                        which, out, d.base_offset));
        return false;
    }
    return true;
}

// Reads an operand tile of rows x K elements (raw bits) through a descriptor; false after a fault. With an
// observer, `chunks` collects the 16-byte chunks read (the layouts read whole chunks).
bool read_tile(Exec& x, const DInst& in, const MatrixDescriptor& d, bool mn_major, const Config& c,
               uint32_t row0, uint32_t rows, const char* which, std::vector<uint32_t>& out,
               std::vector<uint32_t>& chunks) {
    const std::vector<uint8_t>& sh = x.block->shared;
    const uint32_t eb = c.element_bytes(), k = c.k();
    out.assign(std::size_t{rows} * k, 0);
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t kk = 0; kk < k; ++kk) {
            const uint32_t a = wgmma::element_address(d, mn_major, eb, row0 + r, kk);
            if (std::size_t{a} + eb > sh.size()) {
                raise_fault(
                    x, in, 0, Fault::illegal_address, {},
                    fmt::format(
                        "`{}` reads {} element ({}, {}) at shared address {:#x} through its descriptor "
                        "(start {:#x}, LBO {}, SBO {}, swizzle {} bytes), past the block's {} bytes of "
                        "shared memory",
                        spelled(*in.ir), which, row0 + r, kk, a, d.start, d.lbo, d.sbo,
                        d.swizzle == wgmma::Swizzle::none ? 0 : wgmma::swizzle_row_bytes(d.swizzle),
                        sh.size()));
                return false;
            }
            uint32_t v = 0;
            std::memcpy(&v, sh.data() + a, eb);  // little-endian host, like the device
            out[std::size_t{r} * k + kk] = v;
            if (x.launch->observer) chunks.push_back(a & ~15u);
        }
    return true;
}

// Tells the checkers (racecheck, initcheck) which shared memory the warp's MMA read, as plain reads: one
// event per 32 chunks of 16 bytes, whose "lanes" are chunk slots rather than threads. A tile written by other
// warps without a barrier before the wgmma is then a race. (fence.proxy.async is not checked.)
void report_tile_reads(Exec& x, const DInst& in, std::vector<uint32_t>& chunks) {
    std::sort(chunks.begin(), chunks.end());
    chunks.erase(std::unique(chunks.begin(), chunks.end()), chunks.end());
    for (std::size_t i = 0; i < chunks.size(); i += 32) {
        std::array<uint64_t, 32> addr{};
        uint32_t mask = 0;
        for (std::size_t j = 0; j < 32 && i + j < chunks.size(); ++j) {
            addr[j] = chunks[i + j];
            mask |= 1u << j;
        }
        report_memory(x, in, MemoryKind::read, MemorySpace::shared, 16, mask, addr, false);
    }
}

uint32_t negate(uint32_t v, Kind kind) {
    return v ^ (kind == Kind::tf32 ? 0x80000000u : 0x8000u);
}

int64_t int_element(uint32_t v, bool is_signed) {
    return is_signed ? int64_t{static_cast<int8_t>(v)} : int64_t{v & 0xff};
}

void mma_async(Exec& x, const DInst& in, uint32_t e) {
    if (!e || !whole_warpgroup(x, in, e)) return;
    const Config c = config_of(*ir::form_as<ir::WgmmaForm>(*in.ir), in.wgmma);
    const auto& args = in.ir->args;
    const uint32_t n = c.n, k = c.k(), quarter = x.warp->index % 4;
    // A: this warp's 16 rows; B: all N columns (B[n][k]).
    std::vector<uint32_t> a, b, chunks;
    if (c.ops.a_regs) {
        const uint32_t per_reg = 4 / c.element_bytes(), bits = 32 / per_reg;
        const uint64_t emask = bits == 32 ? 0xffffffffull : (1ull << bits) - 1;
        a.assign(std::size_t{16} * k, 0);
        for (uint32_t l = 0; l < 32; ++l)
            for (uint32_t j = 0; j < 4; ++j) {
                const uint64_t v = operand(x, args[1].elems[j], l);
                for (uint32_t s = 0; s < per_reg; ++s) {
                    const auto p = wgmma::a_fragment_position(l, j, s, per_reg);
                    a[std::size_t{p.row} * k + p.col] = static_cast<uint32_t>((v >> (bits * s)) & emask);
                }
            }
    } else {
        uint64_t bits = 0;
        if (!uniform_descriptor(x, in, 1, "A", bits)) return;
        if (!read_tile(x, in, wgmma::decode_descriptor(bits), c.ops.trans_a, c, 16 * quarter, 16, "A", a,
                       chunks))
            return;
    }
    uint64_t bdesc = 0;
    if (!uniform_descriptor(x, in, 2, "B", bdesc)) return;
    if (!read_tile(x, in, wgmma::decode_descriptor(bdesc), c.ops.trans_b, c, 0, n, "B", b, chunks)) return;
    if (x.launch->observer) report_tile_reads(x, in, chunks);
    if (c.ops.neg_a)
        for (auto& v : a) v = negate(v, c.kind);
    if (c.ops.neg_b)
        for (auto& v : b) v = negate(v, c.kind);

    const ir::Operand& scale_d = args[3];
    const bool accumulate =
        scale_d.negated ? !(operand(x, scale_d, 0) & 1) : (operand(x, scale_d, 0) & 1) != 0;
    const auto& dregs = args[0].elems;
    std::vector<uint32_t> acc(std::size_t{16} * n, 0);  // this warp's rows of C, then of D
    if (accumulate)
        for (uint32_t l = 0; l < 32; ++l)
            for (uint32_t i = 0; i < n / 2; ++i) {
                const auto p = wgmma::accumulator_position(l, i);
                acc[std::size_t{p.row} * n + p.col] = static_cast<uint32_t>(operand(x, dregs[i], l));
            }
    using F = arith::DotFormat;
    const F fmt = c.kind == Kind::bf16 ? F::bf16 : c.kind == Kind::tf32 ? F::tf32 : F::f16;
    const bool as = c.kind == Kind::s8s8 || c.kind == Kind::s8u8,
               bs = c.kind == Kind::s8s8 || c.kind == Kind::u8s8;
    for (uint32_t r = 0; r < 16; ++r)
        for (uint32_t col = 0; col < n; ++col) {
            uint32_t& d = acc[std::size_t{r} * n + col];
            const std::span<const uint32_t> ar(a.data() + std::size_t{r} * k, k),
                br(b.data() + std::size_t{col} * k, k);
            if (!c.is_int()) {
                d = arith::dot_f32(ar, br, fmt, d);
                continue;
            }
            int64_t s = static_cast<int32_t>(d);
            for (uint32_t kk = 0; kk < k; ++kk) s += int_element(ar[kk], as) * int_element(br[kk], bs);
            if (c.satfinite) s = std::clamp<int64_t>(s, INT32_MIN, INT32_MAX);
            d = static_cast<uint32_t>(s);  // without .satfinite the sum wraps
        }
    const auto& masks = x.frame->code->reg_width_mask;
    for (uint32_t l = 0; l < 32; ++l)
        for (uint32_t i = 0; i < n / 2; ++i) {
            if (dregs[i].kind != ir::Operand::Kind::reg) continue;
            const auto p = wgmma::accumulator_position(l, i);
            x.R[std::size_t{dregs[i].reg} * 32 + l] =
                acc[std::size_t{p.row} * n + p.col] & masks[dregs[i].reg];
        }
}

// wgmma.fence / commit_group / wait_group: every MMA has completed at issue, so there is nothing to order or
// wait for; they still must be executed by the whole warpgroup.
void warpgroup_sync(Exec& x, const DInst& in, uint32_t e) {
    if (e) whole_warpgroup(x, in, e);
}

// An immediate operand, or nullopt.
std::optional<int64_t> immediate(const ir::Instruction& inst, std::size_t i) {
    if (i >= inst.args.size() || inst.args[i].kind != ir::Operand::Kind::imm_int) return std::nullopt;
    return inst.args[i].imm;
}

bool vector_of_regs(const ir::Operand& o, std::size_t size) {
    if (o.kind != ir::Operand::Kind::vector || o.elems.size() != size) return false;
    return std::all_of(o.elems.begin(), o.elems.end(),
                       [](const ir::Operand& e) { return e.kind == ir::Operand::Kind::reg; });
}

bool scalar_source(const ir::Operand& o) {
    return o.kind == ir::Operand::Kind::reg || o.kind == ir::Operand::Kind::imm_int;
}

// wgmma.mma_async.sync.aligned.shape{.satfinite}.dtype.atype.btype d, a(-desc), b-desc, scale-d{, imms};
// The form's shape and types are checked by the verifier (kernels_ir/forms/tensor.cpp); here only what the
// engine runs: dense, .sync.aligned, f32 or s32 accumulators.
Handler select_mma_async(const ir::Instruction& inst, const ir::WgmmaForm& f, DInst& in) {
    if (!f.aligned || f.sparse) return nullptr;
    const auto kind = kind_of(f);
    if (!kind) return nullptr;
    Config c;
    c.kind = *kind;
    c.n = f.shape.n;
    const auto& args = inst.args;
    if (args.size() < 4 || !vector_of_regs(args[0], c.n / 2) || !scalar_source(args[2]) ||
        !scalar_source(args[3]))
        return nullptr;
    const bool a_regs = args[1].kind == ir::Operand::Kind::vector;
    if (a_regs ? !vector_of_regs(args[1], 4) : !scalar_source(args[1])) return nullptr;
    WgmmaOperands ops;
    ops.a_regs = a_regs;
    if (f.satfinite && !c.is_int()) return nullptr;
    // Immediates after scale-d: floating point imm-scale-a, imm-scale-b, then imm-trans-a (A from shared
    // memory only) and imm-trans-b (f16/bf16 only); integer forms have none.
    const bool transposable = c.kind == Kind::f16 || c.kind == Kind::bf16;
    const std::size_t want = c.is_int() ? 4 : 6 + (transposable ? (a_regs ? 1 : 2) : 0);
    if (args.size() != want) return nullptr;
    std::size_t at_imm = 4;
    if (!c.is_int()) {
        const auto sa = immediate(inst, at_imm++), sb = immediate(inst, at_imm++);
        if (!sa || !sb || (*sa != 1 && *sa != -1) || (*sb != 1 && *sb != -1)) return nullptr;
        ops.neg_a = *sa == -1;
        ops.neg_b = *sb == -1;
    }
    if (transposable) {
        if (!a_regs) {
            const auto ta = immediate(inst, at_imm++);
            if (!ta || (*ta != 0 && *ta != 1)) return nullptr;
            ops.trans_a = *ta == 1;
        }
        const auto tb = immediate(inst, at_imm++);
        if (!tb || (*tb != 0 && *tb != 1)) return nullptr;
        ops.trans_b = *tb == 1;
    }
    in.wgmma = ops;
    return &mma_async;
}

}  // namespace

Handler select_wgmma(const ir::Instruction& inst, DInst& in, const SelectContext&) {
    const ir::WgmmaForm* f = ir::form_as<ir::WgmmaForm>(inst);
    if (!f) return nullptr;
    switch (f->op) {
        case ir::WgmmaOp::mma_async:
            return select_mma_async(inst, *f, in);
        case ir::WgmmaOp::fence:
        case ir::WgmmaOp::commit_group:
            return f->aligned ? &warpgroup_sync : nullptr;
        case ir::WgmmaOp::wait_group:
            return f->aligned && immediate(inst, 0) ? &warpgroup_sync : nullptr;
    }
    return nullptr;
}

}  // namespace warpsim::engine
