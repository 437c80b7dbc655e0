// sim/engine/handlers_int.cpp — integer arithmetic handlers: add/sub (with .sat and the carry chain),
// mul/mad (lo/hi/wide), mul24/mad24, sad, div/rem, abs/neg/min/max, and the bit-counting family.
#include <algorithm>
#include <bit>
#include <limits>

#include "sim/engine/dispatch.hpp"
#include "sim/engine/handler_util.hpp"

namespace warpsim::engine {

namespace {

template <class T>
using U = std::make_unsigned_t<T>;
template <class T>
using S = std::make_signed_t<T>;
__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

template <class T>
struct Add {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        lane_binary<T>(x, in, e,
                       [](T a, T b) { return static_cast<T>(static_cast<U<T>>(a) + static_cast<U<T>>(b)); });
    }
};
template <class T>
struct Sub {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        lane_binary<T>(x, in, e,
                       [](T a, T b) { return static_cast<T>(static_cast<U<T>>(a) - static_cast<U<T>>(b)); });
    }
};

void add_sat_s32(Exec& x, const DInst& in, uint32_t e) {
    lane_binary<int32_t>(x, in, e, [](int32_t a, int32_t b) {
        int64_t r = int64_t{a} + b;
        return static_cast<int32_t>(std::clamp<int64_t>(r, INT32_MIN, INT32_MAX));
    });
}
void sub_sat_s32(Exec& x, const DInst& in, uint32_t e) {
    lane_binary<int32_t>(x, in, e, [](int32_t a, int32_t b) {
        int64_t r = int64_t{a} - b;
        return static_cast<int32_t>(std::clamp<int64_t>(r, INT32_MIN, INT32_MAX));
    });
}

// The carry chain: add.cc / addc{.cc} / sub.cc / subc{.cc} / mad.lo.cc / madc{.cc}, 32 or 64 bits.
template <class T, bool Sub, bool UseCarry, bool SetCarry>
void carry_op(Exec& x, const DInst& in, uint32_t e) {
    using UT = U<T>;
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t* a = lanes_of(x, in.src[0]);
    const uint64_t* b = lanes_of(x, in.src[1]);
    uint32_t carry = x.warp->carry;
    for_lanes(e, [&](uint32_t l) {
        u128 av = static_cast<UT>(a[l]), bv = static_cast<UT>(b[l]);
        u128 cin = UseCarry ? ((carry >> l) & 1) : 0;
        u128 r;
        bool cout;
        if constexpr (Sub) {
            r = av - bv - cin;  // borrow: CF holds the borrow for subc
            cout = av < bv + cin;
        } else {
            r = av + bv + cin;
            cout = (r >> (8 * sizeof(T))) != 0;
        }
        d[l] = static_cast<UT>(r);
        if (SetCarry) carry = (carry & ~(1u << l)) | (uint32_t{cout} << l);
    });
    x.warp->carry = carry;
}
template <class T, bool UseCarry, bool SetCarry>
void mad_carry(Exec& x, const DInst& in, uint32_t e, bool hi) {
    using UT = U<T>;
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]), *c = lanes_of(x, in.src[2]);
    uint32_t carry = x.warp->carry;
    constexpr int W = 8 * sizeof(T);
    for_lanes(e, [&](uint32_t l) {
        u128 prod;
        if constexpr (std::is_signed_v<T>)
            prod = static_cast<u128>(static_cast<i128>(static_cast<T>(a[l])) * static_cast<T>(b[l]));
        else
            prod = static_cast<u128>(static_cast<UT>(a[l])) * static_cast<UT>(b[l]);
        u128 part = hi ? (prod >> W) : prod;
        part = static_cast<UT>(part);
        u128 r = part + static_cast<UT>(c[l]) + (UseCarry ? ((carry >> l) & 1) : 0);
        d[l] = static_cast<UT>(r);
        if (SetCarry) carry = (carry & ~(1u << l)) | (uint32_t((r >> W) != 0) << l);
    });
    x.warp->carry = carry;
}

