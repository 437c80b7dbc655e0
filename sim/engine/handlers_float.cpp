// sim/engine/handlers_float.cpp — f32/f64/f16/f16x2/bf16/bf16x2 arithmetic, the .approx special functions,
// copysign and testp, all through sim/arith (bit-exact: rounding modes, .ftz, .sat, .relu, NaN rules).
#include <algorithm>
#include <bit>
#include <cmath>

#include "sim/arith/approx.hpp"
#include "sim/arith/float_ops.hpp"
#include "sim/arith/slow_path.hpp"
#include "sim/engine/dispatch.hpp"
#include "sim/engine/fma_warp.hpp"
#include "sim/engine/handler_util.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define WARPSIM_FMA_AVX2 1
#endif

namespace warpsim::engine {

namespace {

using arith::Round;

enum class F : uint8_t {
    add,
    sub,
    mul,
    fma,
    div,
    abs,
    neg,
    min,
    max,
    rcp,
    sqrt,
    rsqrt,
    sin,
    cos,
    lg2,
    ex2,
    tanh,
    copysign
};
enum class Fmt : uint8_t { f32, f64, f16, bf16 };

// The instruction's modifiers, read once per warp-level execution.
struct Mods {
    Round rnd = Round::rn;
    bool has_rnd = false, ftz = false, sat = false, relu = false, nan = false, xorsign = false,
         approx = false, full = false;
    explicit Mods(const ir::Details& d)
        : rnd(arith::to_round(d.rnd)),
          has_rnd(d.rnd != ir::Rounding::none),
          ftz(d.ftz),
          sat(d.sat),
          relu(d.relu),
          nan(d.nan),
          xorsign(d.xorsign),
          approx(d.approx),
          full(d.full) {}
};

// min/max.xorsign.abs: the min/max of |a| and |b| with the sign sign(a) ^ sign(b) (PTX ISA 9.7.3.11); a NaN
// result stays the canonical NaN.
template <class Op>
uint64_t xorsign_abs(uint64_t a, uint64_t b, uint64_t sign_bit, uint64_t nan_bits, Op op) {
    const uint64_t r = op(a & ~sign_bit, b & ~sign_bit);
    return r == nan_bits ? r : r | ((a ^ b) & sign_bit);
}

// The host's IEEE f32 add/sub/mul/fma (round to nearest even: nothing in warpsim changes MXCSR) give the same
// bits as sim/arith when every input is zero or normal and the result is normal and not near the subnormal
// range: then there is no NaN payload, infinity, flush-to-zero or zero-sign rule to follow. Anything else
// (or a .rz/.rm/.rp instruction) goes to sim/arith. This is only a shortcut for the common case.
bool f32_plain(uint32_t v) {
    const uint32_t e = (v >> 23) & 0xffu;
    return e != 0xffu && (e != 0 || (v & 0x7fffffffu) == 0);
}
bool f32_safe_result(float r) {
    const uint32_t e = (std::bit_cast<uint32_t>(r) >> 23) & 0xffu;
    return e > 1 && e != 0xffu;
}
// fma through f64: the product of two f32 values is exact in f64 (24 + 24 significant bits), so s = x*y + z
// has one rounding, to f64. Converting s to f32 rounds a second time, and that gives the single f32 rounding
// of the exact x*y + z unless s lies exactly halfway between two f32 values: f32 values and their midpoints
// are f64 values, and rounding to f64 is monotonic, so s stays on the exact value's side of every f32 value
// and midpoint, reaching a midpoint only by rounding onto it. A midpoint (the 29 bits below f32 precision
// of a normal f32 result read 1000...0) therefore goes to sim/arith; so do non-normal results (below).
bool f32_fma_via_f64(float x, float y, float z, float& r) {
    const double s = static_cast<double>(x) * static_cast<double>(y) + static_cast<double>(z);
    if ((std::bit_cast<uint64_t>(s) & 0x1fffffffu) == 0x10000000u) return false;
    r = static_cast<float>(s);
    return true;
}
// Without .ftz the inputs need no check: every finite f32 value, subnormals included, is exact in f64 and
// in the host's IEEE arithmetic (which keeps subnormals: nothing sets MXCSR's DAZ/FTZ), and a NaN or
// infinite input makes the result NaN or infinite, which f32_safe_result turns away. With .ftz a subnormal
// input must be read as zero: such lanes (and NaN/infinity) go to sim/arith.
template <F Op, bool CheckInputs>
[[gnu::always_inline]] inline bool f32_fast(uint32_t a, uint32_t b, uint32_t c, uint32_t& out) {
    if (CheckInputs && (!f32_plain(a) || !f32_plain(b) || (Op == F::fma && !f32_plain(c)))) return false;
    const float x = std::bit_cast<float>(a), y = std::bit_cast<float>(b);
    float r;
    if constexpr (Op == F::add)
        r = x + y;
    else if constexpr (Op == F::sub)
        r = x - y;
    else if constexpr (Op == F::mul)
        r = x * y;
    else if (!f32_fma_via_f64(x, y, std::bit_cast<float>(c), r))
        return false;
    // Without .ftz a host add, sub or mul is the IEEE operation itself, rounded once: its zeros (with their
    // signs), subnormals and infinities are the GPU's, and only a NaN (whose bits must be the canonical NaN)
    // needs sim/arith. fma's f64 route rounds twice, and .ftz flushes, so those keep the narrower test.
    if (Op != F::fma && !CheckInputs ? std::isnan(r) : !f32_safe_result(r)) return false;
    out = std::bit_cast<uint32_t>(r);
    return true;
}

#if defined(__SSE2__)
// fma.rn.f32 without .ftz over a full warp, two lanes per SSE2 instruction: the f64 route of f32_fma_via_f64
// and the check of f32_safe_result, in the same operations and order, so the same bits. A pair with a lane
// the check turns away is done lane by lane (that lane through sim/arith); each lane's inputs are read
// before its slot is written, so a destination that is also a source is safe.
void f32_fma_full_warp(uint64_t* d, const uint64_t* a, const uint64_t* b, const uint64_t* c) {
    const __m128i low_bits = _mm_set_epi32(0, 0x1fffffff, 0, 0x1fffffff);
    const __m128i midpoint = _mm_set_epi32(0, 0x10000000, 0, 0x10000000);
    const __m128i exponent = _mm_set1_epi32(0xff), two = _mm_set1_epi32(2);
    const auto low_floats = [](const uint64_t* p) {  // the f32 in the low half of two 64-bit slots, as f64
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        return _mm_cvtps_pd(_mm_castsi128_ps(_mm_shuffle_epi32(v, _MM_SHUFFLE(3, 1, 2, 0))));
    };
    for (uint32_t l = 0; l < 32; l += 2) {
        const __m128d s = _mm_add_pd(_mm_mul_pd(low_floats(a + l), low_floats(b + l)), low_floats(c + l));
        const __m128i mid = _mm_cmpeq_epi32(_mm_and_si128(_mm_castpd_si128(s), low_bits), midpoint);
        const __m128i r = _mm_castps_si128(_mm_cvtpd_ps(s));
        const __m128i e = _mm_and_si128(_mm_srli_epi32(r, 23), exponent);
        const __m128i unsafe = _mm_or_si128(_mm_cmplt_epi32(e, two), _mm_cmpeq_epi32(e, exponent));
        const int mid_lanes = _mm_movemask_ps(_mm_castsi128_ps(mid));  // bits 0 and 2
        if (((_mm_movemask_ps(_mm_castsi128_ps(unsafe)) & 3) | (mid_lanes & 5)) == 0) {
            _mm_storeu_si128(reinterpret_cast<__m128i*>(d + l), _mm_unpacklo_epi32(r, _mm_setzero_si128()));
            continue;
        }
        for (uint32_t j = l; j < l + 2; ++j) {
            uint32_t out = 0;
            if (!f32_fast<F::fma, false>(uint32_t(a[j]), uint32_t(b[j]), uint32_t(c[j]), out))
                out = arith::f32_fma(uint32_t(a[j]), uint32_t(b[j]), uint32_t(c[j]), Round::rn, false);
            d[j] = out;
        }
    }
}
#endif

#if defined(WARPSIM_FMA_AVX2)
// The f32 in the low half of four 64-bit slots, as f64 (a function of its own: a lambda would not inherit
// the target attribute).
[[gnu::target("avx2")]] inline __m256d low_floats_avx2(const uint64_t* p) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const __m256i packed = _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6));
    return _mm256_cvtps_pd(_mm_castsi128_ps(_mm256_castsi256_si128(packed)));
}

