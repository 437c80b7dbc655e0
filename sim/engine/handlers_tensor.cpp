// sim/engine/handlers_tensor.cpp — warp-level matrix instructions: ldmatrix / stmatrix (.m8n8 .b16, .x1 .x2
// .x4, .trans), movmatrix (.m8n8.trans.b16) and mma.sync.aligned on m16n8k{8,16} f16/bf16 -> f32, f16 -> f16,
// m16n8k8 tf32 -> f32 and m16n8k{16,32} s8/u8 -> s32 (wmma lives in handlers_wmma.cpp).
//
// Fragment layouts (PTX ISA 9.7.14.5.x "Matrix Fragments for mma.m16n8k*"), with g = lane / 4 and
// t = lane % 4, and e elements per 32-bit register (f16/bf16 2, tf32 1, s8/u8 4):
//  * A (16 x K, row-major): register j holds row g + 8 * (j % 2), columns t*e + s + (j / 2) * K/2 for its
//    elements s = 0..e-1 (the low bits first).
//  * B (K x 8, column-major): register j holds column g, rows t*e + s + j * K/2.
//  * C and D (16 x 8, f32 or s32): register j holds row g + 8 * (j / 2), column 2t + j % 2; as f16, register
//  j
//    holds row g + 8j, columns 2t (low half) and 2t + 1.
// ldmatrix: lanes 8i..8i+7 give the row addresses (16 bytes each) of matrix i; lane l receives row l/4,
// columns 2(l%4) and 2(l%4)+1 of each matrix in its register i (with .trans the matrix transposed). movmatrix
// takes a matrix in that layout from the registers and gives its transpose in the same layout.
//
// The floating-point sums follow sim/arith/dot_sum.hpp (the H200's tensor-core arithmetic, measured).
#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "kernels_ir/forms/form.hpp"
#include "sim/arith/dot_sum.hpp"
#include "sim/engine/dispatch.hpp"
#include "sim/engine/handler_util.hpp"
#include "sim/engine/memory_access.hpp"

namespace warpsim::engine {

namespace {

// ---- ldmatrix / stmatrix -------------------------------------------------------------------------------

template <uint32_t Num, bool Trans, bool Store>
void move_matrix(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    // Row addresses: lanes 0 .. 8*Num-1 (all of them take part: the instruction is .sync.aligned).
    std::array<uint8_t*, 32> row{};
    AccessRecorder rec(x, in, Store ? counts::AccessKind::store : counts::AccessKind::load, 16);
    for (uint32_t l = 0; l < 8 * Num; ++l) {
        LaneTarget t;
        if (!resolve_lane(x, in, l, 16, Store ? counts::AccessKind::store : counts::AccessKind::load, t))
            return;
        rec.add(l, t);
        row[l] = t.ptr;
    }
    const auto& masks = x.frame->code->reg_width_mask;
    for (uint32_t i = 0; i < Num; ++i) {
        for (uint32_t l = 0; l < 32; ++l) {
            if (!((e >> l) & 1)) continue;
            // The two 16-bit elements lane l holds: (r, c) and (r, c + 1), or transposed (c, r) and (c + 1,
            // r).
            const uint32_t r = l / 4, c = 2 * (l % 4);
            uint8_t* p0 = Trans ? row[8 * i + c] + 2 * r : row[8 * i + r] + 2 * c;
            uint8_t* p1 = Trans ? row[8 * i + c + 1] + 2 * r : p0 + 2;
            if constexpr (Store) {
                const uint64_t v = x.R[in.src[i] * 32 + l];
                p0[0] = static_cast<uint8_t>(v), p0[1] = static_cast<uint8_t>(v >> 8);
                p1[0] = static_cast<uint8_t>(v >> 16), p1[1] = static_cast<uint8_t>(v >> 24);
            } else {
                const uint64_t v =
                    uint64_t{p0[0]} | uint64_t{p0[1]} << 8 | uint64_t{p1[0]} << 16 | uint64_t{p1[1]} << 24;
                x.R[in.dst[i] * 32 + l] = v & masks[in.dst[i]];
            }
        }
    }
    rec.flush(x);
}

void reject_b8_shape(Exec& x, const DInst& in, uint32_t exec);

template <bool Store>
Handler pick_move_matrix(const ir::Instruction& inst, const DInst& in) {
    const ir::MatrixMoveForm* f = ir::form_as<ir::MatrixMoveForm>(inst);
    if (!f) return nullptr;
    if (!(f->shape == ir::MatrixShape{8, 8, 0})) return &reject_b8_shape;
    if (f->type != ir::Type::b16) return nullptr;
    const uint32_t n = f->count;
    if (n == 0 || (Store ? in.nsrc : in.ndst) != n) return nullptr;
    const bool t = f->trans;
    switch (n) {
        case 1:
            return t ? &move_matrix<1, true, Store> : &move_matrix<1, false, Store>;
        case 2:
            return t ? &move_matrix<2, true, Store> : &move_matrix<2, false, Store>;
        default:
            return t ? &move_matrix<4, true, Store> : &move_matrix<4, false, Store>;
    }
}

// ---- mma.sync ------------------------------------------------------------------------------------------

enum class MmaKind : uint8_t { f16, bf16, tf32, s8s8, s8u8, u8s8, u8u8 };

// The value of fragment element `i` of operand group `arg` (a {..} vector of registers or immediates).
uint64_t fragment(const Exec& x, const DInst& in, std::size_t arg, std::size_t i, uint32_t lane) {
    const ir::Operand& o = in.ir->args[arg].elems[i];
    return o.kind == ir::Operand::Kind::reg ? x.R[std::size_t{o.reg} * 32 + lane]
                                            : static_cast<uint64_t>(o.imm);
}

// Element value of A[r][k] / B[k][c] as raw bits (16-bit formats and bytes in the low bits).
template <uint32_t K, uint32_t PerReg>
struct Fragments {
    std::array<std::array<uint32_t, K>, 16> a{};  // a[row][k]
    std::array<std::array<uint32_t, K>, 8> b{};   // b[col][k]
    std::array<std::array<uint32_t, 8>, 16> c{};  // c[row][col]

