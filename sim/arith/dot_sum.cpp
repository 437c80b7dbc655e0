// sim/arith/dot_sum.cpp — mma.sync's sums of products (the model is in dot_sum.hpp): values decoded to
// (sign, integer significand, power of two), truncated to the 25-bit window below the largest term, added
// as integers, and the sum truncated to f32.
#include "sim/arith/dot_sum.hpp"

#include <algorithm>
#include <bit>
#include <vector>

namespace warpsim::arith {

namespace {

constexpr int kWindow = 25;  // bits kept below the largest term's alignment exponent

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
    case DotFormat::f16: return decode(v & 0xffffu, 5, 10);
    case DotFormat::bf16: return decode(v & 0xffffu, 8, 7);
    default: return decode(v >> 13, 8, 10);  // tf32: f32's sign and exponent, 10 fraction bits
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

}  // namespace

uint32_t dot_f32(std::span<const uint32_t> a, std::span<const uint32_t> b, DotFormat in, uint32_t c) {
    constexpr uint32_t kNaN = 0x7fffffffu;
    bool pos_inf = false, neg_inf = false;
    std::vector<Term> terms;
    terms.reserve(a.size() + 1);
    const Decoded dc = decode(c, 8, 23);
    if (dc.nan) return kNaN;
    if (dc.inf) (dc.neg ? neg_inf : pos_inf) = true;
    else if (dc.mant) terms.push_back({dc.neg, dc.mant, dc.exp, dc.lead()});
    for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) {
        const Decoded x = decode_in(a[k], in), y = decode_in(b[k], in);
        if (x.nan || y.nan) return kNaN;
        const bool neg = x.neg != y.neg;
        if (x.inf || y.inf) {
            if ((!x.inf && x.mant == 0) || (!y.inf && y.mant == 0)) return kNaN;  // inf * 0
            (neg ? neg_inf : pos_inf) = true;
            continue;
        }
        if (x.mant && y.mant) terms.push_back({neg, x.mant * y.mant, x.exp + y.exp, x.lead() + y.lead()});
    }
    if (pos_inf && neg_inf) return kNaN;
    if (pos_inf) return 0x7f800000u;
    if (neg_inf) return 0xff800000u;
    if (terms.empty()) return 0;
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
    return truncate_to_f32(sum < 0, sum < 0 ? static_cast<uint64_t>(-sum) : static_cast<uint64_t>(sum), unit);
}

}  // namespace warpsim::arith
