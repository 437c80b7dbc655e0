// sim/check/findings.cpp — deduplication and rendering of findings.
#include "sim/check/findings.hpp"

#include <fmt/format.h>

namespace warpsim::check {

std::string_view tool_name(Tool t) {
    switch (t) {
        case Tool::memcheck:
            return "memcheck";
        case Tool::racecheck:
            return "racecheck";
        case Tool::synccheck:
            return "synccheck";
        case Tool::initcheck:
            return "initcheck";
        case Tool::schedules:
            return "schedules";
    }
    return "?";
}

void FindingLog::add(Finding f) {
    std::vector<Site> sites;
    for (const auto& p : f.parties) sites.push_back(p.at);
    Key key{f.kind, std::move(sites)};
    if (auto it = index_.find(key); it != index_.end()) {
        findings_[it->second].count += f.count;
        return;
    }
    index_.emplace(std::move(key), findings_.size());
    findings_.push_back(std::move(f));
}

size_t FindingLog::count(Tool t) const {
    size_t n = 0;
    for (const auto& f : findings_) n += f.tool == t;
    return n;
}

uint64_t FindingLog::occurrences() const {
    uint64_t n = 0;
    for (const auto& f : findings_) n += f.count;
    return n;
}

namespace {

constexpr const char* kBar = "========= ";

// An inlined party's chain, innermost first: [{"file": "device_atomic_functions.hpp", "line": 107,
// "function": "atomicAdd"}, ..., {"file": "reduce.cu", "line": 42}] (the last entry is the user's line,
// cuda_line).
nlohmann::json chain_json(const CheckContext& ctx, const std::vector<ir::SourceFrame>& chain) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& frame : chain) {
        std::string file(ctx.module->file_path(frame.at.file));
        if (auto slash = file.find_last_of('/'); slash != std::string::npos) file.erase(0, slash + 1);
        nlohmann::json j = {{"file", file}, {"line", frame.at.line}};
        if (!frame.function.empty()) j["function"] = frame.function;
        out.push_back(std::move(j));
    }
    return out;
}

std::string render_one(const Finding& f, const CheckContext& ctx) {
    std::string s = fmt::format("{}{}: {}", kBar, tool_name(f.tool), f.title);
    if (f.count > 1) s += fmt::format(" ({} occurrences)", f.count);
    s += '\n';
    for (const auto& p : f.parties)
        s += fmt::format("{}    {} at {} in {}\n{}        by thread {} in block {}\n", kBar, p.what,
                         ctx.where(p.at), ctx.function_name(p.at), kBar, xyz(p.thread), xyz(p.block));
    if (f.address) {
        s += fmt::format("{}    address 0x{:x}", kBar, *f.address);
        if (!f.space.empty()) s += " (" + f.space + ")";
        if (!f.variable.empty()) s += " = " + f.variable;
        s += '\n';
    } else if (!f.variable.empty()) {
        s += fmt::format("{}    {}\n", kBar, f.variable);
    }
    for (const auto& n : f.notes) s += fmt::format("{}    {}\n", kBar, n);
    if (!f.fix.empty()) s += fmt::format("{}    fix: {}\n", kBar, f.fix);
    return s;
}

}  // namespace

std::string render_text(const FindingLog& log, const CheckContext& ctx, const std::string& header) {
    std::string s = "========= WARPSIM CHECK\n";
    if (!header.empty()) s += fmt::format("{}{}\n", kBar, header);
    for (const auto& f : log.findings()) s += "=========\n" + render_one(f, ctx);
    s += "=========\n";
    const size_t n = log.size();
    s += fmt::format("========= ERROR SUMMARY: {} error{}", n, n == 1 ? "" : "s");
    if (n) {
        std::string per;
        for (Tool t : {Tool::memcheck, Tool::racecheck, Tool::synccheck, Tool::initcheck, Tool::schedules})
            if (size_t c = log.count(t))
                per += fmt::format("{}{} {}", per.empty() ? "" : ", ", c, tool_name(t));
        s += fmt::format(" ({}; {} occurrences)", per, log.occurrences());
    }
    return s + "\n";
}

nlohmann::json render_json(const FindingLog& log, const CheckContext& ctx) {
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& f : log.findings()) {
        nlohmann::json j;
        j["tool"] = tool_name(f.tool);
        j["kind"] = f.kind;
        j["title"] = f.title;
        j["count"] = f.count;
        nlohmann::json parties = nlohmann::json::array();
        for (const auto& p : f.parties) {
            nlohmann::json party = {{"what", p.what},
                                    {"ptx_line", ctx.ptx_line(p.at)},
                                    {"cuda_line", ctx.cuda_line(p.at)},
                                    {"where", ctx.where(p.at)},
                                    {"function", ctx.function_name(p.at)},
                                    {"pc", p.at.pc},
                                    {"thread", p.thread},
                                    {"block", p.block}};
            if (auto chain = ctx.source_chain(p.at); chain.size() > 1)
                party["inlined"] = chain_json(ctx, chain);
            parties.push_back(std::move(party));
        }
        j["parties"] = parties;
        if (f.address) j["address"] = fmt::format("0x{:x}", *f.address);
        if (!f.space.empty()) j["space"] = f.space;
        if (!f.variable.empty()) j["variable"] = f.variable;
        if (!f.notes.empty()) j["notes"] = f.notes;
        if (!f.fix.empty()) j["fix"] = f.fix;
        arr.push_back(std::move(j));
    }
    return {{"errors", log.size()}, {"occurrences", log.occurrences()}, {"findings", arr}};
}

}  // namespace warpsim::check
