// kernels_ir/verifier.cpp — table-driven operand signatures plus the modifier rules PTX states per family.
#include "kernels_ir/verifier.hpp"

#include <optional>
#include <string>

#include "kernels_ir/forms/form.hpp"
#include "kernels_ir/verify_types.hpp"

namespace warpsim::ir {
namespace {

// Operand signature letters: d destination (register, vector, pair or `_`), s source (register, immediate,
// special register, symbol, vector), a address, l label, x source or address. Letters after '[' are
// optional.
// `typed`: the instruction must name a type.
struct Signature {
    Opcode op;
    std::string_view operands;
    bool typed;
};

constexpr Signature kSignatures[] = {
    {Opcode::add, "dss", true},
    {Opcode::sub, "dss", true},
    {Opcode::mul, "dss", true},
    {Opcode::mad, "dsss", true},
    {Opcode::mul24, "dss", true},
    {Opcode::mad24, "dsss", true},
    {Opcode::sad, "dsss", true},
    {Opcode::div, "dss", true},
    {Opcode::rem, "dss", true},
    {Opcode::abs, "ds", true},
    {Opcode::neg, "ds", true},
    {Opcode::min, "dss[s", true},
    {Opcode::max, "dss[s", true},
    {Opcode::addc, "dss", true},
    {Opcode::subc, "dss", true},
    {Opcode::madc, "dsss", true},
    {Opcode::popc, "ds", true},
    {Opcode::clz, "ds", true},
    {Opcode::bfind, "ds", true},
    {Opcode::brev, "ds", true},
    {Opcode::bfe, "dsss", true},
    {Opcode::bfi, "dssss", true},
    {Opcode::dp4a, "dsss", true},
    {Opcode::dp2a, "dsss", true},
    {Opcode::fma, "dsss", true},
    {Opcode::copysign, "dss", true},
    {Opcode::testp, "ds", true},
    {Opcode::rcp, "ds", true},
    {Opcode::sqrt, "ds", true},
    {Opcode::rsqrt, "ds", true},
    {Opcode::sin, "ds", true},
    {Opcode::cos, "ds", true},
    {Opcode::lg2, "ds", true},
    {Opcode::ex2, "ds", true},
    {Opcode::tanh, "ds", true},
    {Opcode::setp, "dss[s", true},
    {Opcode::set, "dss[s", true},
    {Opcode::selp, "dsss", true},
    {Opcode::slct, "dsss", true},
    {Opcode::and_, "dss", true},
    {Opcode::or_, "dss", true},
    {Opcode::xor_, "dss", true},
    {Opcode::not_, "ds", true},
    {Opcode::cnot, "ds", true},
    {Opcode::lop3, "dssss", true},
    {Opcode::shf, "dsss", true},
    {Opcode::shl, "dss", true},
    {Opcode::shr, "dss", true},
    {Opcode::prmt, "dsss", true},
    {Opcode::mov, "ds", true},
    {Opcode::ld, "da[s", true},
    {Opcode::ldu, "da", true},
    {Opcode::st, "as[s", true},
    {Opcode::cvta, "ds", true},
    {Opcode::cvt, "ds[s", true},
    {Opcode::atom, "das[ss", true},
    {Opcode::red, "as[s", true},
    {Opcode::bra, "l", false},
    {Opcode::brx, "sl", false},
    {Opcode::ret, "", false},
    {Opcode::exit, "", false},
    {Opcode::trap, "", false},
    {Opcode::bar, "[sss", false},
    {Opcode::barrier, "[sss", false},
    {Opcode::membar, "", false},
    {Opcode::shfl, "dsss[s", true},
    {Opcode::vote, "ds[s", true},
    {Opcode::match, "dss", true},
    {Opcode::redux, "dss", true},
    {Opcode::activemask, "d", true},
    {Opcode::nanosleep, "s", true},
    // The rest of opcodes.def, each as its PTX ISA section writes the operands ('x': a register, immediate
    // or address, where the forms of one opcode differ: createpolicy's fraction or [a], multimem's
    // destination or address, the surface and texture operands).
    {Opcode::fns, "dsss", true},
    {Opcode::bmsk, "dss", true},
    {Opcode::szext, "dss", true},
    {Opcode::prefetch, "a", false},
    {Opcode::prefetchu, "a", false},
    {Opcode::applypriority, "as", false},
    {Opcode::discard, "as", false},
    {Opcode::createpolicy, "dx[ss", false},
    {Opcode::isspacep, "ds", false},
    {Opcode::mapa, "dss", true},
    {Opcode::getctarank, "ds", true},
    {Opcode::alloca, "ds[s", true},
    {Opcode::stacksave, "d", true},
    {Opcode::stackrestore, "s", true},
    {Opcode::brkpt, "", false},
    {Opcode::pmevent, "s", false},
    {Opcode::fence, "[as", false},
    {Opcode::griddepcontrol, "", false},
    {Opcode::elect, "ds", false},
    {Opcode::tensormap, "as[s", false},
    {Opcode::setmaxnreg, "s", true},
    {Opcode::multimem, "xx[ss", false},
    {Opcode::suld, "dx", true},
    {Opcode::sust, "xs", true},
    {Opcode::sured, "xs", true},
    {Opcode::suq, "dx", true},
    {Opcode::tex, "dx[xx", true},
    {Opcode::tld4, "dx[xx", true},
    {Opcode::txq, "dx", true},
    {Opcode::istypep, "ds", false},
    {Opcode::vabsdiff, "dss[s", true},
    {Opcode::vadd, "dss[s", true},
    {Opcode::vsub, "dss[s", true},
    {Opcode::vmin, "dss[s", true},
    {Opcode::vmax, "dss[s", true},
    {Opcode::vset, "dss[s", true},
    {Opcode::vshl, "dss[s", true},
    {Opcode::vshr, "dss[s", true},
    {Opcode::vmad, "dsss", true},
    {Opcode::vadd2, "dsss", true},
    {Opcode::vadd4, "dsss", true},
    {Opcode::vsub2, "dsss", true},
    {Opcode::vsub4, "dsss", true},
    {Opcode::vavrg2, "dsss", true},
    {Opcode::vavrg4, "dsss", true},
    {Opcode::vabsdiff2, "dsss", true},
    {Opcode::vabsdiff4, "dsss", true},
    {Opcode::vmin2, "dsss", true},
    {Opcode::vmin4, "dsss", true},
    {Opcode::vmax2, "dsss", true},
    {Opcode::vmax4, "dsss", true},
    {Opcode::vset2, "dsss", true},
    {Opcode::vset4, "dsss", true},
    {Opcode::movmatrix, "ds", true},
};

// The destinations the signatures list agree with the opcode table's operand signatures (opcodes.def), which
// the engine, the register-use analyses and the timing model read: a row that disagrees does not compile.
constexpr bool signatures_agree_with_opcode_table() {
    for (const auto& s : kSignatures) {
        const OperandSig sig = operand_signature(s.op);
        if (sig == OperandSig::form) continue;
        const bool dest = !s.operands.empty() && s.operands[0] == 'd';
        if (dest != (sig == OperandSig::def || sig == OperandSig::acc)) return false;
    }
    return true;
}
static_assert(signatures_agree_with_opcode_table(), "kSignatures and opcodes.def disagree on a destination");

const Signature* signature_of(Opcode op) {
    for (const auto& s : kSignatures) {
        if (s.op == op) return &s;
    }
    return nullptr;
}

bool kind_fits(char letter, const Operand& o) {
    using K = Operand::Kind;
    switch (letter) {
        case 'd':
            return o.kind == K::reg || o.kind == K::vector || o.kind == K::pair || o.kind == K::sink;
        case 's':
            return o.kind == K::reg || o.kind == K::imm_int || o.kind == K::imm_f32 || o.kind == K::imm_f64 ||
                   o.kind == K::special || o.kind == K::symbol || o.kind == K::vector;
        case 'a':
            return o.kind == K::address;
        case 'l':
            return o.kind == K::symbol;
        case 'x':
            return kind_fits('s', o) || o.kind == K::address;
        default:
            return false;
    }
}

std::string_view letter_name(char letter) {
    switch (letter) {
        case 'd':
            return "a destination register";
        case 's':
            return "a register, immediate or symbol";
        case 'a':
            return "an address [..]";
        case 'x':
            return "a register, immediate, symbol or address";
        default:
            return "a label";
    }
}

class Verifier {
  public:
    Verifier(const Module& m, std::string_view file) : m_(m), file_(file) {}

