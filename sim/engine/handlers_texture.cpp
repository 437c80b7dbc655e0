// sim/engine/handlers_texture.cpp — tex and tld4 (unified texture mode: the object's handle in a register),
// suld.b/sust.b/sust.p/sured on surface objects, and the txq/suq queries, over the launch's TextureTable
// (texture.hpp), in the geometries 1d, 2d, 3d, a1d and a2d. Cubemaps, mipmap levels and gradients, explicit
// samplers and tld4's offset and depth-compare operands are left unsupported (a launch that reaches one
// stops with its name).
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "sim/engine/dispatch.hpp"
#include "sim/engine/handler_util.hpp"
#include "sim/engine/memory_access.hpp"
#include "sim/engine/texture.hpp"

namespace warpsim::engine {

namespace {

// The coordinate operands: the vector inside the address operand ([%rd1, {%f1, %f2}]).
const std::vector<ir::Operand>& coordinates(const DInst& in, std::size_t address_arg) {
    return in.ir->args[address_arg].elems[0].elems;
}

uint64_t operand_bits(const Exec& x, const ir::Operand& o, uint32_t lane) {
    return o.kind == ir::Operand::Kind::reg ? x.R[std::size_t{o.reg} * 32 + lane]
                                            : static_cast<uint64_t>(o.imm);
}

float as_float(uint64_t bits) {
    return std::bit_cast<float>(static_cast<uint32_t>(bits));
}

void count(Exec& x, counts::Stat s) {
    if (x.block->counters) x.block->counters->on_texture_instruction(s);
}

// The object behind a lane's handle, and its bytes, remembered across the lanes of one instruction (handles
// are nearly always uniform). False after raising a fault.
template <class Object>
struct Lookup {
    uint64_t handle = 0;
    const Object* object = nullptr;
    uint8_t* bytes = nullptr;
};

const TextureResource& resource_of(const TextureObject& t) {
    return t.resource;
}
const TextureResource& resource_of(const TextureResource& r) {
    return r;
}

template <class Object, class Find>
bool look_up(Exec& x, const DInst& in, uint32_t lane, Lookup<Object>& cache, Find find, const char* what) {
    const uint64_t handle = x.R[std::size_t{in.addr_reg} * 32 + lane];
    if (cache.object && cache.handle == handle) return true;
    const TextureTable* table = x.launch->textures;
    const Object* object = table ? find(*table, handle) : nullptr;
    if (!object) {
        raise_fault(x, in, lane, Fault::illegal_address, {},
                    fmt::format("`{}` with the handle 0x{:x}, which is no {} object of this launch: pass the "
                                "value cudaCreate{}Object returned, and destroy the object only after the "
                                "kernels that use it",
                                ir::opcode_name(in.ir->op), handle, what,
                                std::string_view(what) == "texture" ? "Texture" : "Surface"));
        return false;
    }
    const TextureResource& r = resource_of(*object);
    uint8_t* bytes = x.launch->memory->translate(r.base, r.bytes());
    if (!bytes) {
        raise_fault(x, in, lane, Fault::illegal_address, {},
                    fmt::format("the {} object 0x{:x} reads memory at 0x{:x} ({} bytes) that is no longer "
                                "allocated: free its array or buffer only after destroying the object",
                                what, handle, r.base, r.bytes()));
        return false;
    }
    cache = {handle, object, bytes};
    return true;
}

// The geometry modifier, and where its coordinate vector keeps the layer and the coordinates.
enum class Geometry : uint8_t { none, d1, d2, d3, a1d, a2d };

Geometry geometry_of(const ir::Instruction& inst) {
    if (inst.has_mod("1d")) return Geometry::d1;
    if (inst.has_mod("2d")) return Geometry::d2;
    if (inst.has_mod("3d")) return Geometry::d3;
    if (inst.has_mod("a1d")) return Geometry::a1d;
    if (inst.has_mod("a2d")) return Geometry::a2d;
    return Geometry::none;
}

// The elements of the coordinate vector: 1d {x}, 2d {x, y}, 3d {x, y, z, -}, a1d {layer, x}, a2d {layer, x,
// y, -}.
uint32_t coordinate_count(Geometry g) {
    switch (g) {
        case Geometry::d1:
            return 1;
        case Geometry::d2:
        case Geometry::a1d:
            return 2;
        case Geometry::d3:
        case Geometry::a2d:
            return 4;
        case Geometry::none:
            break;
    }
    return 0;
}

bool layered(Geometry g) {
    return g == Geometry::a1d || g == Geometry::a2d;
}

// A lane's float coordinates: 1D fetches sample an array's only row at y = 0.5.
TexCoords float_coordinates(const Exec& x, const DInst& in, Geometry g, uint32_t lane) {
    const auto& c = coordinates(in, 1);
    TexCoords t;
    const std::size_t first = layered(g) ? 1 : 0;
    if (layered(g)) t.layer = static_cast<uint32_t>(operand_bits(x, c[0], lane));
    t.dims = g == Geometry::d3 ? 3 : 2;
    t.at[0] = as_float(operand_bits(x, c[first], lane));
    if (g == Geometry::d2 || g == Geometry::d3 || g == Geometry::a2d)
        t.at[1] = as_float(operand_bits(x, c[first + 1], lane));
    if (g == Geometry::d3) t.at[2] = as_float(operand_bits(x, c[2], lane));
    return t;
}

void write_words(Exec& x, const DInst& in, uint32_t lane, const TexelWords& w) {
    const auto& masks = x.frame->code->reg_width_mask;
    for (uint32_t i = 0; i < 4; ++i) x.R[std::size_t{in.dst[i]} * 32 + lane] = w[i] & masks[in.dst[i]];
}

bool look_up_texture(Exec& x, const DInst& in, uint32_t lane, Lookup<TextureObject>& cache) {
    return look_up(
        x, in, lane, cache, [](const TextureTable& t, uint64_t h) { return t.texture(h); }, "texture");
}

// tex.{1d,2d,3d,a1d,a2d}.v4.{f32,s32,u32}.f32 d, [handle, {coordinates}], and tex.1d.v4.*.s32 (tex1Dfetch:
// an integer index, no filtering).
template <Geometry G, bool IntCoord>
void tex(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    count(x, counts::Stat::inst_texture);
    Lookup<TextureObject> cache;
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        if (!look_up_texture(x, in, l, cache)) return;
        if constexpr (IntCoord) {
            const auto index = static_cast<int32_t>(operand_bits(x, coordinates(in, 1)[0], l));
            write_words(x, in, l, fetch_1d(*cache.object, cache.bytes, index));
        } else {
            write_words(x, in, l, sample(*cache.object, cache.bytes, float_coordinates(x, in, G, l)));
        }
    }
}

// tld4.{r,g,b,a}.{2d,a2d}.v4.{f32,s32,u32}.f32 d, [handle, {coordinates}]: the component in
// in.gather_component.
template <Geometry G>
void tld4(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    count(x, counts::Stat::inst_texture);
    Lookup<TextureObject> cache;
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        if (!look_up_texture(x, in, l, cache)) return;
        write_words(x, in, l,
                    gather(*cache.object, cache.bytes, float_coordinates(x, in, G, l), in.gather_component));
    }
}