template <class T>
U<T> mul_hi(T a, T b) {
    constexpr int W = 8 * sizeof(T);
    if constexpr (std::is_signed_v<T>)
        return static_cast<U<T>>((static_cast<i128>(a) * b) >> W);
    else
        return static_cast<U<T>>((static_cast<u128>(a) * b) >> W);
}
template <class T>
struct MulLo {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        lane_binary<T>(x, in, e,
                       [](T a, T b) { return static_cast<T>(static_cast<U<T>>(a) * static_cast<U<T>>(b)); });
    }
};
template <class T>
struct MulHi {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        lane_binary<T>(x, in, e, [](T a, T b) { return static_cast<T>(mul_hi(a, b)); });
    }
};
template <class T>
struct MulWide {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        uint64_t* d = lanes_of(x, in.dst[0]);
        const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]);
        constexpr uint64_t mask = sizeof(T) >= 4 ? ~0ull : (1ull << (16 * (sizeof(T) & 3))) - 1;
        for_lanes(e, [&](uint32_t l) {
            // Unsigned operands multiply as uint64_t: 0xFFFFFFFF^2 overflows int64_t (undefined behaviour).
            uint64_t p;
            if constexpr (std::is_signed_v<T>)
                p = static_cast<uint64_t>(int64_t{static_cast<T>(a[l])} * int64_t{static_cast<T>(b[l])});
            else
                p = uint64_t{static_cast<T>(a[l])} * uint64_t{static_cast<T>(b[l])};
            d[l] = p & mask;
        });
    }
};
template <class T>
struct MadLo {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        lane_ternary<T>(x, in, e, [](T a, T b, T c) {
            return static_cast<T>(static_cast<U<T>>(a) * static_cast<U<T>>(b) + static_cast<U<T>>(c));
        });
    }
};
template <class T>
struct MadHi {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        lane_ternary<T>(x, in, e,
                        [](T a, T b, T c) { return static_cast<T>(mul_hi(a, b) + static_cast<U<T>>(c)); });
    }
};
template <class T>
struct MadWide {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        uint64_t* d = lanes_of(x, in.dst[0]);
        const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]), *c = lanes_of(x, in.src[2]);
        constexpr uint64_t mask = sizeof(T) >= 4 ? ~0ull : (1ull << (16 * (sizeof(T) & 3))) - 1;
        for_lanes(e, [&](uint32_t l) {
            uint64_t p;
            if constexpr (std::is_signed_v<T>)
                p = static_cast<uint64_t>(int64_t{static_cast<T>(a[l])} * int64_t{static_cast<T>(b[l])});
            else
                p = uint64_t{static_cast<T>(a[l])} * uint64_t{static_cast<T>(b[l])};
            d[l] = (p + c[l]) & mask;
        });
    }
};

template <class T>
int64_t ext24(uint64_t v) {
    if constexpr (std::is_signed_v<T>)
        return static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(v) << 8) >> 8);
    else
        return static_cast<int64_t>(v & 0xffffff);
}
template <class T, bool Hi, bool Mad>
void mul24(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]), *c = lanes_of(x, in.src[2]);
    for_lanes(e, [&](uint32_t l) {
        int64_t p = ext24<T>(a[l]) * ext24<T>(b[l]);  // 48-bit product
        uint32_t r = Hi ? static_cast<uint32_t>(static_cast<uint64_t>(p) >> 16) : static_cast<uint32_t>(p);
        if (Mad) r += static_cast<uint32_t>(c[l]);
        d[l] = r;
    });
}

template <class T>
struct Sad {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        lane_ternary<T>(x, in, e, [](T a, T b, T c) {
            return static_cast<T>(static_cast<U<T>>(a < b ? static_cast<U<T>>(b) - static_cast<U<T>>(a)
                                                          : static_cast<U<T>>(a) - static_cast<U<T>>(b)) +
                                  static_cast<U<T>>(c));
        });
    }
};