    std::vector<Diagnostic> run() {
        // ptxas: "Missing .version directive at start of file" (an empty file, or one that is not PTX).
        if (m_.version_major == 0) {
            out_.push_back({file_, 1, 1, Diagnostic::Severity::error,
                            "missing .version directive: a PTX module starts with .version, .target and "
                            ".address_size (is this a PTX file?)"});
        }
        for (const auto& fn : m_.functions) {
            for (const auto& inst : fn.body) check_instruction(fn, inst);
        }
        verify_operand_types(m_, file_, out_);
        return std::move(out_);
    }

  private:
    const Module& m_;
    std::string file_;
    std::vector<Diagnostic> out_;

    void report(const Instruction& inst, std::string msg) {
        out_.push_back(
            {file_, inst.loc.ptx_line, inst.loc.ptx_col, Diagnostic::Severity::error, std::move(msg)});
    }

    void check_regs(const Function& fn, const Instruction& inst, const Operand& o) {
        if ((o.kind == Operand::Kind::reg || o.kind == Operand::Kind::address) && o.reg != kNoReg &&
            o.reg >= fn.regs.size()) {
            report(inst, "register index " + std::to_string(o.reg) + " is not declared in '" + fn.name + "'");
        }
        for (const auto& e : o.elems) check_regs(fn, inst, e);
    }

