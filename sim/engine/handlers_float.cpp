// sim/engine/handlers_float.cpp — f32/f64 arithmetic and special functions, f16/bf16 (scalar and x2)
// through the float adapter, copysign and testp.
#include <cmath>

#include "sim/engine/dispatch.hpp"
#include "sim/engine/float_adapter.hpp"
#include "sim/engine/handler_util.hpp"

namespace warpsim::engine {

namespace {

enum class F : uint8_t { add, sub, mul, fma, div, abs, neg, min, max, rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh, copysign };

template <F Op>
uint64_t f32_op(uint64_t a, uint64_t b, uint64_t c, bool ftz) {
    switch (Op) {
    case F::add: return fp::add32(a, b, ftz);
    case F::sub: return fp::sub32(a, b, ftz);
    case F::mul: return fp::mul32(a, b, ftz);
    case F::fma: return fp::fma32(a, b, c, ftz);
    case F::div: return fp::div32(a, b, ftz);
    case F::abs: { float v = fp::flush(fp::f32(a), ftz); return std::isnan(v) ? (a & 0x7fffffffu) : fp::bits(std::fabs(v)); }
    case F::neg: { float v = fp::flush(fp::f32(a), ftz); return std::isnan(v) ? (a ^ 0x80000000u) & 0xffffffffu : fp::bits(-v); }
    case F::min: return fp::min32(a, b, ftz);
    case F::max: return fp::max32(a, b, ftz);
    case F::rcp: return fp::rcp32(a, ftz);
    case F::sqrt: return fp::sqrt32(a, ftz);
    case F::rsqrt: return fp::rsqrt32(a, ftz);
    case F::sin: return fp::sin32(a, ftz);
    case F::cos: return fp::cos32(a, ftz);
    case F::lg2: return fp::lg2_32(a, ftz);
    case F::ex2: return fp::ex2_32(a, ftz);
    case F::tanh: return fp::tanh32(a, ftz);
    case F::copysign: return (b & 0x7fffffffu) | (a & 0x80000000u);
    }
    return 0;
}
template <F Op>
uint64_t f64_op(uint64_t a, uint64_t b, uint64_t c) {
    switch (Op) {
    case F::add: return fp::add64(a, b);
    case F::sub: return fp::sub64(a, b);
    case F::mul: return fp::mul64(a, b);
    case F::fma: return fp::fma64(a, b, c);
    case F::div: return fp::div64(a, b);
    case F::abs: return a & 0x7fffffffffffffffull;
    case F::neg: return a ^ 0x8000000000000000ull;
    case F::min: return fp::min64(a, b);
    case F::max: return fp::max64(a, b);
    case F::rcp: return fp::rcp64(a);
    case F::sqrt: return fp::sqrt64(a);
    case F::rsqrt: return fp::rsqrt64(a);
    case F::copysign: return (b & 0x7fffffffffffffffull) | (a & 0x8000000000000000ull);
    default: return fp::out64(std::nan(""));
    }
}

template <F Op>
void f32_handler(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]), *c = lanes_of(x, in.src[2]);
    const bool ftz = in.ir->d.ftz, sat = in.ir->d.sat;
    for_lanes(e, [&](uint32_t l) {
        uint64_t r = f32_op<Op>(a[l], b[l], c[l], ftz);
        if (sat) {
            float v = fp::f32(r);
            r = std::isnan(v) ? 0 : fp::bits(std::fmin(std::fmax(v, 0.0f), 1.0f));
        }
        d[l] = r;
    });
}
template <F Op>
void f64_handler(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]), *c = lanes_of(x, in.src[2]);
    for_lanes(e, [&](uint32_t l) { d[l] = f64_op<Op>(a[l], b[l], c[l]); });
}

