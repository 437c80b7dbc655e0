// kernels_ir/lexer.hpp — splits PTX text into tokens with line/column positions; never fails, never loops.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::ir {

enum class TokKind : uint8_t {
    ident,    // ld  %r5  $L__BB0_2  _  sm_90  (no dots: `ld.global` is ident + dotword + dotword)
    dotword,  // .global  .v4  .shared::cta  .L2::256B  .x  (the text keeps its leading dot)
    integer,  // 42  0x1F  017  42U (text as written)
    fp_hex,   // 0f3F800000  0d3FF0000000000000
    fp_dec,   // 1.5  2e10  9.0 (also the `.version 9.0` operand)
    string,   // "path" (the text between the quotes, escapes kept as written)
    punct,    // one of ; , { } [ ] ( ) < > + - ! @ | = :
    bad,      // a byte sequence that is not PTX (reported by the lexer)
    eof,
};

struct Token {
    TokKind kind = TokKind::eof;
    std::string_view text;  // view into the source (for strings: the raw text between the quotes)
    uint32_t line = 1, col = 1;
    bool glued = false;  // no whitespace or comment between this token and the previous one
    bool is(char c) const { return kind == TokKind::punct && text.size() == 1 && text[0] == c; }
};

struct LexError {
    uint32_t line = 0, col = 0;
    std::string message;
};

struct LexResult {
    std::vector<Token> tokens;  // always ends with an eof token
    std::vector<LexError> errors;
};

LexResult lex_ptx(std::string_view text);

}  // namespace warpsim::ir
