// kernels_ir/printer.cpp — prints the IR back as PTX (round-trips through parse_ptx).
#include "kernels_ir/printer.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace warpsim::ir {
namespace {

std::string hex_bits(uint64_t bits, int digits) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%0*llX", digits, static_cast<unsigned long long>(bits));
    return buf;
}

std::string_view linkage_prefix(Linkage l) {
    switch (l) {
        case Linkage::visible:
            return ".visible ";
        case Linkage::extern_:
            return ".extern ";
        case Linkage::weak:
            return ".weak ";
        case Linkage::common:
            return ".common ";
        default:
            return "";
    }
}

std::string print_special(const Operand& op) {
    std::string s = "%";
    if (op.sreg == SpecialReg::envreg || op.sreg == SpecialReg::pm) {
        return s + std::string(special_reg_name(op.sreg)) + std::to_string(op.component);
    }
    if (op.sreg == SpecialReg::pm64) return s + "pm" + std::to_string(op.component) + "_64";
    s += special_reg_name(op.sreg);
    if (op.component < 3) s += std::string(".") + static_cast<char>('x' + op.component);
    return s;
}

std::string print_param(const Param& p) {
    std::string s = ".param ";
    if (p.align) s += ".align " + std::to_string(p.align) + " ";
    s += "." + std::string(type_name(p.type));
    if (p.ptr_space != Space::none || p.ptr_align) {
        s += " .ptr";
        if (p.ptr_space != Space::none) s += " ." + std::string(space_name(p.ptr_space));
        if (p.ptr_align) s += " .align " + std::to_string(p.ptr_align);
    }
    s += " " + p.name;
    if (p.array) s += "[" + std::to_string(p.array) + "]";
    return s;
}

std::string print_param_list(const std::vector<Param>& params) {
    std::string s = "(";
    for (std::size_t i = 0; i < params.size(); ++i) s += (i ? ", " : "") + print_param(params[i]);
    return s + ")";
}

std::string print_dims(const std::array<uint32_t, 3>& d) {
    return std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]);
}

std::string print_header(const Function& fn) {
    std::string s = std::string(linkage_prefix(fn.linkage)) + (fn.is_entry ? ".entry " : ".func ");
    if (!fn.is_entry && !fn.returns.empty()) s += print_param_list(fn.returns) + " ";
    s += fn.name + print_param_list(fn.params);
    const PerfDirectives& p = fn.perf;
    auto any = [](const std::array<uint32_t, 3>& d) { return d[0] || d[1] || d[2]; };
    if (any(p.maxntid)) s += "\n.maxntid " + print_dims(p.maxntid);
    if (any(p.reqntid)) s += "\n.reqntid " + print_dims(p.reqntid);
    if (any(p.reqnctapercluster)) s += "\n.reqnctapercluster " + print_dims(p.reqnctapercluster);
    if (p.minnctapersm) s += "\n.minnctapersm " + std::to_string(p.minnctapersm);
    if (p.maxnctapersm) s += "\n.maxnctapersm " + std::to_string(p.maxnctapersm);
    if (p.maxnreg) s += "\n.maxnreg " + std::to_string(p.maxnreg);
    if (p.maxclusterrank) s += "\n.maxclusterrank " + std::to_string(p.maxclusterrank);
    if (p.explicitcluster) s += "\n.explicitcluster";
    if (p.noreturn) s += "\n.noreturn";
    for (const auto& pragma : p.pragmas) s += "\n.pragma \"" + pragma + "\";";
    return s;
}

std::string print_init_element(const Variable& v, uint64_t index) {
    uint32_t size = type_bytes(v.type) ? type_bytes(v.type) : 1;
    uint64_t offset = index * size;
    for (const auto& r : v.relocs) {
        if (r.offset != offset) continue;
        std::string s = r.generic ? "generic(" + r.symbol + ")" : r.symbol;
        if (r.addend) s += "+" + std::to_string(static_cast<uint64_t>(r.addend));
        return s;
    }
    uint64_t bits = 0;
    for (uint32_t i = 0; i < size && i < 8 && offset + i < v.init.size(); ++i) {
        bits |= uint64_t{v.init[offset + i]} << (8 * i);
    }
    if (v.type == Type::f32) return "0f" + hex_bits(bits, 8);
    if (v.type == Type::f64) return "0d" + hex_bits(bits, 16);
    return std::to_string(bits);
}

std::string print_variable(const Variable& v) {
    std::string s = std::string(linkage_prefix(v.linkage)) + "." + std::string(space_name(v.space));
    if (v.align) s += " .align " + std::to_string(v.align);
    if (v.vec > 1) s += " .v" + std::to_string(v.vec);
    s += " ." + std::string(type_name(v.type)) + " " + v.name;
    for (uint64_t d : v.dims) s += d ? "[" + std::to_string(d) + "]" : "[]";
    if (v.has_init) {
        uint32_t size = type_bytes(v.type) ? type_bytes(v.type) : 1;
        uint64_t count = v.init.size() / size;
        if (v.dims.empty() && v.vec == 1 && count == 1) {
            s += " = " + print_init_element(v, 0);
        } else {
            s += " = {";
            for (uint64_t i = 0; i < count; ++i) s += (i ? ", " : "") + print_init_element(v, i);
            s += "}";
        }
    }
    return s + ";";
}