// Half types: compute in f32 (exact for add/sub/mul of halves, then one rounding to half), per 16-bit lane
// of the register (x2 types hold two values).
template <F Op, bool Bf, int N>
void half_handler(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]), *c = lanes_of(x, in.src[2]);
    const bool sat = in.ir->d.sat;
    auto widen = [](uint64_t v) { return Bf ? fp::bf16_to_f32(static_cast<uint16_t>(v)) : fp::half_to_f32(static_cast<uint16_t>(v)); };
    auto narrow = [](float v) { return Bf ? fp::f32_to_bf16(v) : fp::f32_to_half(v); };
    for_lanes(e, [&](uint32_t l) {
        uint64_t out = 0;
        for (int k = 0; k < N; ++k) {
            const int sh = 16 * k;
            float r = fp::f32(f32_op<Op>(fp::bits(widen(a[l] >> sh)), fp::bits(widen(b[l] >> sh)), fp::bits(widen(c[l] >> sh)), false));
            if (sat) r = std::isnan(r) ? 0.0f : std::fmin(std::fmax(r, 0.0f), 1.0f);
            uint16_t h;
            if (Op == F::neg) h = static_cast<uint16_t>((a[l] >> sh) ^ 0x8000);
            else if (Op == F::abs) h = static_cast<uint16_t>((a[l] >> sh) & 0x7fff);
            else h = narrow(r);
            out |= uint64_t{h} << sh;
        }
        d[l] = out;
    });
}

template <F Op>
Handler by_float_type(ir::Type t) {
    switch (t) {
    case ir::Type::f32: return &f32_handler<Op>;
    case ir::Type::f64: return &f64_handler<Op>;
    case ir::Type::f16: return &half_handler<Op, false, 1>;
    case ir::Type::f16x2: return &half_handler<Op, false, 2>;
    case ir::Type::bf16: return &half_handler<Op, true, 1>;
    case ir::Type::bf16x2: return &half_handler<Op, true, 2>;
    default: return nullptr;
    }
}

// testp.op.type p, a
template <bool F64>
void testp(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t* a = lanes_of(x, in.src[0]);
    std::string_view op;
    for (const auto& m : in.ir->mods)
        if (m == "finite" || m == "infinite" || m == "number" || m == "notanumber" || m == "normal" || m == "subnormal") op = m;
    for_lanes(e, [&](uint32_t l) {
        double v = F64 ? fp::f64(a[l]) : fp::f32(a[l]);
        int cls = F64 ? std::fpclassify(v) : std::fpclassify(static_cast<float>(v));
        bool r = op == "finite" ? std::isfinite(v) : op == "infinite" ? std::isinf(v) : op == "number" ? !std::isnan(v)
               : op == "notanumber" ? std::isnan(v) : op == "normal" ? cls == FP_NORMAL : cls == FP_SUBNORMAL;
        d[l] = r;
    });
}

}  // namespace

Handler select_float(const ir::Instruction& inst, DInst&, const SelectContext&) {
    using O = ir::Opcode;
    const auto t = inst.d.type;
    if (!ir::is_float(t)) return nullptr;
    const bool half = t != ir::Type::f32 && t != ir::Type::f64;
    switch (inst.op) {
    case O::add: return by_float_type<F::add>(t);
    case O::sub: return by_float_type<F::sub>(t);
    case O::mul: return by_float_type<F::mul>(t);
    case O::fma: case O::mad: return by_float_type<F::fma>(t);
    case O::div: return half ? nullptr : by_float_type<F::div>(t);
    case O::abs: return by_float_type<F::abs>(t);
    case O::neg: return by_float_type<F::neg>(t);
    case O::min: return by_float_type<F::min>(t);
    case O::max: return by_float_type<F::max>(t);
    case O::rcp: return half ? nullptr : by_float_type<F::rcp>(t);
    case O::sqrt: return half ? nullptr : by_float_type<F::sqrt>(t);
    case O::rsqrt: return half ? nullptr : by_float_type<F::rsqrt>(t);
    case O::sin: return t == ir::Type::f32 ? &f32_handler<F::sin> : nullptr;
    case O::cos: return t == ir::Type::f32 ? &f32_handler<F::cos> : nullptr;
    case O::lg2: return t == ir::Type::f32 ? &f32_handler<F::lg2> : nullptr;
    case O::ex2: return t == ir::Type::f32 ? &f32_handler<F::ex2> : by_float_type<F::ex2>(t);
    case O::tanh: return t == ir::Type::f32 ? &f32_handler<F::tanh> : by_float_type<F::tanh>(t);
    case O::copysign: return half ? nullptr : by_float_type<F::copysign>(t);
    case O::testp: return t == ir::Type::f32 ? &testp<false> : t == ir::Type::f64 ? &testp<true> : nullptr;
    default: return nullptr;
    }
}

}  // namespace warpsim::engine
