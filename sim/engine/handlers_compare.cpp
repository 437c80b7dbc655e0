// sim/engine/handlers_compare.cpp — setp/set (every CmpOp and BoolOp, integer and float with PTX's NaN
// rules), selp and slct.
#include <algorithm>

#include "sim/arith/float_ops.hpp"
#include "sim/engine/dispatch.hpp"
#include "sim/engine/handler_util.hpp"

namespace warpsim::engine {

namespace {

using ir::CmpOp;

// A comparable view of an integer register, widened with its signedness.
struct Value {
    int64_t s = 0;
    uint64_t u = 0;
};

// A 32-bit lane value as a signed and an unsigned 32-bit integer (Value's fields for 4-byte types, narrowed).
struct Value32 {
    int32_t s = 0;
    uint32_t u = 0;
    static Value32 of(uint64_t bits) {
        const auto low = static_cast<uint32_t>(bits);
        return {static_cast<int32_t>(low), low};
    }
};

template <ir::Type T>
constexpr uint32_t kIntBytes = T == ir::Type::s8 || T == ir::Type::u8 || T == ir::Type::b8      ? 1
                               : T == ir::Type::s16 || T == ir::Type::u16 || T == ir::Type::b16 ? 2
                               : T == ir::Type::s32 || T == ir::Type::u32 || T == ir::Type::b32 ? 4
                                                                                                : 8;

template <ir::Type T>
constexpr bool is_fp() {
    return T == ir::Type::f32 || T == ir::Type::f64 || T == ir::Type::f16 || T == ir::Type::bf16;
}
template <ir::Type T>
constexpr bool is_sgn() {
    return T == ir::Type::s8 || T == ir::Type::s16 || T == ir::Type::s32 || T == ir::Type::s64;
}

template <ir::Type T>
Value read_value(uint64_t bits) {
    using ir::Type;
    Value v;
    constexpr uint32_t bytes = T == Type::s8 || T == Type::u8 || T == Type::b8      ? 1
                               : T == Type::s16 || T == Type::u16 || T == Type::b16 ? 2
                               : T == Type::s32 || T == Type::u32 || T == Type::b32 ? 4
                                                                                    : 8;
    const uint64_t mask = bytes == 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
    v.u = bits & mask;
    v.s = static_cast<int64_t>(v.u);
    // Sign extension by shifts (arithmetic in C++20), without a branch on the sign bit.
    if constexpr (is_sgn<T>() && bytes < 8)
        v.s = static_cast<int64_t>(v.u << (64 - 8 * bytes)) >> (64 - 8 * bytes);
    return v;
}

// Floats compare through sim/arith (NaN rules, .ftz); integers here.
template <ir::Type T>
bool compare(CmpOp op, uint64_t abits, uint64_t bbits, bool ftz) {
    if constexpr (is_fp<T>()) {
        return arith::compare(abits, bbits, T, op, ftz);
    } else {
        const Value a = read_value<T>(abits), b = read_value<T>(bbits);
        const bool sgn = is_sgn<T>();
        switch (op) {
            case CmpOp::eq:
                return a.u == b.u;
            case CmpOp::ne:
                return a.u != b.u;
            case CmpOp::lt:
                return sgn ? a.s < b.s : a.u < b.u;
            case CmpOp::le:
                return sgn ? a.s <= b.s : a.u <= b.u;
            case CmpOp::gt:
                return sgn ? a.s > b.s : a.u > b.u;
            case CmpOp::ge:
                return sgn ? a.s >= b.s : a.u >= b.u;
            case CmpOp::lo:
                return a.u < b.u;
            case CmpOp::ls:
                return a.u <= b.u;
            case CmpOp::hi:
                return a.u > b.u;
            case CmpOp::hs:
                return a.u >= b.u;
            default:
                return false;
        }
    }
}

// Calls body(cmp) with the integer comparison `op` over read_value<T> views as a function object, so that a
// handler's lane loop runs without a switch per lane.
template <ir::Type T, class Body>
void with_int_compare(CmpOp op, Body&& body) {
    constexpr bool sgn = is_sgn<T>();
    switch (op) {
        case CmpOp::eq:
            return body([](const auto& a, const auto& b) { return a.u == b.u; });
        case CmpOp::ne:
            return body([](const auto& a, const auto& b) { return a.u != b.u; });
        case CmpOp::lt:
            return body([](const auto& a, const auto& b) { return sgn ? a.s < b.s : a.u < b.u; });
        case CmpOp::le:
            return body([](const auto& a, const auto& b) { return sgn ? a.s <= b.s : a.u <= b.u; });
        case CmpOp::gt:
            return body([](const auto& a, const auto& b) { return sgn ? a.s > b.s : a.u > b.u; });
        case CmpOp::ge:
            return body([](const auto& a, const auto& b) { return sgn ? a.s >= b.s : a.u >= b.u; });
        case CmpOp::lo:
            return body([](const auto& a, const auto& b) { return a.u < b.u; });
        case CmpOp::ls:
            return body([](const auto& a, const auto& b) { return a.u <= b.u; });
        case CmpOp::hi:
            return body([](const auto& a, const auto& b) { return a.u > b.u; });
        case CmpOp::hs:
            return body([](const auto& a, const auto& b) { return a.u >= b.u; });
        default:
            return body([](const auto&, const auto&) { return false; });
    }
}

bool combine(ir::BoolOp op, bool r, bool c) {
    switch (op) {
        case ir::BoolOp::and_:
            return r && c;
        case ir::BoolOp::or_:
            return r || c;
        case ir::BoolOp::xor_:
            return r != c;
        default:
            return r;
    }
}

template <ir::Type T>
void setp(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* p = lanes_of(x, in.dst[0]);
    uint64_t* q = lanes_of(x, in.dst[1]);  // the scratch register when there is no `|q`
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]);
    const CmpOp op = in.ir->d.cmp;
    const ir::BoolOp bop = in.ir->d.bop;
    const bool ftz = in.ir->d.ftz;
    if constexpr (!is_fp<T>()) {
        if (bop == ir::BoolOp::none) {  // the common form: no predicate to combine with
            with_int_compare<T>(op, [&](auto cmp) {
                if (e == 0xffffffffu) {
                    // A full warp: every compare into a local array first, then the stores, so that the
                    // compiler need not reload the sources after each store (p and q might alias them).
                    // 32-bit types compare as 32-bit values (the same order as read_value's 64-bit ones),
                    // which the compiler can do four lanes at a time.
                    if constexpr (kIntBytes<T> == 4) {
                        uint32_t r[32];
                        for (uint32_t l = 0; l < 32; ++l) r[l] = cmp(Value32::of(a[l]), Value32::of(b[l]));
                        for (uint32_t l = 0; l < 32; ++l) {
                            p[l] = r[l];
                            q[l] = r[l] ^ 1;
                        }
                    } else {
                        uint64_t r[32];
                        for (uint32_t l = 0; l < 32; ++l)
                            r[l] = cmp(read_value<T>(a[l]), read_value<T>(b[l]));
                        for (uint32_t l = 0; l < 32; ++l) {
                            p[l] = r[l];
                            q[l] = r[l] ^ 1;
                        }
                    }
                    return;
                }
                for_lanes(e, [&](uint32_t l) {
                    const bool r = cmp(read_value<T>(a[l]), read_value<T>(b[l]));
                    p[l] = r;
                    q[l] = !r;
                });
            });
            return;
        }
    }
    for_lanes(e, [&](uint32_t l) {
        bool r = compare<T>(op, a[l], b[l], ftz);
        bool c = bop == ir::BoolOp::none ? true : pred_src(x, in, 2, l);
        p[l] = combine(bop, r, c);
        q[l] = combine(bop, !r, c);
    });
}

