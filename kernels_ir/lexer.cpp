// kernels_ir/lexer.cpp — the PTX tokenizer: identifiers, dotted words, numbers, strings, punctuation,
// comments.
#include "kernels_ir/lexer.hpp"

#include <string>

namespace warpsim::ir {
namespace {

bool is_ident_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}
bool is_ident_char(char c) {
    return is_ident_start(c) || (c >= '0' && c <= '9');
}
bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_hex(char c) {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
// Dotted words carry `::` (shared::cta, L2::256B) and may start with a digit (tex.1d).
bool is_dotword_char(char c) {
    return is_ident_char(c) || c == ':';
}

class Lexer {
  public:
    explicit Lexer(std::string_view text) : src_(text) {}

    LexResult run() {
        bool glued = false;
        while (true) {
            bool skipped = skip_space_and_comments();
            glued = !skipped && !out_.tokens.empty();
            if (pos_ >= src_.size()) break;
            lex_one(glued);
        }
        Token eof;
        eof.kind = TokKind::eof;
        eof.line = line_;
        eof.col = col_;
        out_.tokens.push_back(eof);
        return std::move(out_);
    }

  private:
    std::string_view src_;
    std::size_t pos_ = 0;
    uint32_t line_ = 1, col_ = 1;
    LexResult out_;

    char peek(std::size_t ahead = 0) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }
    void advance() {
        if (src_[pos_] == '\n') {
            ++line_;
            col_ = 1;
        } else {
            ++col_;
        }
        ++pos_;
    }
    void error(uint32_t line, uint32_t col, std::string msg) {
        out_.errors.push_back({line, col, std::move(msg)});
    }

    // Returns true when anything was skipped (the next token is then not glued to the previous one).
    bool skip_space_and_comments() {
        bool skipped = false;
        while (pos_ < src_.size()) {
            char c = peek();
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
                advance();
            } else if (c == '/' && peek(1) == '/') {
                while (pos_ < src_.size() && peek() != '\n') advance();
            } else if (c == '/' && peek(1) == '*') {
                uint32_t l = line_, co = col_;
                advance();
                advance();
                while (pos_ < src_.size() && !(peek() == '*' && peek(1) == '/')) advance();
                if (pos_ >= src_.size()) {
                    error(l, co, "unterminated '/*' comment");
                } else {
                    advance();
                    advance();
                }
            } else {
                break;
            }
            skipped = true;
        }
        return skipped;
    }

    void push(TokKind kind, std::size_t start, uint32_t line, uint32_t col, bool glued) {
        Token t;
        t.kind = kind;
        t.text = src_.substr(start, pos_ - start);
        t.line = line;
        t.col = col;
        t.glued = glued;
        out_.tokens.push_back(t);
    }

    void lex_number(std::size_t start, uint32_t line, uint32_t col, bool glued) {
        char c1 = peek(1);
        if (peek() == '0' && (c1 == 'f' || c1 == 'F' || c1 == 'd' || c1 == 'D') && is_hex(peek(2))) {
            advance();
            advance();
            while (is_hex(peek())) advance();
            push(TokKind::fp_hex, start, line, col, glued);
            return;
        }
        if (peek() == '0' && (c1 == 'x' || c1 == 'X')) {
            advance();
            advance();
            while (is_hex(peek())) advance();
        } else {
            while (is_digit(peek())) advance();
            bool is_float = false;
            if (peek() == '.' && is_digit(peek(1))) {
                is_float = true;
                advance();
                while (is_digit(peek())) advance();
            }
            if ((peek() == 'e' || peek() == 'E') &&
                (is_digit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && is_digit(peek(2))))) {
                is_float = true;
                advance();
                if (peek() == '+' || peek() == '-') advance();
                while (is_digit(peek())) advance();
            }
            if (is_float) {
                push(TokKind::fp_dec, start, line, col, glued);
                return;
            }
        }
        if (peek() == 'U' || peek() == 'u') advance();
        // A number running straight into letters (12abc) is one bad token rather than two good ones.
        if (is_ident_char(peek())) {
            while (is_ident_char(peek())) advance();
            push(TokKind::bad, start, line, col, glued);
            error(line, col, "malformed number '" + std::string(src_.substr(start, pos_ - start)) + "'");
            return;
        }
        push(TokKind::integer, start, line, col, glued);
    }

    void lex_string(uint32_t line, uint32_t col, bool glued) {
        advance();  // opening quote
        std::size_t start = pos_;
        while (pos_ < src_.size() && peek() != '"' && peek() != '\n') {
            if (peek() == '\\' && pos_ + 1 < src_.size()) advance();
            advance();
        }
        Token t;
        t.kind = TokKind::string;
        t.text = src_.substr(start, pos_ - start);
        t.line = line;
        t.col = col;
        t.glued = glued;
        out_.tokens.push_back(t);
        if (peek() == '"') {
            advance();
        } else {
            error(line, col, "unterminated string literal");
        }
    }

    void lex_one(bool glued) {
        std::size_t start = pos_;
        uint32_t line = line_, col = col_;
        char c = peek();
        if (is_ident_start(c)) {
            while (is_ident_char(peek())) advance();
            push(TokKind::ident, start, line, col, glued);
        } else if (c == '.' && is_dotword_char(peek(1)) && peek(1) != ':') {
            advance();
            while (is_dotword_char(peek())) advance();
            push(TokKind::dotword, start, line, col, glued);
        } else if (is_digit(c)) {
            lex_number(start, line, col, glued);
        } else if (c == '"') {
            lex_string(line, col, glued);
        } else if (std::string_view(";,{}[]()<>+-!@|=:").find(c) != std::string_view::npos) {
            advance();
            push(TokKind::punct, start, line, col, glued);
        } else {
            advance();
            // Swallow the rest of a multi-byte or binary run so that one bad stretch yields one error.
            while (pos_ < src_.size() && static_cast<unsigned char>(peek()) >= 0x80) advance();
            push(TokKind::bad, start, line, col, glued);
            unsigned char b = static_cast<unsigned char>(c);
            if (b >= 0x20 && b < 0x7f) {
                error(line, col, std::string("unexpected character '") + c + "'");
            } else {
                constexpr char hex[] = "0123456789abcdef";
                error(line, col, std::string("unexpected byte 0x") + hex[b >> 4] + hex[b & 15]);
            }
        }
    }
};

}  // namespace

LexResult lex_ptx(std::string_view text) {
    return Lexer(text).run();
}

}  // namespace warpsim::ir
