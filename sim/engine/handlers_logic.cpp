// sim/engine/handlers_logic.cpp — logic, shifts and byte permutes: and/or/xor/not/cnot (also on
// predicates), lop3, shf, shl, shr, prmt (all modes).
#include "sim/engine/dispatch.hpp"
#include "sim/engine/handler_util.hpp"

namespace warpsim::engine {

namespace {

template <class T>
using U = std::make_unsigned_t<T>;

template <class T>
struct And {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        lane_binary<T>(x, in, e, [](T a, T b) { return static_cast<T>(a & b); });
    }
};
template <class T>
struct Or {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        lane_binary<T>(x, in, e, [](T a, T b) { return static_cast<T>(a | b); });
    }
};
template <class T>
struct Xor {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        lane_binary<T>(x, in, e, [](T a, T b) { return static_cast<T>(a ^ b); });
    }
};
template <class T>
struct Not {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        lane_unary<T>(x, in, e, [](T a) { return static_cast<T>(~a); });
    }
};
template <class T>
struct Cnot {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        lane_unary<T>(x, in, e, [](T a) { return static_cast<T>(a == 0 ? 1 : 0); });
    }
};

// Predicate logic honours negated sources (`and.pred %p, %q, !%r`).
template <int Op>
void pred_logic(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    for_lanes(e, [&](uint32_t l) {
        bool a = pred_src(x, in, 0, l), b = pred_src(x, in, 1, l);
        bool r = Op == 0 ? (a && b) : Op == 1 ? (a || b) : Op == 2 ? (a != b) : !a;
        d[l] = r;
    });
}

void lop3(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]), *c = lanes_of(x, in.src[2]);
    const uint64_t* lut = lanes_of(x, in.src[3]);
    for_lanes(e, [&](uint32_t l) {
        uint32_t r = 0, imm = static_cast<uint8_t>(lut[l]);
        for (int i = 0; i < 32; ++i) {
            uint32_t idx = (((a[l] >> i) & 1) << 2) | (((b[l] >> i) & 1) << 1) | ((c[l] >> i) & 1);
            r |= ((imm >> idx) & 1) << i;
        }
        d[l] = r;
    });
}

// shf.{l,r}.{clamp,wrap}.b32 d, a, b, c: funnel shift of the 64-bit value b:a by c.
template <bool Left, bool Wrap>
void shf(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]), *c = lanes_of(x, in.src[2]);
    for_lanes(e, [&](uint32_t l) {
        uint32_t n = static_cast<uint32_t>(c[l]);
        n = Wrap ? n & 31 : std::min(n, 32u);
        uint64_t v = (uint64_t{static_cast<uint32_t>(b[l])} << 32) | static_cast<uint32_t>(a[l]);
        d[l] = Left ? static_cast<uint32_t>((v << n) >> 32) : static_cast<uint32_t>(v >> n);
    });
}

// Shift amounts larger than the width clamp (PTX: shl/shr by >= width gives 0, or the sign fill).
template <class T>
struct Shl {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        uint64_t* d = lanes_of(x, in.dst[0]);
        const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]);
        for_lanes(e, [&](uint32_t l) {
            uint32_t n = static_cast<uint32_t>(b[l]);
            d[l] = n >= 8 * sizeof(T) ? 0 : to_bits<T>(static_cast<T>(static_cast<U<T>>(a[l]) << n));
        });
    }
};
template <class T>
struct Shr {
    static void run(Exec& x, const DInst& in, uint32_t e) {
        uint64_t* d = lanes_of(x, in.dst[0]);
        const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]);
        for_lanes(e, [&](uint32_t l) {
            uint32_t n =
                std::min<uint32_t>(static_cast<uint32_t>(b[l]), 8 * sizeof(T) - 1 + !std::is_signed_v<T>);
            if (n >= 8 * sizeof(T)) {
                d[l] = 0;
                return;
            }
            d[l] = to_bits<T>(static_cast<T>(static_cast<T>(a[l]) >> n));
        });
    }
};

// prmt.b32{.mode} d, a, b, c: pick bytes of {b, a} by the selector c.
void prmt(Exec& x, const DInst& in, uint32_t e) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]), *c = lanes_of(x, in.src[2]);
    std::string_view mode;
    for (const auto& m : in.ir->mods)
        if (m == "f4e" || m == "b4e" || m == "rc8" || m == "ecl" || m == "ecr" || m == "rc16") mode = m;
    for_lanes(e, [&](uint32_t l) {
        uint64_t v = (uint64_t{static_cast<uint32_t>(b[l])} << 32) | static_cast<uint32_t>(a[l]);
        auto byte = [&](uint32_t i) { return static_cast<uint32_t>((v >> (8 * (i & 7))) & 0xff); };
        uint32_t s = static_cast<uint32_t>(c[l]), r = 0;
        uint32_t sel[4];
        if (mode.empty()) {
            for (int i = 0; i < 4; ++i) {
                uint32_t q = (s >> (4 * i)) & 0xf;
                uint32_t by = byte(q & 7);
                if (q & 8) by = (by & 0x80) ? 0xff : 0;  // sign-replicate
                r |= by << (8 * i);
            }
            d[l] = r;
            return;
        }
        uint32_t n = s & 3;
        if (mode == "f4e")
            for (uint32_t i = 0; i < 4; ++i) sel[i] = (n + i) & 7;
        else if (mode == "b4e")
            for (uint32_t i = 0; i < 4; ++i) sel[i] = (n + 8 - i) & 7;
        else if (mode == "rc8")
            for (uint32_t i = 0; i < 4; ++i) sel[i] = n;
        else if (mode == "ecl") {
            for (uint32_t i = 0; i < 4; ++i) sel[i] = i >= n ? i : n;
        } else if (mode == "ecr") {
            for (uint32_t i = 0; i < 4; ++i) sel[i] = i <= n ? i : n;
        } else {
            uint32_t h = (s & 1) * 2;
            sel[0] = h;
            sel[1] = h + 1;
            sel[2] = h;
            sel[3] = h + 1;
        }
        for (int i = 0; i < 4; ++i) r |= byte(sel[i]) << (8 * i);
        d[l] = r;
    });
}

}  // namespace

Handler select_logic(const ir::Instruction& inst, DInst&, const SelectContext&) {
    using O = ir::Opcode;
    const auto t = inst.d.type;
    const bool pred = t == ir::Type::pred;
    switch (inst.op) {
        case O::and_:
            return pred ? &pred_logic<0> : int_handler<And>(t);
        case O::or_:
            return pred ? &pred_logic<1> : int_handler<Or>(t);
        case O::xor_:
            return pred ? &pred_logic<2> : int_handler<Xor>(t);
        case O::not_:
            return pred ? &pred_logic<3> : int_handler<Not>(t);
        case O::cnot:
            return int_handler<Cnot>(t);
        case O::lop3:
            return &lop3;
        case O::shf: {
            const bool left = inst.d.shift == ir::ShiftMode::l;
            const bool wrap = inst.d.shift_wrap;
            return left ? (wrap ? &shf<true, true> : &shf<true, false>)
                        : (wrap ? &shf<false, true> : &shf<false, false>);
        }
        case O::shl:
            return int_handler<Shl>(t);
        case O::shr:
            return int_handler<Shr>(t);
        case O::prmt:
            return &prmt;
        default:
            return nullptr;
    }
}

}  // namespace warpsim::engine
