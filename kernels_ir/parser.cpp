// kernels_ir/parser.cpp — module-level PTX grammar: header directives, functions, parameters, variables.
#include "kernels_ir/parser.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "kernels_ir/parser_impl.hpp"

namespace warpsim::ir {

std::string Diagnostic::str() const {
    std::string_view sev = severity == Severity::error     ? "error"
                           : severity == Severity::warning ? "warning"
                                                           : "note";
    return file + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " + std::string(sev) + ": " +
           message;
}

bool ParseResult::ok() const {
    for (const auto& d : diagnostics) {
        if (d.severity == Diagnostic::Severity::error) return false;
    }
    return true;
}

ParseResult parse_ptx(std::string_view text, std::string_view file_name) {
    return detail::Parser(text, file_name).run();
}

namespace detail {

Parser::Parser(std::string_view text, std::string_view file_name) : file_(file_name) {
    LexResult lexed = lex_ptx(text);
    toks_ = std::move(lexed.tokens);
    for (const auto& e : lexed.errors) error_at(e.line, e.col, e.message);
}

ParseResult Parser::run() {
    while (cur().kind != TokKind::eof && !too_many_errors()) {
        std::size_t before = pos_;
        parse_module_item();
        if (pos_ == before) next();  // guarantees progress whatever the input
    }
    resolve_calls();
    std::stable_sort(result_.diagnostics.begin(), result_.diagnostics.end(),
                     [](const Diagnostic& a, const Diagnostic& b) {
                         return a.line != b.line ? a.line < b.line : a.col < b.col;
                     });
    if (too_many_errors()) {
        result_.diagnostics.push_back(
            {file_, cur().line, cur().col, Diagnostic::Severity::note, "too many errors; stopping here"});
    }
    return std::move(result_);
}

// ---------------------------------------------------------------------------------------------
// Token stream
// ---------------------------------------------------------------------------------------------
const Token& Parser::peek(std::size_t n) const {
    std::size_t i = pos_ + n;
    return i < toks_.size() ? toks_[i] : toks_.back();
}

void Parser::next() {
    if (pos_ + 1 < toks_.size()) ++pos_;
}

bool Parser::accept(char c) {
    if (!cur().is(c)) return false;
    next();
    return true;
}

bool Parser::expect(char c, std::string_view what) {
    if (accept(c)) return true;
    error(cur(), "expected '" + std::string(1, c) + "' " + std::string(what));
    return false;
}

bool Parser::at_dotword(std::string_view text) const {
    return cur().kind == TokKind::dotword && cur().text == text;
}

void Parser::error_at(uint32_t line, uint32_t col, std::string message) {
    ++error_count_;
    if (error_count_ > kMaxErrors) return;
    result_.diagnostics.push_back({file_, line, col, Diagnostic::Severity::error, std::move(message)});
}

// A bad token was already reported by the lexer: one mistake, one message.
void Parser::error(const Token& at, std::string message) {
    if (at.kind != TokKind::bad) error_at(at.line, at.col, std::move(message));
}

void Parser::warning(const Token& at, std::string message) {
    result_.diagnostics.push_back(
        {file_, at.line, at.col, Diagnostic::Severity::warning, std::move(message)});
}

void Parser::skip_statement() {
    while (cur().kind != TokKind::eof && !cur().is('}')) {
        bool semi = cur().is(';');
        next();
        if (semi) return;
    }
}

void Parser::skip_rest_of_line(uint32_t line) {
    while (cur().kind != TokKind::eof && cur().line == line) next();
}

// ---------------------------------------------------------------------------------------------
// Literals
// ---------------------------------------------------------------------------------------------
std::optional<uint64_t> Parser::parse_uint(const Token& t) {
    std::string_view s = t.text;
    if (!s.empty() && (s.back() == 'U' || s.back() == 'u')) s.remove_suffix(1);
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s.remove_prefix(2);
    } else if (s.size() > 1 && s[0] == '0') {
        base = 8;
        s.remove_prefix(1);
    }
    uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
    if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) {
        error(t, "bad integer literal '" + std::string(t.text) + "'" +
                     (ec == std::errc::result_out_of_range ? ": out of 64-bit range" : ""));
        return std::nullopt;
    }
    return v;
}

std::optional<uint64_t> Parser::expect_uint(std::string_view what) {
    if (cur().kind != TokKind::integer) {
        error(cur(), "expected " + std::string(what));
        return std::nullopt;
    }
    auto v = parse_uint(cur());
    next();
    return v;
}