    void check_instruction(const Function& fn, const Instruction& inst) {
        std::string name(opcode_name(inst.op));
        for (const auto& a : inst.args) check_regs(fn, inst, a);
        if (inst.pred.reg != kNoReg) {
            if (inst.pred.reg >= fn.regs.size()) {
                report(inst, "guard register index " + std::to_string(inst.pred.reg) + " is not declared");
            } else if (fn.regs[inst.pred.reg].type != Type::pred) {
                report(inst, "guard '" + fn.regs[inst.pred.reg].name + "' is not a .pred register");
            }
        }
        // The families with typed forms (kernels_ir/forms/): a modifier combination PTX does not have is an
        // error at that modifier.
        if (const FormError* e = form_error(inst))
            out_.push_back({file_, e->line, e->col, Diagnostic::Severity::error, e->message});
        if (const MbarrierForm* mb = form_as<MbarrierForm>(inst)) check_mbarrier_operands(inst, *mb);
        if (inst.op == Opcode::call) return check_call(fn, inst);
        const Signature* sig = signature_of(inst.op);
        if (!sig) return;  // a family whose typed form carries its rules (kernels_ir/forms/)
        check_signature(inst, *sig, name);
        if (sig->typed && inst.d.type == Type::none)
            report(inst, "'" + name + "' needs a type such as .b32 or .f32");
        if (inst.op == Opcode::bra || inst.op == Opcode::brx) check_label(fn, inst);
        check_modifiers(inst, name);
    }

    void check_signature(const Instruction& inst, const Signature& sig, const std::string& name) {
        std::string_view ops = sig.operands;
        std::size_t bracket = ops.find('[');
        std::size_t required = bracket == std::string_view::npos ? ops.size() : bracket;
        std::string letters;
        for (char c : ops) {
            if (c != '[') letters += c;
        }
        std::size_t n = inst.args.size();
        if (n < required || n > letters.size()) {
            std::string expected = required == letters.size()
                                       ? std::to_string(required)
                                       : std::to_string(required) + " to " + std::to_string(letters.size());
            report(inst, "'" + name + "' expects " + expected + " operand" +
                             (letters.size() == 1 ? "" : "s") + ", got " + std::to_string(n));
            return;
        }
        for (std::size_t i = 0; i < n; ++i) {
            if (!kind_fits(letters[i], inst.args[i])) {
                report(inst, "operand " + std::to_string(i + 1) + " of '" + name + "' must be " +
                                 std::string(letter_name(letters[i])));
            }
        }
    }

    // The operands each mbarrier operation takes (PTX ISA 9.7.15.16; ptxas: "Arguments mismatch").
    void check_mbarrier_operands(const Instruction& inst, const MbarrierForm& f) {
        using O = MbarrierOp;
        std::size_t lo = 2, hi = 2;
        switch (f.op) {
            case O::inval:
                lo = hi = 1;
                break;
            case O::arrive:
            case O::arrive_drop:
                lo = f.expect_tx || f.no_complete ? 3 : 2;
                hi = 3;
                break;
            case O::test_wait:
                lo = hi = 3;
                break;
            case O::try_wait:
                lo = 3;
                hi = 4;
                break;
            default:
                break;
        }
        std::string name = "mbarrier";
        for (const auto& m : inst.mods) {
            if (type_from_name(m)) break;
            name += "." + m;
        }
        const std::size_t n = inst.args.size();
        if (n < lo || n > hi) {
            report(inst, "'" + name + "' expects " + std::to_string(lo) +
                             (hi == lo ? "" : " to " + std::to_string(hi)) + " operands, got " +
                             std::to_string(n));
            return;
        }
        const bool remote = f.space == Space::shared_cluster;
        if ((f.op == O::arrive || f.op == O::arrive_drop) && remote &&
            inst.args[0].kind != Operand::Kind::sink)
            report(inst, "'" + name + "' on .shared::cluster returns no state: its destination must be '_'");
    }

    void check_label(const Function& fn, const Instruction& inst) {
        for (const auto& a : inst.args) {
            if (a.kind != Operand::Kind::symbol) continue;
            bool found = false;
            for (const auto& l : fn.labels) found = found || l.name == a.name;
            for (const auto& t : fn.branch_tables) found = found || t.name == a.name;
            if (!found) report(inst, "undefined label '" + a.name + "'");
            if (inst.op == Opcode::bra && found && (a.imm < 0 || uint64_t(a.imm) > fn.body.size())) {
                report(inst, "label '" + a.name + "' is not resolved to a pc");
            }
        }
    }