// The same over four lanes per AVX2 instruction, for CPUs that have it (f32_fma_full_warp picks at run
// time; the build targets plain x86-64): vcvtps2pd, vmulpd, vaddpd and vcvtpd2ps are the same IEEE
// operations as their SSE2 forms, under the same MXCSR, and the midpoint and exponent tests are the same
// tests, so every lane gets the same bits as on the two-lane path. The target is AVX2 without FMA, so the
// compiler cannot fuse the multiply and the add into one rounding.
[[gnu::target("avx2")]] void f32_fma_full_warp_avx2(uint64_t* d, const uint64_t* a, const uint64_t* b,
                                                    const uint64_t* c) {
    const __m256i low_bits = _mm256_set1_epi64x(0x1fffffff), midpoint = _mm256_set1_epi64x(0x10000000);
    const __m128i exponent = _mm_set1_epi32(0xff), two = _mm_set1_epi32(2);
    for (uint32_t l = 0; l < 32; l += 4) {
        const __m256d s = _mm256_add_pd(_mm256_mul_pd(low_floats_avx2(a + l), low_floats_avx2(b + l)),
                                        low_floats_avx2(c + l));
        const __m256i mid = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_castpd_si256(s), low_bits), midpoint);
        const __m128i r = _mm_castps_si128(_mm256_cvtpd_ps(s));
        const __m128i e = _mm_and_si128(_mm_srli_epi32(r, 23), exponent);
        const __m128i unsafe = _mm_or_si128(_mm_cmplt_epi32(e, two), _mm_cmpeq_epi32(e, exponent));
        if ((_mm_movemask_ps(_mm_castsi128_ps(unsafe)) | _mm256_movemask_pd(_mm256_castsi256_pd(mid))) == 0) {
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + l), _mm256_cvtepu32_epi64(r));
            continue;
        }
        for (uint32_t j = l; j < l + 4; ++j) {
            uint32_t out = 0;
            if (!f32_fast<F::fma, false>(uint32_t(a[j]), uint32_t(b[j]), uint32_t(c[j]), out))
                out = arith::f32_fma(uint32_t(a[j]), uint32_t(b[j]), uint32_t(c[j]), Round::rn, false);
            d[j] = out;
        }
    }
}
#endif

