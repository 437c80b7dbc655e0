// kernels_ir/verify_types.cpp — the operand-type rules ptxas enforces ("Arguments mismatch"), symbols that
// are declared nowhere, and names declared twice. Each rule was checked against ptxas 13.0
// (tests/ir/verifier_ ptxas_test.cpp lists the cases); only what ptxas rejects is rejected.
#include "kernels_ir/verify_types.hpp"

#include <algorithm>
#include <set>

namespace warpsim::ir {
namespace {

enum class Kind : uint8_t { bits, integer, floating, pred, other };

Kind kind_of(Type t) {
    if (t == Type::pred) return Kind::pred;
    switch (t) {
        case Type::b8:
        case Type::b16:
        case Type::b32:
        case Type::b64:
            return Kind::bits;
        case Type::u8:
        case Type::u16:
        case Type::u32:
        case Type::u64:
        case Type::s8:
        case Type::s16:
        case Type::s32:
        case Type::s64:
            return Kind::integer;
        case Type::f16:
        case Type::f32:
        case Type::f64:
            return Kind::floating;
        default:
            return Kind::other;  // packed, sub-byte and fp8 types: not checked
    }
}

// ALU operands: the register has the instruction type's size, and a kind that goes with it (.b with any,
// .u with .s, .f with .f). add.f32 with a .b32 register is fine; add.u32 with a .f32 register is not.
bool fits_exact(Type inst, Type reg) {
    Kind ki = kind_of(inst), kr = kind_of(reg);
    if (ki == Kind::other || kr == Kind::other) return true;
    if (ki == Kind::pred || kr == Kind::pred) return ki == kr;
    if (type_bytes(inst) != type_bytes(reg)) return false;
    return ki == Kind::bits || kr == Kind::bits || ki == kr;
}

// ld/st/cvt operands (the PTX ISA's relaxed rules): a .b or integer register may be wider than the type; a .f
// register must have exactly the type's size and a .f or .b type; an integer register takes no .f type.
bool fits_relaxed(Type inst, Type reg) {
    Kind ki = kind_of(inst), kr = kind_of(reg);
    if (ki == Kind::other || kr == Kind::other) return true;
    if (ki == Kind::pred || kr == Kind::pred) return ki == kr;
    if (kr == Kind::floating)
        return (ki == Kind::floating || ki == Kind::bits) && type_bytes(inst) == type_bytes(reg);
    if (kr == Kind::integer && ki == Kind::floating) return false;
    return type_bytes(reg) >= type_bytes(inst);
}

Type doubled(Type t) {
    switch (t) {
        case Type::u16:
            return Type::u32;
        case Type::u32:
            return Type::u64;
        case Type::s16:
            return Type::s32;
        case Type::s32:
            return Type::s64;
        default:
            return Type::none;
    }
}

class TypeChecker {
  public:
    TypeChecker(const Module& m, std::string_view file, std::vector<Diagnostic>& out)
        : m_(m), file_(file), out_(out) {}

    void run() {
        check_duplicate_names();
        for (const auto& fn : m_.functions) {
            for (const auto& inst : fn.body) {
                check_symbols(fn, inst);
                check_types(fn, inst);
            }
        }
    }

  private:
    const Module& m_;
    std::string file_;
    std::vector<Diagnostic>& out_;

    void report(uint32_t line, uint32_t col, std::string msg) {
        out_.push_back({file_, line, col, Diagnostic::Severity::error, std::move(msg)});
    }
    void report(const Instruction& inst, std::string msg) {
        report(inst.loc.ptx_line, inst.loc.ptx_col, std::move(msg));
    }

    void check_duplicate_names() {
        std::set<std::string> globals;
        for (const auto& v : m_.globals) {
            if (!globals.insert(v.name).second)
                report(v.loc.ptx_line, v.loc.ptx_col, "duplicate definition of '" + v.name + "'");
        }
        for (const auto& fn : m_.functions) {
            std::set<std::string> params;
            for (const auto* list : {&fn.params, &fn.returns}) {
                for (const auto& p : *list) {
                    if (p.name.empty() || params.insert(p.name).second) continue;
                    report(fn.loc.ptx_line, fn.loc.ptx_col,
                           "duplicate parameter '" + p.name + "' of '" + fn.name + "'");
                }
            }
        }
    }

    bool declared(const Function& fn, const std::string& name) const {
        if (name == "WARP_SZ") return true;
        if (m_.find_global(name) || m_.find_function(name)) return true;
        auto named = [&](const auto& list) {
            return std::any_of(list.begin(), list.end(), [&](const auto& x) { return x.name == name; });
        };
        return named(fn.params) || named(fn.returns) || named(fn.locals) || named(fn.labels) ||
               named(fn.branch_tables) || named(fn.prototypes);
    }

    void check_symbol_operand(const Function& fn, const Instruction& inst, const Operand& o) {
        if ((o.kind == Operand::Kind::symbol || o.kind == Operand::Kind::address) && !o.name.empty() &&
            !declared(fn, o.name)) {
            report(inst, "use of undeclared symbol '" + o.name + "'");
        }
        for (const auto& e : o.elems) check_symbol_operand(fn, inst, e);
    }

    void check_symbols(const Function& fn, const Instruction& inst) {
        // Labels, callees and prototypes have checks of their own (verifier.cpp).
        if (inst.op == Opcode::bra || inst.op == Opcode::brx || inst.op == Opcode::call) return;
        for (const auto& a : inst.args) check_symbol_operand(fn, inst, a);
    }

