// sim/arith/dot_sum.cpp — mma.sync's sums of products (the model is in dot_sum.hpp): values decoded to
// (sign, integer significand, power of two), truncated to the 25-bit window below the largest term, added
// as integers, and the sum truncated to f32.
#include "sim/arith/dot_sum.hpp"

#include <algorithm>
#include <bit>
#include <vector>

namespace warpsim::arith {

namespace {

constexpr int kWindow = 25;           // bits kept below the largest term's alignment exponent
constexpr uint32_t kNaN16 = 0x7fffu;  // the NaN an f16 result gets (as the f32 one is 0x7fffffff)

struct Decoded {
    bool neg = false;
    bool inf = false, nan = false;
    uint64_t mant = 0;  // value = mant * 2^exp
    int exp = 0;
    int lead() const { return exp + static_cast<int>(std::bit_width(mant)) - 1; }  // leading-bit exponent
};

// A binary format with `e` exponent bits and `m` stored significand bits, taken from the low bits of v.
Decoded decode(uint32_t v, int e, int m) {
    Decoded d;
    const uint32_t emax = (1u << e) - 1, bias = emax >> 1;
    d.neg = (v >> (e + m)) & 1;
    const uint32_t ex = (v >> m) & emax, fr = v & ((1u << m) - 1);
    if (ex == emax) {
        d.nan = fr != 0;
        d.inf = fr == 0;
        return d;
    }
    d.mant = ex ? (uint64_t{1} << m) | fr : fr;
    d.exp = static_cast<int>(ex ? ex : 1) - static_cast<int>(bias) - m;
    return d;
}

Decoded decode_in(uint32_t v, DotFormat f) {
    switch (f) {
        case DotFormat::f16:
            return decode(v & 0xffffu, 5, 10);
        case DotFormat::bf16:
            return decode(v & 0xffffu, 8, 7);
        default:
            return decode(v >> 13, 8, 10);  // tf32: f32's sign and exponent, 10 fraction bits
    }
}

struct Term {
    bool neg = false;
    uint64_t mant = 0;
    int exp = 0;    // value = mant * 2^exp
    int align = 0;  // alignment exponent
};

// |sum| * 2^exp truncated to f32 bits with the given sign.
uint32_t truncate_to_f32(bool neg, uint64_t mag, int exp) {
    const uint32_t sign = neg ? 0x80000000u : 0;
    if (mag == 0) return 0;  // an exact zero is +0
    const int lead = exp + static_cast<int>(std::bit_width(mag)) - 1;
    if (lead > 127) return sign | 0x7f800000u;
    const int lsb = lead >= -126 ? lead - 23 : -149;  // weight of the f32 result's last bit
    const uint64_t m = lsb >= exp ? (lsb - exp >= 64 ? 0 : mag >> (lsb - exp)) : mag << (exp - lsb);
    if (m == 0) return sign;
    if (lead < -126) return sign | static_cast<uint32_t>(m);  // subnormal
    return sign | static_cast<uint32_t>(lead + 127) << 23 | static_cast<uint32_t>(m & 0x7fffffu);
}

// The terms' sum truncated to the adder's window, or a special outcome (NaN, +inf, -inf) when one wins.
struct WindowSum {
    enum class Kind : uint8_t { finite, nan, pos_inf, neg_inf } kind = Kind::finite;
    bool neg = false;
    uint64_t mag = 0;  // |sum| = mag * 2^unit
    int unit = 0;
};

WindowSum window_sum(std::span<const uint32_t> a, std::span<const uint32_t> b, DotFormat in,
                     const Decoded& dc) {
    using K = WindowSum::Kind;
    bool pos_inf = false, neg_inf = false;
    std::vector<Term> terms;
    terms.reserve(a.size() + 1);
    if (dc.nan) return {K::nan};
    if (dc.inf)
        (dc.neg ? neg_inf : pos_inf) = true;
    else if (dc.mant)
        terms.push_back({dc.neg, dc.mant, dc.exp, dc.lead()});
    for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) {
        const Decoded x = decode_in(a[k], in), y = decode_in(b[k], in);
        if (x.nan || y.nan) return {K::nan};
        const bool neg = x.neg != y.neg;
        if (x.inf || y.inf) {
            if ((!x.inf && x.mant == 0) || (!y.inf && y.mant == 0)) return {K::nan};  // inf * 0
            (neg ? neg_inf : pos_inf) = true;
            continue;
        }
        if (x.mant && y.mant) terms.push_back({neg, x.mant * y.mant, x.exp + y.exp, x.lead() + y.lead()});
    }
    if (pos_inf && neg_inf) return {K::nan};
    if (pos_inf) return {K::pos_inf};
    if (neg_inf) return {K::neg_inf};
    if (terms.empty()) return {};
    int top = terms.front().align;
    for (const Term& t : terms) top = std::max(top, t.align);
    // Every truncated term is an integer multiple of 2^(top - kWindow) below 2^(kWindow + 2): the sum of at
    // most 33 of them fits an int64.
    const int unit = top - kWindow;
    int64_t sum = 0;
    for (const Term& t : terms) {
        const int shift = unit - t.exp;
        const uint64_t m = shift <= 0 ? t.mant << -shift : shift >= 64 ? 0 : t.mant >> shift;
        sum += t.neg ? -static_cast<int64_t>(m) : static_cast<int64_t>(m);
    }
    WindowSum w;
    w.neg = sum < 0;
    w.mag = sum < 0 ? static_cast<uint64_t>(-sum) : static_cast<uint64_t>(sum);
    w.unit = unit;
    return w;
}

// mag * 2^exp (mag > 0) rounded to nearest, ties to even, as f16 bits with the given sign; overflow gives
// infinity.
uint16_t round_to_f16(bool neg, uint64_t mag, int exp) {
    const uint16_t sign = neg ? 0x8000 : 0;
    const int lead = exp + static_cast<int>(std::bit_width(mag)) - 1;
    if (lead > 15) return sign | 0x7c00;
    const int lsb = lead >= -14 ? lead - 10 : -24;  // weight of the f16 result's last bit
    uint64_t m;
    if (lsb <= exp) {
        m = mag << (exp - lsb);
    } else {
        const int drop = lsb - exp;
        if (drop >= 64) return sign;  // below half of the smallest subnormal
        m = mag >> drop;
        const uint64_t rest = mag & ((uint64_t{1} << drop) - 1), half = uint64_t{1} << (drop - 1);
        if (rest > half || (rest == half && (m & 1))) ++m;
    }
    // m may have carried into the next binade (or out of the subnormals): re-read its leading bit.
    if (m == 0) return sign;
    const int lead2 = lsb + static_cast<int>(std::bit_width(m)) - 1;
    if (lead2 > 15) return sign | 0x7c00;
    if (lead2 < -14) return sign | static_cast<uint16_t>(m);     // subnormal
    const int shift = static_cast<int>(std::bit_width(m)) - 11;  // 0, or 1 after a carry into the next binade
    return sign | static_cast<uint16_t>((lead2 + 15) << 10 | ((m >> shift) & 0x3ffu));
}

}  // namespace