uint64_t f32_op(F op, uint32_t a, uint32_t b, uint32_t c, const Mods& m) {
    namespace A = arith;
    switch (op) {
        case F::add:
            return A::f32_add(a, b, m.rnd, m.ftz);
        case F::sub:
            return A::f32_sub(a, b, m.rnd, m.ftz);
        case F::mul:
            return A::f32_mul(a, b, m.rnd, m.ftz);
        case F::fma:
            return A::f32_fma(a, b, c, m.rnd, m.ftz);
        case F::div:
            if (m.approx) return A::f32_div_approx(a, b, m.ftz);
            if (m.has_rnd) return A::f32_div(a, b, m.rnd, m.ftz);
            return A::f32_div_full(a, b, m.ftz);  // div.full.f32 (and the ill-formed bare div.f32)
        case F::abs:
            return A::f32_abs(a, m.ftz);
        case F::neg:
            return A::f32_neg(a, m.ftz);
        case F::min:
        case F::max: {
            auto mm = [&](uint64_t x, uint64_t y) {
                return op == F::min ? A::f32_min(uint32_t(x), uint32_t(y), m.ftz, m.nan)
                                    : A::f32_max(uint32_t(x), uint32_t(y), m.ftz, m.nan);
            };
            return m.xorsign ? xorsign_abs(a, b, 0x80000000u, arith::kF32CanonicalNaN, mm) : mm(a, b);
        }
        case F::rcp:
            return m.has_rnd ? A::f32_rcp(a, m.rnd, m.ftz) : A::f32_rcp_approx(a, m.ftz);
        case F::sqrt:
            return m.has_rnd ? A::f32_sqrt(a, m.rnd, m.ftz) : A::f32_sqrt_approx(a, m.ftz);
        case F::rsqrt:
            return A::f32_rsqrt_approx(a, m.ftz);
        case F::sin:
            return A::f32_sin_approx(a, m.ftz);
        case F::cos:
            return A::f32_cos_approx(a, m.ftz);
        case F::lg2:
            return A::f32_lg2_approx(a, m.ftz);
        case F::ex2:
            return A::f32_ex2_approx(a, m.ftz);
        case F::tanh:
            return A::f32_tanh_approx(a);
        case F::copysign:
            return A::f32_copysign(a, b);
    }
    return 0;
}