// txq.{query}.b32 d, [handle] and suq.{query}.b32 d, [handle]: the query in in.texture_query.
void txq(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    count(x, counts::Stat::inst_texture);
    Lookup<TextureObject> cache;
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        if (!look_up_texture(x, in, l, cache)) return;
        x.R[std::size_t{in.dst[0]} * 32 + l] =
            texture_query(*cache.object, static_cast<TextureQuery>(in.texture_query));
    }
}

void suq(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    count(x, counts::Stat::inst_surface_ld);
    Lookup<TextureResource> cache;
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        if (!look_up(
                x, in, l, cache, [](const TextureTable& t, uint64_t h) { return t.surface(h); }, "surface"))
            return;
        x.R[std::size_t{in.dst[0]} * 32 + l] =
            surface_query(*cache.object, static_cast<TextureQuery>(in.texture_query));
    }
}

SurfaceBoundary boundary_of(const ir::Instruction& inst) {
    if (inst.has_mod("clamp")) return SurfaceBoundary::clamp;
    if (inst.has_mod("zero")) return SurfaceBoundary::zero;
    return SurfaceBoundary::trap;
}

// A lane's surface coordinates: the first in bytes (in samples for the .p forms), then row and slice or
// layer.
struct SurfaceCoords {
    int64_t x = 0, y = 0, z = 0;
};