// Division by zero is undefined in PTX; the GPU returns all ones for the quotient and the dividend for the
// remainder, and so do we (deterministically, never a host trap). INT_MIN / -1 wraps.
template <class T>
struct Div {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        lane_binary<T>(x, in, e, [](T a, T b) -> T {
            if (b == 0) return static_cast<T>(~U<T>{0});
            if constexpr (std::is_signed_v<T>)
                if (a == std::numeric_limits<T>::min() && b == -1) return a;
            return static_cast<T>(a / b);
        });
    }
};
template <class T>
struct Rem {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        lane_binary<T>(x, in, e, [](T a, T b) -> T {
            if (b == 0) return a;
            if constexpr (std::is_signed_v<T>)
                if (b == -1) return 0;
            return static_cast<T>(a % b);
        });
    }
};
template <class T>
struct Abs {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        lane_unary<T>(x, in, e,
                      [](T a) { return a < 0 ? static_cast<T>(U<T>{0} - static_cast<U<T>>(a)) : a; });
    }
};
template <class T>
struct Neg {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        lane_unary<T>(x, in, e, [](T a) { return static_cast<T>(U<T>{0} - static_cast<U<T>>(a)); });
    }
};
template <class T>
struct Min {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        lane_binary<T>(x, in, e, [](T a, T b) { return std::min(a, b); });
    }
};
template <class T>
struct Max {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        lane_binary<T>(x, in, e, [](T a, T b) { return std::max(a, b); });
    }
};

template <class T>
struct Popc {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        uint64_t* d = lanes_of(x, in.dst[0]);
        const uint64_t* a = lanes_of(x, in.src[0]);
        for_lanes(e,
                  [&](uint32_t l) { d[l] = static_cast<uint32_t>(std::popcount(static_cast<U<T>>(a[l]))); });
    }
};
template <class T>
struct Clz {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        uint64_t* d = lanes_of(x, in.dst[0]);
        const uint64_t* a = lanes_of(x, in.src[0]);
        for_lanes(
            e, [&](uint32_t l) { d[l] = static_cast<uint32_t>(std::countl_zero(static_cast<U<T>>(a[l]))); });
    }
};
template <class T>
struct Brev {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        uint64_t* d = lanes_of(x, in.dst[0]);
        const uint64_t* a = lanes_of(x, in.src[0]);
        for_lanes(e, [&](uint32_t l) {
            U<T> v = static_cast<U<T>>(a[l]), r = 0;
            for (unsigned i = 0; i < 8 * sizeof(T); ++i) r = static_cast<U<T>>((r << 1) | ((v >> i) & 1));
            d[l] = r;
        });
    }
};
// bfind: position of the most significant non-sign bit; 0xffffffff when none; .shiftamt: 31 - pos.
template <class T>
struct Bfind {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        uint64_t* d = lanes_of(x, in.dst[0]);
        const uint64_t* a = lanes_of(x, in.src[0]);
        const bool shiftamt = in.ir->d.shiftamt;
        constexpr int W = 8 * sizeof(T);
        for_lanes(e, [&](uint32_t l) {
            U<T> v = static_cast<U<T>>(a[l]);
            if (std::is_signed_v<T> && static_cast<T>(v) < 0) v = static_cast<U<T>>(~v);
            uint32_t r = 0xffffffffu;
            if (v != 0) {
                uint32_t pos = static_cast<uint32_t>(W - 1 - std::countl_zero(v));
                r = shiftamt ? static_cast<uint32_t>(W - 1) - pos : pos;
            }
            d[l] = r;
        });
    }
};
// fns.b32 d, mask, base, offset: the position of the offset-th set bit of mask counting from base (upward for
// a positive offset, downward for a negative one; offset 0 tests bit base itself); 0xffffffff when none.
void fns(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *m = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]), *o = lanes_of(x, in.src[2]);
    for_lanes(e, [&](uint32_t l) {
        const uint32_t mask = static_cast<uint32_t>(m[l]), base = static_cast<uint32_t>(b[l]);
        const int32_t offset = static_cast<int32_t>(o[l]);
        uint32_t r = 0xffffffffu;
        if (offset == 0) {
            if (base < 32 && ((mask >> base) & 1)) r = base;
        } else {
            int64_t count = (offset > 0 ? int64_t{offset} : -int64_t{offset}) - 1;
            const int step = offset > 0 ? 1 : -1;
            for (int64_t pos = base; pos >= 0 && pos < 32; pos += step) {
                if (!((mask >> pos) & 1)) continue;
                if (count-- == 0) {
                    r = static_cast<uint32_t>(pos);
                    break;
                }
            }
        }
        d[l] = r;
    });
}

