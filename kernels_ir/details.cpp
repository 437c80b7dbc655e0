// kernels_ir/details.cpp — modifier decoding: dotted suffixes -> typed fields of ir::Details.
#include "kernels_ir/details.hpp"

#include <string_view>

namespace warpsim::ir {
namespace {

template <typename E>
struct NameMap {
    std::string_view name;
    E value;
};

constexpr NameMap<Rounding> kRoundings[] = {
    {"rn", Rounding::rn},   {"rz", Rounding::rz},   {"rm", Rounding::rm},   {"rp", Rounding::rp},
    {"rna", Rounding::rna}, {"rs", Rounding::rs},   {"rni", Rounding::rni}, {"rzi", Rounding::rzi},
    {"rmi", Rounding::rmi}, {"rpi", Rounding::rpi},
};
constexpr NameMap<CmpOp> kCmps[] = {
    {"eq", CmpOp::eq},   {"ne", CmpOp::ne},   {"lt", CmpOp::lt},   {"le", CmpOp::le},   {"gt", CmpOp::gt},
    {"ge", CmpOp::ge},   {"lo", CmpOp::lo},   {"ls", CmpOp::ls},   {"hi", CmpOp::hi},   {"hs", CmpOp::hs},
    {"equ", CmpOp::equ}, {"neu", CmpOp::neu}, {"ltu", CmpOp::ltu}, {"leu", CmpOp::leu}, {"gtu", CmpOp::gtu},
    {"geu", CmpOp::geu}, {"num", CmpOp::num}, {"nan", CmpOp::nan},
};
constexpr NameMap<AtomOp> kAtoms[] = {
    {"add", AtomOp::add}, {"min", AtomOp::min},  {"max", AtomOp::max},   {"inc", AtomOp::inc},
    {"dec", AtomOp::dec}, {"cas", AtomOp::cas},  {"exch", AtomOp::exch}, {"and", AtomOp::and_},
    {"or", AtomOp::or_},  {"xor", AtomOp::xor_}, {"popc", AtomOp::popc},
};
constexpr NameMap<MemSem> kSems[] = {
    {"weak", MemSem::weak},          {"relaxed", MemSem::relaxed}, {"acquire", MemSem::acquire},
    {"release", MemSem::release},    {"acq_rel", MemSem::acq_rel}, {"sc", MemSem::sc},
    {"volatile", MemSem::volatile_}, {"mmio", MemSem::mmio},
};
constexpr NameMap<Scope> kScopes[] = {
    {"cta", Scope::cta}, {"cluster", Scope::cluster}, {"gpu", Scope::gpu},
    {"sys", Scope::sys}, {"gl", Scope::gpu},
};
constexpr NameMap<CacheOp> kCaches[] = {
    {"ca", CacheOp::ca}, {"cg", CacheOp::cg}, {"cs", CacheOp::cs}, {"lu", CacheOp::lu},
    {"cv", CacheOp::cv}, {"wb", CacheOp::wb}, {"wt", CacheOp::wt},
};
constexpr NameMap<Space> kSpaces[] = {
    {"global", Space::global},
    {"shared", Space::shared},
    {"shared::cta", Space::shared_cta},
    {"shared::cluster", Space::shared_cluster},
    {"local", Space::local},
    {"const", Space::const_},
    {"param", Space::param},
    {"param::entry", Space::param},
    {"param::func", Space::param},
    {"tex", Space::tex},
    {"surf", Space::surf},
};
constexpr NameMap<ShflMode> kShfls[] = {
    {"up", ShflMode::up},
    {"down", ShflMode::down},
    {"bfly", ShflMode::bfly},
    {"idx", ShflMode::idx},
};
constexpr NameMap<VoteMode> kVotes[] = {
    {"all", VoteMode::all},
    {"any", VoteMode::any},
    {"uni", VoteMode::uni},
    {"ballot", VoteMode::ballot},
};

template <typename E, std::size_t N>
bool lookup(const NameMap<E> (&table)[N], std::string_view name, E& out) {
    for (const auto& entry : table) {
        if (entry.name == name) {
            out = entry.value;
            return true;
        }
    }
    return false;
}

bool is_compare_op(Opcode op) {
    return op == Opcode::setp || op == Opcode::set || op == Opcode::slct || op == Opcode::vset;
}
bool is_mul_op(Opcode op) {
    return op == Opcode::mul || op == Opcode::mad || op == Opcode::mul24 || op == Opcode::mad24 ||
           op == Opcode::madc;
}
bool is_reduction_op(Opcode op) {
    return op == Opcode::atom || op == Opcode::red || op == Opcode::redux || op == Opcode::multimem ||
           op == Opcode::cp || op == Opcode::cp_reduce || op == Opcode::sured;
}
bool is_barrier_op(Opcode op) {
    return op == Opcode::bar || op == Opcode::barrier;
}

bool decode_flag(std::string_view m, Details& d) {
    struct Flag {
        std::string_view name;
        bool Details::*field;
    };
    static constexpr Flag kFlags[] = {
        {"ftz", &Details::ftz},
        {"sat", &Details::sat},
        {"approx", &Details::approx},
        {"full", &Details::full},
        {"cc", &Details::cc},
        {"nc", &Details::nc},
        {"to", &Details::to},
        {"aligned", &Details::aligned},
        {"relu", &Details::relu},
        {"NaN", &Details::nan},
        {"xorsign", &Details::xorsign},
        {"abs", &Details::abs},
        {"shiftamt", &Details::shiftamt},
        {"noftz", &Details::noftz},
    };
    for (const auto& f : kFlags) {
        if (f.name == m) {
            d.*(f.field) = true;
            return true;
        }
    }
    return false;
}

// Modifiers whose meaning depends on the opcode family; returns true when consumed.
bool decode_contextual(Opcode op, std::string_view m, Details& d) {
    if (is_compare_op(op)) {
        if (lookup(kCmps, m, d.cmp)) return true;
        if (m == "and") return d.bop = BoolOp::and_, true;
        if (m == "or") return d.bop = BoolOp::or_, true;
        if (m == "xor") return d.bop = BoolOp::xor_, true;
    }
    if (is_mul_op(op)) {
        if (m == "lo") return d.mul = MulMode::lo, true;
        if (m == "hi") return d.mul = MulMode::hi, true;
        if (m == "wide") return d.mul = MulMode::wide, true;
    }
    if (is_reduction_op(op) && lookup(kAtoms, m, d.atom)) return true;
    if (is_barrier_op(op)) {
        if (m == "sync")
            return d.bar = (d.bar == BarMode::warp_sync ? BarMode::warp_sync : BarMode::sync), true;
        if (m == "arrive") return d.bar = BarMode::arrive, true;
        if (m == "red") return d.bar = BarMode::red, true;
        if (m == "warp") return d.bar = BarMode::warp_sync, true;
        if (m == "and") return d.bop = BoolOp::and_, true;
        if (m == "or") return d.bop = BoolOp::or_, true;
        if (m == "popc") return d.atom = AtomOp::popc, true;
    }
    if (op == Opcode::shfl && lookup(kShfls, m, d.shfl)) return true;
    if (op == Opcode::vote && lookup(kVotes, m, d.vote)) return true;
    if (op == Opcode::shf) {
        if (m == "l") return d.shift = ShiftMode::l, true;
        if (m == "r") return d.shift = ShiftMode::r, true;
        if (m == "wrap") return d.shift_wrap = true, true;
        if (m == "clamp") return d.shift_wrap = false, true;
    }
    if (op == Opcode::ld || op == Opcode::st || op == Opcode::ldu || op == Opcode::prefetch) {
        if (lookup(kCaches, m, d.cache)) return true;
    }
    if (m == "sync") return d.sync = true, true;
    if (m == "uni") return d.uni = true, true;
    return false;
}

}  // namespace

Details decode_details(Opcode op, const std::vector<std::string>& mods) {
    Details d;
    bool have_type = false, have_type2 = false, have_space = false;
    for (const std::string& mod : mods) {
        std::string_view m = mod;
        if (decode_contextual(op, m, d)) continue;
        if (auto t = type_from_name(m)) {
            if (!have_type) {
                d.type = *t;
                have_type = true;
            } else if (!have_type2) {
                d.type2 = *t;
                have_type2 = true;
            }
            continue;
        }
        if (m == "v2" || m == "v4" || m == "v8") {
            d.vec = static_cast<uint8_t>(m[1] - '0');
            continue;
        }
        Space sp = Space::none;
        if (lookup(kSpaces, m, sp)) {
            if (!have_space) d.space = sp;
            have_space = true;
            continue;
        }
        if (lookup(kRoundings, m, d.rnd) || lookup(kSems, m, d.sem) || lookup(kScopes, m, d.scope)) continue;
        decode_flag(m, d);
    }
    return d;
}

ExecClass exec_class_of(const Instruction& inst) {
    ExecClass base = exec_class(inst.op);
    if (base != ExecClass::int_alu && base != ExecClass::fp32 && base != ExecClass::sfu) return base;
    Type t = inst.d.type;
    if (inst.op == Opcode::cvt || inst.op == Opcode::mov || inst.op == Opcode::setp ||
        inst.op == Opcode::selp) {
        return base;  // conversions, moves and compares run on the ALU whatever the type
    }
    if (base == ExecClass::sfu) return t == Type::f64 ? ExecClass::fp64 : base;
    if (t == Type::f64) return ExecClass::fp64;
    if (t == Type::f16 || t == Type::f16x2 || t == Type::bf16 || t == Type::bf16x2) return ExecClass::fp16;
    if (t == Type::f32) return ExecClass::fp32;
    return base == ExecClass::fp32 ? ExecClass::fp32 : ExecClass::int_alu;
}

}  // namespace warpsim::ir