SurfaceCoords surface_coordinates(const Exec& x, const DInst& in, std::size_t address_arg, uint32_t lane) {
    const auto& c = coordinates(in, address_arg);
    auto s32 = [&](std::size_t i) { return int64_t{static_cast<int32_t>(operand_bits(x, c[i], lane))}; };
    SurfaceCoords s;
    switch (static_cast<Geometry>(in.texture_geometry)) {
        case Geometry::a1d:
            s.z = static_cast<uint32_t>(operand_bits(x, c[0], lane));  // the layer, unsigned
            s.x = s32(1);
            break;
        case Geometry::a2d:
            s.z = static_cast<uint32_t>(operand_bits(x, c[0], lane));
            s.x = s32(1);
            s.y = s32(2);
            break;
        case Geometry::d3:
            s.z = s32(2);
            [[fallthrough]];
        case Geometry::d2:
            s.y = s32(1);
            [[fallthrough]];
        default:
            s.x = s32(0);
    }
    return s;
}

// The byte offset of a lane's access in the surface, -1 for a dropped one (zero boundary), false after a
// fault (trap boundary). `scale`: bytes per unit of the first coordinate (1 for .b, the sample's size for
// .p).
bool surface_access(Exec& x, const DInst& in, uint32_t lane, const Lookup<TextureResource>& s,
                    std::size_t address_arg, uint32_t bytes, int64_t& offset, uint32_t scale = 1) {
    const SurfaceCoords c = surface_coordinates(x, in, address_arg, lane);
    const SurfaceBoundary mode = boundary_of(*in.ir);
    offset = surface_offset(*s.object, c.x * scale, c.y, c.z, bytes, mode);
    if (offset >= 0 || mode != SurfaceBoundary::trap) return true;
    FaultDetails f;
    f.address = s.object->base;
    f.access_bytes = bytes;
    f.space = "surface";
    f.access = in.ir->op == ir::Opcode::suld ? "read" : "write";
    const TextureResource& r = *s.object;
    const std::string where = r.slices() > 1 || r.layers > 0
                                  ? fmt::format(", {} {}", r.layers > 0 ? "layer" : "slice", c.z)
                                  : std::string();
    const std::string extent =
        r.slices() > 1 || r.layers > 0
            ? fmt::format(" and {} {}", r.slices(), r.layers > 0 ? "layers" : "slices deep")
            : std::string();
    raise_fault(
        x, in, lane, Fault::illegal_address, {},
        fmt::format("Invalid surface {} of size {} bytes at byte x {}, row {}{} of a surface {} bytes "
                    "wide, {} rows high{} (.trap: out of range is an error; .clamp or .zero, "
                    "cudaBoundaryModeClamp/Zero, clamp or drop it)",
                    f.access, bytes, c.x * scale, c.y, where, r.width * r.format.bytes(), r.height, extent),
        f);
    return false;
}

// The lanes' accesses to a surface's bytes, reported to the checkers (--check) as global-memory accesses to
// the array's allocation once the instruction is done: lanes whose access was dropped (zero boundary) are not
// in the mask.
struct SurfaceAccesses {
    std::array<uint64_t, 32> addr{};
    uint32_t mask = 0;
    void add(uint32_t lane, const TextureResource& r, int64_t offset) {
        addr[lane] = r.base + static_cast<uint64_t>(offset);
        mask |= 1u << lane;
    }
    void report(Exec& x, const DInst& in, MemoryKind kind, uint32_t bytes) const {
        if (x.launch->observer && mask)
            report_memory(x, in, kind, MemorySpace::global, bytes, mask, addr, false);
    }
};

bool look_up_surface(Exec& x, const DInst& in, uint32_t lane, Lookup<TextureResource>& cache) {
    return look_up(
        x, in, lane, cache, [](const TextureTable& t, uint64_t h) { return t.surface(h); }, "surface");
}

// suld.b.{1d,2d,3d,a1d,a2d}{.v2,.v4}.bN d, [surface, {coordinates}]
template <uint32_t W>
void suld(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    count(x, counts::Stat::inst_surface_ld);
    const uint32_t bytes = W * in.vec;
    const auto& masks = x.frame->code->reg_width_mask;
    Lookup<TextureResource> cache;
    SurfaceAccesses seen;
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        if (!look_up_surface(x, in, l, cache)) return;
        int64_t offset = 0;
        if (!surface_access(x, in, l, cache, 1, bytes, offset)) return;
        if (offset >= 0) seen.add(l, *cache.object, offset);
        for (uint32_t i = 0; i < in.vec; ++i) {
            uint64_t v = 0;
            if (offset >= 0) std::memcpy(&v, cache.bytes + offset + i * W, W);
            x.R[std::size_t{in.dst[i]} * 32 + l] = v & masks[in.dst[i]];
        }
    }
    seen.report(x, in, MemoryKind::read, bytes);
}