// setp.cmp{.bop}{.ftz}.{f16x2,bf16x2} p|q, a, b{, c}: p from the lower halves, q from the upper halves.
template <ir::Type T>
void setp_x2(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* p = lanes_of(x, in.dst[0]);
    uint64_t* q = lanes_of(x, in.dst[1]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]);
    const CmpOp op = in.ir->d.cmp;
    const ir::BoolOp bop = in.ir->d.bop;
    const bool ftz = in.ir->d.ftz;
    for_lanes(e, [&](uint32_t l) {
        bool c = bop == ir::BoolOp::none ? true : pred_src(x, in, 2, l);
        p[l] = combine(bop, arith::compare(a[l] & 0xffff, b[l] & 0xffff, T, op, ftz), c);
        q[l] = combine(bop, arith::compare((a[l] >> 16) & 0xffff, (b[l] >> 16) & 0xffff, T, op, ftz), c);
    });
}

// set.cmp.dtype.stype: all ones (integer destination) or 1.0f (f32 destination) when true.
template <ir::Type T>
void set(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]);
    const CmpOp op = in.ir->d.cmp;
    const ir::BoolOp bop = in.ir->d.bop;
    const bool fdst = in.type == ir::Type::f32;
    const bool ftz = in.ir->d.ftz;
    for_lanes(e, [&](uint32_t l) {
        bool r = compare<T>(op, a[l], b[l], ftz);
        if (bop != ir::BoolOp::none) r = combine(bop, r, pred_src(x, in, 2, l));
        d[l] = fdst ? (r ? 0x3f800000u : 0u) : (r ? 0xffffffffu : 0u);
    });
}

