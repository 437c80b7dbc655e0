// kernels_ir/parser_impl.hpp — the recursive-descent PTX parser's state, shared by parser.cpp and
// parse_body.cpp.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "kernels_ir/ir.hpp"
#include "kernels_ir/lexer.hpp"
#include "kernels_ir/parser.hpp"

namespace warpsim::ir::detail {

// Names declared inside `{ }` blocks of a body: visible in the block, flattened into the function.
struct ScopeUndo {
    bool is_reg = true;
    std::string name;                  // the name as written
    std::optional<uint32_t> prev_reg;  // what the name meant before the block declared it
    std::optional<std::string> prev_local;
};

// One .loc of a body as the parser reads it: a position and, for inlined code, the function it is in
// (`function_name`) and the .loc it was inlined at (`inlined_at`, resolved to an earlier node).
struct LocNode {
    uint32_t file = 0, line = 0, col = 0;
    std::string callee;
    uint32_t callee_offset = 0;
    uint32_t parent = 0;  // 1 + index into BodyState::loc_nodes; 0: a line of the function itself
    uint32_t site = 0;    // once interned: 1 + index into Module::inline_sites of its call site
};

// Per-function parsing state: register and local name maps with block scoping.
struct BodyState {
    Function* fn = nullptr;
    std::unordered_map<std::string, uint32_t> reg_of;       // visible register name -> index
    std::unordered_map<std::string, std::string> local_of;  // visible local name -> flattened name
    std::unordered_set<std::string> taken;                  // every flattened name used so far
    std::vector<std::vector<ScopeUndo>> scopes;             // one entry per open `{` block
    std::vector<std::pair<Token, std::size_t>> label_uses;  // bra/brx label operands (token, inst index)
    std::unordered_set<std::string> label_names;
    uint32_t loc_file = 0, loc_line = 0, loc_col = 0;  // the last .loc
    std::vector<LocNode> loc_nodes;                    // every .loc of the body with an inlining chain
    uint32_t loc_current = 0;                          // 1 + index of the last .loc's node; 0: none
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> loc_latest;  // position -> its latest node
};

class Parser {
  public:
    Parser(std::string_view text, std::string_view file_name);
    ParseResult run();

    // --- token stream (parser.cpp) ---
    const Token& cur() const { return toks_[pos_]; }
    const Token& peek(std::size_t n = 1) const;
    void next();
    bool accept(char c);
    bool expect(char c, std::string_view what);
    bool at_dotword(std::string_view text) const;
    void error(const Token& at, std::string message);
    void error_at(uint32_t line, uint32_t col, std::string message);
    void warning(const Token& at, std::string message);
    void skip_statement();  // to just after the next ';' (or before a '}' / eof)
    void skip_rest_of_line(uint32_t line);
    bool too_many_errors() const { return error_count_ >= kMaxErrors; }

    // --- literals (parser.cpp) ---
    std::optional<uint64_t> parse_uint(const Token& t);
    std::optional<uint64_t> expect_uint(std::string_view what);
    std::optional<Operand> parse_float_literal(const Token& t, bool negate);

    // --- module level (parser.cpp) ---
    void parse_module_item();
    void parse_version();
    void parse_target();
    void parse_file_directive();
    void skip_section();
    void parse_debug_str_section();
    void parse_function(Linkage linkage);
    void parse_param_list(std::vector<Param>& out, bool allow_unnamed);
    std::optional<Param> parse_param();
    void parse_perf_directive(PerfDirectives& perf);
    bool parse_variable_decl(Linkage linkage, std::vector<Variable>& out, BodyState* body);
    void parse_initializer(Variable& v);
    void store_init_element(Variable& v, uint64_t index, const Token& at, const Operand& value);
    void parse_loc();
    bool add_function(Function fn, const Token& at);

    // --- function bodies (parse_body.cpp) ---
    void parse_body(Function& fn);
    void parse_body_statement(BodyState& st, bool& done);
    void parse_reg_decl(BodyState& st);
    void declare_reg(BodyState& st, const std::string& name, Type type, const Token& at);
    void declare_local(BodyState& st, Variable& v);
    void close_scope(BodyState& st);
    void parse_label_or_decl(BodyState& st);
    void parse_instruction(BodyState& st);
    std::optional<Operand> parse_operand(BodyState& st);
    std::optional<Operand> parse_primary(BodyState& st);
    std::optional<Operand> parse_register_like(BodyState& st);
    std::optional<Operand> parse_address(BodyState& st);
    std::optional<Operand> parse_nested(BodyState& st);
    std::optional<Operand> parse_braced(BodyState& st, char close, Operand::Kind kind);
    void resolve_labels(BodyState& st);
    // --- .loc with inlining chains (parse_loc.cpp) ---
    void parse_body_loc(BodyState& st);
    uint32_t inline_site_of(BodyState& st);  // SrcLoc::inlined_at for an instruction at the last .loc
    void resolve_calls();

  private:
    static constexpr std::size_t kMaxErrors = 100;
    static constexpr uint32_t kMaxOperandNesting = 8;
    uint32_t operand_depth_ = 0;  // `[`, `{` and `(` operands open around the one being parsed
    std::string file_;
    std::vector<Token> toks_;
    std::size_t pos_ = 0;
    std::size_t error_count_ = 0;
    ParseResult result_;
    std::unordered_map<std::string, std::size_t> fn_index_;
    std::vector<std::pair<Token, std::pair<std::size_t, std::size_t>>> call_uses_;  // (token, (fn, inst))
    std::vector<std::pair<Token, std::size_t>> pending_calls_;  // calls of the function being parsed
    // Module::inline_sites by content (file, line, col, callee, offset, parent): each call site once.
    std::map<std::tuple<uint32_t, uint32_t, uint32_t, std::string, uint32_t, uint32_t>, uint32_t>
        inline_site_index_;
};

// Parses the special-register spelling after '%' ("tid", "envreg3", "pm2_64"); nullopt when not special.
std::optional<std::pair<SpecialReg, uint8_t>> special_reg_from_spelling(std::string_view name);

}  // namespace warpsim::ir::detail