uint64_t f64_op(F op, uint64_t a, uint64_t b, uint64_t c, const Mods& m) {
    namespace A = arith;
    switch (op) {
        case F::add:
            return A::f64_add(a, b, m.rnd);
        case F::sub:
            return A::f64_sub(a, b, m.rnd);
        case F::mul:
            return A::f64_mul(a, b, m.rnd);
        case F::fma:
            return A::f64_fma(a, b, c, m.rnd);
        case F::div:
            return A::f64_div(a, b, m.rnd);
        case F::abs:
            return A::f64_abs(a);
        case F::neg:
            return A::f64_neg(a);
        case F::min:
            return A::f64_min(a, b, m.nan);
        case F::max:
            return A::f64_max(a, b, m.nan);
        case F::rcp:
            return m.approx ? A::f64_rcp_approx_ftz(a) : A::f64_rcp(a, m.rnd);
        case F::sqrt:
            return A::f64_sqrt(a, m.rnd);
        case F::rsqrt:
            return m.ftz ? A::f64_rsqrt_approx_ftz(a) : A::f64_rsqrt_approx(a);
        case F::copysign:
            return A::f64_copysign(a, b);
        default:
            return arith::kF64DefaultNaN;  // not selected (no f64 form)
    }
}

// One 16-bit value of an f16/bf16 instruction (the x2 forms apply it to both halves).
template <bool Bf>
uint16_t half_op(F op, uint16_t a, uint16_t b, uint16_t c, const Mods& m) {
    namespace A = arith;
    auto mm = [&](uint64_t x, uint64_t y) -> uint64_t {
        const auto x16 = uint16_t(x), y16 = uint16_t(y);
        if constexpr (Bf)
            return op == F::min ? A::bf16_min(x16, y16, m.nan) : A::bf16_max(x16, y16, m.nan);
        else
            return op == F::min ? A::f16_min(x16, y16, m.ftz, m.nan) : A::f16_max(x16, y16, m.ftz, m.nan);
    };
    switch (op) {
        case F::add:
            return Bf ? A::bf16_add(a, b) : A::f16_add(a, b, m.ftz, m.sat);
        case F::sub:
            return Bf ? A::bf16_sub(a, b) : A::f16_sub(a, b, m.ftz, m.sat);
        case F::mul:
            return Bf ? A::bf16_mul(a, b) : A::f16_mul(a, b, m.ftz, m.sat);
        case F::fma:
            return Bf ? A::bf16_fma(a, b, c, m.relu) : A::f16_fma(a, b, c, m.ftz, m.sat, m.relu);
        case F::abs:
            return Bf ? A::bf16_abs(a) : A::f16_abs(a, m.ftz);
        case F::neg:
            return Bf ? A::bf16_neg(a) : A::f16_neg(a, m.ftz);
        case F::min:
        case F::max:
            return uint16_t(m.xorsign ? xorsign_abs(a, b, 0x8000u, 0x7fffu, mm) : mm(a, b));
        case F::ex2:
            return Bf ? A::bf16_ex2_approx_ftz(a) : A::f16_ex2_approx(a);
        case F::tanh:
            return Bf ? A::bf16_tanh_approx(a) : A::f16_tanh_approx(a);
        default:
            return 0x7fff;  // not selected
    }
}

