// kernels_ir/ir.cpp — names, sizes and look-ups for the IR's plain types.
#include "kernels_ir/ir.hpp"

#include <algorithm>

namespace warpsim::ir {
namespace {

struct OpcodeInfo {
    std::string_view name;
    ExecClass cls;
    Family family;
    std::string_view section;
};

constexpr OpcodeInfo kOpcodes[] = {
#define WARPSIM_OPCODE(id, spelling, cls, family, sig, section) \
    {spelling, ExecClass::cls, Family::family, section},
#include "kernels_ir/opcodes.def"
#undef WARPSIM_OPCODE
};

struct TypeInfo {
    Type type;
    std::string_view name;
    uint32_t bytes;
};

constexpr TypeInfo kTypes[] = {
    {Type::none, "", 0},         {Type::pred, "pred", 0},     {Type::b8, "b8", 1},
    {Type::b16, "b16", 2},       {Type::b32, "b32", 4},       {Type::b64, "b64", 8},
    {Type::b128, "b128", 16},    {Type::u8, "u8", 1},         {Type::u16, "u16", 2},
    {Type::u32, "u32", 4},       {Type::u64, "u64", 8},       {Type::s8, "s8", 1},
    {Type::s16, "s16", 2},       {Type::s32, "s32", 4},       {Type::s64, "s64", 8},
    {Type::f16, "f16", 2},       {Type::f16x2, "f16x2", 4},   {Type::bf16, "bf16", 2},
    {Type::bf16x2, "bf16x2", 4}, {Type::f32, "f32", 4},       {Type::f64, "f64", 8},
    {Type::tf32, "tf32", 4},     {Type::e4m3, "e4m3", 1},     {Type::e5m2, "e5m2", 1},
    {Type::e4m3x2, "e4m3x2", 2}, {Type::e5m2x2, "e5m2x2", 2}, {Type::e2m1x2, "e2m1x2", 1},
    {Type::e2m3x2, "e2m3x2", 2}, {Type::e3m2x2, "e3m2x2", 2}, {Type::ue8m0x2, "ue8m0x2", 2},
    {Type::u16x2, "u16x2", 4},   {Type::s16x2, "s16x2", 4},   {Type::s4, "s4", 1},
    {Type::u4, "u4", 1},         {Type::b1, "b1", 1},
};

constexpr std::string_view kSpaceNames[] = {"",        "reg",   "sreg",   "const",       "global",
                                            "local",   "param", "shared", "shared::cta", "shared::cluster",
                                            "generic", "tex",   "surf"};

constexpr std::string_view kSpecialNames[] = {
    "tid",
    "ntid",
    "ctaid",
    "nctaid",
    "laneid",
    "warpid",
    "nwarpid",
    "smid",
    "nsmid",
    "gridid",
    "lanemask_eq",
    "lanemask_le",
    "lanemask_lt",
    "lanemask_ge",
    "lanemask_gt",
    "clock",
    "clock_hi",
    "clock64",
    "globaltimer",
    "globaltimer_lo",
    "globaltimer_hi",
    "dynamic_smem_size",
    "total_smem_size",
    "aggr_smem_size",
    "clusterid",
    "nclusterid",
    "cluster_ctaid",
    "cluster_nctaid",
    "cluster_ctarank",
    "cluster_nctarank",
    "is_explicit_cluster",
    "envreg",
    "pm",
    "pm64",
    "reserved_smem_offset_begin",
    "reserved_smem_offset_end",
    "reserved_smem_offset_cap",
    "reserved_smem_offset_0",
    "reserved_smem_offset_1",
    "current_graph_exec",
};
static_assert(std::size(kSpecialNames) == static_cast<std::size_t>(SpecialReg::current_graph_exec) + 1);
static_assert(std::size(kTypes) == static_cast<std::size_t>(Type::b1) + 1);
static_assert(std::size(kSpaceNames) == static_cast<std::size_t>(Space::surf) + 1);

}  // namespace

std::string_view opcode_name(Opcode op) {
    return kOpcodes[static_cast<std::size_t>(op)].name;
}
ExecClass exec_class(Opcode op) {
    return kOpcodes[static_cast<std::size_t>(op)].cls;
}
Family family(Opcode op) {
    return kOpcodes[static_cast<std::size_t>(op)].family;
}
std::string_view isa_section(Opcode op) {
    return kOpcodes[static_cast<std::size_t>(op)].section;
}

std::optional<Opcode> opcode_from_name(std::string_view spelling) {
    for (std::size_t i = 0; i < kOpcodeCount; ++i) {
        if (kOpcodes[i].name == spelling) return static_cast<Opcode>(i);
    }
    return std::nullopt;
}

std::string_view exec_class_name(ExecClass c) {
    constexpr std::string_view names[] = {"int_alu", "fp32",    "fp64", "fp16",  "sfu",    "mem",
                                          "branch",  "barrier", "warp", "async", "tensor", "misc"};
    return names[static_cast<std::size_t>(c)];
}

std::string_view type_name(Type t) {
    return kTypes[static_cast<std::size_t>(t)].name;
}
uint32_t type_bytes(Type t) {
    return kTypes[static_cast<std::size_t>(t)].bytes;
}

std::optional<Type> type_from_name(std::string_view name) {
    if (name.empty()) return std::nullopt;
    for (const auto& info : kTypes) {
        if (info.name == name) return info.type;
    }
    return std::nullopt;
}

bool is_float(Type t) {
    switch (t) {
        case Type::f16:
        case Type::f16x2:
        case Type::bf16:
        case Type::bf16x2:
        case Type::f32:
        case Type::f64:
        case Type::tf32:
        case Type::e4m3:
        case Type::e5m2:
        case Type::e4m3x2:
        case Type::e5m2x2:
        case Type::e2m1x2:
        case Type::e2m3x2:
        case Type::e3m2x2:
        case Type::ue8m0x2:
            return true;
        default:
            return false;
    }
}
bool is_signed_int(Type t) {
    return t == Type::s8 || t == Type::s16 || t == Type::s32 || t == Type::s64;
}
bool is_unsigned_int(Type t) {
    return t == Type::u8 || t == Type::u16 || t == Type::u32 || t == Type::u64;
}
bool is_bits(Type t) {
    return t == Type::b8 || t == Type::b16 || t == Type::b32 || t == Type::b64 || t == Type::b128;
}

std::string_view space_name(Space s) {
    return kSpaceNames[static_cast<std::size_t>(s)];
}

std::string_view special_reg_name(SpecialReg r) {
    return kSpecialNames[static_cast<std::size_t>(r)];
}
std::optional<SpecialReg> special_reg_from_name(std::string_view name) {
    for (std::size_t i = 0; i < std::size(kSpecialNames); ++i) {
        if (kSpecialNames[i] == name) return static_cast<SpecialReg>(i);
    }
    return std::nullopt;
}

uint64_t Variable::size_bytes() const {
    uint64_t n = uint64_t(type_bytes(type)) * vec;
    for (uint64_t d : dims) n *= d;
    return n;
}

const Function* Module::find_function(std::string_view fname) const {
    auto it =
        std::find_if(functions.begin(), functions.end(), [&](const Function& f) { return f.name == fname; });
    return it == functions.end() ? nullptr : &*it;
}

const Variable* Module::find_global(std::string_view vname) const {
    auto it =
        std::find_if(globals.begin(), globals.end(), [&](const Variable& v) { return v.name == vname; });
    return it == globals.end() ? nullptr : &*it;
}

std::string_view Module::file_path(uint32_t index) const {
    for (const auto& f : files) {
        if (f.index == index) return f.path;
    }
    return {};
}

std::string Module::debug_string(std::string_view label, uint32_t offset) const {
    for (const auto& d : debug_strings) {
        if (d.label != label) continue;
        if (offset >= d.bytes.size()) return {};
        auto begin = d.bytes.begin() + offset;
        return std::string(begin, std::find(begin, d.bytes.end(), uint8_t{0}));
    }
    return {};
}

}  // namespace warpsim::ir