// Runs of `P0 .. Pn-1` of one type print as `P<n>`, as nvcc writes them.
void print_regs(const Function& fn, std::string& out) {
    const auto& regs = fn.regs;
    std::size_t i = 0;
    while (i < regs.size()) {
        const std::string& name = regs[i].name;
        std::size_t run = 0;
        if (!name.empty() && name.back() == '0' && name.size() > 1 &&
            !(name[name.size() - 2] >= '0' && name[name.size() - 2] <= '9')) {
            std::string prefix = name.substr(0, name.size() - 1);
            while (i + run < regs.size() && regs[i + run].type == regs[i].type &&
                   regs[i + run].name == prefix + std::to_string(run)) {
                ++run;
            }
            if (run > 1) {
                out += "\t.reg ." + std::string(type_name(regs[i].type)) + " " + prefix + "<" +
                       std::to_string(run) + ">;\n";
                i += run;
                continue;
            }
        }
        out += "\t.reg ." + std::string(type_name(regs[i].type)) + " " + name + ";\n";
        ++i;
    }
}

// The .loc lines that give an instruction its source position: for inlined code first the line of the
// function itself, then one .loc per inlining level, outermost first, each `inlined_at` the .loc before it
// (as nvcc).
void print_loc(const Module& m, const SrcLoc& loc, std::string& out) {
    auto position = [](uint32_t file, uint32_t line, uint32_t col) {
        return std::to_string(file) + " " + std::to_string(line) + " " + std::to_string(col);
    };
    std::vector<const InlineSite*> sites;  // innermost first
    for (uint32_t s = loc.inlined_at; s != 0 && s <= m.inline_sites.size(); s = sites.back()->parent) {
        sites.push_back(&m.inline_sites[s - 1]);
        if (sites.back()->parent >= s) break;
    }
    if (!sites.empty())
        out += "\t.loc " + position(sites.back()->file, sites.back()->line, sites.back()->col) + "\n";
    for (std::size_t i = sites.size(); i-- > 0;) {
        const InlineSite& site = *sites[i];
        const SrcLoc inner =
            i == 0 ? loc : SrcLoc{0, 0, sites[i - 1]->file, sites[i - 1]->line, sites[i - 1]->col, 0};
        out += "\t.loc " + position(inner.file, inner.line, inner.col);
        if (!site.callee.empty()) {
            out += ", function_name " + site.callee;
            if (site.callee_offset) out += "+" + std::to_string(site.callee_offset);
        }
        out += ", inlined_at " + position(site.file, site.line, site.col) + "\n";
    }
    if (sites.empty()) out += "\t.loc " + position(loc.file, loc.line, loc.col) + "\n";
}

void print_debug_strings(const Module& m, std::string& out) {
    if (m.debug_strings.empty()) return;
    out += "\n.section .debug_str\n{\n";
    for (const auto& d : m.debug_strings) {
        out += d.label + ":\n";
        for (std::size_t i = 0; i < d.bytes.size(); i += 32) {
            out += ".b8 ";
            for (std::size_t k = i; k < std::min(d.bytes.size(), i + 32); ++k) {
                if (k > i) out += ',';  // two appends: a prepend to a temporary trips GCC 12's -Wrestrict
                out += std::to_string(d.bytes[k]);
            }
            out += "\n";
        }
    }
    out += "}\n";
}

void print_body(const Module& m, const Function& fn, std::string& out) {
    out += "{\n";
    print_regs(fn, out);
    for (const auto& v : fn.locals) out += "\t" + print_variable(v) + "\n";
    for (const auto& p : fn.prototypes) {
        out += p.name + ": .callprototype " + print_param_list(p.returns) + " _ " +
               print_param_list(p.params) + (p.noreturn ? " .noreturn" : "") + ";\n";
    }
    for (const auto& t : fn.branch_tables) {
        out += t.name + ": .branchtargets ";
        for (std::size_t i = 0; i < t.labels.size(); ++i) out += (i ? ", " : "") + t.labels[i];
        out += ";\n";
    }
    SrcLoc printed;  // the source position the .loc lines so far give (PTX positions unused)
    std::size_t next_label = 0;
    for (std::size_t pc = 0; pc <= fn.body.size(); ++pc) {
        while (next_label < fn.labels.size() && fn.labels[next_label].pc <= pc) {
            out += fn.labels[next_label++].name + ":\n";
        }
        if (pc == fn.body.size()) break;
        const Instruction& inst = fn.body[pc];
        const SrcLoc source{0, 0, inst.loc.file, inst.loc.line, inst.loc.col, inst.loc.inlined_at};
        if (source != printed) {
            printed = source;
            print_loc(m, source, out);
        }
        out += "\t" + print_instruction(fn, inst) + "\n";
    }
    while (next_label < fn.labels.size()) out += fn.labels[next_label++].name + ":\n";
    out += "}\n";
}

}  // namespace

