// kernels_ir/parse_loc.cpp — `.loc` in function bodies with their inlining chains, and `.section .debug_str`
// (the names of inlined functions that `function_name` refers to).
#include "kernels_ir/parser_impl.hpp"

namespace warpsim::ir::detail {
namespace {

using Position = std::tuple<uint32_t, uint32_t, uint32_t>;

Position position_of(const LocNode& n) {
    return {n.file, n.line, n.col};
}

// `from` or the first node it was inlined at (outward) whose position is `pos`; 0 when none.
uint32_t enclosing_node_at(const BodyState& st, uint32_t from, const Position& pos) {
    for (uint32_t n = from; n != 0; n = st.loc_nodes[n - 1].parent) {
        if (position_of(st.loc_nodes[n - 1]) == pos) return n;
    }
    return 0;
}

}  // namespace

// `.loc FILE LINE COL [, function_name LABEL[+N]] [, inlined_at FILE LINE COL]`. nvcc writes the chain of an
// inlined line one .loc per level, outermost first, but leaves out the levels that an earlier .loc already
// gave: the position `inlined_at` names is looked up first in the last .loc and the call sites it was inlined
// at, then among all earlier .locs of the body; failing both it is a line of the function itself.
void Parser::parse_body_loc(BodyState& st) {
    const Token start = cur();
    next();
    auto file = expect_uint("a file number after .loc");
    auto line = file ? expect_uint("a line number after .loc FILE") : std::nullopt;
    auto col = line ? expect_uint("a column number after .loc FILE LINE") : std::nullopt;
    if (!col) return skip_rest_of_line(start.line);
    LocNode node;
    node.file = static_cast<uint32_t>(*file);
    node.line = static_cast<uint32_t>(*line);
    node.col = static_cast<uint32_t>(*col);
    // Numbers of the attributes; a missing one is reported on the .loc's own line.
    auto number = [&](std::string_view what) -> std::optional<uint64_t> {
        if (cur().line != start.line || cur().kind != TokKind::integer) {
            error(cur().line == start.line ? cur() : start, "expected " + std::string(what));
            return std::nullopt;
        }
        return expect_uint(what);
    };
    std::optional<Position> inlined_at;
    while (cur().line == start.line && cur().is(',')) {
        next();
        const Token attr = cur();
        if (attr.kind == TokKind::ident && attr.text == "function_name") {
            next();
            if (cur().kind != TokKind::ident || cur().line != start.line) {
                error(cur().line == start.line ? cur() : start,
                      "expected a .debug_str label after function_name in .loc (function_name "
                      "$L__info_string0)");
                return skip_rest_of_line(start.line);
            }
            node.callee = std::string(cur().text);
            next();
            if (cur().line == start.line && accept('+')) {
                auto offset = number("a byte offset after 'function_name LABEL+'");
                if (!offset) return skip_rest_of_line(start.line);
                node.callee_offset = static_cast<uint32_t>(*offset);
            }
        } else if (attr.kind == TokKind::ident && attr.text == "inlined_at") {
            next();
            auto f = number("a file number after inlined_at in .loc (inlined_at FILE LINE COLUMN)");
            auto l = f ? number("a line number after inlined_at FILE in .loc") : std::nullopt;
            auto c = l ? number("a column number after inlined_at FILE LINE in .loc") : std::nullopt;
            if (!c) return skip_rest_of_line(start.line);
            inlined_at =
                Position{static_cast<uint32_t>(*f), static_cast<uint32_t>(*l), static_cast<uint32_t>(*c)};
        } else {
            break;  // other attributes carry nothing the simulator needs
        }
    }
    skip_rest_of_line(start.line);
    st.loc_file = node.file;
    st.loc_line = node.line;
    st.loc_col = node.col;
    if (inlined_at) {
        uint32_t parent = enclosing_node_at(st, st.loc_current, *inlined_at);
        if (parent == 0) {
            auto seen = st.loc_latest.find(*inlined_at);
            if (seen != st.loc_latest.end()) parent = seen->second;
        }
        if (parent == 0) {
            LocNode caller;
            std::tie(caller.file, caller.line, caller.col) = *inlined_at;
            st.loc_nodes.push_back(std::move(caller));
            parent = static_cast<uint32_t>(st.loc_nodes.size());
            st.loc_latest[*inlined_at] = parent;
        }
        node.parent = parent;
    } else {
        node.callee.clear();  // a line of the function itself: no inlined function to name
        node.callee_offset = 0;
    }
    st.loc_nodes.push_back(std::move(node));
    st.loc_current = static_cast<uint32_t>(st.loc_nodes.size());
    st.loc_latest[position_of(st.loc_nodes.back())] = st.loc_current;
}

// Interns the call sites of the last .loc's chain, outermost first, into Module::inline_sites (each distinct
// site once, so that equal chains get equal indices in every function).
uint32_t Parser::inline_site_of(BodyState& st) {
    if (st.loc_current == 0) return 0;
    const LocNode& last = st.loc_nodes[st.loc_current - 1];
    if (last.parent == 0 || last.site != 0) return last.site;
    std::vector<uint32_t> pending;  // innermost first
    for (uint32_t n = st.loc_current;
         n != 0 && st.loc_nodes[n - 1].parent != 0 && st.loc_nodes[n - 1].site == 0;
         n = st.loc_nodes[n - 1].parent) {
        pending.push_back(n);
    }
    for (auto it = pending.rbegin(); it != pending.rend(); ++it) {
        LocNode& node = st.loc_nodes[*it - 1];
        const LocNode& caller = st.loc_nodes[node.parent - 1];
        const uint32_t parent_site = caller.parent != 0 ? caller.site : 0;
        auto key = std::make_tuple(caller.file, caller.line, caller.col, node.callee, node.callee_offset,
                                   parent_site);
        auto& sites = result_.module.inline_sites;
        auto [found, inserted] =
            inline_site_index_.try_emplace(std::move(key), static_cast<uint32_t>(sites.size() + 1));
        if (inserted) {
            sites.push_back(
                {caller.file, caller.line, caller.col, node.callee, node.callee_offset, parent_site});
        }
        node.site = found->second;
    }
    return st.loc_nodes[st.loc_current - 1].site;
}

// `.section .debug_str { LABEL: .b8 N, N, ... }`: the bytes under each label. Anything else in the section is
// skipped, as other debug sections are.
void Parser::parse_debug_str_section() {
    const Token start = cur();
    next();
    next();  // .debug_str
    if (!cur().is('{')) return skip_rest_of_line(start.line);
    next();
    auto& strings = result_.module.debug_strings;
    bool in_bytes = false;  // after `.b8`, before the next directive or label
    int depth = 1;
    while (cur().kind != TokKind::eof) {
        const Token& t = cur();
        if (t.is('{')) {
            ++depth;
        } else if (t.is('}')) {
            if (--depth == 0) {
                next();
                return;
            }
        } else if (t.kind == TokKind::ident && peek().is(':')) {
            strings.push_back({std::string(t.text), {}});
            in_bytes = false;
            next();  // the ':' is consumed below
        } else if (t.kind == TokKind::dotword) {
            in_bytes = t.text == ".b8" && !strings.empty();
        } else if (t.kind == TokKind::integer && in_bytes) {
            if (auto v = parse_uint(t)) strings.back().bytes.push_back(static_cast<uint8_t>(*v & 0xffu));
        }
        next();
    }
    error(start, "unterminated .section .debug_str: expected '}'");
}

}  // namespace warpsim::ir::detail