std::optional<Operand> Parser::parse_float_literal(const Token& t, bool negate) {
    Operand o;
    if (t.kind == TokKind::fp_hex) {
        bool is_f32 = t.text[1] == 'f' || t.text[1] == 'F';
        std::string_view digits = t.text.substr(2);
        if (digits.size() != (is_f32 ? 8u : 16u)) {
            error(t, std::string("bad floating-point literal '") + std::string(t.text) + "': expected " +
                         (is_f32 ? "8 hex digits after 0f" : "16 hex digits after 0d"));
            return std::nullopt;
        }
        uint64_t bits = 0;
        std::from_chars(digits.data(), digits.data() + digits.size(), bits, 16);
        if (negate) bits ^= is_f32 ? (uint64_t{1} << 31) : (uint64_t{1} << 63);
        o.kind = is_f32 ? Operand::Kind::imm_f32 : Operand::Kind::imm_f64;
        o.imm = static_cast<int64_t>(bits);
        return o;
    }
    double v = 0;
    auto [ptr, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (ec != std::errc() || ptr != t.text.data() + t.text.size()) {
        error(t, "bad floating-point literal '" + std::string(t.text) + "'");
        return std::nullopt;
    }
    if (negate) v = -v;
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    o.kind = Operand::Kind::imm_f64;
    o.imm = static_cast<int64_t>(bits);
    return o;
}

// ---------------------------------------------------------------------------------------------
// Module items
// ---------------------------------------------------------------------------------------------
void Parser::parse_module_item() {
    const Token& t = cur();
    if (t.kind == TokKind::bad) return next();
    if (t.kind != TokKind::dotword) {
        error(t, "expected a directive (.version, .target, .entry, .func, a variable, ...) but found '" +
                     std::string(t.text) + "'");
        if (t.is('{')) {
            int depth = 0;
            do {
                if (cur().is('{')) ++depth;
                if (cur().is('}')) --depth;
                next();
            } while (depth > 0 && cur().kind != TokKind::eof);
        } else {
            skip_statement();
            if (cur().is('}')) next();
        }
        return;
    }
    std::string_view d = t.text;
    Linkage linkage = Linkage::none;
    if (d == ".visible" || d == ".extern" || d == ".weak" || d == ".common") {
        linkage = d == ".visible"  ? Linkage::visible
                  : d == ".extern" ? Linkage::extern_
                  : d == ".weak"   ? Linkage::weak
                                   : Linkage::common;
        next();
        d = cur().kind == TokKind::dotword ? cur().text : std::string_view{};
    }
    if (d == ".version") return parse_version();
    if (d == ".target") return parse_target();
    if (d == ".address_size") {
        next();
        Token num = cur();
        if (auto v = expect_uint("an address size (32 or 64)")) {
            if (*v != 32 && *v != 64) error(num, "address size must be 32 or 64");
            result_.module.address_size = static_cast<uint32_t>(*v);
        }
        return;
    }
    if (d == ".file") return parse_file_directive();
    if (d == ".section") {
        if (peek().kind == TokKind::dotword && peek().text == ".debug_str") return parse_debug_str_section();
        return skip_section();
    }
    if (d == ".loc") return parse_loc();
    if (d == ".entry" || d == ".func") return parse_function(linkage);
    if (d == ".global" || d == ".shared" || d == ".const" || d == ".local") {
        if (!parse_variable_decl(linkage, result_.module.globals, nullptr)) skip_statement();
        return;
    }
    if (d == ".pragma" || d == ".alias") {
        skip_statement();
        return;
    }
    error(cur(), "unknown directive '" + std::string(cur().text) + "' at module scope");
    skip_statement();
}

void Parser::parse_version() {
    next();
    const Token& t = cur();
    std::string_view s = t.text;
    auto dot = s.find('.');
    if ((t.kind != TokKind::fp_dec && t.kind != TokKind::integer) || dot == std::string_view::npos) {
        error(t, "expected a version number such as 9.0 after .version");
        return;
    }
    uint32_t major = 0, minor = 0;
    auto [major_end, major_ec] = std::from_chars(s.data(), s.data() + dot, major);
    auto [minor_end, minor_ec] = std::from_chars(s.data() + dot + 1, s.data() + s.size(), minor);
    // PTX ISA versions run 1.0 .. 9.x, each minor a single digit (ptxas: "Unsupported
    // .version 8.99999999999").
    if (major_ec != std::errc() || minor_ec != std::errc() || major_end != s.data() + dot ||
        minor_end != s.data() + s.size() || major == 0 || minor > 9) {
        error(t, "unsupported .version " + std::string(s) +
                     ": PTX ISA versions are MAJOR.MINOR with a single-digit "
                     "minor, such as 8.5 or 9.0");
        next();
        return;
    }
    result_.module.version_major = major;
    result_.module.version_minor = minor;
    next();
}

void Parser::parse_target() {
    const Token& start = cur();
    next();
    do {
        if (cur().kind != TokKind::ident) {
            error(cur(), "expected a target name such as sm_90 after .target");
            return;
        }
        result_.module.target.emplace_back(cur().text);
        next();
    } while (cur().line == start.line && accept(','));
}

void Parser::parse_file_directive() {
    const Token& start = cur();
    next();
    auto index = expect_uint("a file number after .file");
    if (!index) return skip_rest_of_line(start.line);
    if (cur().kind != TokKind::string) {
        error(cur(), "expected a quoted path after '.file N'");
        return skip_rest_of_line(start.line);
    }
    SourceFile f;
    f.index = static_cast<uint32_t>(*index);
    f.path = std::string(cur().text);
    next();
    // Optional `, timestamp, size` tails carry nothing the simulator needs.
    while (cur().is(',') && cur().line == start.line) {
        next();
        if (cur().kind == TokKind::integer) next();
    }
    for (auto& existing : result_.module.files) {
        if (existing.index == f.index) {
            existing.path = f.path;
            return;
        }
    }
    result_.module.files.push_back(std::move(f));
}

void Parser::skip_section() {
    const Token& start = cur();
    next();
    if (cur().kind == TokKind::dotword) next();
    if (!cur().is('{')) return skip_rest_of_line(start.line);
    int depth = 0;
    do {
        if (cur().is('{')) ++depth;
        if (cur().is('}')) --depth;
        next();
    } while (depth > 0 && cur().kind != TokKind::eof);
    if (depth > 0) error(start, "unterminated .section: expected '}'");
}

void Parser::parse_loc() {
    // The body parser tracks .loc; at module scope it only has to be skipped.
    const Token& start = cur();
    next();
    skip_rest_of_line(start.line);
}

}  // namespace detail
}  // namespace warpsim::ir