std::string print_operand(const Function& fn, const Operand& op) {
    std::string s = op.negated ? "!" : "";
    auto join = [&](char open, char close, std::string_view sep) {
        s += open;
        for (std::size_t i = 0; i < op.elems.size(); ++i)
            s += (i ? std::string(sep) : "") + print_operand(fn, op.elems[i]);
        s += close;
    };
    switch (op.kind) {
        case Operand::Kind::reg:
            s += op.reg < fn.regs.size() ? fn.regs[op.reg].name : "%INVALID_REG" + std::to_string(op.reg);
            break;
        case Operand::Kind::special:
            s += print_special(op);
            break;
        case Operand::Kind::imm_int:
            s += std::to_string(op.imm);
            break;
        case Operand::Kind::imm_f32:
            s += "0f" + hex_bits(static_cast<uint64_t>(op.imm) & 0xffffffffu, 8);
            break;
        case Operand::Kind::imm_f64:
            s += "0d" + hex_bits(static_cast<uint64_t>(op.imm), 16);
            break;
        case Operand::Kind::symbol:
            s += op.name;
            break;
        case Operand::Kind::sink:
            s += "_";
            break;
        case Operand::Kind::vector:
            join('{', '}', ", ");
            break;
        case Operand::Kind::list:
            join('(', ')', ", ");
            break;
        case Operand::Kind::pair:
            for (std::size_t i = 0; i < op.elems.size(); ++i)
                s += (i ? "|" : "") + print_operand(fn, op.elems[i]);
            break;
        case Operand::Kind::address: {
            s += "[";
            bool has_base = op.reg != kNoReg || !op.name.empty();
            if (op.reg != kNoReg) {
                s += op.reg < fn.regs.size() ? fn.regs[op.reg].name : "%INVALID_REG";
            } else {
                s += op.name;
            }
            if (!has_base) {
                s += "0x" + hex_bits(static_cast<uint64_t>(op.imm), 1);
            } else if (op.imm > 0) {
                s += "+" + std::to_string(op.imm);
            } else if (op.imm < 0) {
                s += "-" + std::to_string(uint64_t{0} - static_cast<uint64_t>(op.imm));
            }
            for (const auto& e : op.elems) s += ", " + print_operand(fn, e);
            s += "]";
            break;
        }
    }
    return s;
}

std::string print_instruction(const Function& fn, const Instruction& inst) {
    std::string s;
    if (inst.pred.reg != kNoReg) {
        s += inst.pred.negated ? "@!" : "@";
        s += inst.pred.reg < fn.regs.size() ? fn.regs[inst.pred.reg].name : "%INVALID_REG";
        s += " ";
    }
    s += opcode_name(inst.op);
    for (const auto& m : inst.mods) s += "." + m;
    for (std::size_t i = 0; i < inst.args.size(); ++i)
        s += (i ? ", " : " ") + print_operand(fn, inst.args[i]);
    return s + ";";
}

std::string print_module(const Module& m) {
    std::string out;
    if (m.version_major != 0) {  // a module without .version prints without one (and so reparses the same)
        out = ".version " + std::to_string(m.version_major) + "." + std::to_string(m.version_minor) + "\n";
    }
    if (!m.target.empty()) {
        out += ".target ";
        for (std::size_t i = 0; i < m.target.size(); ++i) out += (i ? ", " : "") + m.target[i];
        out += "\n";
    }
    out += ".address_size " + std::to_string(m.address_size) + "\n";
    for (const auto& f : m.files) out += ".file " + std::to_string(f.index) + " \"" + f.path + "\"\n";
    out += "\n";
    for (const auto& fn : m.functions) out += print_header(fn) + ";\n";
    for (const auto& v : m.globals) out += print_variable(v) + "\n";
    for (const auto& fn : m.functions) {
        if (!fn.has_body) continue;
        out += "\n" + print_header(fn) + "\n";
        print_body(m, fn, out);
    }
    print_debug_strings(m, out);
    return out;
}

namespace {

void clear_positions(Module& m) {
    for (auto& v : m.globals) v.loc.ptx_line = v.loc.ptx_col = 0;
    for (auto& fn : m.functions) {
        fn.loc.ptx_line = fn.loc.ptx_col = 0;
        for (auto& v : fn.locals) v.loc.ptx_line = v.loc.ptx_col = 0;
        for (auto& inst : fn.body) inst.loc.ptx_line = inst.loc.ptx_col = 0;
    }
}

}  // namespace

bool equal_ignoring_ptx_positions(const Module& a, const Module& b) {
    Module ca = a, cb = b;
    clear_positions(ca);
    clear_positions(cb);
    return ca == cb;
}

}  // namespace warpsim::ir