// The lanes of e for which test(lane) holds, as a mask.
template <class Test>
uint32_t lanes_where(uint32_t e, Test test) {
    uint32_t mask = 0;
    for_lanes(e, [&](uint32_t l) { mask |= static_cast<uint32_t>(test(l)) << l; });
    return mask;
}

// The lanes of an f32 div.rn / rcp.rn whose operands send its SASS down the slow-path subroutine, told to the
// counters (before the destination, which may be a source, is written).
template <F Op>
void note_slow_path(Exec& x, const DInst& in, uint32_t e, const uint64_t* a, const uint64_t* b) {
    const uint32_t slow = lanes_where(e, [&](uint32_t l) {
        return Op == F::div ? arith::f32_div_rn_slow_path(uint32_t(a[l]), uint32_t(b[l]))
                            : arith::f32_rcp_rn_slow_path(uint32_t(a[l]));
    });
    if (slow != 0) x.block->counters->on_slow_path(x.frame->code->index, in.pc, slow);
}

// The lanes of an f32 .approx instruction (without .ftz) whose operands ptxas's SASS scales around the MUFU,
// told to the counters (before the destination, which may be a source, is written).
template <F Op>
void note_scaled(Exec& x, const DInst& in, uint32_t e, const uint64_t* a, const uint64_t* b) {
    const uint32_t scaled = lanes_where(e, [&](uint32_t l) {
        return Op == F::ex2   ? arith::f32_below_minus_126(uint32_t(a[l]))
               : Op == F::div ? arith::f32_below_min_normal(uint32_t(b[l]))
                              : arith::f32_below_min_normal(uint32_t(a[l]));
    });
    if (scaled != 0) x.block->counters->on_scaled(x.frame->code->index, in.pc, scaled);
}

template <F Op, Fmt T, int N>
void float_handler(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]), *c = lanes_of(x, in.src[2]);
    const Mods m(in.ir->d);
    constexpr bool kFastOp = Op == F::add || Op == F::sub || Op == F::mul || Op == F::fma;
    const bool fast = kFastOp && m.rnd == Round::rn;
    if constexpr (T == Fmt::f32 && kFastOp) {
        if (fast && !m.sat) {
            // Host arithmetic for the lanes it can do, sim/arith for the rest afterwards: a small lane body
            // the compiler keeps inside the lane loop. Each lane reads and writes only its own slot, so a
            // destination that is also a source is safe.
#if defined(__SSE2__)
            // The widest path as f32_fma_rn_full_warp(..., FmaWarpPath::widest) picks it, called here
            // directly (the path switch costs matmul 1 % of its instructions).
            if (Op == F::fma && e == 0xffffffffu && !m.ftz) {
#if defined(WARPSIM_FMA_AVX2)
                if (__builtin_cpu_supports("avx2")) {
                    f32_fma_full_warp_avx2(d, a, b, c);
                    return;
                }
#endif
                f32_fma_full_warp(d, a, b, c);
                return;
            }
#endif
            uint32_t rest = 0;
            const auto lanes = [&]<bool Ftz>() {
                for_lanes(e, [&](uint32_t l) {
                    uint32_t r = 0;
                    if (f32_fast<Op, Ftz>(uint32_t(a[l]), uint32_t(b[l]), uint32_t(c[l]), r))
                        d[l] = r;
                    else
                        rest |= 1u << l;
                });
            };
            if (m.ftz)
                lanes.template operator()<true>();
            else
                lanes.template operator()<false>();
            for_lanes(rest, [&](uint32_t l) {
                d[l] = uint32_t(f32_op(Op, uint32_t(a[l]), uint32_t(b[l]), uint32_t(c[l]), m));
            });
            return;
        }
    }
    if constexpr (T == Fmt::f32 && (Op == F::div || Op == F::rcp)) {
        if (x.block->counters != nullptr && m.has_rnd && m.rnd == Round::rn && !m.ftz)
            note_slow_path<Op>(x, in, e, a, b);
    }
    if constexpr (T == Fmt::f32 &&
                  (Op == F::rsqrt || Op == F::sqrt || Op == F::lg2 || Op == F::ex2 || Op == F::div)) {
        if (x.block->counters != nullptr && m.approx && !m.ftz) note_scaled<Op>(x, in, e, a, b);
    }
    for_lanes(e, [&](uint32_t l) {
        if constexpr (T == Fmt::f32) {
            uint32_t r = 0;
            if (!fast || !f32_fast<Op, true>(uint32_t(a[l]), uint32_t(b[l]), uint32_t(c[l]), r))
                r = uint32_t(f32_op(Op, uint32_t(a[l]), uint32_t(b[l]), uint32_t(c[l]), m));
            d[l] = m.sat ? arith::f32_sat(r) : r;
        } else if constexpr (T == Fmt::f64) {
            d[l] = f64_op(Op, a[l], b[l], c[l], m);
        } else {
            uint64_t out = 0;
            for (int k = 0; k < N; ++k) {
                const int sh = 16 * k;
                const uint16_t h = half_op<T == Fmt::bf16>(Op, uint16_t(a[l] >> sh), uint16_t(b[l] >> sh),
                                                           uint16_t(c[l] >> sh), m);
                out |= uint64_t{h} << sh;
            }
            d[l] = out;
        }
    });
}