template <class T>
struct Bfe {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        uint64_t* d = lanes_of(x, in.dst[0]);
        const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]), *c = lanes_of(x, in.src[2]);
        constexpr uint32_t W = 8 * sizeof(T);
        for_lanes(e, [&](uint32_t l) {
            uint32_t pos = static_cast<uint8_t>(b[l]), len = static_cast<uint8_t>(c[l]);
            U<T> v = static_cast<U<T>>(a[l]);
            bool sbit;
            if constexpr (std::is_signed_v<T>)
                sbit = len == 0 ? false : ((v >> std::min(pos + len - 1, W - 1)) & 1);
            else
                sbit = false;
            U<T> r = 0;
            for (uint32_t i = 0; i < W; ++i) {
                bool bit = i < len ? (pos + i < W ? (v >> (pos + i)) & 1 : sbit) : sbit;
                r |= static_cast<U<T>>(U<T>{bit} << i);
            }
            d[l] = r;
        });
    }
};
template <class T>
struct Bfi {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        uint64_t* d = lanes_of(x, in.dst[0]);
        const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]);
        const uint64_t *c = lanes_of(x, in.src[2]), *dd = lanes_of(x, in.src[3]);
        constexpr uint32_t W = 8 * sizeof(T);
        for_lanes(e, [&](uint32_t l) {
            uint32_t pos = static_cast<uint8_t>(c[l]), len = static_cast<uint8_t>(dd[l]);
            U<T> f = static_cast<U<T>>(b[l]), ins = static_cast<U<T>>(a[l]);
            for (uint32_t i = 0; i < len && pos + i < W; ++i) {
                U<T> bit = static_cast<U<T>>(U<T>{1} << (pos + i));
                f = static_cast<U<T>>(((ins >> i) & 1) ? (f | bit) : (f & ~bit));
            }
            d[l] = f;
        });
    }
};

