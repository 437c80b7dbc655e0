// kernels_ir/forms/tensor.cpp — wgmma modifiers into WgmmaForm (PTX ISA 9.7.17) and ldmatrix/stmatrix into
// MatrixMoveForm (9.7.16.5), shapes and type combinations checked against ptxas for sm_90a.
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

}  // namespace forms_detail
}  // namespace warpsim::ir