template <F Op>
Handler by_float_type(ir::Type t) {
    switch (t) {
        case ir::Type::f32:
            return &float_handler<Op, Fmt::f32, 1>;
        case ir::Type::f64:
            return &float_handler<Op, Fmt::f64, 1>;
        case ir::Type::f16:
            return &float_handler<Op, Fmt::f16, 1>;
        case ir::Type::f16x2:
            return &float_handler<Op, Fmt::f16, 2>;
        case ir::Type::bf16:
            return &float_handler<Op, Fmt::bf16, 1>;
        case ir::Type::bf16x2:
            return &float_handler<Op, Fmt::bf16, 2>;
        default:
            return nullptr;
    }
}

// testp.op.type p, a
template <arith::TestOp Op, ir::Type T>
void testp(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t* a = lanes_of(x, in.src[0]);
    for_lanes(e, [&](uint32_t l) { d[l] = arith::testp(a[l], T, Op); });
}

template <ir::Type T>
Handler testp_for(const ir::Instruction& inst) {
    using O = arith::TestOp;
    for (const auto& m : inst.mods) {
        if (m == "finite") return &testp<O::finite, T>;
        if (m == "infinite") return &testp<O::infinite, T>;
        if (m == "number") return &testp<O::number, T>;
        if (m == "notanumber") return &testp<O::notanumber, T>;
        if (m == "normal") return &testp<O::normal, T>;
        if (m == "subnormal") return &testp<O::subnormal, T>;
    }
    return nullptr;
}

// mul + add/sub fused by the code generator: one rounding (.rn), the add's .ftz.
template <bool F64, bool NegP, bool NegC>
void contracted(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]), *c = lanes_of(x, in.src[2]);
    const bool ftz = in.ir->d.ftz;
    constexpr uint64_t sign = F64 ? 0x8000000000000000ull : 0x80000000u;
    for_lanes(e, [&](uint32_t l) {
        const uint64_t av = NegP ? a[l] ^ sign : a[l], cv = NegC ? c[l] ^ sign : c[l];
        if constexpr (F64)
            d[l] = arith::f64_fma(av, b[l], cv, Round::rn);
        else {
            uint32_t r = 0;
            if (!f32_fast<F::fma, true>(uint32_t(av), uint32_t(b[l]), uint32_t(cv), r))
                r = arith::f32_fma(uint32_t(av), uint32_t(b[l]), uint32_t(cv), Round::rn, ftz);
            d[l] = r;
        }
    });
}

}  // namespace

