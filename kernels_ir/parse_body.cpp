// kernels_ir/parse_body.cpp — function bodies: .reg/.loc/variables, scoped blocks, labels, instructions,
// operands.
#include <algorithm>

#include "kernels_ir/details.hpp"
#include "kernels_ir/parser_impl.hpp"

namespace warpsim::ir::detail {
namespace {

constexpr uint64_t kMaxRegRange = uint64_t{1} << 20;

bool is_digits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string unique_name(const std::unordered_set<std::string>& taken, const std::string& name) {
    if (!taken.count(name)) return name;
    for (uint32_t k = 1;; ++k) {
        std::string candidate = name + "$" + std::to_string(k);
        if (!taken.count(candidate)) return candidate;
    }
}

void collect_symbol_names(const Operand& o, std::unordered_set<std::string>& names) {
    if ((o.kind == Operand::Kind::symbol || o.kind == Operand::Kind::address) && !o.name.empty())
        names.insert(o.name);
    for (const auto& e : o.elems) collect_symbol_names(e, names);
}

// The printer declares every register at the top of the body, inner scopes' too. A symbol operand that names
// a register of an inner scope outside that scope (a variable the register shadows, or a name the verifier
// reports as undeclared) would then read back as the register: such registers get a flattened name of their
// own.
void rename_registers_named_like_symbols(Function& fn, std::unordered_set<std::string>& taken) {
    std::unordered_set<std::string> symbols;
    for (const auto& inst : fn.body) {
        for (const auto& a : inst.args) collect_symbol_names(a, symbols);
    }
    if (symbols.empty()) return;
    taken.insert(symbols.begin(), symbols.end());
    for (auto& r : fn.regs) {
        if (!symbols.count(r.name)) continue;
        r.name = unique_name(taken, r.name);
        taken.insert(r.name);
    }
}

}  // namespace

std::optional<std::pair<SpecialReg, uint8_t>> special_reg_from_spelling(std::string_view name) {
    if (auto r = special_reg_from_name(name)) return std::make_pair(*r, uint8_t{3});
    auto numbered = [&](std::string_view prefix, std::string_view suffix, SpecialReg reg,
                        uint32_t limit) -> std::optional<std::pair<SpecialReg, uint8_t>> {
        if (name.size() <= prefix.size() + suffix.size() || name.substr(0, prefix.size()) != prefix)
            return {};
        if (name.substr(name.size() - suffix.size()) != suffix) return {};
        std::string_view digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
        if (!is_digits(digits) || digits.size() > 2) return {};
        uint32_t n = 0;
        for (char c : digits) n = n * 10 + static_cast<uint32_t>(c - '0');
        if (n >= limit) return {};
        return std::make_pair(reg, static_cast<uint8_t>(n));
    };
    if (auto r = numbered("envreg", "", SpecialReg::envreg, 32)) return r;
    if (auto r = numbered("pm", "_64", SpecialReg::pm64, 8)) return r;
    if (auto r = numbered("pm", "", SpecialReg::pm, 8)) return r;
    return std::nullopt;
}

void Parser::parse_body(Function& fn) {
    BodyState st;
    st.fn = &fn;
    Token open = toks_[pos_ > 0 ? pos_ - 1 : 0];
    bool done = false;
    while (!done && !too_many_errors()) {
        if (cur().kind == TokKind::eof) {
            error(open, "unterminated body of '" + fn.name + "': expected '}' before the end of the file");
            break;
        }
        std::size_t before = pos_;
        parse_body_statement(st, done);
        if (pos_ == before && !done) next();
    }
    resolve_labels(st);
    rename_registers_named_like_symbols(fn, st.taken);
}

void Parser::parse_body_statement(BodyState& st, bool& done) {
    const Token& t = cur();
    if (t.kind == TokKind::bad) return next();
    if (t.is('}')) {
        next();
        if (st.scopes.empty()) {
            done = true;
        } else {
            close_scope(st);
        }
        return;
    }
    if (t.is('{')) {
        next();
        st.scopes.emplace_back();
        return;
    }
    if (t.is('@')) return parse_instruction(st);
    if (t.kind == TokKind::ident) {
        if (peek().is(':')) return parse_label_or_decl(st);
        return parse_instruction(st);
    }
    if (t.kind != TokKind::dotword) {
        error(t, "expected an instruction, a label or a directive but found '" + std::string(t.text) + "'");
        return skip_statement();
    }
    std::string_view d = t.text;
    if (d == ".reg") return parse_reg_decl(st);
    if (d == ".loc") return parse_body_loc(st);
    if (d == ".shared" || d == ".local" || d == ".const" || d == ".param" || d == ".global") {
        if (!parse_variable_decl(Linkage::none, st.fn->locals, &st)) skip_statement();
        return;
    }
    if (d == ".pragma") return parse_perf_directive(st.fn->perf);
    error(t, "unexpected directive '" + std::string(d) + "' in a function body");
    skip_statement();
}

void Parser::declare_reg(BodyState& st, const std::string& name, Type type, const Token& at) {
    Function& fn = *st.fn;
    auto visible = st.reg_of.find(name);
    if (st.scopes.empty() && visible != st.reg_of.end()) {
        error(at, "redeclaration of register '" + name + "'");
        return;
    }
    if (!st.scopes.empty()) {
        ScopeUndo undo;
        undo.is_reg = true;
        undo.name = name;
        if (visible != st.reg_of.end()) undo.prev_reg = visible->second;
        st.scopes.back().push_back(std::move(undo));
    }
    std::string flat = unique_name(st.taken, name);
    st.taken.insert(flat);
    st.reg_of[name] = static_cast<uint32_t>(fn.regs.size());
    fn.regs.push_back({std::move(flat), type});
}

void Parser::declare_local(BodyState& st, Variable& v) {
    auto visible = st.local_of.find(v.name);
    if (st.scopes.empty() && visible != st.local_of.end()) {
        error(cur(), "redeclaration of '" + v.name + "'");
    }
    if (!st.scopes.empty()) {
        ScopeUndo undo;
        undo.is_reg = false;
        undo.name = v.name;
        if (visible != st.local_of.end()) undo.prev_local = visible->second;
        st.scopes.back().push_back(std::move(undo));
    }
    std::string flat = unique_name(st.taken, v.name);
    st.taken.insert(flat);
    st.local_of[v.name] = flat;
    v.name = std::move(flat);
}

void Parser::close_scope(BodyState& st) {
    auto& undos = st.scopes.back();
    for (auto it = undos.rbegin(); it != undos.rend(); ++it) {
        if (it->is_reg) {
            if (it->prev_reg) {
                st.reg_of[it->name] = *it->prev_reg;
            } else {
                st.reg_of.erase(it->name);
            }
        } else if (it->prev_local) {
            st.local_of[it->name] = *it->prev_local;
        } else {
            st.local_of.erase(it->name);
        }
    }
    st.scopes.pop_back();
}

// `.reg [.vN] .type name, name<N>, ...;`
void Parser::parse_reg_decl(BodyState& st) {
    next();
    Type type = Type::none;
    while (cur().kind == TokKind::dotword) {
        std::string_view d = cur().text;
        if (auto t = type_from_name(d.substr(1))) {
            type = *t;
        } else if (d != ".v2" && d != ".v4" && d != ".v8") {
            error(cur(), "unexpected '" + std::string(d) + "' in register declaration");
        }
        next();
    }
    if (type == Type::none) {
        error(cur(), "expected a register type such as .b32 or .pred after .reg");
        return skip_statement();
    }
    while (true) {
        if (cur().kind != TokKind::ident) {
            error(cur(), "expected a register name");
            return skip_statement();
        }
        Token name_tok = cur();
        std::string name(cur().text);
        next();
        if (accept('<')) {
            auto n = expect_uint("a register count inside '<>'");
            if (!n || !expect('>', "after the register count")) return skip_statement();
            if (*n > kMaxRegRange) {
                error(name_tok, "register range " + name + "<" + std::to_string(*n) + "> is too large");
                return skip_statement();
            }
            for (uint64_t i = 0; i < *n; ++i) declare_reg(st, name + std::to_string(i), type, name_tok);
        } else {
            declare_reg(st, name, type, name_tok);
        }
        if (accept(';')) return;
        if (!accept(',')) {
            error(cur(), "expected ';' after register declaration");
            return skip_statement();
        }
    }
}

// `name:` labels, and `name: .callprototype ...;` / `name: .branchtargets ...;` declarations.
void Parser::parse_label_or_decl(BodyState& st) {
    Token name_tok = cur();
    std::string name(cur().text);
    next();
    next();  // ':'
    Function& fn = *st.fn;
    if (at_dotword(".callprototype")) {
        next();
        CallPrototype proto;
        proto.name = name;
        if (cur().is('(')) parse_param_list(proto.returns, true);
        if (cur().kind == TokKind::ident) next();  // the `_` placeholder for the callee name
        if (cur().is('(')) parse_param_list(proto.params, true);
        if (at_dotword(".noreturn")) {
            proto.noreturn = true;
            next();
        }
        fn.prototypes.push_back(std::move(proto));
        if (!accept(';')) error(cur(), "expected ';' after .callprototype");
        return;
    }
    if (at_dotword(".branchtargets")) {
        next();
        BranchTable table;
        table.name = name;
        do {
            if (cur().kind != TokKind::ident) {
                error(cur(), "expected a label name in .branchtargets");
                return skip_statement();
            }
            table.labels.emplace_back(cur().text);
            next();
        } while (accept(','));
        fn.branch_tables.push_back(std::move(table));
        if (!accept(';')) error(cur(), "expected ';' after .branchtargets");
        return;
    }
    if (!st.label_names.insert(name).second) {
        error(name_tok, "redefinition of label '" + name + "'");
        return;
    }
    fn.labels.push_back({name, static_cast<uint32_t>(fn.body.size())});
}

}  // namespace warpsim::ir::detail