uint32_t dot_f32(std::span<const uint32_t> a, std::span<const uint32_t> b, DotFormat in, uint32_t c) {
    const WindowSum w = window_sum(a, b, in, decode(c, 8, 23));
    switch (w.kind) {
        case WindowSum::Kind::nan:
            return 0x7fffffffu;
        case WindowSum::Kind::pos_inf:
            return 0x7f800000u;
        case WindowSum::Kind::neg_inf:
            return 0xff800000u;
        default:
            return truncate_to_f32(w.neg, w.mag, w.unit);
    }
}

uint32_t dot_acc(std::span<const uint32_t> a, std::span<const uint32_t> b, DotFormat in, uint32_t c,
                 DotAcc c_type, DotAcc d_type) {
    const WindowSum w =
        window_sum(a, b, in, c_type == DotAcc::f16 ? decode(c & 0xffffu, 5, 10) : decode(c, 8, 23));
    const bool f16 = d_type == DotAcc::f16;
    switch (w.kind) {
        case WindowSum::Kind::nan:
            return f16 ? kNaN16 : 0x7fffffffu;
        case WindowSum::Kind::pos_inf:
            return f16 ? 0x7c00u : 0x7f800000u;
        case WindowSum::Kind::neg_inf:
            return f16 ? 0xfc00u : 0xff800000u;
        default:
            if (!f16) return truncate_to_f32(w.neg, w.mag, w.unit);
            return w.mag == 0 ? 0 : round_to_f16(w.neg, w.mag, w.unit);
    }
}

}  // namespace warpsim::arith