void bmsk(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]);
    const bool wrap = in.ir->d.shift_wrap || in.ir->d.shift == ir::ShiftMode::wrap;
    for_lanes(e, [&](uint32_t l) {
        uint32_t pos = static_cast<uint32_t>(a[l]), len = static_cast<uint32_t>(b[l]);
        if (wrap) {
            pos &= 31;
            len &= 31;
        } else {
            pos = std::min(pos, 32u);
            len = std::min(len, 32u);
        }
        uint64_t m = ((1ull << len) - 1) << pos;
        d[l] = static_cast<uint32_t>(m);
    });
}
void szext(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]);
    const bool wrap = in.ir->d.shift_wrap || in.ir->d.shift == ir::ShiftMode::wrap;
    const bool sign = in.type == ir::Type::s32;
    for_lanes(e, [&](uint32_t l) {
        uint32_t pos = static_cast<uint32_t>(b[l]);
        pos = wrap ? pos & 31 : std::min(pos, 32u);
        uint32_t v = static_cast<uint32_t>(a[l]);
        if (pos == 0) {
            d[l] = 0;
            return;
        }
        if (pos >= 32) {
            d[l] = v;
            return;
        }
        uint32_t low = v & ((1u << pos) - 1);
        if (sign && ((low >> (pos - 1)) & 1)) low |= ~((1u << pos) - 1);
        d[l] = low;
    });
}
// dp4a.atype.btype d, a, b, c and dp2a.lo/.hi: byte / half-word dot products accumulated into c.
void dp4a(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]), *c = lanes_of(x, in.src[2]);
    const bool as = in.type == ir::Type::s32, bs = in.type2 == ir::Type::s32;
    for_lanes(e, [&](uint32_t l) {
        int64_t acc = as || bs ? int64_t{static_cast<int32_t>(c[l])} : int64_t{static_cast<uint32_t>(c[l])};
        for (int i = 0; i < 4; ++i) {
            uint8_t ab = static_cast<uint8_t>(a[l] >> (8 * i)), bb = static_cast<uint8_t>(b[l] >> (8 * i));
            int64_t av = as ? int64_t{static_cast<int8_t>(ab)} : int64_t{ab};
            int64_t bv = bs ? int64_t{static_cast<int8_t>(bb)} : int64_t{bb};
            acc += av * bv;
        }
        d[l] = static_cast<uint32_t>(acc);
    });
}
void dp2a(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]), *c = lanes_of(x, in.src[2]);
    const bool as = in.type == ir::Type::s32, bs = in.type2 == ir::Type::s32;
    const bool hi = std::find(in.ir->mods.begin(), in.ir->mods.end(), "hi") != in.ir->mods.end();
    for_lanes(e, [&](uint32_t l) {
        int64_t acc = as || bs ? int64_t{static_cast<int32_t>(c[l])} : int64_t{static_cast<uint32_t>(c[l])};
        for (int i = 0; i < 2; ++i) {
            uint16_t ah = static_cast<uint16_t>(a[l] >> (16 * i));
            uint8_t bb = static_cast<uint8_t>(b[l] >> (8 * (i + (hi ? 2 : 0))));
            int64_t av = as ? int64_t{static_cast<int16_t>(ah)} : int64_t{ah};
            int64_t bv = bs ? int64_t{static_cast<int8_t>(bb)} : int64_t{bb};
            acc += av * bv;
        }
        d[l] = static_cast<uint32_t>(acc);
    });
}

Handler select_add_sub(const ir::Instruction& inst, bool sub) {
    const auto& d = inst.d;
    const bool is32 = ir::type_bytes(d.type) == 4, is64 = ir::type_bytes(d.type) == 8;
    const bool use = inst.op == ir::Opcode::addc || inst.op == ir::Opcode::subc;
    if (use || d.cc) {
        if (!is32 && !is64) return nullptr;
#define WARPSIM_CARRY(T)                                                                            \
    return sub ? (use ? (d.cc ? &carry_op<T, true, true, true> : &carry_op<T, true, true, false>)   \
                      : &carry_op<T, true, false, true>)                                            \
               : (use ? (d.cc ? &carry_op<T, false, true, true> : &carry_op<T, false, true, false>) \
                      : &carry_op<T, false, false, true>)
        if (is32) {
            WARPSIM_CARRY(uint32_t);
        }
        WARPSIM_CARRY(uint64_t);
#undef WARPSIM_CARRY
    }
    if (d.sat) return d.type == ir::Type::s32 ? (sub ? &sub_sat_s32 : &add_sat_s32) : nullptr;
    return sub ? int_handler<Sub>(d.type) : int_handler<Add>(d.type);
}