    // The register type of a plain register operand; Type::none for anything else.
    static Type reg_type(const Function& fn, const Operand& o) {
        if (o.kind != Operand::Kind::reg || o.reg == kNoReg || o.reg >= fn.regs.size()) return Type::none;
        return fn.regs[o.reg].type;
    }

    void mismatch(const Instruction& inst, std::size_t i, const Function& fn, const Operand& o, Type want) {
        report(inst, "operand " + std::to_string(i + 1) + " of '" + std::string(opcode_name(inst.op)) + "." +
                         std::string(type_name(want)) + "': register '" + fn.regs[o.reg].name + "' is ." +
                         std::string(type_name(fn.regs[o.reg].type)) +
                         " (arguments mismatch, as ptxas says)");
    }

    // Checks operand i (a register, or each register of a vector) against `want` with `fits`.
    template <class Fits>
    void expect(const Function& fn, const Instruction& inst, std::size_t i, Type want, Fits fits) {
        if (i >= inst.args.size() || want == Type::none) return;
        const Operand& o = inst.args[i];
        if (o.kind == Operand::Kind::vector) {
            for (const auto& e : o.elems) {
                Type r = reg_type(fn, e);
                if (r != Type::none && !fits(want, r)) return mismatch(inst, i, fn, e, want);
            }
            return;
        }
        if (o.kind == Operand::Kind::imm_int && kind_of(want) == Kind::floating) {
            report(inst, "operand " + std::to_string(i + 1) + " of '" + std::string(opcode_name(inst.op)) +
                             "." + std::string(type_name(want)) +
                             "' is an integer; write a floating-point constant "
                             "such as 0f3F800000 (arguments mismatch, as ptxas says)");
            return;
        }
        if ((o.kind == Operand::Kind::imm_f32 || o.kind == Operand::Kind::imm_f64) &&
            kind_of(want) == Kind::integer) {
            report(inst, "operand " + std::to_string(i + 1) + " of '" + std::string(opcode_name(inst.op)) +
                             "." + std::string(type_name(want)) +
                             "' is a floating-point constant (arguments mismatch, "
                             "as ptxas says)");
            return;
        }
        Type r = reg_type(fn, o);
        if (r != Type::none && !fits(want, r)) mismatch(inst, i, fn, o, want);
    }

    void check_types(const Function& fn, const Instruction& inst) {
        const Details& d = inst.d;
        const Type t = d.type;
        if (t == Type::none || kind_of(t) == Kind::other) return;
        const std::size_t n = inst.args.size();
        auto exact_all = [&](std::size_t from) {
            for (std::size_t i = from; i < n; ++i) expect(fn, inst, i, t, fits_exact);
        };
        switch (inst.op) {
            case Opcode::add:
            case Opcode::sub:
            case Opcode::min:
            case Opcode::max:
            case Opcode::and_:
            case Opcode::or_:
            case Opcode::xor_:
            case Opcode::not_:
            case Opcode::neg:
            case Opcode::abs:
            case Opcode::div:
            case Opcode::rem:
                if (!d.cc) exact_all(0);
                return;
            case Opcode::mov:
                if (n == 2 && inst.args[1].kind != Operand::Kind::vector &&
                    inst.args[0].kind != Operand::Kind::vector && inst.args[1].kind != Operand::Kind::special)
                    exact_all(0);
                return;
            case Opcode::mul:
            case Opcode::mad:
                if (d.cc) return;
                if (d.mul == MulMode::wide) {
                    expect(fn, inst, 0, doubled(t), fits_exact);
                    expect(fn, inst, 1, t, fits_exact);
                    expect(fn, inst, 2, t, fits_exact);
                    if (inst.op == Opcode::mad) expect(fn, inst, 3, doubled(t), fits_exact);
                } else {
                    exact_all(0);
                }
                return;
            case Opcode::shl:
            case Opcode::shr:
                expect(fn, inst, 0, t, fits_exact);
                expect(fn, inst, 1, t, fits_exact);
                expect(fn, inst, 2, Type::u32, fits_exact);
                return;
            case Opcode::setp:
                expect(fn, inst, 1, t, fits_exact);
                expect(fn, inst, 2, t, fits_exact);
                return;
            case Opcode::selp:
                expect(fn, inst, 0, t, fits_exact);
                expect(fn, inst, 1, t, fits_exact);
                expect(fn, inst, 2, t, fits_exact);
                expect(fn, inst, 3, Type::pred, fits_exact);
                return;
            case Opcode::ld:
            case Opcode::ldu:
                if (d.space == Space::param && fn.is_entry == false) return;  // call-frame params: many forms
                expect(fn, inst, 0, t, fits_relaxed);
                return;
            case Opcode::st:
                expect(fn, inst, 1, t, fits_relaxed);
                return;
            case Opcode::cvt:
                if (kind_of(d.type2) == Kind::other) return;
                expect(fn, inst, 0, t, fits_relaxed);
                expect(fn, inst, 1, d.type2, fits_relaxed);
                return;
            default:
                return;
        }
    }
};

}  // namespace

void verify_operand_types(const Module& module, std::string_view file_name, std::vector<Diagnostic>& out) {
    TypeChecker(module, file_name, out).run();
}

}  // namespace warpsim::ir