    void check_call(const Function& fn, const Instruction& inst) {
        const Operand* target = nullptr;
        std::size_t lists = 0;
        for (const auto& a : inst.args) {
            if (a.kind == Operand::Kind::list) {
                ++lists;
            } else if (!target) {
                target = &a;
            }
        }
        if (!target) return report(inst, "'call' needs a callee");
        if (target->kind == Operand::Kind::symbol) {
            const Function* callee = m_.find_function(target->name);
            if (!callee) return report(inst, "call to undeclared function '" + target->name + "'");
            if (lists > 2 || (!callee->params.empty() && lists == 0)) {
                report(inst,
                       "call to '" + target->name + "' does not match its declaration's parameter lists");
            }
            return;
        }
        if (target->kind != Operand::Kind::reg)
            return report(inst, "the callee of 'call' must be a function or register");
        const Operand& last = inst.args.back();
        bool has_proto = false;
        if (last.kind == Operand::Kind::symbol) {
            for (const auto& p : fn.prototypes) has_proto = has_proto || p.name == last.name;
            for (const auto& f : m_.functions) has_proto = has_proto || f.name == last.name;
        }
        if (!has_proto)
            report(inst, "indirect call needs a .callprototype label or function as its last operand");
    }

    void check_modifiers(const Instruction& inst, const std::string& name) {
        const Details& d = inst.d;
        bool float_type = is_float(d.type) || (inst.op == Opcode::cvt && is_float(d.type2));
        bool int_type = is_signed_int(d.type) || is_unsigned_int(d.type) || is_bits(d.type);
        bool arith = inst.op == Opcode::add || inst.op == Opcode::sub || inst.op == Opcode::mul ||
                     inst.op == Opcode::mad || inst.op == Opcode::min || inst.op == Opcode::max ||
                     inst.op == Opcode::abs || inst.op == Opcode::neg || inst.op == Opcode::div;
        // Appended, not "." + std::string(...): GCC 12 at -O2/-O3 reports a false -Wrestrict on the
        // prepend that operator+(const char*, std::string&&) does.
        std::string t = ".";
        t += type_name(d.type);
        if (d.ftz && !float_type && d.type != Type::none)
            report(inst, "'.ftz' is not allowed on integer " + name + t);
        if (arith && int_type && d.rnd != Rounding::none) {
            report(inst, "rounding modifier is not allowed on integer " + name + t);
        }
        if ((inst.op == Opcode::add || inst.op == Opcode::sub) && d.sat && int_type && d.type != Type::s32) {
            report(inst, "'.sat' on integer " + name + " requires .s32");
        }
        if ((inst.op == Opcode::mul || inst.op == Opcode::mad) && int_type && d.mul == MulMode::none) {
            report(inst, "integer " + name + " needs .lo, .hi or .wide");
        }
        if ((inst.op == Opcode::mul || inst.op == Opcode::mad) && float_type && d.mul != MulMode::none) {
            report(inst, "'.lo/.hi/.wide' is not allowed on floating-point " + name);
        }
        if ((inst.op == Opcode::setp || inst.op == Opcode::set) && d.cmp == CmpOp::none) {
            report(inst, "'" + name + "' needs a comparison such as .eq or .lt");
        }
        if (inst.op == Opcode::cvt && d.type2 == Type::none) {
            report(inst, "'cvt' needs a destination and a source type, e.g. cvt.f32.s32");
        }
        if ((inst.op == Opcode::atom || inst.op == Opcode::red) && d.atom == AtomOp::none) {
            report(inst, "'" + name + "' needs an operation such as .add or .cas");
        }
        if (inst.op == Opcode::shfl && d.shfl == ShflMode::none)
            report(inst, "'shfl' needs .up, .down, .bfly or .idx");
        if (inst.op == Opcode::vote && d.vote == VoteMode::none)
            report(inst, "'vote' needs .all, .any, .uni or .ballot");
        if ((d.approx || d.full) && inst.op == Opcode::div && d.type != Type::f32) {
            report(inst, "'.approx/.full' division exists only for .f32");
        }
    }
};

}  // namespace

bool verifier_covers(Opcode op) {
    return signature_of(op) != nullptr || op == Opcode::call ||
           !std::holds_alternative<std::monostate>(decode_form(op, {}).v);
}

std::vector<Diagnostic> verify(const Module& module, std::string_view file_name) {
    return Verifier(module, file_name).run();
}

}  // namespace warpsim::ir
