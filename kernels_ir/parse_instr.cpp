// kernels_ir/parse_instr.cpp — one PTX instruction: guard, opcode and modifiers, operands; label and call
// resolution.
#include <algorithm>

#include "kernels_ir/details.hpp"
#include "kernels_ir/forms/form.hpp"
#include "kernels_ir/parser_impl.hpp"

namespace warpsim::ir::detail {

void Parser::parse_instruction(BodyState& st) {
    Instruction inst;
    Token start = cur();
    inst.loc.ptx_line = start.line;
    inst.loc.ptx_col = start.col;
    inst.loc.file = st.loc_file;
    inst.loc.line = st.loc_line;
    inst.loc.col = st.loc_col;
    inst.loc.inlined_at = inline_site_of(st);
    if (accept('@')) {
        inst.pred.negated = accept('!');
        if (cur().kind != TokKind::ident) {
            error(cur(), "expected a predicate register after '@'");
            return skip_statement();
        }
        auto it = st.reg_of.find(std::string(cur().text));
        if (it == st.reg_of.end()) {
            error(cur(), "use of undeclared register '" + std::string(cur().text) + "'");
        } else {
            inst.pred.reg = it->second;
        }
        next();
    }
    if (cur().kind != TokKind::ident) {
        error(cur(), "expected an instruction opcode but found '" + std::string(cur().text) + "'");
        return skip_statement();
    }
    Token op_tok = cur();
    auto op = opcode_from_name(op_tok.text);
    if (!op) {
        error(op_tok, "unknown opcode '" + std::string(op_tok.text) + "'");
        return skip_statement();
    }
    inst.op = *op;
    next();
    // An opcode spelt with a dot (cp.reduce): the longer spelling wins over the opcode and a modifier.
    if (cur().kind == TokKind::dotword && cur().glued) {
        if (auto longer = opcode_from_name(std::string(op_tok.text) + std::string(cur().text))) {
            inst.op = *longer;
            next();
        }
    }
    while (cur().kind == TokKind::dotword && cur().glued) {
        inst.mods.emplace_back(cur().text.substr(1));
        next();
    }
    if (cur().kind == TokKind::dotword) {
        error(cur(), "unexpected '" + std::string(cur().text) +
                         "': modifiers must follow the opcode without spaces");
        return skip_statement();
    }
    inst.d = decode_details(inst.op, inst.mods);
    attach_form(inst, op_tok.col);
    uint32_t last_line = op_tok.line;
    if (!cur().is(';')) {
        while (true) {
            auto operand = parse_operand(st);
            if (!operand) return skip_statement();
            inst.args.push_back(std::move(*operand));
            last_line = toks_[pos_ > 0 ? pos_ - 1 : 0].line;
            if (!accept(',')) break;
        }
    }
    if (!accept(';')) {
        error(cur(), "expected ';' after instruction operands");
        // A missing ';' at the end of a line: keep the instruction and carry on with the next line.
        if (cur().line == last_line) return skip_statement();
    }
    std::size_t index = st.fn->body.size();
    if (inst.op == Opcode::bra || inst.op == Opcode::brx) {
        for (std::size_t i = 0; i < inst.args.size(); ++i) {
            if (inst.args[i].kind == Operand::Kind::symbol) st.label_uses.push_back({start, index});
        }
    }
    if (inst.op == Opcode::call) pending_calls_.push_back({start, index});
    st.fn->body.push_back(std::move(inst));
}

std::optional<Operand> Parser::parse_operand(BodyState& st) {
    auto first = parse_primary(st);
    if (!first || !cur().is('|')) return first;
    next();
    auto second = parse_primary(st);
    if (!second) return std::nullopt;
    Operand pair;
    pair.kind = Operand::Kind::pair;
    pair.elems.push_back(std::move(*first));
    pair.elems.push_back(std::move(*second));
    return pair;
}

std::optional<Operand> Parser::parse_primary(BodyState& st) {
    const Token t = cur();
    if (t.is('!')) {
        next();
        auto o = parse_register_like(st);
        if (o) o->negated = true;
        return o;
    }
    if (t.is('-')) {
        next();
        const Token v = cur();
        if (v.kind == TokKind::integer) {
            next();
            auto u = parse_uint(v);
            if (!u) return std::nullopt;
            return Operand::make_imm(static_cast<int64_t>(uint64_t{0} - *u));
        }
        if (v.kind == TokKind::fp_hex || v.kind == TokKind::fp_dec) {
            next();
            return parse_float_literal(v, true);
        }
        error(v, "expected a number after '-'");
        return std::nullopt;
    }
    if (t.kind == TokKind::integer) {
        next();
        auto u = parse_uint(t);
        if (!u) return std::nullopt;
        return Operand::make_imm(static_cast<int64_t>(*u));
    }
    if (t.kind == TokKind::fp_hex || t.kind == TokKind::fp_dec) {
        next();
        return parse_float_literal(t, false);
    }
    if (t.is('[') || t.is('{') || t.is('(')) return parse_nested(st);
    if (t.kind == TokKind::ident) return parse_register_like(st);
    error(t, "expected an operand but found '" + std::string(t.text) + "'");
    return std::nullopt;
}

// `[...]`, `{...}` and `(...)` operands. PTX nests at most a vector inside an address or an argument list; a
// bound keeps hostile input off the host stack (the parser, printer and verifier all recurse over operands).
std::optional<Operand> Parser::parse_nested(BodyState& st) {
    const Token t = cur();
    if (operand_depth_ >= kMaxOperandNesting) {
        error(t, "operands nested more than " + std::to_string(kMaxOperandNesting) + " levels deep at '" +
                     std::string(t.text) +
                     "': PTX nests a vector inside an address or an argument list at most");
        return std::nullopt;
    }
    ++operand_depth_;
    std::optional<Operand> o = t.is('[')   ? parse_address(st)
                               : t.is('{') ? parse_braced(st, '}', Operand::Kind::vector)
                                           : parse_braced(st, ')', Operand::Kind::list);
    --operand_depth_;
    return o;
}

// Registers, special registers, `_` and symbols (variables, functions, labels).
std::optional<Operand> Parser::parse_register_like(BodyState& st) {
    const Token t = cur();
    if (t.kind != TokKind::ident) {
        error(t, "expected a register or symbol but found '" + std::string(t.text) + "'");
        return std::nullopt;
    }
    next();
    std::string name(t.text);
    Operand o;
    if (name == "_") {
        o.kind = Operand::Kind::sink;
        return o;
    }
    if (auto it = st.reg_of.find(name); it != st.reg_of.end()) {
        o.kind = Operand::Kind::reg;
        o.reg = it->second;
        return o;
    }
    if (name[0] == '%') {
        auto special = special_reg_from_spelling(std::string_view(name).substr(1));
        if (!special) {
            error(t, "use of undeclared register '" + name + "'");
            return std::nullopt;
        }
        o.kind = Operand::Kind::special;
        o.sreg = special->first;
        o.component = special->second;
        if (cur().kind == TokKind::dotword && cur().glued) {
            std::string_view c = cur().text;
            if (c != ".x" && c != ".y" && c != ".z") {
                error(cur(), "expected .x, .y or .z after " + name);
                return std::nullopt;
            }
            o.component = static_cast<uint8_t>(c[1] - 'x');
            next();
        }
        return o;
    }
    o.kind = Operand::Kind::symbol;
    auto local = st.local_of.find(name);
    o.name = local != st.local_of.end() ? local->second : name;
    return o;
}

// `[%rd1]`, `[%rd1+8]`, `[%rd1+-8]`, `[%rd1-8]`, `[sym]`, `[sym+4]`, `[0x100]`, `[%rd1, {...}]`.
std::optional<Operand> Parser::parse_address(BodyState& st) {
    next();  // '['
    Operand a;
    a.kind = Operand::Kind::address;
    if (cur().kind == TokKind::integer) {
        auto u = parse_uint(cur());
        next();
        if (!u) return std::nullopt;
        a.imm = static_cast<int64_t>(*u);
    } else {
        auto base = parse_register_like(st);
        if (!base) return std::nullopt;
        if (base->kind == Operand::Kind::reg) {
            a.reg = base->reg;
        } else if (base->kind == Operand::Kind::symbol) {
            a.name = base->name;
        } else {
            error(cur(), "expected a register or symbol as the address base");
            return std::nullopt;
        }
        bool plus = accept('+');
        bool minus = accept('-');
        if (plus || minus) {
            if (cur().kind != TokKind::integer) {
                error(cur(), "expected an integer offset in the address");
                return std::nullopt;
            }
            auto u = parse_uint(cur());
            next();
            if (!u) return std::nullopt;
            a.imm = static_cast<int64_t>(minus ? uint64_t{0} - *u : *u);
        }
    }
    while (accept(',')) {
        auto extra = parse_primary(st);
        if (!extra) return std::nullopt;
        a.elems.push_back(std::move(*extra));
    }
    if (!expect(']', "to close the address operand")) return std::nullopt;
    return a;
}

std::optional<Operand> Parser::parse_braced(BodyState& st, char close, Operand::Kind kind) {
    next();
    Operand o;
    o.kind = kind;
    if (accept(close)) return o;
    while (true) {
        const Token at = cur();
        auto e = parse_primary(st);
        if (!e) return std::nullopt;
        if (e->kind == kind) {  // `{{%r2}}`, `((a))`: ptxas rejects both as syntax errors
            error(at,
                  std::string(kind == Operand::Kind::vector ? "a vector operand inside a vector operand"
                                                            : "an argument list inside an argument list") +
                      " is not PTX");
            return std::nullopt;
        }
        o.elems.push_back(std::move(*e));
        if (accept(close)) return o;
        if (!accept(',')) {
            error(cur(), std::string("expected ',' or '") + close + "' in " +
                             (kind == Operand::Kind::vector ? "vector operand" : "argument list"));
            return std::nullopt;
        }
    }
}

void Parser::resolve_labels(BodyState& st) {
    Function& fn = *st.fn;
    std::stable_sort(fn.labels.begin(), fn.labels.end(),
                     [](const Label& a, const Label& b) { return a.pc < b.pc; });
    std::unordered_map<std::string, uint32_t> pc_of;
    for (const auto& l : fn.labels) pc_of.emplace(l.name, l.pc);
    std::unordered_map<std::string, std::size_t> table_of;
    for (std::size_t i = 0; i < fn.branch_tables.size(); ++i) {
        auto& table = fn.branch_tables[i];
        table_of.emplace(table.name, i);
        table.pcs.clear();
        for (const auto& name : table.labels) {
            auto it = pc_of.find(name);
            if (it == pc_of.end())
                error_at(fn.loc.ptx_line, fn.loc.ptx_col, "undefined label '" + name + "' in .branchtargets");
            table.pcs.push_back(it == pc_of.end() ? 0 : it->second);
        }
    }
    std::size_t last_index = SIZE_MAX;
    for (const auto& [tok, index] : st.label_uses) {
        if (index == last_index) continue;  // one instruction is visited once even with several symbols
        last_index = index;
        for (auto& arg : fn.body[index].args) {
            if (arg.kind != Operand::Kind::symbol) continue;
            if (auto it = pc_of.find(arg.name); it != pc_of.end()) {
                arg.imm = it->second;
            } else if (auto tb = table_of.find(arg.name); tb != table_of.end()) {
                arg.imm = static_cast<int64_t>(tb->second);
            } else {
                error(tok, "undefined label '" + arg.name + "'");
            }
        }
    }
}

// Call targets resolve against the whole module (a callee may be defined after its caller).
void Parser::resolve_calls() {
    auto& fns = result_.module.functions;
    for (const auto& [tok, where] : call_uses_) {
        auto [fn_index, inst_index] = where;
        if (fn_index >= fns.size() || inst_index >= fns[fn_index].body.size()) continue;
        Instruction& inst = fns[fn_index].body[inst_index];
        for (auto& arg : inst.args) {
            if (arg.kind == Operand::Kind::list) continue;
            if (arg.kind == Operand::Kind::symbol) {
                auto it = fn_index_.find(arg.name);
                arg.imm = it == fn_index_.end() ? -1 : static_cast<int64_t>(it->second);
            }
            break;  // only the first non-list operand is the callee
        }
    }
}

}  // namespace warpsim::ir::detail
