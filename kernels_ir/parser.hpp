// kernels_ir/parser.hpp — PTX text -> ir::Module, with located diagnostics (never throws, never aborts).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kernels_ir/ir.hpp"

namespace warpsim::ir {

struct Diagnostic {
    std::string file;
    uint32_t line = 0, col = 0;
    enum class Severity { error, warning, note } severity = Severity::error;
    std::string message;
    std::string str() const;  // "FILE:LINE:COL: error: MESSAGE"
};

struct ParseResult {
    Module module;
    std::vector<Diagnostic> diagnostics;
    bool ok() const;  // no diagnostic of severity error
};

// Parses a whole PTX module. After parsing:
//  - Operand::reg indexes Function::regs; registers declared in `{ }` scoped blocks are flattened into
//    Function::regs, renamed `name$N` when the name is already taken (locals such as call-sequence
//    `.param .b32 param0` likewise, and uses inside the block refer to the renamed name);
//  - bra/brx label operands (Kind::symbol) carry imm = target pc (index into Function::body; a label at the
//    very end of the body has pc == body.size()); call targets (Kind::symbol) carry imm = index of the
//    callee in Module::functions, or -1 when no function of that name exists (the verifier reports it);
//  - `%r1|%p1` destination pairs (shfl, setp) are one Operand of Kind::pair with elems {%r1, %p1};
//  - a `.func` prototype followed by its definition is merged into one Function at the prototype's place.
ParseResult parse_ptx(std::string_view text, std::string_view file_name);

}  // namespace warpsim::ir
