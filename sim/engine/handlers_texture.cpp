// sim/engine/handlers_texture.cpp — tex.1d/.2d (unified texture mode: the object's handle in a register) and
// suld.b/sust.b .1d/.2d on surface objects, over the launch's TextureTable (texture.hpp). Other geometries,
// tld4, txq, sured, suq and formatted surface stores are left unsupported (a launch that reaches one stops
// with its name).
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "sim/engine/dispatch.hpp"
#include "sim/engine/handler_util.hpp"
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
                                in.ir->op == ir::Opcode::tex ? "tex" : "a surface access", handle, what,
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

// tex.{1d,2d}.v4.{f32,s32,u32}.{f32,s32} d, [handle, {coordinates}]; Dims 1 with an s32 coordinate is
// tex1Dfetch (no filtering), with an f32 one a 1D array sampled on its only row.
template <uint32_t Dims, bool IntCoord>
void tex(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    count(x, counts::Stat::inst_texture);
    const auto& c = coordinates(in, 1);
    const auto& masks = x.frame->code->reg_width_mask;
    Lookup<TextureObject> cache;
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        if (!look_up(
                x, in, l, cache, [](const TextureTable& t, uint64_t h) { return t.texture(h); }, "texture"))
            return;
        TexelWords w;
        if constexpr (IntCoord) {
            w = fetch_1d(*cache.object, cache.bytes, static_cast<int32_t>(operand_bits(x, c[0], l)));
        } else {
            const float cx = as_float(operand_bits(x, c[0], l));
            const float cy = Dims == 2 ? as_float(operand_bits(x, c[1], l)) : 0.5f;
            w = sample_2d(*cache.object, cache.bytes, cx, cy);
        }
        for (uint32_t i = 0; i < 4; ++i) x.R[std::size_t{in.dst[i]} * 32 + l] = w[i] & masks[in.dst[i]];
    }
}

SurfaceBoundary boundary_of(const ir::Instruction& inst) {
    if (inst.has_mod("clamp")) return SurfaceBoundary::clamp;
    if (inst.has_mod("zero")) return SurfaceBoundary::zero;
    return SurfaceBoundary::trap;
}

// The byte offset of a lane's access in the surface, -1 for a dropped one (zero boundary), false after a
// fault (trap boundary).
bool surface_access(Exec& x, const DInst& in, uint32_t lane, const Lookup<TextureResource>& s,
                    std::size_t address_arg, uint32_t bytes, int64_t& offset) {
    const auto& c = coordinates(in, address_arg);
    const auto cx = static_cast<int32_t>(operand_bits(x, c[0], lane));
    const auto cy = c.size() > 1 ? static_cast<int32_t>(operand_bits(x, c[1], lane)) : 0;
    const SurfaceBoundary mode = boundary_of(*in.ir);
    offset = surface_offset(*s.object, cx, cy, bytes, mode);
    if (offset >= 0 || mode != SurfaceBoundary::trap) return true;
    FaultDetails f;
    f.address = s.object->base;
    f.access_bytes = bytes;
    f.space = "surface";
    f.access = in.ir->op == ir::Opcode::suld ? "read" : "write";
    raise_fault(
        x, in, lane, Fault::illegal_address, {},
        fmt::format("Invalid surface {} of size {} bytes at byte x {}, row {} of a surface {} bytes "
                    "wide and {} rows high (.trap: out of range is an error; .clamp or .zero, "
                    "cudaBoundaryModeClamp/Zero, clamp or drop it)",
                    f.access, bytes, cx, cy, s.object->width * s.object->format.bytes(), s.object->height),
        f);
    return false;
}

// suld.b.{1d,2d}{.v2,.v4}.bN d, [surface, {x, y}]
template <uint32_t W>
void suld(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    count(x, counts::Stat::inst_surface_ld);
    const uint32_t bytes = W * in.vec;
    const auto& masks = x.frame->code->reg_width_mask;
    Lookup<TextureResource> cache;
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        if (!look_up(
                x, in, l, cache, [](const TextureTable& t, uint64_t h) { return t.surface(h); }, "surface"))
            return;
        int64_t offset = 0;
        if (!surface_access(x, in, l, cache, 1, bytes, offset)) return;
        for (uint32_t i = 0; i < in.vec; ++i) {
            uint64_t v = 0;
            if (offset >= 0) std::memcpy(&v, cache.bytes + offset + i * W, W);
            x.R[std::size_t{in.dst[i]} * 32 + l] = v & masks[in.dst[i]];
        }
    }
}

