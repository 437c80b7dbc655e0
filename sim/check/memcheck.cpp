// sim/check/memcheck.cpp — launch errors (memory faults first of all) as findings.
#include "sim/check/memcheck.hpp"

#include <fmt/format.h>

namespace warpsim::check {

std::optional<Site> site_at_ptx_line(const ir::Module& m, uint32_t ptx_line) {
    if (ptx_line == 0) return std::nullopt;
    for (uint32_t f = 0; f < m.functions.size(); ++f) {
        const auto& body = m.functions[f].body;
        for (uint32_t pc = 0; pc < body.size(); ++pc)
            if (body[pc].loc.ptx_line == ptx_line) return Site{f, pc};
    }
    return std::nullopt;
}

namespace {

std::vector<std::string> split_lines(const std::string& s) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= s.size()) {
        size_t nl = s.find('\n', start);
        std::string line = s.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
        while (!line.empty() && line.front() == ' ') line.erase(line.begin());
        if (!line.empty()) out.push_back(line);
        if (nl == std::string::npos) break;
        start = nl + 1;
    }
    return out;
}

std::string memory_kind(const engine::LaunchError& err) {
    const auto& w = err.where;
    if (err.kind == engine::Fault::misaligned_address) return "misaligned";
    if (!w.nearest.found && w.space == "global") return "unallocated";
    if (w.nearest.found && w.nearest.distance >= 0 && w.nearest.distance < 256) return "oob_in_granule";
    return "oob";
}

}  // namespace

Finding launch_error_finding(const engine::LaunchError& err, const CheckContext& ctx) {
    const auto& w = err.where;
    Finding f;
    const bool memory = engine::is_memory_fault(err.kind);
    const bool deadlock = engine::is_deadlock(err.kind);
    f.tool = deadlock ? Tool::synccheck : Tool::memcheck;
    const auto site = ctx.module ? site_at_ptx_line(*ctx.module, w.ptx_line) : std::nullopt;
    if (memory) {
        const std::string space = w.space.empty() ? "global" : w.space;
        f.kind = "mem." + memory_kind(err) + "." + space;
        f.title = err.kind == engine::Fault::misaligned_address
                      ? fmt::format("Misaligned __{}__ {} of size {} bytes", space, w.access, w.access_bytes)
                      : fmt::format("Invalid __{}__ {} of size {} bytes", space, w.access, w.access_bytes);
        f.address = w.address;
        f.space = space;
        if (w.address)
            f.variable = space == "shared"   ? ctx.shared_name(*w.address, w.access_bytes)
                         : space == "global" ? ctx.global_name(*w.address)
                                             : "";
    } else {
        f.kind = deadlock ? "sync.barrier_deadlock" : "launch." + err.name;
        f.title = fmt::format("The kernel stopped: {} ({})", err.name, err.message);
    }
    if (site) f.parties.push_back({memory ? w.access : "stopped", *site, w.thread, w.block});
    for (const auto& line : split_lines(err.details)) {
        if (line.rfind("at ", 0) == 0 || line.rfind("by thread", 0) == 0 || line == f.title)
            continue;  // said already
        f.notes.push_back(line);
    }
    f.notes.push_back(fmt::format("the run stopped here ({}: {}); later errors, if any, are not reported",
                                  err.name, err.message));
    if (memory && err.kind == engine::Fault::misaligned_address)
        f.fix = fmt::format(
            "access {}-byte values only at addresses that are multiples of {} (check the offset "
            "added to the pointer before a vector cast)",
            w.access_bytes, w.access_bytes);
    else if (memory && w.nearest.found && w.nearest.distance >= 0)
        f.fix =
            "check the bounds guard: `i < n`, not `i <= n`, and that the grid does not cover more elements "
            "than "
            "the buffer holds";
    else if (memory)
        f.fix =
            "check the pointer arithmetic and that the pointer was allocated (and not freed) before the "
            "launch";
    else if (deadlock)
        f.fix =
            "every thread of the block must reach the same __syncthreads() (and named barriers the same "
            "count)";
    return f;
}

}  // namespace warpsim::check