// sust.b.{1d,2d,3d,a1d,a2d}{.v2,.v4}.bN [surface, {coordinates}], {values}
template <uint32_t W>
void sust(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    count(x, counts::Stat::inst_surface_st);
    const uint32_t bytes = W * in.vec;
    Lookup<TextureResource> cache;
    SurfaceAccesses seen;
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        if (!look_up_surface(x, in, l, cache)) return;
        int64_t offset = 0;
        if (!surface_access(x, in, l, cache, 0, bytes, offset)) return;
        if (offset < 0) continue;
        seen.add(l, *cache.object, offset);
        uint8_t* dst = cache.bytes + offset;
        for (uint32_t i = 0; i < in.vec; ++i)
            std::memcpy(dst + i * W, &x.R[std::size_t{in.src[i]} * 32 + l], W);
    }
    seen.report(x, in, MemoryKind::write, bytes);
}

// sust.p.{1d,2d,3d}{.v2,.v4}.b32 [surface, {coordinates}], {values}: the values as R, G, B, A converted to
// the surface's format (formatted_texel), the first coordinate in samples.
void sust_formatted(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    count(x, counts::Stat::inst_surface_st);
    Lookup<TextureResource> cache;
    SurfaceAccesses seen;
    uint32_t width = 0;
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        if (!look_up_surface(x, in, l, cache)) return;
        const uint32_t bytes = cache.object->format.bytes();
        int64_t offset = 0;
        if (!surface_access(x, in, l, cache, 0, bytes, offset, bytes)) return;
        if (offset < 0) continue;
        seen.add(l, *cache.object, offset);
        width = bytes;
        std::array<uint32_t, 4> v{0, 0, 0, 0};
        for (uint32_t i = 0; i < in.vec; ++i)
            v[i] = static_cast<uint32_t>(x.R[std::size_t{in.src[i]} * 32 + l]);
        store_formatted(cache.object->format, v, in.vec, cache.bytes + offset);
    }
    seen.report(x, in, MemoryKind::write, width);
}

template <class T, ir::AtomOp Op>
void reduce_at(uint8_t* p, uint64_t bits) {
    T old;
    std::memcpy(&old, p, sizeof(T));
    const auto v = static_cast<T>(bits);
    T now = old;
    if constexpr (Op == ir::AtomOp::add) now = static_cast<T>(old + v);
    if constexpr (Op == ir::AtomOp::min) now = std::min(old, v);
    if constexpr (Op == ir::AtomOp::max) now = std::max(old, v);
    if constexpr (Op == ir::AtomOp::and_) now = old & v;
    if constexpr (Op == ir::AtomOp::or_) now = old | v;
    std::memcpy(p, &now, sizeof(T));
}

// sured.{b,p}.{op}.{1d,2d,3d}.T [surface, {coordinates}], value: one read-modify-write per lane, in lane
// order (a warp's lanes never see each other half-done, as with atomics). .p scales the first coordinate by
// the access size and reads the data as S on surfaces of signed integers, as U otherwise (.b: S = U = T).
template <class U, class S, ir::AtomOp Op>
void sured(Exec& x, const DInst& in, uint32_t e) {
    static_assert(sizeof(U) == sizeof(S));
    if (!e) return;
    count(x, counts::Stat::inst_surface_st);
    Lookup<TextureResource> cache;
    SurfaceAccesses seen;
    const bool samples = in.ir->has_mod("p");
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        if (!look_up_surface(x, in, l, cache)) return;
        int64_t offset = 0;
        if (!surface_access(x, in, l, cache, 0, sizeof(U), offset, samples ? sizeof(U) : 1)) return;
        if (offset < 0) continue;
        seen.add(l, *cache.object, offset);
        const uint64_t v = x.R[std::size_t{in.src[0]} * 32 + l];
        if (cache.object->format.kind == ChannelKind::signed_int)
            reduce_at<S, Op>(cache.bytes + offset, v);
        else
            reduce_at<U, Op>(cache.bytes + offset, v);
    }
    seen.report(x, in, MemoryKind::atomic, sizeof(U));
}