Handler select_mul_mad(const ir::Instruction& inst) {
    const auto& d = inst.d;
    const bool mad = inst.op == ir::Opcode::mad || inst.op == ir::Opcode::madc;
    if (d.cc || inst.op == ir::Opcode::madc) {
        const bool use = inst.op == ir::Opcode::madc;
        const bool hi = d.mul == ir::MulMode::hi;
        auto pick = [&]<class T>() -> Handler {
            if (use && d.cc)
                return hi ? [](Exec& x, const DInst& in,
                               uint32_t e) { mad_carry<T, true, true>(x, in, e, true); }
                          : [](Exec& x, const DInst& in, uint32_t e) {
                                mad_carry<T, true, true>(x, in, e, false);
                            };
            if (use)
                return hi ? [](Exec& x, const DInst& in,
                               uint32_t e) { mad_carry<T, true, false>(x, in, e, true); }
                          : [](Exec& x, const DInst& in, uint32_t e) {
                                mad_carry<T, true, false>(x, in, e, false);
                            };
            return hi ? [](Exec& x, const DInst& in,
                           uint32_t e) { mad_carry<T, false, true>(x, in, e, true); }
                      : [](Exec& x, const DInst& in, uint32_t e) {
                            mad_carry<T, false, true>(x, in, e, false);
                        };
        };
        switch (d.type) {
            case ir::Type::u32:
            case ir::Type::b32:
                return pick.template operator()<uint32_t>();
            case ir::Type::s32:
                return pick.template operator()<int32_t>();
            case ir::Type::u64:
            case ir::Type::b64:
                return pick.template operator()<uint64_t>();
            case ir::Type::s64:
                return pick.template operator()<int64_t>();
            default:
                return nullptr;
        }
    }
    switch (d.mul) {
        case ir::MulMode::hi:
            return mad ? int_handler<MadHi>(d.type) : int_handler<MulHi>(d.type);
        case ir::MulMode::wide:
            if (ir::type_bytes(d.type) > 4) return nullptr;
            return mad ? int_handler<MadWide>(d.type) : int_handler<MulWide>(d.type);
        default:
            return mad ? int_handler<MadLo>(d.type) : int_handler<MulLo>(d.type);
    }
}

}  // namespace

Handler select_int(const ir::Instruction& inst, DInst& in, const SelectContext&) {
    using O = ir::Opcode;
    const auto& d = inst.d;
    if (ir::is_float(d.type)) return select_float(inst, in, {});
    if (d.type == ir::Type::u16x2 || d.type == ir::Type::s16x2) return select_int_x2(inst);
    const bool s = ir::is_signed_int(d.type);
    switch (inst.op) {
        case O::add:
        case O::addc:
            return select_add_sub(inst, false);
        case O::sub:
        case O::subc:
            return select_add_sub(inst, true);
        case O::mul:
        case O::mad:
        case O::madc:
            return select_mul_mad(inst);
        case O::mul24:
            return d.mul == ir::MulMode::hi
                       ? (s ? &mul24<int32_t, true, false> : &mul24<uint32_t, true, false>)
                       : (s ? &mul24<int32_t, false, false> : &mul24<uint32_t, false, false>);
        case O::mad24:
            return d.mul == ir::MulMode::hi
                       ? (s ? &mul24<int32_t, true, true> : &mul24<uint32_t, true, true>)
                       : (s ? &mul24<int32_t, false, true> : &mul24<uint32_t, false, true>);
        case O::sad:
            return int_handler<Sad>(d.type);
        case O::div:
            return int_handler<Div>(d.type);
        case O::rem:
            return int_handler<Rem>(d.type);
        case O::abs:
            return int_handler<Abs>(d.type);
        case O::neg:
            return int_handler<Neg>(d.type);
        case O::min:
            return int_handler<Min>(d.type);
        case O::max:
            return int_handler<Max>(d.type);
        case O::popc:
            return int_handler<Popc>(d.type);
        case O::clz:
            return int_handler<Clz>(d.type);
        case O::brev:
            return int_handler<Brev>(d.type);
        case O::bfind:
            return int_handler<Bfind>(d.type);
        case O::fns:
            return &fns;
        case O::bfe:
            return int_handler<Bfe>(d.type);
        case O::bfi:
            return int_handler<Bfi>(d.type);
        case O::bmsk:
            return &bmsk;
        case O::szext:
            return &szext;
        case O::dp4a:
            return &dp4a;
        case O::dp2a:
            return &dp2a;
        default:
            return nullptr;
    }
}

}  // namespace warpsim::engine