bool f32_fma_rn_full_warp(uint64_t* d, const uint64_t* a, const uint64_t* b, const uint64_t* c,
                          FmaWarpPath path) {
#if defined(WARPSIM_FMA_AVX2)
    const bool avx2 = __builtin_cpu_supports("avx2");
#else
    const bool avx2 = false;
#endif
#if defined(__SSE2__)
    const bool sse2 = true;
#else
    const bool sse2 = false;
#endif
    if (path == FmaWarpPath::widest)
        path = avx2 ? FmaWarpPath::avx2 : sse2 ? FmaWarpPath::sse2 : FmaWarpPath::lanes;
    switch (path) {
        case FmaWarpPath::avx2:
            if (!avx2) return false;
#if defined(WARPSIM_FMA_AVX2)
            f32_fma_full_warp_avx2(d, a, b, c);
#endif
            return true;
        case FmaWarpPath::sse2:
            if (!sse2) return false;
#if defined(__SSE2__)
            f32_fma_full_warp(d, a, b, c);
#endif
            return true;
        default:
            for (uint32_t l = 0; l < 32; ++l) {
                uint32_t out = 0;
                if (!f32_fast<F::fma, false>(uint32_t(a[l]), uint32_t(b[l]), uint32_t(c[l]), out))
                    out = arith::f32_fma(uint32_t(a[l]), uint32_t(b[l]), uint32_t(c[l]), Round::rn, false);
                d[l] = out;
            }
            return true;
    }
}

Handler contracted_fma(ir::Type type, bool neg_product, bool neg_addend) {
    if (type == ir::Type::f32)
        return neg_product  ? &contracted<false, true, false>
               : neg_addend ? &contracted<false, false, true>
                            : &contracted<false, false, false>;
    if (type == ir::Type::f64)
        return neg_product  ? &contracted<true, true, false>
               : neg_addend ? &contracted<true, false, true>
                            : &contracted<true, false, false>;
    return nullptr;
}

Handler select_float(const ir::Instruction& inst, DInst&, const SelectContext&) {
    using O = ir::Opcode;
    const auto t = inst.d.type;
    if (!ir::is_float(t)) return nullptr;
    const bool f32 = t == ir::Type::f32, f64 = t == ir::Type::f64, half = !f32 && !f64;
    switch (inst.op) {
        case O::add:
            return by_float_type<F::add>(t);
        case O::sub:
            return by_float_type<F::sub>(t);
        case O::mul:
            return by_float_type<F::mul>(t);
        case O::fma:
        case O::mad:
            return by_float_type<F::fma>(t);
        case O::div:
            return half ? nullptr : by_float_type<F::div>(t);
        case O::abs:
            return by_float_type<F::abs>(t);
        case O::neg:
            return by_float_type<F::neg>(t);
        case O::min:
            return f64 && inst.d.xorsign ? nullptr : by_float_type<F::min>(t);
        case O::max:
            return f64 && inst.d.xorsign ? nullptr : by_float_type<F::max>(t);
        case O::rcp:
            return half ? nullptr : by_float_type<F::rcp>(t);
        case O::sqrt:
            return half ? nullptr : by_float_type<F::sqrt>(t);
        case O::rsqrt:
            return half ? nullptr : by_float_type<F::rsqrt>(t);
        case O::sin:
            return f32 ? by_float_type<F::sin>(t) : nullptr;
        case O::cos:
            return f32 ? by_float_type<F::cos>(t) : nullptr;
        case O::lg2:
            return f32 ? by_float_type<F::lg2>(t) : nullptr;
        case O::ex2:
            return f64 ? nullptr : by_float_type<F::ex2>(t);
        case O::tanh:
            return f64 ? nullptr : by_float_type<F::tanh>(t);
        case O::copysign:
            return half ? nullptr : by_float_type<F::copysign>(t);
        case O::testp:
            return f32 ? testp_for<ir::Type::f32>(inst) : f64 ? testp_for<ir::Type::f64>(inst) : nullptr;
        default:
            return nullptr;
    }
}

}  // namespace warpsim::engine