    void gather(const Exec& x, const DInst& in, bool c_f16 = false) {
        constexpr uint32_t bits = 32 / PerReg;
        constexpr uint64_t emask = bits == 32 ? 0xffffffffull : (1ull << bits) - 1;
        constexpr uint32_t a_regs = 16 * K / 32 / PerReg, b_regs = 8 * K / 32 / PerReg;
        for (uint32_t l = 0; l < 32; ++l) {
            const uint32_t g = l / 4, t = l % 4;
            for (uint32_t j = 0; j < a_regs; ++j) {
                const uint64_t v = fragment(x, in, 1, j, l);
                for (uint32_t s = 0; s < PerReg; ++s)
                    a[g + 8 * (j % 2)][t * PerReg + s + (j / 2) * K / 2] =
                        static_cast<uint32_t>((v >> (bits * s)) & emask);
            }
            for (uint32_t j = 0; j < b_regs; ++j) {
                const uint64_t v = fragment(x, in, 2, j, l);
                for (uint32_t s = 0; s < PerReg; ++s)
                    b[g][t * PerReg + s + j * K / 2] = static_cast<uint32_t>((v >> (bits * s)) & emask);
            }
            if (c_f16) {
                for (uint32_t j = 0; j < 2; ++j) {
                    const uint64_t v = fragment(x, in, 3, j, l);
                    c[g + 8 * j][2 * t] = static_cast<uint32_t>(v & 0xffffu);
                    c[g + 8 * j][2 * t + 1] = static_cast<uint32_t>((v >> 16) & 0xffffu);
                }
            } else {
                for (uint32_t j = 0; j < 4; ++j)
                    c[g + 8 * (j / 2)][2 * t + j % 2] = static_cast<uint32_t>(fragment(x, in, 3, j, l));
            }
        }
    }
};

void scatter_d(Exec& x, const DInst& in, uint32_t e, const std::array<std::array<uint32_t, 8>, 16>& d) {
    const auto& elems = in.ir->args[0].elems;
    for_lanes(e, [&](uint32_t l) {
        const uint32_t g = l / 4, t = l % 4;
        for (uint32_t j = 0; j < 4; ++j)
            if (elems[j].kind == ir::Operand::Kind::reg)
                x.R[std::size_t{elems[j].reg} * 32 + l] = d[g + 8 * (j / 2)][2 * t + j % 2];
    });
}

// D as f16: register j of lane (g, t) packs row g + 8j, columns 2t (low half) and 2t + 1.
void scatter_d_f16(Exec& x, const DInst& in, uint32_t e, const std::array<std::array<uint32_t, 8>, 16>& d) {
    const auto& elems = in.ir->args[0].elems;
    for_lanes(e, [&](uint32_t l) {
        const uint32_t g = l / 4, t = l % 4;
        for (uint32_t j = 0; j < 2; ++j)
            if (elems[j].kind == ir::Operand::Kind::reg)
                x.R[std::size_t{elems[j].reg} * 32 + l] = d[g + 8 * j][2 * t] | d[g + 8 * j][2 * t + 1] << 16;
    });
}

// f16 inputs, f16 C and D (the rounding: sim/arith/dot_sum.hpp).
template <uint32_t K>
void mma_f16_f16(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    Fragments<K, 2> fr;
    fr.gather(x, in, true);
    std::array<std::array<uint32_t, 8>, 16> d{};
    for (uint32_t r = 0; r < 16; ++r)
        for (uint32_t col = 0; col < 8; ++col)
            d[r][col] = arith::dot_acc(fr.a[r], fr.b[col], arith::DotFormat::f16, fr.c[r][col],
                                       arith::DotAcc::f16, arith::DotAcc::f16);
    scatter_d_f16(x, in, e, d);
}

template <uint32_t K, arith::DotFormat F>
void mma_float(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    constexpr uint32_t per_reg = F == arith::DotFormat::tf32 ? 1 : 2;
    Fragments<K, per_reg> fr;
    fr.gather(x, in);
    std::array<std::array<uint32_t, 8>, 16> d{};
    for (uint32_t r = 0; r < 16; ++r)
        for (uint32_t col = 0; col < 8; ++col)
            d[r][col] = arith::dot_f32(fr.a[r], fr.b[col], F, fr.c[r][col]);
    scatter_d(x, in, e, d);
}

template <uint32_t K, bool ASigned, bool BSigned, bool Sat>
void mma_int8(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    Fragments<K, 4> fr;
    fr.gather(x, in);
    std::array<std::array<uint32_t, 8>, 16> d{};
    for (uint32_t r = 0; r < 16; ++r)
        for (uint32_t col = 0; col < 8; ++col) {
            int64_t s = static_cast<int32_t>(fr.c[r][col]);
            for (uint32_t k = 0; k < K; ++k) {
                const int64_t a = ASigned ? int64_t{static_cast<int8_t>(fr.a[r][k])} : int64_t{fr.a[r][k]};
                const int64_t b =
                    BSigned ? int64_t{static_cast<int8_t>(fr.b[col][k])} : int64_t{fr.b[col][k]};
                s += a * b;
            }
            if (Sat) s = std::clamp<int64_t>(s, INT32_MIN, INT32_MAX);
            d[r][col] = static_cast<uint32_t>(s);  // without .satfinite the sum wraps
        }
    scatter_d(x, in, e, d);
}

template <uint32_t K, bool Sat>
Handler pick_int8(std::string_view at, std::string_view bt) {
    const bool as = at == "s8", bs = bt == "s8";
    if (as && bs) return &mma_int8<K, true, true, Sat>;
    if (as) return &mma_int8<K, true, false, Sat>;
    if (bs) return &mma_int8<K, false, true, Sat>;
    return &mma_int8<K, false, false, Sat>;
}

bool fragment_sizes(const ir::Instruction& inst, std::size_t d, std::size_t a, std::size_t b, std::size_t c) {
    if (inst.args.size() != 4) return false;
    const std::array<std::size_t, 4> want{d, a, b, c};
    for (std::size_t i = 0; i < 4; ++i) {
        const auto& o = inst.args[i];
        if (o.kind != ir::Operand::Kind::vector || o.elems.size() != want[i]) return false;
        for (const auto& el : o.elems)
            if (el.kind != ir::Operand::Kind::reg &&
                (i == 0 || el.kind == ir::Operand::Kind::special || el.kind == ir::Operand::Kind::symbol))
                return false;
    }
    return true;
}

// Forms the PTX parser accepts that the H200 does not run: a clear error instead of "not executed yet".
void reject(Exec& x, const DInst& in, uint32_t exec, std::string_view why) {
    std::string spelled(ir::opcode_name(in.ir->op));
    for (const auto& m : in.ir->mods) spelled += "." + m;
    const std::string text = fmt::format("`{}` ({}): {}", spelled, ptx_location(x, in), why);
    raise_fault(x, in, exec ? static_cast<uint32_t>(std::countr_zero(exec)) : 0, Fault::invalid_ptx, text,
                text);
}

void reject_b8_shape(Exec& x, const DInst& in, uint32_t exec) {
    reject(x, in, exec,
           "ldmatrix's .m16n16 and .m8n16 and stmatrix's .m16n8 shapes (.b8, .b8x16) need sm_100a or later; "
           "the H200 is "
           "sm_90: load 16-bit elements with .m8n8 .b16, or compile for an sm_100a target");
}

// movmatrix.sync.aligned.m8n8.trans.b16 d, a: lane l gets element (c, r) and (c + 1, r) of the matrix, with
// r = l / 4 and c = 2 (l % 4); element (i, j) is half j % 2 of lane 4i + j / 2's register.
void movmatrix_trans(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    const uint64_t* a = lanes_of(x, in.src[0]);
    auto elem = [&](uint32_t i, uint32_t j) {
        return static_cast<uint32_t>((a[4 * i + j / 2] >> (16 * (j % 2))) & 0xffffu);
    };
    std::array<uint32_t, 32> out{};
    for (uint32_t l = 0; l < 32; ++l) {
        const uint32_t r = l / 4, c = 2 * (l % 4);
        out[l] = elem(c, r) | elem(c + 1, r) << 16;
    }
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t mask = x.frame->code->reg_width_mask[in.dst[0]];
    for_lanes(e, [&](uint32_t l) { d[l] = out[l] & mask; });
}

Handler select_movmatrix(const ir::Instruction& inst, const DInst& in) {
    if (!inst.has_mod("sync") || !inst.has_mod("aligned") || !inst.has_mod("m8n8") ||
        !inst.has_mod("trans") || !inst.has_mod("b16") || in.ndst != 1 || in.nsrc != 1 ||
        inst.args.size() != 2 || inst.args[0].kind != ir::Operand::Kind::reg ||
        inst.args[1].kind != ir::Operand::Kind::reg)
        return nullptr;
    return &movmatrix_trans;
}

// mma.sync from its MmaForm (kernels_ir/forms/tensor.cpp checked the ISA's shape and type rules); the
// engine runs the .row.col forms below and leaves the others unexecuted.
Handler select_mma(const ir::Instruction& inst) {
    const ir::MmaForm* f = ir::form_as<ir::MmaForm>(inst);
    if (!f || f->sparsity != ir::MmaSparsity::dense) return nullptr;  // mma.sp: not executed
    if (f->alayout != ir::MatrixLayout::row || f->blayout != ir::MatrixLayout::col) return nullptr;
    using T = ir::Type;
    const T dt = f->dtype, at = f->atype, bt = f->btype, ct = f->ctype;
    const bool k8 = f->shape == ir::MatrixShape{16, 8, 8}, k16 = f->shape == ir::MatrixShape{16, 8, 16},
               k32 = f->shape == ir::MatrixShape{16, 8, 32};
    using F = arith::DotFormat;
    if (dt == T::f32 && ct == T::f32 && at == bt) {
        if (at == T::f16 && k16 && fragment_sizes(inst, 4, 4, 2, 4)) return &mma_float<16, F::f16>;
        if (at == T::bf16 && k16 && fragment_sizes(inst, 4, 4, 2, 4)) return &mma_float<16, F::bf16>;
        if (at == T::f16 && k8 && fragment_sizes(inst, 4, 2, 1, 4)) return &mma_float<8, F::f16>;
        if (at == T::bf16 && k8 && fragment_sizes(inst, 4, 2, 1, 4)) return &mma_float<8, F::bf16>;
        if (at == T::tf32 && k8 && fragment_sizes(inst, 4, 4, 2, 4)) return &mma_float<8, F::tf32>;
        return nullptr;
    }
    if (dt == T::f16 && ct == T::f16 && at == T::f16 && bt == T::f16) {
        if (k16 && fragment_sizes(inst, 2, 4, 2, 2)) return &mma_f16_f16<16>;
        if (k8 && fragment_sizes(inst, 2, 2, 1, 2)) return &mma_f16_f16<8>;
        return nullptr;
    }
    const bool int8 = (at == T::s8 || at == T::u8) && (bt == T::s8 || bt == T::u8);
    if (dt == T::s32 && ct == T::s32 && int8) {
        const std::string_view as = at == T::s8 ? "s8" : "u8", bs = bt == T::s8 ? "s8" : "u8";
        if (k32 && fragment_sizes(inst, 4, 4, 2, 4))
            return f->satfinite ? pick_int8<32, true>(as, bs) : pick_int8<32, false>(as, bs);
        if (k16 && fragment_sizes(inst, 4, 2, 1, 4))
            return f->satfinite ? pick_int8<16, true>(as, bs) : pick_int8<16, false>(as, bs);
    }
    return nullptr;
}

}  // namespace

Handler select_tensor(const ir::Instruction& inst, DInst& in, const SelectContext&) {
    switch (inst.op) {
        case ir::Opcode::ldmatrix:
            return pick_move_matrix<false>(inst, in);
        case ir::Opcode::stmatrix:
            return pick_move_matrix<true>(inst, in);
        case ir::Opcode::mma:
            return select_mma(inst);
        case ir::Opcode::movmatrix:
            return select_movmatrix(inst, in);
        default:
            return nullptr;
    }
}

}  // namespace warpsim::engine
