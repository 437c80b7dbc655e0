// kernels_ir/source_chain.cpp — an instruction's chain of inlined source lines (see source_chain.hpp).
#include "kernels_ir/source_chain.hpp"

#include <algorithm>
#include <filesystem>

#include "kernels_ir/names.hpp"

namespace warpsim::ir {
namespace {

// The site `s` (1 + index) names, or null past the table; parents below their child keep walks finite.
const InlineSite* site_at(const Module& m, uint32_t s) {
    return s != 0 && s <= m.inline_sites.size() ? &m.inline_sites[s - 1] : nullptr;
}

uint32_t parent_of(const Module& m, uint32_t s) {
    const InlineSite* site = site_at(m, s);
    return site && site->parent < s ? site->parent : 0;
}

std::string callee_name(const Module& m, const InlineSite& site) {
    if (site.callee.empty()) return {};
    std::string name = m.debug_string(site.callee, site.callee_offset);
    return name.empty() ? std::string{} : demangled_base_name(name);
}

}  // namespace

std::vector<SourceFrame> source_chain(const Module& m, const SrcLoc& loc) {
    std::vector<SourceFrame> frames;
    frames.push_back({{loc.file, loc.line, loc.col}, {}});
    for (uint32_t s = loc.inlined_at; const InlineSite* site = site_at(m, s); s = parent_of(m, s)) {
        frames.back().function = callee_name(m, *site);
        frames.push_back({{site->file, site->line, site->col}, {}});
    }
    return frames;
}

std::vector<SourcePosition> chain_positions(const Module& m, const SrcLoc& loc) {
    std::vector<SourcePosition> out{{loc.file, loc.line, loc.col}};
    for (uint32_t s = loc.inlined_at; const InlineSite* site = site_at(m, s); s = parent_of(m, s)) {
        out.push_back({site->file, site->line, site->col});
    }
    return out;
}

SourcePosition call_site(const Module& m, const SrcLoc& loc) {
    SourcePosition at{loc.file, loc.line, loc.col};
    for (uint32_t s = loc.inlined_at; const InlineSite* site = site_at(m, s); s = parent_of(m, s)) {
        at = {site->file, site->line, site->col};
    }
    return at;
}

bool chain_has_line(const Module& m, const SrcLoc& loc, uint32_t file, uint32_t line) {
    if (loc.file == file && loc.line == line) return true;
    for (uint32_t s = loc.inlined_at; const InlineSite* site = site_at(m, s); s = parent_of(m, s)) {
        if (site->file == file && site->line == line) return true;
    }
    return false;
}

std::string frame_text(const Module& m, const SourcePosition& at, PathStyle style) {
    std::string_view path = m.file_path(at.file);
    if (style == PathStyle::relative && !path.empty() && path.front() == '/') {
        std::error_code ec;
        const std::filesystem::path cwd = std::filesystem::current_path(ec);
        const std::filesystem::path rel = std::filesystem::path(path).lexically_relative(cwd);
        if (!ec && !rel.empty() && *rel.begin() != "..") return rel.string() + ":" + std::to_string(at.line);
        style = PathStyle::file_name;
    }
    if (style == PathStyle::file_name) {
        if (auto slash = path.find_last_of('/'); slash != std::string_view::npos)
            path = path.substr(slash + 1);
    }
    return std::string(path.empty() ? "?" : path) + ":" + std::to_string(at.line);
}

std::string chain_text(const Module& m, const std::vector<SourceFrame>& frames, PathStyle style,
                       std::size_t first, std::size_t end) {
    std::string out;
    for (std::size_t i = first; i < std::min(end, frames.size()); ++i) {
        if (i > first) out += ", inlined from ";
        out += frame_text(m, frames[i].at, style);
        if (i + 1 < frames.size() && !frames[i].function.empty()) out += " in " + frames[i].function;
    }
    return out;
}

std::string source_location_text(const Module& m, const SrcLoc& loc, PathStyle style) {
    if (loc.inlined_at == 0 && loc.line == 0) return {};
    return chain_text(m, source_chain(m, loc), style);
}

}  // namespace warpsim::ir
