// sim/engine/handlers_video.cpp — packed integer SIMD: add/sub/min/max on .u16x2/.s16x2 (PTX ISA 9.7.1,
// sm_90) and the SIMD video instructions vadd2/4, vsub2/4, vavrg2/4, vabsdiff2/4, vmin2/4, vmax2/4,
// vset2/4 (PTX ISA 9.7.16.2) with .sat and the .add accumulate form. Byte/half-word masks on the
// destination (d.b10 ...) and operand selectors (a.b3210 ...) are not modelled: the defaults (all lanes,
// identity selection) are what nvcc emits for the __v*2/__v*4 intrinsics.
#include <algorithm>
#include <string_view>

#include "sim/engine/dispatch.hpp"
#include "sim/engine/handler_util.hpp"

namespace warpsim::engine {

namespace {

enum class V : uint8_t { add, sub, avrg, absdiff, min, max, set };

// One lane of a SIMD operation on `Bits`-wide elements (8 or 16), operands already sign/zero-extended.
int64_t lane_op(V op, int64_t a, int64_t b, ir::CmpOp cmp) {
    switch (op) {
        case V::add:
            return a + b;
        case V::sub:
            return a - b;
        case V::avrg:
            return (a + b + 1) >> 1;  // rounds halves up (PTX: "(a + b + 1) / 2" with floor of the sum)
        case V::absdiff:
            return a > b ? a - b : b - a;
        case V::min:
            return std::min(a, b);
        case V::max:
            return std::max(a, b);
        case V::set:
            switch (cmp) {
                case ir::CmpOp::eq:
                    return a == b;
                case ir::CmpOp::ne:
                    return a != b;
                case ir::CmpOp::lt:
                    return a < b;
                case ir::CmpOp::le:
                    return a <= b;
                case ir::CmpOp::gt:
                    return a > b;
                case ir::CmpOp::ge:
                    return a >= b;
                default:
                    return 0;
            }
    }
    return 0;
}

struct VideoMods {
    bool a_signed = false, b_signed = false, d_signed = false, sat = false, accumulate = false, relu = false;
    ir::CmpOp cmp = ir::CmpOp::none;
};

VideoMods video_mods(const ir::Instruction& inst) {
    VideoMods m;
    // vop.dtype.atype.btype: the first three type modifiers in order (vset.atype.btype has no dtype).
    const bool is_set = inst.op == ir::Opcode::vset2 || inst.op == ir::Opcode::vset4;
    int seen = is_set ? 1 : 0;
    for (const auto& s : inst.mods) {
        if (auto t = ir::type_from_name(s)) {
            const bool sg = ir::is_signed_int(*t) || *t == ir::Type::s16x2;
            if (seen == 0)
                m.d_signed = m.a_signed = m.b_signed = sg;
            else if (seen == 1)
                m.a_signed = m.b_signed = sg;
            else if (seen == 2)
                m.b_signed = sg;
            ++seen;
        }
        if (s == "add") m.accumulate = true;
        if (s == "relu") m.relu = true;
    }
    m.sat = inst.d.sat;
    m.cmp = inst.d.cmp;
    return m;
}

template <V Op, int Bits>
void simd(Exec& x, const DInst& in, uint32_t e) {
    constexpr int N = 32 / Bits;
    constexpr uint32_t mask = Bits == 8 ? 0xffu : 0xffffu;
    const VideoMods m = video_mods(*in.ir);
    const bool has_c = in.nsrc >= 3;
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t *a = lanes_of(x, in.src[0]), *b = lanes_of(x, in.src[1]), *c = lanes_of(x, in.src[2]);
    const int64_t lo = m.d_signed ? -(int64_t{1} << (Bits - 1)) : 0;
    const int64_t hi = m.d_signed ? (int64_t{1} << (Bits - 1)) - 1 : int64_t{mask};
    auto ext = [](uint32_t v, bool sg) {
        return sg ? int64_t{static_cast<int32_t>(v << (32 - Bits)) >> (32 - Bits)} : int64_t{v};
    };
    for_lanes(e, [&](uint32_t l) {
        uint32_t out = 0;
        int64_t sum = 0;
        for (int i = 0; i < N; ++i) {
            const uint32_t av = (static_cast<uint32_t>(a[l]) >> (Bits * i)) & mask;
            const uint32_t bv = (static_cast<uint32_t>(b[l]) >> (Bits * i)) & mask;
            int64_t r = lane_op(Op, ext(av, m.a_signed), ext(bv, m.b_signed), m.cmp);
            if (m.relu) r = std::max<int64_t>(r, 0);
            if (m.sat) r = std::clamp(r, lo, hi);
            sum += r;
            out |= (static_cast<uint32_t>(r) & mask) << (Bits * i);
        }
        d[l] = m.accumulate && has_c
                   ? static_cast<uint32_t>(sum + static_cast<int64_t>(static_cast<uint32_t>(c[l])))
                   : out;
    });
}

template <V Op>
Handler by_width(int bits) {
    return bits == 8 ? &simd<Op, 8> : &simd<Op, 16>;
}

}  // namespace

Handler select_video(const ir::Instruction& inst, DInst&, const SelectContext&) {
    using O = ir::Opcode;
    std::string_view name = ir::opcode_name(inst.op);
    const int bits = name.back() == '4' ? 8 : 16;
    switch (inst.op) {
        case O::vadd2:
        case O::vadd4:
            return by_width<V::add>(bits);
        case O::vsub2:
        case O::vsub4:
            return by_width<V::sub>(bits);
        case O::vavrg2:
        case O::vavrg4:
            return by_width<V::avrg>(bits);
        case O::vabsdiff2:
        case O::vabsdiff4:
            return by_width<V::absdiff>(bits);
        case O::vmin2:
        case O::vmin4:
            return by_width<V::min>(bits);
        case O::vmax2:
        case O::vmax4:
            return by_width<V::max>(bits);
        case O::vset2:
        case O::vset4:
            return by_width<V::set>(bits);
        default:
            return nullptr;
    }
}

Handler select_int_x2(const ir::Instruction& inst) {
    switch (inst.op) {
        case ir::Opcode::add:
            return &simd<V::add, 16>;
        case ir::Opcode::sub:
            return &simd<V::sub, 16>;
        case ir::Opcode::min:
            return &simd<V::min, 16>;
        case ir::Opcode::max:
            return &simd<V::max, 16>;
        default:
            return nullptr;
    }
}

}  // namespace warpsim::engine