// set.cmp{.ftz}.dtype.{f16x2,bf16x2} d, a, b: each half of d is all ones (integer dtype) or 1.0 in the
// dtype's format (f16x2: 0x3c00, bf16x2: 0x3f80) when its halves compare true, else 0.
template <ir::Type T>
void set_x2(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]);
    const CmpOp op = in.ir->d.cmp;
    const ir::BoolOp bop = in.ir->d.bop;
    const bool ftz = in.ir->d.ftz;
    const uint64_t one = in.type == ir::Type::f16x2 ? 0x3c00 : in.type == ir::Type::bf16x2 ? 0x3f80 : 0xffff;
    for_lanes(e, [&](uint32_t l) {
        uint64_t out = 0;
        for (int k = 0; k < 2; ++k) {
            bool r = arith::compare((a[l] >> (16 * k)) & 0xffff, (b[l] >> (16 * k)) & 0xffff, T, op, ftz);
            if (bop != ir::BoolOp::none) r = combine(bop, r, pred_src(x, in, 2, l));
            if (r) out |= one << (16 * k);
        }
        d[l] = out;
    });
}

void selp(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]);
    const uint64_t mask =
        in.type == ir::Type::pred ? 1 : ~0ull >> (64 - 8 * std::max<uint32_t>(1, ir::type_bytes(in.type)));
    uint32_t chose_a = 0;
    for_lanes(e, [&](uint32_t l) {
        const bool p = pred_src(x, in, 2, l);
        chose_a |= static_cast<uint32_t>(p) << l;
        d[l] = (p ? a[l] : b[l]) & mask;
    });
    // For ptxas's if-conversion of the selp's operands (SassPlan::Lanes::selected).
    if (chose_a != 0 && x.block->counters != nullptr)
        x.block->counters->on_select(x.frame->code->index, in.pc, chose_a);
}

template <bool FloatSel>
void slct(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]), *c = lanes_of(x, in.src[2]);
    const uint64_t mask = ~0ull >> (64 - 8 * std::max<uint32_t>(1, ir::type_bytes(in.type)));
    const bool ftz = in.ir->d.ftz;
    for_lanes(e, [&](uint32_t l) {
        bool take_a;
        if constexpr (FloatSel) {
            take_a = arith::compare(c[l] & 0xffffffffu, 0, ir::Type::f32, CmpOp::ge,
                                    ftz);  // -0.0 >= 0; NaN picks b
        } else {
            take_a = static_cast<int32_t>(c[l]) >= 0;
        }
        d[l] = (take_a ? a[l] : b[l]) & mask;
    });
}

#define WARPSIM_BY_TYPE(FN, T)          \
    switch (T) {                        \
        case ir::Type::s8:              \
            return &FN<ir::Type::s8>;   \
        case ir::Type::u8:              \
        case ir::Type::b8:              \
            return &FN<ir::Type::u8>;   \
        case ir::Type::s16:             \
            return &FN<ir::Type::s16>;  \
        case ir::Type::u16:             \
        case ir::Type::b16:             \
            return &FN<ir::Type::u16>;  \
        case ir::Type::s32:             \
            return &FN<ir::Type::s32>;  \
        case ir::Type::u32:             \
        case ir::Type::b32:             \
            return &FN<ir::Type::u32>;  \
        case ir::Type::s64:             \
            return &FN<ir::Type::s64>;  \
        case ir::Type::u64:             \
        case ir::Type::b64:             \
            return &FN<ir::Type::u64>;  \
        case ir::Type::f32:             \
            return &FN<ir::Type::f32>;  \
        case ir::Type::f64:             \
            return &FN<ir::Type::f64>;  \
        case ir::Type::f16:             \
            return &FN<ir::Type::f16>;  \
        case ir::Type::bf16:            \
            return &FN<ir::Type::bf16>; \
        default:                        \
            return nullptr;             \
    }

}  // namespace

Handler select_compare(const ir::Instruction& inst, DInst&, const SelectContext&) {
    using O = ir::Opcode;
    switch (inst.op) {
        case O::setp:
            if (inst.d.type == ir::Type::f16x2) return &setp_x2<ir::Type::f16>;
            if (inst.d.type == ir::Type::bf16x2) return &setp_x2<ir::Type::bf16>;
            WARPSIM_BY_TYPE(setp, inst.d.type)
        case O::set: {
            // set.cmp.dtype.stype: the compared type is the second type modifier.
            const ir::Type st = inst.d.type2 == ir::Type::none ? inst.d.type : inst.d.type2;
            if (st == ir::Type::f16x2) return &set_x2<ir::Type::f16>;
            if (st == ir::Type::bf16x2) return &set_x2<ir::Type::bf16>;
            WARPSIM_BY_TYPE(set, st)
        }
        case O::selp:
            return &selp;
        case O::slct:
            return inst.d.type2 == ir::Type::f32 ? &slct<true> : &slct<false>;
        default:
            return nullptr;
    }
}

}  // namespace warpsim::engine
