// kernels_ir/parse_decls.cpp — PTX declarations: .entry/.func headers, .param lists, performance directives,
// variables and their initialisers.
#include <cstring>

#include "kernels_ir/parser_impl.hpp"

namespace warpsim::ir::detail {
namespace {

std::optional<Space> space_from_directive(std::string_view d) {
    if (d == ".global") return Space::global;
    if (d == ".shared") return Space::shared;
    if (d == ".const") return Space::const_;
    if (d == ".local") return Space::local;
    if (d == ".param") return Space::param;
    return std::nullopt;
}

// Largest initialised variable we materialise; bigger ones are almost certainly fuzz or corruption.
constexpr uint64_t kMaxInitBytes = uint64_t{64} << 20;

}  // namespace

bool Parser::add_function(Function fn, const Token& at) {
    auto& fns = result_.module.functions;
    auto it = fn_index_.find(fn.name);
    if (it == fn_index_.end()) {
        for (auto& [tok, inst] : pending_calls_) call_uses_.push_back({tok, {fns.size(), inst}});
        fn_index_.emplace(fn.name, fns.size());
        fns.push_back(std::move(fn));
        return true;
    }
    Function& prev = fns[it->second];
    if (prev.has_body && fn.has_body) {
        error(at, "redefinition of function '" + fn.name + "'");
        return false;
    }
    for (auto& [tok, inst] : pending_calls_) call_uses_.push_back({tok, {it->second, inst}});
    if (fn.has_body) {
        // A forward declaration followed by the definition: keep one Function, at the declaration's place.
        // Call sites already recorded keep pointing at this index.
        if (fn.linkage == Linkage::none) fn.linkage = prev.linkage;
        prev = std::move(fn);
    }
    return true;
}

void Parser::parse_function(Linkage linkage) {
    Function fn;
    pending_calls_.clear();
    fn.linkage = linkage;
    fn.is_entry = cur().text == ".entry";
    Token start = cur();
    fn.loc.ptx_line = start.line;
    fn.loc.ptx_col = start.col;
    next();
    if (!fn.is_entry && cur().is('(')) parse_param_list(fn.returns, false);
    if (cur().kind != TokKind::ident) {
        error(cur(), std::string("expected a function name after ") + (fn.is_entry ? ".entry" : ".func"));
        skip_statement();
        return;
    }
    fn.name = std::string(cur().text);
    next();
    if (cur().is('(')) parse_param_list(fn.params, false);
    while (cur().kind == TokKind::dotword && !too_many_errors()) {
        std::size_t before = pos_;
        parse_perf_directive(fn.perf);
        if (pos_ == before) break;
    }
    if (accept(';')) {
        add_function(std::move(fn), start);
        return;
    }
    if (!cur().is('{')) {
        error(cur(), "expected '{' or ';' after the declaration of '" + fn.name + "'");
        skip_statement();
        return;
    }
    next();
    fn.has_body = true;
    parse_body(fn);
    add_function(std::move(fn), start);
}

void Parser::parse_param_list(std::vector<Param>& out, bool allow_unnamed) {
    (void)allow_unnamed;
    next();  // '('
    if (accept(')')) return;
    while (!too_many_errors()) {
        std::size_t before = pos_;
        if (auto p = parse_param()) out.push_back(std::move(*p));
        if (accept(')')) return;
        if (!accept(',')) {
            error(cur(), "expected ',' or ')' in parameter list");
            // Resynchronise on the closing parenthesis if it is close; otherwise give up on the list.
            while (cur().kind != TokKind::eof && !cur().is(')') && !cur().is('{') && !cur().is(';')) next();
            accept(')');
            return;
        }
        if (pos_ == before) return;
    }
}

std::optional<Param> Parser::parse_param() {
    Param p;
    bool after_ptr = false;
    bool have_type = false;
    while (cur().kind == TokKind::dotword) {
        std::string_view d = cur().text;
        Token at = cur();
        next();
        if (d == ".param" || d == ".reg") continue;
        if (d == ".ptr") {
            after_ptr = true;
            continue;
        }
        if (d == ".align") {
            auto v = expect_uint("an alignment after .align");
            if (v) (after_ptr ? p.ptr_align : p.align) = static_cast<uint32_t>(*v);
            continue;
        }
        if (after_ptr) {
            if (auto sp = space_from_directive(d)) {
                p.ptr_space = *sp;
                continue;
            }
        }
        if (auto t = type_from_name(d.substr(1))) {
            p.type = *t;
            have_type = true;
            continue;
        }
        error(at, "unexpected '" + std::string(d) + "' in parameter declaration");
    }
    if (!have_type) {
        error(cur(), "expected a parameter type such as .u64 or .b32");
        return std::nullopt;
    }
    if (cur().kind != TokKind::ident) {
        error(cur(), "expected a parameter name");
        return std::nullopt;
    }
    p.name = std::string(cur().text);
    next();
    if (accept('[')) {
        if (auto n = expect_uint("an array size")) p.array = static_cast<uint32_t>(*n);
        expect(']', "after the array size");
    }
    return p;
}

void Parser::parse_perf_directive(PerfDirectives& perf) {
    std::string_view d = cur().text;
    Token at = cur();
    auto read_dims = [&](std::array<uint32_t, 3>& dims) {
        next();
        dims = {1, 1, 1};
        for (int i = 0; i < 3; ++i) {
            if (auto v = expect_uint("a thread count")) dims[i] = static_cast<uint32_t>(*v);
            if (!cur().is(',') || cur().line != at.line) break;
            next();
        }
    };
    auto read_one = [&](uint32_t& field) {
        next();
        if (auto v = expect_uint("a number after " + std::string(d))) field = static_cast<uint32_t>(*v);
    };
    if (d == ".maxntid") return read_dims(perf.maxntid);
    if (d == ".reqntid") return read_dims(perf.reqntid);
    if (d == ".reqnctapercluster") return read_dims(perf.reqnctapercluster);
    if (d == ".minnctapersm") return read_one(perf.minnctapersm);
    if (d == ".maxnctapersm") return read_one(perf.maxnctapersm);
    if (d == ".maxnreg") return read_one(perf.maxnreg);
    if (d == ".maxclusterrank") return read_one(perf.maxclusterrank);
    if (d == ".noreturn") return perf.noreturn = true, next();
    if (d == ".explicitcluster") return perf.explicitcluster = true, next();
    if (d == ".pragma") {
        next();
        if (cur().kind == TokKind::string) {
            perf.pragmas.emplace_back(cur().text);
            next();
        } else {
            error(cur(), "expected a quoted string after .pragma");
        }
        accept(';');
        return;
    }
    error(at, "unexpected '" + std::string(d) +
                  "' in a function header; expected a performance directive or '{'");
    next();
}

// `[linkage] space [.align N] [.vN] type name[dims] [= init] {, name...} ;` The caller skips on failure.
bool Parser::parse_variable_decl(Linkage linkage, std::vector<Variable>& out, BodyState* body) {
    Variable proto;
    proto.linkage = linkage;
    proto.loc.ptx_line = cur().line;
    proto.loc.ptx_col = cur().col;
    proto.space = *space_from_directive(cur().text);
    next();
    bool have_type = false;
    while (cur().kind == TokKind::dotword) {
        std::string_view d = cur().text;
        Token at = cur();
        next();
        if (d == ".align") {
            auto v = expect_uint("an alignment after .align");
            if (!v) return false;
            proto.align = static_cast<uint32_t>(*v);
        } else if (d == ".v2" || d == ".v4" || d == ".v8") {
            proto.vec = static_cast<uint8_t>(d[2] - '0');
        } else if (d == ".attribute") {
            if (accept('(')) {
                while (cur().kind != TokKind::eof && !cur().is(')') && !cur().is(';')) next();
                expect(')', "after .attribute(");
            }
        } else if (auto t = type_from_name(d.substr(1))) {
            proto.type = *t;
            have_type = true;
        } else {
            error(at, "unexpected '" + std::string(d) + "' in variable declaration");
            return false;
        }
    }
    if (!have_type) {
        error(cur(), "expected a type such as .b8 or .f32 in variable declaration");
        return false;
    }
    while (true) {
        Variable v = proto;
        if (cur().kind != TokKind::ident) {
            error(cur(), "expected a variable name");
            return false;
        }
        v.name = std::string(cur().text);
        next();
        while (accept('[')) {
            uint64_t n = 0;
            if (!cur().is(']')) {
                auto dim = expect_uint("an array size");
                if (!dim) return false;
                n = *dim;
            }
            v.dims.push_back(n);
            if (!expect(']', "after the array size")) return false;
        }
        if (accept('=')) parse_initializer(v);
        if (body) {
            declare_local(*body, v);
        } else {
            for (const auto& g : out) {
                if (g.name == v.name) error(cur(), "redeclaration of variable '" + v.name + "'");
            }
        }
        out.push_back(std::move(v));
        if (accept(';')) return true;
        if (!accept(',')) {
            error(cur(), "expected ';' after variable declaration");
            return false;
        }
    }
}

// Writes one scalar initialiser element at element `index`, in the variable's element type.
void Parser::store_init_element(Variable& v, uint64_t index, const Token& at, const Operand& value) {
    uint32_t size = type_bytes(v.type);
    if (size == 0) size = 1;
    uint64_t offset = index * size;
    if (offset + size > v.init.size()) {
        error(at, "too many initialisers for '" + v.name + "'");
        return;
    }
    if (value.kind == Operand::Kind::symbol) {
        InitReloc r;
        r.offset = offset;
        r.symbol = value.name;
        r.addend = value.imm;
        r.bytes = static_cast<uint8_t>(size);
        r.generic = value.negated;  // parse_initializer marks generic(sym) this way
        v.relocs.push_back(std::move(r));
        return;
    }
    uint64_t bits = static_cast<uint64_t>(value.imm);
    bool want_float = v.type == Type::f32 || v.type == Type::f64;
    if (want_float && value.kind == Operand::Kind::imm_int) {
        double d = static_cast<double>(value.imm);
        if (v.type == Type::f32) {
            float f = static_cast<float>(d);
            uint32_t b32 = 0;
            std::memcpy(&b32, &f, 4);
            bits = b32;
        } else {
            std::memcpy(&bits, &d, 8);
        }
    } else if (v.type == Type::f32 && value.kind == Operand::Kind::imm_f64) {
        double d = 0;
        std::memcpy(&d, &bits, 8);
        float f = static_cast<float>(d);
        uint32_t b32 = 0;
        std::memcpy(&b32, &f, 4);
        bits = b32;
    }
    for (uint32_t i = 0; i < size && i < 8; ++i) v.init[offset + i] = static_cast<uint8_t>(bits >> (8 * i));
}

namespace {

struct InitElement {
    uint64_t index;
    Token at;
    Operand value;
};

}  // namespace

// Parses `= value` or `= {…}` (nested braces follow the array dimensions; short lists are zero-filled).
void Parser::parse_initializer(Variable& v) {
    std::vector<uint64_t> shape = v.dims;
    if (v.vec > 1) shape.push_back(v.vec);
    auto stride_at = [&](std::size_t level) {  // elements covered by a brace at nesting `level` (1-based)
        uint64_t n = 1;
        for (std::size_t i = level - 1; i < shape.size(); ++i) n *= shape[i] ? shape[i] : 1;
        return n;
    };
    std::vector<InitElement> elems;
    std::vector<uint64_t> brace_start;
    uint64_t index = 0;
    while (!too_many_errors()) {
        const Token t = cur();
        if (t.is('{')) {
            next();
            brace_start.push_back(index);
            continue;
        }
        if (t.is('}')) {
            if (brace_start.empty()) break;
            next();
            std::size_t level = brace_start.size();
            if (level >= 2 && level - 1 <= shape.size()) index = brace_start.back() + stride_at(level);
            brace_start.pop_back();
            if (brace_start.empty()) break;
            accept(',');
            continue;
        }
        Operand value;
        bool negate = accept('-');
        const Token vt = cur();
        if (vt.kind == TokKind::integer) {
            auto u = parse_uint(vt);
            next();
            if (!u) return;
            value = Operand::make_imm(static_cast<int64_t>(negate ? uint64_t{0} - *u : *u));
        } else if (vt.kind == TokKind::fp_hex || vt.kind == TokKind::fp_dec) {
            auto f = parse_float_literal(vt, negate);
            next();
            if (!f) return;
            value = *f;
        } else if (vt.kind == TokKind::ident && !negate) {
            value.kind = Operand::Kind::symbol;
            next();
            if (vt.text == "generic" && accept('(')) {
                value.negated = true;  // marks generic(); see store_init_element
                if (cur().kind != TokKind::ident) {
                    error(cur(), "expected a symbol inside generic( )");
                    return;
                }
                value.name = std::string(cur().text);
                next();
                if (!expect(')', "after generic(symbol")) return;
            } else {
                value.name = std::string(vt.text);
            }
            if (accept('+')) {
                auto add = expect_uint("an offset after '+'");
                if (!add) return;
                value.imm = static_cast<int64_t>(*add);
            }
        } else {
            error(vt, "expected an initialiser value (number, symbol or '{') but found '" +
                          std::string(vt.text) + "'");
            return;
        }
        elems.push_back({index++, vt, value});
        if (brace_start.empty()) break;
        if (!accept(',') && !cur().is('}')) {
            error(cur(), "expected ',' or '}' in initialiser list");
            return;
        }
    }
    if (!brace_start.empty()) {
        error(cur(), "expected '}' to close the initialiser list");
        return;
    }
    // An unsized array takes its size from the initialiser.
    uint64_t inner = 1;
    for (std::size_t i = 1; i < shape.size(); ++i) inner *= shape[i] ? shape[i] : 1;
    if (!v.dims.empty() && v.dims[0] == 0) v.dims[0] = (index + inner - 1) / inner;
    uint64_t bytes = v.size_bytes();
    if (bytes > kMaxInitBytes || (bytes == 0 && !elems.empty())) {
        error(cur(), "cannot initialise '" + v.name + "' of " + std::to_string(bytes) + " bytes");
        return;
    }
    v.has_init = true;
    v.init.assign(bytes, 0);
    for (const auto& e : elems) store_init_element(v, e.index, e.at, e.value);
}

}  // namespace warpsim::ir::detail
