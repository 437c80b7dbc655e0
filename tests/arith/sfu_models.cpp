// tests/arith/sfu_models.cpp — binds each swept PTX instruction to the warpsim arith function that models it.
#include "tests/arith/sfu_models.hpp"

#include <bit>
#include <cmath>
#include <numbers>

#include "sim/arith/approx.hpp"
#include "sim/arith/convert.hpp"
#include "sim/arith/float_ops.hpp"

namespace warpsim::arith::testing {
namespace {

using T = ir::Type;
using R = ir::Rounding;

uint32_t u32(uint64_t v) {
    return static_cast<uint32_t>(v);
}
uint16_t u16(uint64_t v) {
    return static_cast<uint16_t>(v);
}
double f32v(uint64_t bits) {
    return double(std::bit_cast<float>(u32(bits)));
}

uint64_t cvt(uint64_t a, T from, T to, R r, bool ftz = false, bool sat = false) {
    return convert(a, from, to, r, ftz, sat);
}

// |gpu - model| <= abs_err + rel_err * |model| (both read as f32), NaN only against NaN.
bool within(uint64_t gpu, uint64_t model, double abs_err, double rel_err) {
    const double g = f32v(gpu), m = f32v(model);
    if (std::isnan(g) || std::isnan(m)) return std::isnan(g) && std::isnan(m);
    if (std::isinf(g) || std::isinf(m)) return g == m;
    return std::fabs(g - m) <= abs_err + rel_err * std::fabs(m);
}

SfuModel f32_unary(const char* name, uint32_t (*fn)(uint32_t, bool), bool ftz, Expect e, double ulps = 0) {
    return {name, OutFmt::f32, [fn, ftz](const uint64_t* o) { return uint64_t{fn(u32(o[0]), ftz)}; },
            e,    ulps,        {}};
}

std::vector<SfuModel> approx_models() {
    std::vector<SfuModel> m;
    // rcp.approx: max 1 ulp (9.7.3.13); sqrt.approx: relative 2^-23 (9.7.3.15); rsqrt: 2^-22.9 (9.7.3.16);
    // ex2: 2 ulp (9.7.3.21). The model is correctly rounded, so the GPU may differ from it by the bound.
    m.push_back(f32_unary("rcp.approx.f32", f32_rcp_approx, false, Expect::max_ulp, 1));
    m.push_back(f32_unary("rcp.approx.ftz.f32", f32_rcp_approx, true, Expect::max_ulp, 1));
    m.push_back(f32_unary("sqrt.approx.f32", f32_sqrt_approx, false, Expect::max_ulp, 2));
    m.push_back(f32_unary("sqrt.approx.ftz.f32", f32_sqrt_approx, true, Expect::max_ulp, 2));
    m.push_back(f32_unary("rsqrt.approx.f32", f32_rsqrt_approx, false, Expect::max_ulp, 3));
    m.push_back(f32_unary("rsqrt.approx.ftz.f32", f32_rsqrt_approx, true, Expect::max_ulp, 3));
    m.push_back(f32_unary("ex2.approx.f32", f32_ex2_approx, false, Expect::max_ulp, 2));
    m.push_back(f32_unary("ex2.approx.ftz.f32", f32_ex2_approx, true, Expect::max_ulp, 2));
    // lg2 (9.7.3.20): absolute 2^-22 on (0.5, 2), relative 2^-22 elsewhere.
    const auto lg2_bound = [](const uint64_t* o, uint64_t g, uint64_t md) {
        const double x = f32v(o[0]);
        if (x > 0.5 && x < 2) return within(g, md, std::ldexp(1.0, -22) + std::ldexp(1.0, -24), 0);
        return within(g, md, 0, std::ldexp(1.0, -22) + std::ldexp(1.0, -24));
    };
    m.push_back(f32_unary("lg2.approx.f32", f32_lg2_approx, false, Expect::documented));
    m.back().bound = lg2_bound;
    m.push_back(f32_unary("lg2.approx.ftz.f32", f32_lg2_approx, true, Expect::documented));
    m.back().bound = lg2_bound;
    // sin/cos (9.7.3.18/19): absolute 2^-20.5 on [-2pi, 2pi], 2^-14.7 on [-100pi, 100pi], no bound beyond.
    const auto trig_bound = [](const uint64_t* o, uint64_t g, uint64_t md) {
        const double x = std::fabs(f32v(o[0]));
        if (std::isnan(x) || std::isinf(x)) return within(g, md, 0, 0);
        if (x <= 2 * std::numbers::pi) return within(g, md, std::ldexp(1.0, -20.5) + std::ldexp(1.0, -24), 0);
        if (x <= 100 * std::numbers::pi) return within(g, md, std::ldexp(1.0, -14.7), 0);
        return true;
    };
    for (const char* n : {"sin.approx.f32", "sin.approx.ftz.f32"}) {
        m.push_back(f32_unary(n, f32_sin_approx, std::string(n).find("ftz") != std::string::npos,
                              Expect::documented));
        m.back().bound = trig_bound;
    }
    for (const char* n : {"cos.approx.f32", "cos.approx.ftz.f32"}) {
        m.push_back(f32_unary(n, f32_cos_approx, std::string(n).find("ftz") != std::string::npos,
                              Expect::documented));
        m.back().bound = trig_bound;
    }
    // tanh.approx.f32 (9.7.3.22): relative 2^-11.
    m.push_back(
        {"tanh.approx.f32", OutFmt::f32,
         [](const uint64_t* o) { return uint64_t{f32_tanh_approx(u32(o[0]))}; }, Expect::documented, 0,
         [](const uint64_t*, uint64_t g, uint64_t md) { return within(g, md, 0, std::ldexp(1.0, -11)); }});
    // div.approx (9.7.3.8): 2 ulp for |b| in [2^-126, 2^126]; div.full: 2 ulp over the full range.
    // div.approx: "for |b| in [2^-126, 2^126] the maximum ulp error is 2": checked against the correctly
    // rounded quotient where that quotient is a normal number (subnormal quotients are flushed by the GPU).
    const auto div_approx_bound = [](const uint64_t* o, uint64_t g, uint64_t) {
        const uint32_t b_mag = u32(o[1]) & 0x7fffffffu;
        const uint32_t exact = f32_div(u32(o[0]), u32(o[1]), Round::rn, false);
        const uint32_t e_mag = exact & 0x7fffffffu;
        if (b_mag < 0x00800000u || b_mag > 0x7e800000u || e_mag < 0x00800000u || e_mag >= 0x7f800000u)
            return true;
        if ((u32(o[0]) & 0x7fffffffu) < 0x00800000u) return true;  // subnormal dividend: not covered
        const auto ord = [](uint32_t v) { return (v >> 31) ? -int64_t(v & 0x7fffffffu) : int64_t(v); };
        const int64_t d = ord(u32(g)) - ord(exact);
        return d >= -2 && d <= 2;
    };
    m.push_back({"div.approx.f32", OutFmt::f32,
                 [](const uint64_t* o) { return uint64_t{f32_div_approx(u32(o[0]), u32(o[1]), false)}; },
                 Expect::documented, 0, div_approx_bound});
    m.push_back({"div.approx.ftz.f32", OutFmt::f32,
                 [](const uint64_t* o) { return uint64_t{f32_div_approx(u32(o[0]), u32(o[1]), true)}; },
                 Expect::documented, 0, div_approx_bound});
    m.push_back({"div.full.f32",
                 OutFmt::f32,
                 [](const uint64_t* o) { return uint64_t{f32_div_full(u32(o[0]), u32(o[1]), false)}; },
                 Expect::max_ulp,
                 2,
                 {}});
    m.push_back({"div.full.ftz.f32",
                 OutFmt::f32,
                 [](const uint64_t* o) { return uint64_t{f32_div_full(u32(o[0]), u32(o[1]), true)}; },
                 Expect::max_ulp,
                 2,
                 {}});
    // Half precision (9.7.4.9/10): tanh.f16 absolute 2^-10.987, ex2.f16 relative 2^-9.9, bf16 looser.
    m.push_back({"tanh.approx.f16",
                 OutFmt::f16,
                 [](const uint64_t* o) { return uint64_t{f16_tanh_approx(u16(o[0]))}; },
                 Expect::max_ulp,
                 2,
                 {}});
    m.push_back({"ex2.approx.f16",
                 OutFmt::f16,
                 [](const uint64_t* o) { return uint64_t{f16_ex2_approx(u16(o[0]))}; },
                 Expect::max_ulp,
                 2,
                 {}});
    m.push_back({"tanh.approx.bf16",
                 OutFmt::bf16,
                 [](const uint64_t* o) { return uint64_t{bf16_tanh_approx(u16(o[0]))}; },
                 Expect::max_ulp,
                 2,
                 {}});
    m.push_back({"ex2.approx.ftz.bf16",
                 OutFmt::bf16,
                 [](const uint64_t* o) { return uint64_t{bf16_ex2_approx_ftz(u16(o[0]))}; },
                 Expect::max_ulp,
                 2,
                 {}});
    m.push_back({"rcp.approx.ftz.f64",
                 OutFmt::f64,
                 [](const uint64_t* o) { return f64_rcp_approx_ftz(o[0]); },
                 Expect::report_only,
                 0,
                 {}});
    m.push_back({"rsqrt.approx.ftz.f64",
                 OutFmt::f64,
                 [](const uint64_t* o) { return f64_rsqrt_approx_ftz(o[0]); },
                 Expect::report_only,
                 0,
                 {}});
    m.push_back({"rsqrt.approx.f64",
                 OutFmt::f64,
                 [](const uint64_t* o) { return f64_rsqrt_approx(o[0]); },
                 Expect::report_only,
                 0,
                 {}});
    return m;
}

SfuModel exact(const char* name, OutFmt fmt, std::function<uint64_t(const uint64_t*)> fn) {
    return {name, fmt, std::move(fn), Expect::exact, 0, {}};
}

std::vector<SfuModel> exact_f32_models() {
    using Rd = Round;
    std::vector<SfuModel> m;
    m.push_back(exact("cvt.rn.f16.f32", OutFmt::f16,
                      [](const uint64_t* o) { return cvt(o[0], T::f32, T::f16, R::rn); }));
    m.push_back(exact("cvt.rn.bf16.f32", OutFmt::bf16,
                      [](const uint64_t* o) { return cvt(o[0], T::f32, T::bf16, R::rn); }));
    m.push_back(exact("cvt.rz.f16.f32", OutFmt::f16,
                      [](const uint64_t* o) { return cvt(o[0], T::f32, T::f16, R::rz); }));
    m.push_back(exact("sqrt.rn.f32", OutFmt::f32,
                      [](const uint64_t* o) { return uint64_t{f32_sqrt(u32(o[0]), Rd::rn, false)}; }));
    m.push_back(
        exact("abs.f32", OutFmt::f32, [](const uint64_t* o) { return uint64_t{f32_abs(u32(o[0]), false)}; }));
    m.push_back(
        exact("neg.f32", OutFmt::f32, [](const uint64_t* o) { return uint64_t{f32_neg(u32(o[0]), false)}; }));
    m.push_back(exact("abs.ftz.f32", OutFmt::f32,
                      [](const uint64_t* o) { return uint64_t{f32_abs(u32(o[0]), true)}; }));
    m.push_back(exact("cvt.rni.f32.f32", OutFmt::f32,
                      [](const uint64_t* o) { return cvt(o[0], T::f32, T::f32, R::rni); }));
    m.push_back(exact("cvt.f64.f32", OutFmt::f64,
                      [](const uint64_t* o) { return cvt(o[0], T::f32, T::f64, R::none); }));
    m.push_back(exact("cvt.rna.tf32.f32", OutFmt::f32,
                      [](const uint64_t* o) { return cvt(o[0], T::f32, T::tf32, R::rna); }));
    m.push_back(exact("cvt.rzi.s32.f32", OutFmt::integer,
                      [](const uint64_t* o) { return cvt(o[0], T::f32, T::s32, R::rzi) & 0xffffffffu; }));
    m.push_back(exact("cvt.rni.s32.f32", OutFmt::integer,
                      [](const uint64_t* o) { return cvt(o[0], T::f32, T::s32, R::rni) & 0xffffffffu; }));
    m.push_back(exact("cvt.rmi.u32.f32", OutFmt::integer,
                      [](const uint64_t* o) { return cvt(o[0], T::f32, T::u32, R::rmi); }));
    m.push_back(exact("cvt.rpi.s64.f32", OutFmt::integer,
                      [](const uint64_t* o) { return cvt(o[0], T::f32, T::s64, R::rpi); }));
    m.push_back(exact("cvt.rzi.u64.f32", OutFmt::integer,
                      [](const uint64_t* o) { return cvt(o[0], T::f32, T::u64, R::rzi); }));
    m.push_back(exact("cvt.rni.u16.f32", OutFmt::integer,
                      [](const uint64_t* o) { return cvt(o[0], T::f32, T::u16, R::rni); }));
    m.push_back(exact("div.rn.f32", OutFmt::f32, [](const uint64_t* o) {
        return uint64_t{f32_div(u32(o[0]), u32(o[1]), Rd::rn, false)};
    }));
    m.push_back(exact("add.rm.f32", OutFmt::f32, [](const uint64_t* o) {
        return uint64_t{f32_add(u32(o[0]), u32(o[1]), Rd::rm, false)};
    }));
    m.push_back(exact("add.rp.ftz.f32", OutFmt::f32, [](const uint64_t* o) {
        return uint64_t{f32_add(u32(o[0]), u32(o[1]), Rd::rp, true)};
    }));
    m.push_back(exact("mul.rz.f32", OutFmt::f32, [](const uint64_t* o) {
        return uint64_t{f32_mul(u32(o[0]), u32(o[1]), Rd::rz, false)};
    }));
    m.push_back(exact("add.sat.f32", OutFmt::f32, [](const uint64_t* o) {
        return uint64_t{f32_sat(f32_add(u32(o[0]), u32(o[1]), Rd::rn, false))};
    }));
    m.push_back(exact("min.f32", OutFmt::f32, [](const uint64_t* o) {
        return uint64_t{f32_min(u32(o[0]), u32(o[1]), false, false)};
    }));
    m.push_back(exact("max.NaN.f32", OutFmt::f32, [](const uint64_t* o) {
        return uint64_t{f32_max(u32(o[0]), u32(o[1]), false, true)};
    }));
    m.push_back(exact("min.ftz.f32", OutFmt::f32, [](const uint64_t* o) {
        return uint64_t{f32_min(u32(o[0]), u32(o[1]), true, false)};
    }));
    m.push_back(exact("cvt.rn.satfinite.e4m3x2.f32", OutFmt::f8x2_e4m3, [](const uint64_t* o) {
        return uint64_t{cvt_f8x2_f32(u32(o[0]), u32(o[1]), T::e4m3x2, false)};
    }));
    m.push_back(exact("cvt.rn.satfinite.e5m2x2.f32", OutFmt::f8x2_e5m2, [](const uint64_t* o) {
        return uint64_t{cvt_f8x2_f32(u32(o[0]), u32(o[1]), T::e5m2x2, false)};
    }));
    m.push_back(exact("cvt.rn.f16x2.f32", OutFmt::f16x2, [](const uint64_t* o) {
        return uint64_t{cvt_f16x2_f32(u32(o[0]), u32(o[1]), Rd::rn, false, false)};
    }));
    m.push_back(exact("fma.rn.f32", OutFmt::f32, [](const uint64_t* o) {
        return uint64_t{f32_fma(u32(o[0]), u32(o[1]), u32(o[2]), Rd::rn, false)};
    }));
    m.push_back(exact("fma.rm.f32", OutFmt::f32, [](const uint64_t* o) {
        return uint64_t{f32_fma(u32(o[0]), u32(o[1]), u32(o[2]), Rd::rm, false)};
    }));
    m.push_back(exact("fma.rn.ftz.sat.f32", OutFmt::f32, [](const uint64_t* o) {
        return uint64_t{f32_sat(f32_fma(u32(o[0]), u32(o[1]), u32(o[2]), Rd::rn, true))};
    }));
    m.push_back(exact("mul.rn.ftz.f32", OutFmt::f32, [](const uint64_t* o) {
        return uint64_t{f32_mul(u32(o[0]), u32(o[1]), Rd::rn, true)};
    }));
    m.push_back(exact("mul.rn.f32", OutFmt::f32, [](const uint64_t* o) {
        return uint64_t{f32_mul(u32(o[0]), u32(o[1]), Rd::rn, false)};
    }));
    return m;
}

std::vector<SfuModel> exact_half_f64_models() {
    using Rd = Round;
    std::vector<SfuModel> m;
    m.push_back(exact("cvt.f32.f16", OutFmt::f32,
                      [](const uint64_t* o) { return cvt(o[0], T::f16, T::f32, R::none); }));
    m.push_back(exact("cvt.f32.bf16", OutFmt::f32,
                      [](const uint64_t* o) { return cvt(o[0], T::bf16, T::f32, R::none); }));
    m.push_back(exact("cvt.rn.f16x2.e4m3x2", OutFmt::f16x2, [](const uint64_t* o) {
        return uint64_t{cvt_f16x2_f8x2(u16(o[0]), T::e4m3x2, false)};
    }));
    m.push_back(exact("cvt.rn.f16x2.e5m2x2", OutFmt::f16x2, [](const uint64_t* o) {
        return uint64_t{cvt_f16x2_f8x2(u16(o[0]), T::e5m2x2, false)};
    }));
    m.push_back(
        exact("neg.f16", OutFmt::f16, [](const uint64_t* o) { return uint64_t{f16_neg(u16(o[0]), false)}; }));
    m.push_back(exact("fma.rn.f16", OutFmt::f16, [](const uint64_t* o) {
        return uint64_t{f16_fma(u16(o[0]), u16(o[1]), u16(o[2]), false, false, false)};
    }));
    m.push_back(exact("add.rn.f16", OutFmt::f16, [](const uint64_t* o) {
        return uint64_t{f16_add(u16(o[0]), u16(o[1]), false, false)};
    }));
    m.push_back(exact("fma.rn.bf16", OutFmt::bf16, [](const uint64_t* o) {
        return uint64_t{bf16_fma(u16(o[0]), u16(o[1]), u16(o[2]), false)};
    }));
    m.push_back(exact("mul.rn.bf16", OutFmt::bf16,
                      [](const uint64_t* o) { return uint64_t{bf16_mul(u16(o[0]), u16(o[1]))}; }));
    m.push_back(exact("min.f16", OutFmt::f16, [](const uint64_t* o) {
        return uint64_t{f16_min(u16(o[0]), u16(o[1]), false, false)};
    }));
    m.push_back(exact("max.NaN.bf16", OutFmt::bf16,
                      [](const uint64_t* o) { return uint64_t{bf16_max(u16(o[0]), u16(o[1]), true)}; }));
    m.push_back(exact("fma.rn.sat.f16", OutFmt::f16, [](const uint64_t* o) {
        return uint64_t{f16_fma(u16(o[0]), u16(o[1]), u16(o[2]), false, true, false)};
    }));
    m.push_back(exact("sqrt.rn.f64", OutFmt::f64, [](const uint64_t* o) { return f64_sqrt(o[0], Rd::rn); }));
    m.push_back(exact("cvt.rn.f32.f64", OutFmt::f32,
                      [](const uint64_t* o) { return cvt(o[0], T::f64, T::f32, R::rn); }));
    m.push_back(exact("cvt.rn.f16.f64", OutFmt::f16,
                      [](const uint64_t* o) { return cvt(o[0], T::f64, T::f16, R::rn); }));
    m.push_back(exact("cvt.rzi.s32.f64", OutFmt::integer,
                      [](const uint64_t* o) { return cvt(o[0], T::f64, T::s32, R::rzi) & 0xffffffffu; }));
    m.push_back(exact("cvt.rni.u64.f64", OutFmt::integer,
                      [](const uint64_t* o) { return cvt(o[0], T::f64, T::u64, R::rni); }));
    m.push_back(exact("cvt.rmi.f64.f64", OutFmt::f64,
                      [](const uint64_t* o) { return cvt(o[0], T::f64, T::f64, R::rmi); }));
    m.push_back(
        exact("add.rn.f64", OutFmt::f64, [](const uint64_t* o) { return f64_add(o[0], o[1], Rd::rn); }));
    m.push_back(
        exact("mul.rz.f64", OutFmt::f64, [](const uint64_t* o) { return f64_mul(o[0], o[1], Rd::rz); }));
    m.push_back(
        exact("div.rn.f64", OutFmt::f64, [](const uint64_t* o) { return f64_div(o[0], o[1], Rd::rn); }));
    m.push_back(exact("min.f64", OutFmt::f64, [](const uint64_t* o) { return f64_min(o[0], o[1], false); }));
    m.push_back(exact("fma.rn.f64", OutFmt::f64,
                      [](const uint64_t* o) { return f64_fma(o[0], o[1], o[2], Rd::rn); }));
    m.push_back(exact("fma.rp.f64", OutFmt::f64,
                      [](const uint64_t* o) { return f64_fma(o[0], o[1], o[2], Rd::rp); }));
    m.push_back(
        exact("neg.bf16", OutFmt::bf16, [](const uint64_t* o) { return uint64_t{bf16_neg(u16(o[0]))}; }));
    m.push_back(
        exact("abs.f16", OutFmt::f16, [](const uint64_t* o) { return uint64_t{f16_abs(u16(o[0]), false)}; }));
    m.push_back(exact("cvt.f64.f16", OutFmt::f64,
                      [](const uint64_t* o) { return cvt(o[0], T::f16, T::f64, R::none); }));
    m.push_back(exact("cvt.rn.bf16.f64", OutFmt::bf16,
                      [](const uint64_t* o) { return cvt(o[0], T::f64, T::bf16, R::rn); }));
    m.push_back(exact("cvt.rn.ftz.f32.f64", OutFmt::f32,
                      [](const uint64_t* o) { return cvt(o[0], T::f64, T::f32, R::rn, true); }));
    m.push_back(exact("fma.rn.ftz.f16", OutFmt::f16, [](const uint64_t* o) {
        return uint64_t{f16_fma(u16(o[0]), u16(o[1]), u16(o[2]), true, false, false)};
    }));
    m.push_back(exact("max.f64", OutFmt::f64, [](const uint64_t* o) { return f64_max(o[0], o[1], false); }));
    m.push_back(
        exact("sub.rn.f64", OutFmt::f64, [](const uint64_t* o) { return f64_sub(o[0], o[1], Rd::rn); }));
    m.push_back(exact("sub.rn.f32", OutFmt::f32, [](const uint64_t* o) {
        return uint64_t{f32_sub(u32(o[0]), u32(o[1]), Rd::rn, false)};
    }));
    m.push_back(exact("cvt.rzi.s64.f64", OutFmt::integer,
                      [](const uint64_t* o) { return cvt(o[0], T::f64, T::s64, R::rzi); }));
    m.push_back(exact("cvt.rn.f32.s32", OutFmt::f32,
                      [](const uint64_t* o) { return cvt(o[0], T::s32, T::f32, R::rn); }));
    m.push_back(exact("cvt.rp.f16.u32", OutFmt::f16,
                      [](const uint64_t* o) { return cvt(o[0], T::u32, T::f16, R::rp); }));
    m.push_back(exact("cvt.rm.f32.s64", OutFmt::f32,
                      [](const uint64_t* o) { return cvt(o[0], T::s64, T::f32, R::rm); }));
    m.push_back(exact("cvt.sat.s8.s32", OutFmt::integer, [](const uint64_t* o) {
        return cvt(o[0], T::s32, T::s8, R::none, false, true) & 0xffff;
    }));
    return m;
}

}  // namespace

const std::vector<SfuModel>& sfu_models() {
    static const std::vector<SfuModel> all = [] {
        std::vector<SfuModel> v = approx_models();
        for (auto& m : exact_f32_models()) v.push_back(std::move(m));
        for (auto& m : exact_half_f64_models()) v.push_back(std::move(m));
        return v;
    }();
    return all;
}

}  // namespace warpsim::arith::testing