// `[reg, {n coordinates}]` as argument `arg` (`[reg]` for n = 0).
bool has_coordinates(const ir::Instruction& inst, std::size_t arg, uint32_t n) {
    if (inst.args.size() <= arg) return false;
    const ir::Operand& a = inst.args[arg];
    if (a.kind != ir::Operand::Kind::address || a.reg == ir::kNoReg || !a.name.empty()) return false;
    if (n == 0) return a.elems.empty();
    if (a.elems.size() != 1) return false;
    const ir::Operand& v = a.elems[0];
    if (v.kind != ir::Operand::Kind::vector || v.elems.size() != n) return false;
    for (const auto& e : v.elems)
        if (e.kind != ir::Operand::Kind::reg && e.kind != ir::Operand::Kind::imm_int &&
            e.kind != ir::Operand::Kind::imm_f32)
            return false;
    return true;
}

template <Geometry G>
Handler tex_float() {
    return &tex<G, false>;
}

Handler select_tex(const ir::Instruction& inst, const DInst& in) {
    using T = ir::Type;
    const Geometry g = geometry_of(inst);
    if (g == Geometry::none || inst.args.size() != 2 || in.vec != 4 || in.ndst != 4) return nullptr;
    if (inst.d.type != T::f32 && inst.d.type != T::s32 && inst.d.type != T::u32) return nullptr;
    if (!has_coordinates(inst, 1, coordinate_count(g))) return nullptr;
    if (inst.has_mod("level") || inst.has_mod("grad") || inst.has_mod("base")) return nullptr;
    if (g == Geometry::d1 && inst.d.type2 == T::s32) return &tex<Geometry::d1, true>;
    if (inst.d.type2 != T::f32) return nullptr;
    switch (g) {
        case Geometry::d1:
            return tex_float<Geometry::d1>();
        case Geometry::d2:
            return tex_float<Geometry::d2>();
        case Geometry::d3:
            return tex_float<Geometry::d3>();
        case Geometry::a1d:
            return tex_float<Geometry::a1d>();
        case Geometry::a2d:
            return tex_float<Geometry::a2d>();
        case Geometry::none:
            break;
    }
    return nullptr;
}

// tld4.{r,g,b,a}.{2d,a2d}.v4.{f32,s32,u32}.f32 without the offset, depth-compare or predicate operands.
Handler select_tld4(const ir::Instruction& inst, DInst& in) {
    using T = ir::Type;
    const Geometry g = geometry_of(inst);
    if ((g != Geometry::d2 && g != Geometry::a2d) || inst.args.size() != 2 || in.vec != 4 || in.ndst != 4)
        return nullptr;
    if ((inst.d.type != T::f32 && inst.d.type != T::s32 && inst.d.type != T::u32) || inst.d.type2 != T::f32)
        return nullptr;
    if (!has_coordinates(inst, 1, coordinate_count(g))) return nullptr;
    static constexpr std::string_view kComps[] = {"r", "g", "b", "a"};
    for (uint32_t c = 0; c < 4; ++c) {
        if (!inst.has_mod(kComps[c])) continue;
        in.gather_component = static_cast<uint8_t>(c);
        return g == Geometry::d2 ? &tld4<Geometry::d2> : &tld4<Geometry::a2d>;
    }
    return nullptr;
}

// txq.{query}.b32 d, [handle] / suq.{query}.b32 d, [handle]: the queries of TextureQuery (txq.level and
// queries of .samplerref variables are not).
Handler select_query(const ir::Instruction& inst, DInst& in) {
    if (inst.args.size() != 2 || in.ndst != 1 || !has_coordinates(inst, 1, 0) || inst.has_mod("level"))
        return nullptr;
    if (inst.d.type != ir::Type::b32) return nullptr;
    const bool texture = inst.op == ir::Opcode::txq;
    for (const std::string& m : inst.mods) {
        const auto q = texture_query_named(m, texture);
        if (!q) continue;
        in.texture_query = static_cast<uint8_t>(*q);
        return texture ? &txq : &suq;
    }
    return nullptr;
}

