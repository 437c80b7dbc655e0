// kernels_ir/forms/tensor.cpp — wgmma modifiers into WgmmaForm (PTX ISA 9.7.17) and ldmatrix/stmatrix into
// MatrixMoveForm (9.7.16.5), wmma into WmmaForm (9.7.16.4), mma and mma.sp into MmaForm (9.7.16.5.14,
// 9.7.16.6.3); shapes and type combinations as the PTX ISA 9.4 lists them, checked against ptxas (CUDA 13)
// for sm_90a.
#include "kernels_ir/forms/tensor.hpp"

#include <charconv>
#include <string>

#include "kernels_ir/forms/form.hpp"
#include "kernels_ir/forms/mods.hpp"

namespace warpsim::ir {
namespace forms_detail {
namespace {

constexpr std::string_view kWgmmaSection = "9.7.17";

constexpr std::string_view kWgmmaWords[] = {
    "mma_async", "fence", "commit_group", "wait_group", "sync", "aligned", "sp", "satfinite", "and", "popc",
};

// ".m64n128k16" -> {64, 128, 16}; nullopt for a modifier that is not spelt like a shape.
std::optional<MatrixShape> shape_of(std::string_view m) {
    MatrixShape s;
    auto number = [&m](char letter, uint16_t& out) {
        if (m.empty() || m[0] != letter) return false;
        m.remove_prefix(1);
        auto [end, ec] = std::from_chars(m.data(), m.data() + m.size(), out);
        if (ec != std::errc() || end == m.data()) return false;
        m.remove_prefix(static_cast<std::size_t>(end - m.data()));
        return true;
    };
    if (!number('m', s.m) || !number('n', s.n)) return std::nullopt;
    if (!m.empty() && !number('k', s.k)) return std::nullopt;
    if (!m.empty()) return std::nullopt;
    return s;
}

// The shape modifier, claimed; `index` is where it was written.
std::optional<MatrixShape> take_shape(ModReader& r, std::size_t& index) {
    for (std::size_t i = 0; i < r.size(); ++i) {
        if (r.claimed(i)) continue;
        if (auto s = shape_of(r.at(i))) {
            r.claim(i);
            index = i;
            return s;
        }
    }
    return std::nullopt;
}

// The type modifiers in the order written, claimed.
std::vector<std::pair<Type, std::size_t>> take_types(ModReader& r) {
    std::vector<std::pair<Type, std::size_t>> out;
    for (std::size_t i = 0; i < r.size(); ++i) {
        if (r.claimed(i)) continue;
        if (auto t = type_from_name(r.at(i))) {
            r.claim(i);
            out.push_back({*t, i});
        }
    }
    return out;
}

bool is_fp8(Type t) {
    return t == Type::e4m3 || t == Type::e5m2;
}
bool is_int8(Type t) {
    return t == Type::s8 || t == Type::u8;
}

// The dense K of an A/B type pair and whether D may be `d`; 0 when the pair is not a wgmma input.
uint16_t dense_k(Type d, Type a, Type b) {
    if (a == Type::f16 && b == Type::f16) return d == Type::f16 || d == Type::f32 ? 16 : 0;
    if (a == Type::bf16 && b == Type::bf16) return d == Type::f32 ? 16 : 0;
    if (a == Type::tf32 && b == Type::tf32) return d == Type::f32 ? 8 : 0;
    if (is_fp8(a) && is_fp8(b)) return d == Type::f16 || d == Type::f32 ? 32 : 0;
    if (is_int8(a) && is_int8(b)) return d == Type::s32 ? 32 : 0;
    if (a == Type::b1 && b == Type::b1) return d == Type::s32 ? 256 : 0;
    return 0;
}

void decode_mma_async(ModReader& r, WgmmaForm& f) {
    f.sparse = r.flag("sp");
    const std::size_t sat_at = r.find("satfinite").value_or(0);
    f.satfinite = r.flag("satfinite");
    const bool and_ = r.flag("and"), popc = r.flag("popc");
    std::size_t si = 0;
    auto shape = take_shape(r, si);
    auto types = take_types(r);
    if (r.failed()) return;
    if (!shape) return r.missing("needs a shape such as .m64n128k16");
    f.shape = *shape;
    if (types.size() != 3) {
        if (types.size() > 3)
            return r.fail(types[3].second, "'." + r.at(types[3].second) + "' is a fourth type");
        return r.missing("needs three types, D, A and B, such as .f32.f16.f16");
    }
    f.dtype = types[0].first;
    f.atype = types[1].first;
    f.btype = types[2].first;
    const uint16_t k = dense_k(f.dtype, f.atype, f.btype);
    if (k == 0) {
        return r.fail(types[0].second, "'." + r.at(types[0].second) + "." + r.at(types[1].second) + "." +
                                           r.at(types[2].second) +
                                           "' is not a D.A.B type combination it takes");
    }
    const bool integer = f.dtype == Type::s32;
    const std::string shape_name = "'." + r.at(si) + "'";
    if (f.shape.m != 64) return r.fail(si, shape_name + " is not a wgmma shape: M is 64");
    if (f.shape.n < 8 || f.shape.n > 256 || f.shape.n % 8 != 0)
        return r.fail(si, shape_name + " is not a wgmma shape: N is 8 to 256 in steps of 8");
    if (integer && f.shape.n > 32 && f.shape.n % 16 != 0)
        return r.fail(si,
                      shape_name + " is not a wgmma shape for integer types: N above 32 is a multiple of 16");
    const uint16_t want_k = f.sparse ? 2 * k : k;
    if (f.shape.k != want_k) {
        return r.fail(si, shape_name + " is not a wgmma shape for ." + std::string(type_name(f.atype)) +
                              (f.sparse ? " (sparse)" : "") + ": K is " + std::to_string(want_k));
    }
    if (f.satfinite && !integer) r.fail(sat_at, "'.satfinite' needs integer types");
    f.and_popc = and_ && popc;
    if ((f.atype == Type::b1) != f.and_popc || and_ != popc)
        r.fail(FormError::kWholeInstruction, "'.and.popc' is written with, and only with, .b1 inputs");
}

constexpr std::string_view kMatrixMoveSection = "9.7.16.5";
constexpr std::string_view kMatrixMoveWords[] = {
    "sync",        "aligned",   "x1",    "x2",    "x4",    "trans",           "shared",
    "shared::cta", "global",    "local", "const", "param", "shared::cluster", "b8x16",
    "b6x16_p32",   "b4x16_p64",
};

// ---- wmma (PTX ISA 9.7.16.4) ------------------------------------------------------------------------------

constexpr std::string_view kWmmaSection = "9.7.16.4";
constexpr std::string_view kWmmaWords[] = {
    "load",  "store",  "mma",    "a",           "b",
    "c",     "d",      "sync",   "aligned",     "row",
    "col",   "global", "shared", "shared::cta", "shared::cluster",
    "local", "const",  "param",  "satfinite",   "rn",
    "rz",    "rm",     "rp",     "xor",         "and",
    "popc",
};

constexpr MatrixShape kM16N16K16{16, 16, 16}, kM32N8K16{32, 8, 16}, kM8N32K16{8, 32, 16},
    kM16N16K8{16, 16, 8}, kM8N8K4{8, 8, 4}, kM8N8K32{8, 8, 32}, kM8N8K128{8, 8, 128};

bool is_wmma_f16_shape(MatrixShape s) {
    return s == kM16N16K16 || s == kM32N8K16 || s == kM8N32K16;
}
bool is_int4(Type t) {
    return t == Type::s4 || t == Type::u4;
}

// The shape a wmma element type goes with, as the ISA's syntax lists them, for messages.
std::string_view wmma_shapes_for(Type t) {
    switch (t) {
        case Type::tf32:
            return ".m16n16k8";
        case Type::f64:
            return ".m8n8k4";
        case Type::s4:
        case Type::u4:
            return ".m8n8k32";
        case Type::b1:
            return ".m8n8k128";
        default:
            return ".m16n16k16, .m32n8k16 or .m8n32k16";
    }
}

// Whether `t` is an element type of matrix `m` for `shape` (the load and store syntax of 9.7.16.4.3/4).
bool wmma_type_fits(MatrixShape shape, WmmaMatrix m, Type t) {
    const bool multiplicand = m == WmmaMatrix::a || m == WmmaMatrix::b;
    if (is_wmma_f16_shape(shape)) {
        return multiplicand ? t == Type::f16 || t == Type::bf16 || is_int8(t)
                            : t == Type::f16 || t == Type::f32 || t == Type::s32;
    }
    if (shape == kM16N16K8) return t == (multiplicand ? Type::tf32 : Type::f32);
    if (shape == kM8N8K4) return t == Type::f64;
    if (shape == kM8N8K32) return multiplicand ? is_int4(t) : t == Type::s32;
    if (shape == kM8N8K128) return t == (multiplicand ? Type::b1 : Type::s32);
    return false;
}

bool is_wmma_shape(MatrixShape s) {
    return is_wmma_f16_shape(s) || s == kM16N16K8 || s == kM8N8K4 || s == kM8N8K32 || s == kM8N8K128;
}

// The layouts, in the order written; `where` their positions.
std::vector<MatrixLayout> take_layouts(ModReader& r, std::vector<std::size_t>& where) {
    std::vector<MatrixLayout> out;
    for (std::size_t i = 0; i < r.size(); ++i) {
        if (r.claimed(i) || (r.at(i) != "row" && r.at(i) != "col")) continue;
        r.claim(i);
        out.push_back(r.at(i) == "row" ? MatrixLayout::row : MatrixLayout::col);
        where.push_back(i);
    }
    return out;
}

std::string matrix_name(WmmaMatrix m) {
    return m == WmmaMatrix::a ? "A" : m == WmmaMatrix::b ? "B" : m == WmmaMatrix::c ? "C" : "D";
}

std::string dotted(const ModReader& r, std::initializer_list<std::size_t> at) {
    std::string s;
    for (std::size_t i : at) s += "." + r.at(i);
    return s;
}

// wmma.load.{a,b,c} and wmma.store.d: .sync.aligned.layout.shape{.ss}.type.
void decode_wmma_memory(ModReader& r, WmmaForm& f) {
    // Every slot is read before anything is reported, so that no known modifier is taken for an unknown one.
    std::optional<WmmaMatrix> m;
    if (f.op == WmmaOp::load) {
        m = r.one<WmmaMatrix>({{"a", WmmaMatrix::a}, {"b", WmmaMatrix::b}, {"c", WmmaMatrix::c}}, "matrix");
    } else if (r.flag("d")) {
        m = WmmaMatrix::d;
    }
    auto space = r.one<Space>({{"global", Space::global},
                               {"shared", Space::shared},
                               {"shared::cta", Space::shared_cta},
                               {"shared::cluster", Space::shared_cluster},
                               {"local", Space::local},
                               {"const", Space::const_},
                               {"param", Space::param}},
                              "state space");
    const std::size_t space_at = r.picked();
    std::vector<std::size_t> lat;
    auto layouts = take_layouts(r, lat);
    std::size_t si = 0;
    auto shape = take_shape(r, si);
    auto types = take_types(r);
    if (!m) return r.missing(f.op == WmmaOp::load ? "needs the matrix it loads, .a, .b or .c" : "needs .d");
    f.matrix = *m;
    if (f.op == WmmaOp::load)
        r.rename(f.matrix == WmmaMatrix::a   ? "wmma.load.a"
                 : f.matrix == WmmaMatrix::b ? "wmma.load.b"
                                             : "wmma.load.c");
    if (f.op == WmmaOp::store) r.rename("wmma.store.d");
    if (r.failed()) return;
    if (space && *space != Space::global && *space != Space::shared && *space != Space::shared_cta)
        return r.fail(space_at, "'." + r.at(space_at) +
                                    "' is not a state space it takes (expected .global or .shared{::cta})");
    f.space = space.value_or(Space::none);
    if (layouts.size() > 1) return r.fail(lat[1], "'." + r.at(lat[1]) + "' is a second layout");
    if (layouts.empty()) return r.missing("needs the layout, .row or .col");
    f.layout = layouts[0];
    if (!shape) return r.missing("needs a shape such as .m16n16k16");
    f.shape = *shape;
    if (!is_wmma_shape(f.shape))
        return r.fail(si, "'." + r.at(si) +
                              "' is not a wmma shape (expected .m16n16k16, .m32n8k16, .m8n32k16, .m16n16k8, "
                              ".m8n8k4, .m8n8k32 or .m8n8k128)");
    if (types.empty()) return r.missing("needs the element type, such as .f16 or .f32");
    if (types.size() > 1) return r.fail(types[1].second, "'." + r.at(types[1].second) + "' is a second type");
    f.type = types[0].first;
    if (!wmma_type_fits(f.shape, f.matrix, f.type))
        return r.fail(types[0].second, "'." + r.at(types[0].second) + "' is not an element type of " +
                                           matrix_name(f.matrix) + " for '." + r.at(si) + "'");
    // Sub-byte and single-bit A is stored by rows and B by columns (the ISA writes .row and .col literally).
    const bool packed = f.shape == kM8N8K32 || f.shape == kM8N8K128;
    if (packed && f.matrix == WmmaMatrix::a && f.layout != MatrixLayout::row)
        return r.fail(lat[0], "'.col' is not allowed: sub-byte and single-bit A is .row");
    if (packed && f.matrix == WmmaMatrix::b && f.layout != MatrixLayout::col)
        return r.fail(lat[0], "'.row' is not allowed: sub-byte and single-bit B is .col");
}

// The bit operation of the single-bit forms (.xor.popc / .and.popc); claims them.
void take_bit_op(ModReader& r, BitOp& out, std::size_t& first) {
    first =
        r.find("xor").value_or(r.find("and").value_or(r.find("popc").value_or(FormError::kWholeInstruction)));
    const bool x = r.flag("xor"), a = r.flag("and"), popc = r.flag("popc");
    if (x && a) return r.fail(first, "'.xor' and '.and' both give the bit operation");
    if ((x || a) != popc) {
        out = BitOp::none;
        return r.fail(first, "the bit operation is written .xor.popc or .and.popc");
    }
    out = x ? BitOp::xor_popc : a ? BitOp::and_popc : BitOp::none;
}

Rounding take_rounding(ModReader& r, std::size_t& at) {
    auto rnd = r.one<Rounding>(
        {{"rn", Rounding::rn}, {"rz", Rounding::rz}, {"rm", Rounding::rm}, {"rp", Rounding::rp}}, "rounding");
    at = r.picked();
    return rnd.value_or(Rounding::none);
}

// The modifiers wmma.mma, mma and mma.sp share, claimed in one order (bit operation, rounding, .satfinite,
// layouts, shape, types) before each form's own checks, and where each was written.
struct MmaModifiers {
    BitOp bit_op = BitOp::none;
    Rounding rnd = Rounding::none;
    bool satfinite = false;
    std::size_t bit_at = 0, rnd_at = 0, sat_at = 0;
    std::vector<MatrixLayout> layouts;
    std::vector<std::size_t> layout_at;
    std::optional<MatrixShape> shape;
    std::size_t shape_at = 0;
    std::vector<std::pair<Type, std::size_t>> types;
};

MmaModifiers take_mma_modifiers(ModReader& r) {
    MmaModifiers m;
    take_bit_op(r, m.bit_op, m.bit_at);
    m.rnd = take_rounding(r, m.rnd_at);
    m.sat_at = r.find("satfinite").value_or(0);
    m.satfinite = r.flag("satfinite");
    m.layouts = take_layouts(r, m.layout_at);
    m.shape = take_shape(r, m.shape_at);
    m.types = take_types(r);
    return m;
}

// wmma.mma{.op.popc}.sync.aligned.alayout.blayout.shape{.rnd}.types{.satfinite} (9.7.16.4.5).
void decode_wmma_mma(ModReader& r, WmmaForm& f) {
    f.matrix = WmmaMatrix::d;
    const MmaModifiers mods = take_mma_modifiers(r);
    f.bit_op = mods.bit_op;
    f.rnd = mods.rnd;
    f.satfinite = mods.satfinite;
    if (r.failed()) return;
    if (mods.layouts.size() != 2) {
        if (mods.layouts.size() > 2)
            return r.fail(mods.layout_at[2], "'." + r.at(mods.layout_at[2]) + "' is a third layout");
        return r.missing("needs the layouts of A and B, such as .row.col");
    }
    f.layout = mods.layouts[0];
    f.blayout = mods.layouts[1];
    if (!mods.shape) return r.missing("needs a shape such as .m16n16k16");
    f.shape = *mods.shape;
    if (!is_wmma_shape(f.shape))
        return r.fail(mods.shape_at,
                      "'." + r.at(mods.shape_at) +
                          "' is not a wmma shape (expected .m16n16k16, .m32n8k16, .m8n32k16, .m16n16k8, "
                          ".m8n8k4, .m8n8k32 or .m8n8k128)");
    if (mods.types.size() == 2) {  // .dtype.ctype: .f16 multiplicands
        f.dtype = mods.types[0].first;
        f.ctype = mods.types[1].first;
        f.atype = f.btype = Type::f16;
        const auto f16_or_f32 = [](Type t) { return t == Type::f16 || t == Type::f32; };
        if (!f16_or_f32(f.dtype) || !f16_or_f32(f.ctype))
            return r.fail(mods.types[0].second, "'" +
                                                    dotted(r, {mods.types[0].second, mods.types[1].second}) +
                                                    "' is not a D.C type pair it takes (.f16 or .f32 each)");
    } else if (mods.types.size() == 4) {  // .dtype.atype.btype.ctype
        f.dtype = mods.types[0].first;
        f.atype = mods.types[1].first;
        f.btype = mods.types[2].first;
        f.ctype = mods.types[3].first;
        const Type a = f.atype;
        const bool known = f.atype == f.btype && f.dtype == f.ctype &&
                           (((is_int8(a) || is_int4(a) || a == Type::b1) && f.dtype == Type::s32) ||
                            ((a == Type::bf16 || a == Type::tf32) && f.dtype == Type::f32) ||
                            (a == Type::f64 && f.dtype == Type::f64));
        if (!known)
            return r.fail(mods.types[0].second,
                          "'" +
                              dotted(r, {mods.types[0].second, mods.types[1].second, mods.types[2].second,
                                         mods.types[3].second}) +
                              "' is not a D.A.B.C type combination it takes (A and B alike; .s32 with .s8, "
                              ".u8, .s4, .u4, .b1; .f32 with .bf16, .tf32; .f64 throughout)");
    } else if (mods.types.size() > 4) {
        return r.fail(mods.types[4].second, "'." + r.at(mods.types[4].second) + "' is a fifth type");
    } else {
        return r.missing("needs the types, D and C (.f16 inputs) or D, A, B and C, such as .f32.f32");
    }
    const bool shape_fits = f.atype == Type::f16 || f.atype == Type::bf16 || is_int8(f.atype)
                                ? is_wmma_f16_shape(f.shape)
                                : wmma_type_fits(f.shape, WmmaMatrix::a, f.atype);
    if (!shape_fits)
        return r.fail(mods.shape_at, "'." + r.at(mods.shape_at) + "' is not a wmma.mma shape for ." +
                                         std::string(type_name(f.atype)) + " (expected " +
                                         std::string(wmma_shapes_for(f.atype)) + ")");
    const bool packed = is_int4(f.atype) || f.atype == Type::b1;
    if (packed && f.layout != MatrixLayout::row)
        return r.fail(mods.layout_at[0],
                      "'.col' is not allowed: sub-byte and single-bit wmma.mma is .row.col");
    if (packed && f.blayout != MatrixLayout::col)
        return r.fail(mods.layout_at[1],
                      "'.row' is not allowed: sub-byte and single-bit wmma.mma is .row.col");
    if (f.satfinite && !(is_int8(f.atype) || is_int4(f.atype)))
        return r.fail(mods.sat_at, f.atype == Type::b1
                                       ? "'.satfinite' is not allowed on single-bit wmma.mma"
                                       : "'.satfinite' is not allowed on floating-point wmma.mma "
                                         "(removed in PTX ISA 6.5)");
    if (f.rnd != Rounding::none && f.atype != Type::f64)
        return r.fail(mods.rnd_at, "'." + r.at(mods.rnd_at) + "' rounding is for .f64 wmma.mma only");
    if (f.atype == Type::b1 && f.bit_op == BitOp::none)
        return r.missing(".b1 wmma.mma needs its operation, .xor.popc or .and.popc");
    if (f.atype != Type::b1 && f.bit_op != BitOp::none)
        return r.fail(mods.bit_at, "'." + r.at(mods.bit_at) + "' is for .b1 wmma.mma only");
}

// ---- mma (PTX ISA 9.7.16.5.14) ----------------------------------------------------------------------------

constexpr std::string_view kMmaSection = "9.7.16.5.14";
constexpr std::string_view kMmaWords[] = {
    "sync", "aligned", "row", "col", "satfinite", "rn", "rz",
    "rm",   "rp",      "xor", "and", "popc",      "sp", "sp::ordered_metadata",
};

constexpr MatrixShape kM16N8K4{16, 8, 4}, kM16N8K8{16, 8, 8}, kM16N8K16{16, 8, 16}, kM16N8K32{16, 8, 32},
    kM16N8K64{16, 8, 64}, kM16N8K128{16, 8, 128}, kM16N8K256{16, 8, 256}, kM8N8K16{8, 8, 16};

// One family of the mma syntax: its A/B types, the D/C types it allows and its shapes.
struct MmaFamily {
    std::string_view name;  // for messages: ".f16", ".tf32", ...
    bool (*ab)(Type a, Type b);
    bool (*dc)(Type d, Type c);
    std::initializer_list<MatrixShape> shapes;
    std::string_view shape_names;
};

bool is_fp16_or_32(Type t) {
    return t == Type::f16 || t == Type::f32;
}

const MmaFamily* mma_family(Type a, Type b) {
    static const MmaFamily kFamilies[] = {
        {".f16",
         [](Type x, Type y) { return x == Type::f16 && y == Type::f16; },
         [](Type d, Type c) { return is_fp16_or_32(d) && is_fp16_or_32(c); },
         {kM8N8K4, kM16N8K8, kM16N8K16},
         ".m8n8k4, .m16n8k8 or .m16n8k16"},
        {".tf32",
         [](Type x, Type y) { return x == Type::tf32 && y == Type::tf32; },
         [](Type d, Type c) { return d == Type::f32 && c == Type::f32; },
         {kM16N8K4, kM16N8K8},
         ".m16n8k4 or .m16n8k8"},
        {".bf16",
         [](Type x, Type y) { return x == Type::bf16 && y == Type::bf16; },
         [](Type d, Type c) { return d == Type::f32 && c == Type::f32; },
         {kM16N8K8, kM16N8K16},
         ".m16n8k8 or .m16n8k16"},
        {".e4m3/.e5m2",
         [](Type x, Type y) { return is_fp8(x) && is_fp8(y); },
         [](Type d, Type c) { return is_fp16_or_32(d) && is_fp16_or_32(c); },
         {kM16N8K16, kM16N8K32},
         ".m16n8k16 or .m16n8k32"},
        {".f64",
         [](Type x, Type y) { return x == Type::f64 && y == Type::f64; },
         [](Type d, Type c) { return d == Type::f64 && c == Type::f64; },
         {kM8N8K4, kM16N8K4, kM16N8K8, kM16N8K16},
         ".m8n8k4, .m16n8k4, .m16n8k8 or .m16n8k16"},
        {".s8/.u8",
         [](Type x, Type y) { return is_int8(x) && is_int8(y); },
         [](Type d, Type c) { return d == Type::s32 && c == Type::s32; },
         {kM8N8K16, kM16N8K16, kM16N8K32},
         ".m8n8k16, .m16n8k16 or .m16n8k32"},
        {".s4/.u4",
         [](Type x, Type y) { return is_int4(x) && is_int4(y); },
         [](Type d, Type c) { return d == Type::s32 && c == Type::s32; },
         {kM8N8K32, kM16N8K32, kM16N8K64},
         ".m8n8k32, .m16n8k32 or .m16n8k64"},
        {".b1",
         [](Type x, Type y) { return x == Type::b1 && y == Type::b1; },
         [](Type d, Type c) { return d == Type::s32 && c == Type::s32; },
         {kM8N8K128, kM16N8K128, kM16N8K256},
         ".m8n8k128, .m16n8k128 or .m16n8k256"},
    };
    for (const auto& fam : kFamilies) {
        if (fam.ab(a, b)) return &fam;
    }
    return nullptr;
}

// The D.A.B.C types as written, for messages.
std::string mma_types(const ModReader& r, const MmaModifiers& mods) {
    return dotted(r,
                  {mods.types[0].second, mods.types[1].second, mods.types[2].second, mods.types[3].second});
}

// What mma and mma.sp check alike: a shape, two layouts and four types D.A.B.C of one of the families that
// `family_of` knows (the dense or the sparse table), at one of its shapes; fills the form's shape, layouts
// and types. The family, or nullptr when there is an error (reported to `r`).
const MmaFamily* take_mma_family(ModReader& r, const MmaModifiers& mods, MmaForm& f,
                                 const MmaFamily* (*family_of)(Type, Type), std::string_view name,
                                 std::string_view shape_example) {
    if (r.failed()) return nullptr;
    if (!mods.shape) {
        r.missing("needs a shape such as " + std::string(shape_example));
        return nullptr;
    }
    f.shape = *mods.shape;
    if (mods.layouts.size() != 2) {
        if (mods.layouts.size() > 2)
            r.fail(mods.layout_at[2], "'." + r.at(mods.layout_at[2]) + "' is a third layout");
        else
            r.missing("needs the layouts of A and B, .row.col");
        return nullptr;
    }
    f.alayout = mods.layouts[0];
    f.blayout = mods.layouts[1];
    if (mods.types.size() != 4) {
        if (mods.types.size() > 4)
            r.fail(mods.types[4].second, "'." + r.at(mods.types[4].second) + "' is a fifth type");
        else
            r.missing("needs four types, D, A, B and C, such as .f32.f16.f16.f32");
        return nullptr;
    }
    f.dtype = mods.types[0].first;
    f.atype = mods.types[1].first;
    f.btype = mods.types[2].first;
    f.ctype = mods.types[3].first;
    const MmaFamily* fam = family_of(f.atype, f.btype);
    if (!fam || !fam->dc(f.dtype, f.ctype)) {
        r.fail(mods.types[0].second,
               "'" + mma_types(r, mods) + "' is not a D.A.B.C type combination it takes");
        return nullptr;
    }
    for (const MatrixShape& s : fam->shapes) {
        if (s == f.shape) return fam;
    }
    r.fail(mods.shape_at, "'." + r.at(mods.shape_at) + "' is not an " + std::string(name) + " shape for " +
                              std::string(fam->name) + " (expected " + std::string(fam->shape_names) + ")");
    return nullptr;
}

void decode_mma_sync(ModReader& r, MmaForm& f) {
    const MmaModifiers mods = take_mma_modifiers(r);
    f.bit_op = mods.bit_op;
    f.rnd = mods.rnd;
    f.satfinite = mods.satfinite;
    const MmaFamily* fam = take_mma_family(r, mods, f, &mma_family, "mma", ".m16n8k16");
    if (!fam) return;
    const std::string all = mma_types(r, mods);
    // Only .m8n8k4 with .f16 takes A and B in either layout; every other form is .row.col.
    const bool any_layout = f.shape == kM8N8K4 && f.atype == Type::f16;
    if (!any_layout && f.alayout != MatrixLayout::row)
        return r.fail(mods.layout_at[0], "'.col' is not allowed: mma ." + r.at(mods.shape_at) + " with " +
                                             std::string(fam->name) + " takes .row.col");
    if (!any_layout && f.blayout != MatrixLayout::col)
        return r.fail(mods.layout_at[1], "'.row' is not allowed: mma ." + r.at(mods.shape_at) + " with " +
                                             std::string(fam->name) + " takes .row.col");
    // The shape rules of the description: .m8n8k4 with an .f32 C has an .f32 D; .m16n8k8, .m16n8k16 and
    // .m16n8k32 have D equal to C.
    const bool dc_equal = f.shape == kM16N8K8 || f.shape == kM16N8K16 || f.shape == kM16N8K32;
    if (dc_equal && f.dtype != f.ctype)
        return r.fail(mods.types[0].second,
                      "'" + all + "': ." + r.at(mods.shape_at) + " forms need .dtype equal to .ctype");
    if (f.shape == kM8N8K4 && f.ctype == Type::f32 && f.dtype != Type::f32)
        return r.fail(mods.types[0].second, "'" + all + "': .m8n8k4 with an .f32 C needs an .f32 D");
    const bool integer = is_int8(f.atype) || is_int4(f.atype);
    if (f.satfinite && !integer)
        return r.fail(mods.sat_at, "'.satfinite' is for the .s8/.u8/.s4/.u4 forms only");
    if (f.rnd != Rounding::none && f.atype != Type::f64)
        return r.fail(mods.rnd_at, "'." + r.at(mods.rnd_at) + "' rounding is for .f64 mma only");
    if (f.atype == Type::b1 && f.bit_op == BitOp::none)
        return r.missing(".b1 mma needs its operation, .xor.popc or .and.popc");
    if (f.atype != Type::b1 && f.bit_op != BitOp::none)
        return r.fail(mods.bit_at, "'." + r.at(mods.bit_at) + "' is for .b1 mma only");
}

// ---- mma.sp (PTX ISA 9.7.16.6.3) --------------------------------------------------------------------------

constexpr std::string_view kMmaSpSection = "9.7.16.6.3";

// The sparse forms: A/B types, D/C types and shapes of the syntax (K is the dense product's K).
const MmaFamily* mma_sparse_family(Type a, Type b) {
    static const MmaFamily kFamilies[] = {
        {".f16",
         [](Type x, Type y) { return x == Type::f16 && y == Type::f16; },
         [](Type d, Type c) { return is_fp16_or_32(d) && is_fp16_or_32(c); },
         {kM16N8K16, kM16N8K32},
         ".m16n8k16 or .m16n8k32"},
        {".bf16",
         [](Type x, Type y) { return x == Type::bf16 && y == Type::bf16; },
         [](Type d, Type c) { return d == Type::f32 && c == Type::f32; },
         {kM16N8K16, kM16N8K32},
         ".m16n8k16 or .m16n8k32"},
        {".tf32",
         [](Type x, Type y) { return x == Type::tf32 && y == Type::tf32; },
         [](Type d, Type c) { return d == Type::f32 && c == Type::f32; },
         {kM16N8K8, kM16N8K16},
         ".m16n8k8 or .m16n8k16"},
        {".e4m3/.e5m2",
         [](Type x, Type y) { return is_fp8(x) && is_fp8(y); },
         [](Type d, Type c) { return d == Type::f32 && c == Type::f32; },
         {kM16N8K64},
         ".m16n8k64"},
        {".s8/.u8",
         [](Type x, Type y) { return is_int8(x) && is_int8(y); },
         [](Type d, Type c) { return d == Type::s32 && c == Type::s32; },
         {kM16N8K32, kM16N8K64},
         ".m16n8k32 or .m16n8k64"},
        {".s4/.u4",
         [](Type x, Type y) { return is_int4(x) && is_int4(y); },
         [](Type d, Type c) { return d == Type::s32 && c == Type::s32; },
         {kM16N8K64, kM16N8K128},
         ".m16n8k64 or .m16n8k128"},
    };
    for (const auto& fam : kFamilies) {
        if (fam.ab(a, b)) return &fam;
    }
    return nullptr;
}

// mma.sp{::ordered_metadata}.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype: no .f64, no
// .b1, no rounding; always .row.col; D's type is C's.
void decode_mma_sparse(ModReader& r, MmaForm& f) {
    const MmaModifiers mods = take_mma_modifiers(r);
    f.bit_op = mods.bit_op;
    f.rnd = mods.rnd;
    f.satfinite = mods.satfinite;
    const MmaFamily* fam = take_mma_family(r, mods, f, &mma_sparse_family, "mma.sp", ".m16n8k32");
    if (!fam) return;
    const std::string all = mma_types(r, mods);
    if (f.alayout != MatrixLayout::row) return r.fail(mods.layout_at[0], "'.col' is not allowed: A is .row");
    if (f.blayout != MatrixLayout::col) return r.fail(mods.layout_at[1], "'.row' is not allowed: B is .col");
    if (f.dtype != f.ctype) return r.fail(mods.types[0].second, "'" + all + "' needs .dtype equal to .ctype");
    const bool integer = is_int8(f.atype) || is_int4(f.atype);
    if (f.satfinite && !integer)
        return r.fail(mods.sat_at, "'.satfinite' is for the .s8/.u8/.s4/.u4 forms only");
    if (f.rnd != Rounding::none)
        return r.fail(mods.rnd_at, "'." + r.at(mods.rnd_at) + "' rounding is not allowed");
    if (f.bit_op != BitOp::none) return r.fail(mods.bit_at, "'." + r.at(mods.bit_at) + "' is not allowed");
}

}  // namespace

Form decode_matrix_move(const std::vector<std::string>& mods, bool store) {
    const std::string what = store ? "stmatrix" : "ldmatrix";
    ModReader r(mods, what, kMatrixMoveSection, kMatrixMoveWords);
    MatrixMoveForm f;
    f.store = store;
    if (!r.flag("sync")) r.missing("needs .sync");
    if (!r.flag("aligned")) r.missing("needs .aligned");
    f.count = r.one<uint8_t>({{"x1", 1}, {"x2", 2}, {"x4", 4}}, "matrix count").value_or(0);
    const std::size_t trans_at = r.find("trans").value_or(0);
    f.trans = r.flag("trans");
    auto space = r.one<Space>({{"shared", Space::shared},
                               {"shared::cta", Space::shared_cta},
                               {"shared::cluster", Space::shared_cluster},
                               {"global", Space::global},
                               {"local", Space::local},
                               {"const", Space::const_},
                               {"param", Space::param}},
                              "state space");
    if (space && *space != Space::shared && *space != Space::shared_cta)
        r.fail(r.picked(),
               "'." + r.at(r.picked()) + "' is not a state space it takes (expected .shared{::cta})");
    f.space = space.value_or(Space::none);
    std::size_t si = 0;
    auto shape = take_shape(r, si);
    auto types = take_types(r);
    const bool b8x16 = r.flag("b8x16");
    auto source = r.one<MatrixSourceFormat>(
        {{"b6x16_p32", MatrixSourceFormat::b6x16_p32}, {"b4x16_p64", MatrixSourceFormat::b4x16_p64}},
        "source format");
    f.source = source.value_or(MatrixSourceFormat::none);
    if (r.failed()) return r.finish(f, "");
    if (!f.count) r.missing("needs the matrix count, .x1, .x2 or .x4");
    if (!shape) {
        r.missing(store ? "needs a shape, .m8n8 or .m16n8" : "needs a shape, .m8n8, .m16n16 or .m8n16");
        return r.finish(f, "");
    }
    f.shape = *shape;
    const std::string shape_name = "'." + r.at(si) + "'";
    const MatrixShape m8n8{8, 8, 0}, m16n16{16, 16, 0}, m8n16{8, 16, 0}, m16n8{16, 8, 0};
    const bool known = f.shape == m8n8 || (store ? f.shape == m16n8 : f.shape == m16n16 || f.shape == m8n16);
    if (!known) {
        r.fail(si, shape_name + " is not a shape it takes (expected " +
                       (store ? ".m8n8 or .m16n8)" : ".m8n8, .m16n16 or .m8n16)"));
        return r.finish(f, "");
    }
    if (types.size() > 1) r.fail(types[1].second, "'." + r.at(types[1].second) + "' is a second type");
    if (f.shape == m8n16) {
        f.type = Type::b8;
        if (!b8x16 || !source) r.missing(".m8n16 loads .b8x16 with .b6x16_p32 or .b4x16_p64");
        if (f.trans) r.fail(trans_at, "'.trans' is not allowed with .m8n16");
        return r.finish(f, "");
    }
    if (b8x16 || source) r.fail(FormError::kWholeInstruction, "'.b8x16' formats go with .m8n16 only");
    const Type want = f.shape == m8n8 ? Type::b16 : Type::b8;
    if (types.empty()) {
        r.missing("needs its type, ." + std::string(type_name(want)));
    } else {
        f.type = types[0].first;
        if (f.type != want)
            r.fail(types[0].second, "'." + r.at(types[0].second) + "' is not the type of " + shape_name +
                                        " (expected ." + std::string(type_name(want)) + ")");
    }
    if (want == Type::b8 && !f.trans) r.missing(shape_name + " needs .trans");
    return r.finish(f, "");
}

Form decode_wgmma(const std::vector<std::string>& mods) {
    ModReader r(mods, "wgmma", kWgmmaSection, kWgmmaWords);
    WgmmaForm f;
    static constexpr std::pair<std::string_view, WgmmaOp> kOps[] = {
        {"mma_async", WgmmaOp::mma_async},
        {"fence", WgmmaOp::fence},
        {"commit_group", WgmmaOp::commit_group},
        {"wait_group", WgmmaOp::wait_group},
    };
    bool found = false;
    for (const auto& [name, op] : kOps) {
        if (!mods.empty() && mods[0] == name) f.op = op, found = true;
    }
    if (!found) {
        if (mods.empty()) {
            r.missing("needs an operation: .mma_async, .fence, .commit_group or .wait_group");
        } else {
            r.fail(
                0,
                "'." + mods[0] +
                    "' is not a wgmma operation (expected .mma_async, .fence, .commit_group or .wait_group)");
        }
        return r.finish(f, "");
    }
    r.claim(0);
    r.rename("wgmma." + mods[0]);
    if (!r.flag("sync")) r.missing("needs .sync");
    f.aligned = r.flag("aligned");
    if (f.op == WgmmaOp::mma_async) {
        decode_mma_async(r, f);
        return r.finish(f, "");
    }
    return r.finish(f, ".sync, .aligned");
}

Form decode_wmma(const std::vector<std::string>& mods) {
    ModReader r(mods, "wmma", kWmmaSection, kWmmaWords);
    WmmaForm f;
    static constexpr std::pair<std::string_view, WmmaOp> kOps[] = {
        {"load", WmmaOp::load}, {"store", WmmaOp::store}, {"mma", WmmaOp::mma}};
    bool found = false;
    for (const auto& [name, op] : kOps) {
        if (!mods.empty() && mods[0] == name) f.op = op, found = true;
    }
    if (!found) {
        if (mods.empty()) {
            r.missing("needs an operation: .load, .store or .mma");
        } else {
            r.fail(0, "'." + mods[0] + "' is not a wmma operation (expected .load, .store or .mma)");
        }
        return r.finish(f, "");
    }
    r.claim(0);
    r.rename("wmma." + mods[0]);
    if (!r.flag("sync")) r.missing("needs .sync");
    if (!r.flag("aligned")) r.missing("needs .aligned");
    if (f.op == WmmaOp::mma) {
        decode_wmma_mma(r, f);
    } else {
        decode_wmma_memory(r, f);
    }
    return r.finish(f, "");
}

Form decode_mma(const std::vector<std::string>& mods) {
    // sm_120's .kind::* / .block_scale forms have no typed form yet.
    std::string what = "mma";
    for (const auto& m : mods) {
        if (m.starts_with("kind::") || m == "block_scale" || m.starts_with("scale_vec::")) return Form{};
        if ((m == "sp" || m == "sp::ordered_metadata") && what == "mma") what += "." + m;
    }
    const bool sparse = what != "mma";
    ModReader r(mods, what, sparse ? kMmaSpSection : kMmaSection, kMmaWords);
    MmaForm f;
    auto sparsity = r.one<MmaSparsity>(
        {{"sp", MmaSparsity::sp}, {"sp::ordered_metadata", MmaSparsity::sp_ordered_metadata}}, "sparsity");
    f.sparsity = sparsity.value_or(MmaSparsity::dense);
    if (!r.flag("sync")) r.missing("needs .sync");
    if (!r.flag("aligned")) r.missing("needs .aligned");
    if (sparse) {
        decode_mma_sparse(r, f);
    } else {
        decode_mma_sync(r, f);
    }
    return r.finish(f, "");
}

}  // namespace forms_detail
}  // namespace warpsim::ir