// sust.b.{1d,2d}{.v2,.v4}.bN [surface, {x, y}], {values}
template <uint32_t W>
void sust(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    count(x, counts::Stat::inst_surface_st);
    const uint32_t bytes = W * in.vec;
    Lookup<TextureResource> cache;
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        if (!look_up(
                x, in, l, cache, [](const TextureTable& t, uint64_t h) { return t.surface(h); }, "surface"))
            return;
        int64_t offset = 0;
        if (!surface_access(x, in, l, cache, 0, bytes, offset)) return;
        if (offset < 0) continue;
        uint8_t* dst = cache.bytes + offset;
        for (uint32_t i = 0; i < in.vec; ++i)
            std::memcpy(dst + i * W, &x.R[std::size_t{in.src[i]} * 32 + l], W);
    }
}

// The geometry modifier: 1 for .1d, 2 for .2d, 0 for any other.
uint32_t dims_of(const ir::Instruction& inst) {
    if (inst.has_mod("1d")) return 1;
    if (inst.has_mod("2d")) return 2;
    return 0;
}

// `[reg, {n coordinates}]` as argument `arg`.
bool has_coordinates(const ir::Instruction& inst, std::size_t arg, uint32_t n) {
    if (inst.args.size() <= arg) return false;
    const ir::Operand& a = inst.args[arg];
    if (a.kind != ir::Operand::Kind::address || a.reg == ir::kNoReg || !a.name.empty() || a.elems.size() != 1)
        return false;
    const ir::Operand& v = a.elems[0];
    if (v.kind != ir::Operand::Kind::vector || v.elems.size() != n) return false;
    for (const auto& e : v.elems)
        if (e.kind != ir::Operand::Kind::reg && e.kind != ir::Operand::Kind::imm_int &&
            e.kind != ir::Operand::Kind::imm_f32)
            return false;
    return true;
}

Handler select_tex(const ir::Instruction& inst, const DInst& in) {
    using T = ir::Type;
    const uint32_t dims = dims_of(inst);
    if (dims == 0 || inst.args.size() != 2 || in.vec != 4 || in.ndst != 4) return nullptr;
    if (inst.d.type != T::f32 && inst.d.type != T::s32 && inst.d.type != T::u32) return nullptr;
    if (!has_coordinates(inst, 1, dims)) return nullptr;
    if (inst.has_mod("level") || inst.has_mod("grad") || inst.has_mod("base")) return nullptr;
    if (dims == 1 && inst.d.type2 == T::s32) return &tex<1, true>;
    if (inst.d.type2 != T::f32) return nullptr;
    return dims == 1 ? &tex<1, false> : &tex<2, false>;
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

Handler select_surface(const ir::Instruction& inst, const DInst& in) {
    const uint32_t dims = dims_of(inst);
    if (dims == 0 || !inst.has_mod("b") || !ir::is_bits(inst.d.type) || inst.args.size() != 2) return nullptr;
    if (in.vec != 1 && in.vec != 2 && in.vec != 4) return nullptr;
    if (inst.op == ir::Opcode::suld) {
        if (in.ndst != in.vec || !has_coordinates(inst, 1, dims)) return nullptr;
        return by_width<SuldOf>(inst.d.type);
    }
    if (in.nsrc != in.vec || !has_coordinates(inst, 0, dims)) return nullptr;
    return by_width<SustOf>(inst.d.type);
}

}  // namespace

Handler select_texture(const ir::Instruction& inst, DInst& in, const SelectContext&) {
    switch (inst.op) {
        case ir::Opcode::tex:
            return select_tex(inst, in);
        case ir::Opcode::suld:
        case ir::Opcode::sust:
            return select_surface(inst, in);
        default:
            return nullptr;
    }
}

}  // namespace warpsim::engine