template <template <uint32_t> class F>
Handler by_width(ir::Type t) {
    switch (ir::type_bytes(t)) {
        case 1:
            return &F<1>::run;
        case 2:
            return &F<2>::run;
        case 4:
            return &F<4>::run;
        case 8:
            return &F<8>::run;
        default:
            return nullptr;
    }
}
template <uint32_t W>
struct SuldOf {
    static void run(Exec& x, const DInst& in, uint32_t e) { suld<W>(x, in, e); }
};
template <uint32_t W>
struct SustOf {
    static void run(Exec& x, const DInst& in, uint32_t e) { sust<W>(x, in, e); }
};

Handler select_surface(const ir::Instruction& inst, DInst& in) {
    const Geometry g = geometry_of(inst);
    if (g == Geometry::none || !ir::is_bits(inst.d.type) || inst.args.size() != 2) return nullptr;
    if (in.vec != 1 && in.vec != 2 && in.vec != 4) return nullptr;
    in.texture_geometry = static_cast<uint8_t>(g);
    const uint32_t n = coordinate_count(g);
    if (inst.op == ir::Opcode::suld) {
        if (!inst.has_mod("b") || in.ndst != in.vec || !has_coordinates(inst, 1, n)) return nullptr;
        return by_width<SuldOf>(inst.d.type);
    }
    if (in.nsrc != in.vec || !has_coordinates(inst, 0, n)) return nullptr;
    if (inst.has_mod("p"))  // formatted: 1d, 2d, 3d of 32-bit values
        return !layered(g) && inst.d.type == ir::Type::b32 ? &sust_formatted : nullptr;
    return inst.has_mod("b") ? by_width<SustOf>(inst.d.type) : nullptr;
}

template <class U, class S>
Handler sured_of(ir::AtomOp op) {
    using A = ir::AtomOp;
    switch (op) {
        case A::add:
            return &sured<U, S, A::add>;
        case A::min:
            return &sured<U, S, A::min>;
        case A::max:
            return &sured<U, S, A::max>;
        case A::and_:
            return &sured<U, S, A::and_>;
        case A::or_:
            return &sured<U, S, A::or_>;
        default:
            return nullptr;
    }
}

// sured.b.{add,min,max,and,or}.{1d,2d,3d}.{u32,s32,b32,u64,s64} and sured.p.{op}.{1d,2d,3d}.{b32,b64}, with
// the combinations the PTX ISA allows.
Handler select_sured(const ir::Instruction& inst, DInst& in) {
    using T = ir::Type;
    using A = ir::AtomOp;
    const Geometry g = geometry_of(inst);
    if (g != Geometry::d1 && g != Geometry::d2 && g != Geometry::d3) return nullptr;
    if (inst.args.size() != 2 || in.nsrc != 1 || !has_coordinates(inst, 0, coordinate_count(g)))
        return nullptr;
    in.texture_geometry = static_cast<uint8_t>(g);
    const A op = inst.d.atom;
    const T t = inst.d.type;
    const bool arith = op == A::add || op == A::min || op == A::max, minmax = op == A::min || op == A::max;
    if (inst.has_mod("p")) {
        if (t == T::b32) return sured_of<uint32_t, int32_t>(op);
        return t == T::b64 && minmax ? sured_of<uint64_t, int64_t>(op) : nullptr;
    }
    if (!inst.has_mod("b")) return nullptr;
    switch (t) {
        case T::u32:
            return arith ? sured_of<uint32_t, uint32_t>(op) : nullptr;
        case T::b32:
            return op == A::and_ || op == A::or_ ? sured_of<uint32_t, uint32_t>(op) : nullptr;
        case T::s32:
            return arith ? sured_of<int32_t, int32_t>(op) : nullptr;
        case T::u64:
            return arith ? sured_of<uint64_t, uint64_t>(op) : nullptr;
        case T::s64:
            return minmax ? sured_of<int64_t, int64_t>(op) : nullptr;
        default:
            return nullptr;
    }
}

}  // namespace

Handler select_texture(const ir::Instruction& inst, DInst& in, const SelectContext&) {
    switch (inst.op) {
        case ir::Opcode::tex:
            return select_tex(inst, in);
        case ir::Opcode::tld4:
            return select_tld4(inst, in);
        case ir::Opcode::txq:
        case ir::Opcode::suq:
            return select_query(inst, in);
        case ir::Opcode::suld:
        case ir::Opcode::sust:
            return select_surface(inst, in);
        case ir::Opcode::sured:
            return select_sured(inst, in);
        default:
            return nullptr;
    }
}

}  // namespace warpsim::engine
