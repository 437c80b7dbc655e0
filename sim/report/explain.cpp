// sim/report/explain.cpp — one line's memory accesses as one warp performed them (see explain.hpp); the text
// and JSON forms are in explain_format.cpp.
#include "sim/report/explain.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "kernels_ir/cfg.hpp"
#include "kernels_ir/dataflow.hpp"
#include "kernels_ir/forms/form.hpp"
#include "kernels_ir/names.hpp"
#include "kernels_ir/printer.hpp"
#include "kernels_ir/source_chain.hpp"
#include "sim/check/run_check.hpp"
#include "sim/counts/global_sectors.hpp"
#include "sim/counts/shared_banks.hpp"
#include "sim/engine/memory_access.hpp"
#include "sim/report/access_pattern.hpp"

namespace warpsim::report {
namespace {

namespace fs = std::filesystem;

// The first sample run's budget; each further run may execute 32 times more, up to the request's limit.
constexpr uint64_t kFirstSampleBudget = 4'000'000;
constexpr uint64_t kSampleGrowth = 32;

using Pc = std::pair<uint32_t, uint32_t>;  // (function, pc)

// The instructions of one line in the launched kernel and the device functions it may call.
struct LineSite {
    uint32_t file = 0;  // the CUDA file (0 for a PTX line)
    std::vector<Pc> all, memory;
    std::vector<Pc> branches;     // guarded bra: where lanes of a warp can part
    std::vector<Pc> collectives;  // shfl and vote
    std::vector<Pc> followed() const {
        std::vector<Pc> all_followed = memory;
        all_followed.insert(all_followed.end(), branches.begin(), branches.end());
        all_followed.insert(all_followed.end(), collectives.begin(), collectives.end());
        return all_followed;
    }
};

bool is_conditional_branch(const ir::Instruction& inst) {
    return inst.op == ir::Opcode::bra && inst.pred.reg != ir::kNoReg;
}

bool is_collective(const ir::Instruction& inst) {
    return inst.op == ir::Opcode::shfl || inst.op == ir::Opcode::vote;
}

bool in_scope(const session::PreparedLaunch& p, uint32_t function) {
    return function == p.kernel_index || !p.module->functions[function].is_entry;
}

// Loads, stores and atomics of data: what the lane sampler records (parameter and constant loads are not).
bool is_data_access(const ir::Instruction& inst) {
    const bool memory_op =
        inst.op == ir::Opcode::ld || inst.op == ir::Opcode::ldu || inst.op == ir::Opcode::st ||
        inst.op == ir::Opcode::atom || inst.op == ir::Opcode::red ||
        (inst.op == ir::Opcode::cp && ir::form_as<ir::CpForm>(inst) != nullptr);  // cp.async.*
    return memory_op && inst.d.space != ir::Space::param && inst.d.space != ir::Space::const_;
}

// The file the kernel's own lines (call sites of inlined code included) are in most often: the .cu the user
// wrote.
uint32_t main_file(const ir::Module& m, const ir::Function& kernel) {
    std::map<uint32_t, size_t> uses;
    for (const auto& inst : kernel.body)
        if (const uint32_t file = ir::call_site(m, inst.loc).file) ++uses[file];
    uint32_t best = 0;
    size_t most = 0;
    for (const auto& [file, n] : uses) {
        if (n > most) {
            most = n;
            best = file;
        }
    }
    return best;
}

// "line 10 of transpose.cu" or "PTX line 45 of transpose.ptx".
std::string line_name(const session::PreparedLaunch& p, const ExplainRequest& r, uint32_t file) {
    if (r.ptx_line)
        return fmt::format("PTX line {} of {}", *r.ptx_line, fs::path(p.ptx_name).filename().string());
    const std::string name = fs::path(std::string(p.module->file_path(file))).filename().string();
    return fmt::format("line {} of {}", *r.line, name.empty() ? "the CUDA source" : name);
}

// Source lines (or PTX lines) of the kernel that hold a data access, for "try line ..." hints: for inlined
// code (atomicAdd in a CUDA header) the line that calls it. Lines of other files than the kernel's own (a
// .func of a header) say which file.
std::string access_lines(const session::PreparedLaunch& p, bool ptx, const session::SimRun* executed_in) {
    const uint32_t own = ptx ? 0 : main_file(*p.module, *p.kernel);
    std::set<std::pair<bool, uint32_t>> lines;  // (in another file, line)
    std::map<uint32_t, uint32_t> file_of;       // line of another file -> that file
    for (uint32_t f = 0; f < p.module->functions.size(); ++f) {
        if (!in_scope(p, f)) continue;
        const auto& body = p.module->functions[f].body;
        for (uint32_t pc = 0; pc < body.size(); ++pc) {
            const auto& inst = body[pc];
            if (!is_data_access(inst)) continue;
            if (executed_in) {
                const auto* s = executed_in->counters.line(f, pc);
                if (!s || s->requests == 0) continue;
            }
            const ir::SourcePosition at = ir::call_site(*p.module, inst.loc);
            const uint32_t line = ptx ? inst.loc.ptx_line : at.line;
            if (!line) continue;
            const bool other = !ptx && at.file != own;
            lines.insert({other, line});
            if (other) file_of[line] = at.file;
        }
    }
    std::string out;
    size_t shown = 0;
    for (const auto& [other, l] : lines) {
        if (++shown > 12) {
            out += ", ...";
            break;
        }
        out += (out.empty() ? "" : ", ") + std::to_string(l);
        if (other) {
            out += fmt::format(" (of {})",
                               fs::path(std::string(p.module->file_path(file_of[l]))).filename().string());
        }
    }
    return out;
}

std::string try_hint(const session::PreparedLaunch& p, bool ptx, const session::SimRun* executed_in) {
    const std::string lines = access_lines(p, ptx, executed_in);
    if (lines.empty()) return "this kernel has no load, store or atomic a warp executed to explain";
    return fmt::format("try {} {}, the lines with {}", ptx ? "--ptx-line" : "--line", lines,
                       executed_in ? "loads, stores or atomics that ran" : "loads, stores or atomics");
}

launch::Outcome<LineSite> find_line(const session::PreparedLaunch& p, const ExplainRequest& r) {
    using Fail = launch::Outcome<LineSite>;
    const bool ptx = r.ptx_line.has_value();
    const uint32_t wanted = ptx ? *r.ptx_line : *r.line;
    LineSite site;
    if (!ptx) {
        // A line number can exist in several files (headers); the kernel's own file wins. Inlined code
        // belongs to every line of its chain: the line that calls atomicAdd as well as the header's line.
        std::set<uint32_t> files;
        for (uint32_t f = 0; f < p.module->functions.size(); ++f) {
            if (!in_scope(p, f)) continue;
            for (const auto& inst : p.module->functions[f].body) {
                for (const auto& at : ir::chain_positions(*p.module, inst.loc))
                    if (at.file && at.line == wanted) files.insert(at.file);
            }
        }
        const uint32_t main = main_file(*p.module, *p.kernel);
        if (main == 0) {
            return Fail::failure(
                fmt::format("{}: the PTX of kernel {} has no .loc source lines (compile with -lineinfo); "
                            "name a PTX line instead with --ptx-line N",
                            p.spec.path, ir::demangled_base_name(p.kernel->name)));
        }
        site.file = files.count(main) || files.empty() ? main : *files.begin();
    }
    for (uint32_t f = 0; f < p.module->functions.size(); ++f) {
        if (!in_scope(p, f)) continue;
        const auto& body = p.module->functions[f].body;
        for (uint32_t pc = 0; pc < body.size(); ++pc) {
            const auto& loc = body[pc].loc;
            const bool here =
                ptx ? loc.ptx_line == wanted : ir::chain_has_line(*p.module, loc, site.file, wanted);
            if (!here) continue;
            site.all.emplace_back(f, pc);
            if (is_data_access(body[pc])) site.memory.emplace_back(f, pc);
            if (is_conditional_branch(body[pc])) site.branches.emplace_back(f, pc);
            if (is_collective(body[pc])) site.collectives.emplace_back(f, pc);
        }
    }
    const std::string where = line_name(p, r, site.file);
    const std::string kernel = ir::demangled_base_name(p.kernel->name);
    if (site.all.empty()) {
        return Fail::failure(fmt::format("{}: {} holds no instruction of kernel {}; {}", p.spec.path, where,
                                         kernel, try_hint(p, ptx, nullptr)));
    }
    if (site.memory.empty() && site.branches.empty() && site.collectives.empty()) {
        std::set<std::string> ops;
        for (const auto& [f, pc] : site.all)
            ops.insert(std::string(ir::opcode_name(p.module->functions[f].body[pc].op)));
        std::string list;
        for (const auto& o : ops) list += (list.empty() ? "" : ", ") + o;
        return Fail::failure(
            fmt::format("{}: {} has no memory instruction, conditional branch, shuffle or vote (it compiles "
                        "to {}); explain shows loads, stores, atomics, branches, shuffles and votes: {}",
                        p.spec.path, where, list, try_hint(p, ptx, nullptr)));
    }
    return site;
}

std::string read_source_line(const session::PreparedLaunch& p, uint32_t file, uint32_t line) {
    const fs::path recorded(std::string(p.module->file_path(file)));
    for (const fs::path& candidate : {recorded, fs::path(p.ptx_name).parent_path() / recorded.filename(),
                                      fs::path(p.spec.path).parent_path() / recorded.filename()}) {
        std::error_code ec;
        if (recorded.empty() || !fs::is_regular_file(candidate, ec)) continue;
        std::ifstream in(candidate);
        std::string text;
        for (uint32_t n = 1; std::getline(in, text); ++n) {
            if (n != line) continue;
            const auto b = text.find_first_not_of(" \t");
            const auto e = text.find_last_not_of(" \t\r");
            return b == std::string::npos ? "" : text.substr(b, e - b + 1);
        }
        return "";
    }
    return "";
}

counts::AccessSpace counts_space(engine::MemorySpace s) {
    switch (s) {
        case engine::MemorySpace::shared:
            return counts::AccessSpace::shared;
        case engine::MemorySpace::local:
            return counts::AccessSpace::local;
        default:
            return counts::AccessSpace::global;
    }
}

// The warp access as the engine hands it to the counters (memory_access.cpp: AccessRecorder, with the same
// access_header; an atom whose old value the function never reads is a reduction, as the engine runs it).
counts::WarpAccess warp_access(const LaneSample& s, const ir::Function& fn, const ir::Instruction& inst,
                               uint32_t function, uint32_t pc) {
    const bool reduction =
        inst.op == ir::Opcode::red || (inst.op == ir::Opcode::atom && ir::atom_result_unused(fn, inst));
    const auto kind = reduction                             ? counts::AccessKind::reduction
                      : s.kind == engine::MemoryKind::read  ? counts::AccessKind::load
                      : s.kind == engine::MemoryKind::write ? counts::AccessKind::store
                                                            : counts::AccessKind::atomic;
    const engine::AccessHeader h = engine::access_header(inst, inst.d.type, kind, s.bytes_per_lane);
    counts::WarpAccess a;
    a.space = counts_space(s.space);
    a.kind = h.kind;
    a.bytes_per_lane = h.bytes_per_lane;
    a.non_coherent = h.non_coherent;
    a.caches_in_l1 = h.caches_in_l1;
    a.redux_op = h.redux_op;
    a.float_op = h.float_op;
    a.async_fill = h.async_fill;
    a.barrier_object = h.barrier_object;
    a.active_mask = s.active_mask;
    a.pc = pc;
    a.function = function;
    a.addr = s.addr;
    return a;
}

std::vector<SharedPass> shared_passes(const counts::WarpAccess& a, const counts::SharedBankRules& rules) {
    std::vector<SharedPass> passes;
    const uint32_t per = std::max<uint32_t>(1, rules.for_access(a.kind, a.bytes_per_lane).lanes_per_pass);
    const uint32_t words_per_lane = std::max(1u, a.bytes_per_lane / 4u);
    for (uint32_t first = 0; first < 32; first += per) {
        const uint32_t lanes = per >= 32 ? 0xffffffffu : ((1u << per) - 1u) << first;
        counts::WarpAccess part = a;
        part.active_mask = a.active_mask & lanes;
        if (!part.active_mask) continue;
        const counts::SharedCost cost = counts::shared_wavefronts(part, rules);
        std::map<uint32_t, std::set<uint64_t>> words;  // bank -> distinct words
        for (uint32_t l = first; l < first + per; ++l) {
            if (!(part.active_mask >> l & 1u)) continue;
            for (uint32_t k = 0; k < words_per_lane; ++k)
                words[(a.addr[l] / 4 + k) % 32].insert(a.addr[l] / 4 + k);
        }
        SharedPass pass{first, std::min(first + per, 32u) - 1, cost.wavefronts, cost.ideal, cost.max_way, 0};
        size_t most = 0;
        for (const auto& [bank, w] : words) {
            if (w.size() > most) {
                most = w.size();
                pass.worst_bank = bank;
            }
        }
        passes.push_back(pass);
    }
    return passes;
}

std::string_view verb(AccessKind k) {
    switch (k) {
        case AccessKind::load:
            return "read";
        case AccessKind::store:
            return "write";
        default:
            return "update";
    }
}

// The sentence for an access that costs no more than its ideal (explain_access covers the others).
std::string why_ideal(const ExplainedAccess& x, AccessKind kind) {
    const LaneSample& s = x.sample.first;
    const auto lanes = static_cast<uint32_t>(std::popcount(s.active_mask));
    const uint32_t bytes = lanes * s.bytes_per_lane;
    const auto stride = lane_stride(s);
    const auto v = verb(kind);
    if (x.space == AccessSpace::shared) {
        std::set<uint64_t> words;
        const uint32_t per_lane = std::max(1u, s.bytes_per_lane / 4u);
        for (uint32_t l = 0; l < 32; ++l)
            if (s.active_mask >> l & 1u)
                for (uint32_t k = 0; k < per_lane; ++k) words.insert(s.addr[l] / 4 + k);
        uint32_t most_ideal = 0;
        for (const auto& pass : x.passes) most_ideal = std::max(most_ideal, pass.ideal);
        const bool shared_words = words.size() < size_t{lanes} * per_lane;
        const std::string head =
            most_ideal > 1
                ? fmt::format(
                      "a pass asks for more than 32 words, so each bank delivers up to {} of them, and "
                      "none more than that{}",
                      most_ideal, shared_words ? " (lanes that ask for the same word share it)" : "")
            : shared_words
                ? "lanes that ask for the same word share it (a broadcast), and no bank has to deliver two "
                  "different words"
                : "every word the lanes ask for sits in a bank no other lane of its pass uses";
        return fmt::format("{}: {} wavefront{} in {} pass{}, the fewest possible; no bank conflict", head,
                           x.warp_cost.wavefronts, x.warp_cost.wavefronts == 1 ? "" : "s", x.passes.size(),
                           x.passes.size() == 1 ? "" : "es");
    }
    const uint64_t sectors = x.warp_cost.sectors;
    const std::string tail =
        fmt::format("{} sector{}, the fewest that hold {} bytes", sectors, sectors == 1 ? "" : "s", bytes);
    if (stride && *stride == 0) {
        return fmt::format("all {} lanes {} the same {} bytes: {} sector{} serve{} the whole warp", lanes, v,
                           s.bytes_per_lane, sectors, sectors == 1 ? "" : "s", sectors == 1 ? "s" : "");
    }
    if (stride && *stride == static_cast<int64_t>(s.bytes_per_lane)) {
        const uint64_t first = s.addr[static_cast<uint32_t>(std::countr_zero(s.active_mask))];
        return fmt::format("the {} lanes {} consecutive {}-byte elements{}: {}", lanes, v, s.bytes_per_lane,
                           first % 32 == 0 ? " from a 32-byte boundary" : "", tail);
    }
    return fmt::format("the lanes' addresses pack into {}", tail);
}

// One warp execution of a memory instruction as the run counts it: the access the counters get and its cost.
// Counted per SASS instruction: a merged group's later members (followers) are counted in its first one,
// which accesses the merged width from its lanes' addresses (counts::SassPlan).
struct OneCost {
    counts::WarpAccess access;
    LineStats stats;
    const counts::SassPlan::Shared* role = nullptr;
    bool follower = false;
};

OneCost one_cost(const LaneSample& s, const session::PreparedLaunch& p, const session::SimRun& run,
                 uint32_t f, uint32_t pc) {
    const auto& fn = p.module->functions[f];
    OneCost c;
    c.access = warp_access(s, fn, fn.body[pc], f, pc);
    c.role = run.sass ? run.sass->role(f, pc) : nullptr;
    const bool shared = s.space == engine::MemorySpace::shared;
    if (shared && c.role && c.role->role == counts::SassPlan::Role::follower) {
        c.follower = true;
        return c;
    }
    if (shared && c.role && c.role->role == counts::SassPlan::Role::leader)
        c.access.bytes_per_lane = c.role->bytes;
    counts::KernelCounters one(run.counters.config());
    one.on_access(c.access);
    if (const auto* line = one.line(f, pc)) c.stats = *line;
    return c;
}

void cost_access(ExplainedAccess& x, const session::PreparedLaunch& p, const session::SimRun& run) {
    const auto& fn = p.module->functions[x.function];
    const auto& inst = fn.body[x.pc];
    const LaneSample& s = x.sample.first;
    const OneCost c = one_cost(s, p, run, x.function, x.pc);
    const counts::WarpAccess& a = c.access;
    if (c.role && c.role->note) x.sass = run.sass->notes[c.role->note - 1];
    if (c.follower) {
        x.merged_follower = true;
        x.why =
            "counted in the first load or store of its merged SASS instruction (see sass): the GPU issues "
            "one "
            "instruction for the group";
        return;
    }
    x.warp_cost = c.stats;
    if (x.space == AccessSpace::shared) {
        x.passes = shared_passes(a, run.counters.config().shared_rules);
    } else {
        counts::SectorList list;
        counts::collect_sectors(a, list);
        x.sectors.assign(list.sector.begin(), list.sector.begin() + list.size);
    }
    const AccessKind kind = access_kind(inst);
    if (x.warp_cost.requests == 0) {
        x.why =
            "cp.async fills shared memory behind the load/store unit: the H200 counts no shared-memory "
            "wavefront for this write (its cost is the global read)";
        return;
    }
    AccessRow row;
    row.space = x.space;
    row.kind = kind;
    row.function = x.function;
    row.pcs = {x.pc};
    row.s = x.warp_cost;
    row.sample = &s;
    x.kind = kind;
    const RequestCost cost{row.per_request(), row.ideal_per_request()};
    if (auto shared = sharing_sentence(x.space, kind, s, cost))
        x.why = *shared;
    else
        x.why = row.excess() ? explain_access(row) : why_ideal(x, kind);
}

AccessSpace report_space(engine::MemorySpace s) {
    switch (s) {
        case engine::MemorySpace::shared:
            return AccessSpace::shared;
        case engine::MemorySpace::local:
            return AccessSpace::local;
        default:
            return AccessSpace::global;
    }
}

std::array<uint32_t, 3> ctaid_of(const launch::LaunchSpec& spec, uint64_t linear) {
    return {static_cast<uint32_t>(linear % spec.grid[0]),
            static_cast<uint32_t>(linear / spec.grid[0] % spec.grid[1]),
            static_cast<uint32_t>(linear / (uint64_t{spec.grid[0]} * spec.grid[1]))};
}

std::optional<std::string> check_warp_choice(const session::PreparedLaunch& p, const ExplainRequest& r) {
    const auto& g = p.spec.grid;
    if (r.block && ((*r.block)[0] >= g[0] || (*r.block)[1] >= g[1] || (*r.block)[2] >= g[2])) {
        return fmt::format(
            "{}: --block {},{},{} is outside the grid ({},{},{}); blockIdx runs from 0,0,0 to {},{},{}",
            p.spec.path, (*r.block)[0], (*r.block)[1], (*r.block)[2], g[0], g[1], g[2], g[0] - 1, g[1] - 1,
            g[2] - 1);
    }
    const uint64_t warps = (p.spec.threads_per_block() + 31) / 32;
    if (r.warp && *r.warp >= warps) {
        return fmt::format("{}: --warp {}: a block of {} threads has {} warp{} (0 to {})", p.spec.path,
                           *r.warp, p.spec.threads_per_block(), warps, warps == 1 ? "" : "s", warps - 1);
    }
    return std::nullopt;
}

// Runs the launch with the focus until the chosen warp's block has finished, the grid has, or the budget is
// spent; each run may execute kSampleGrowth times more than the last.
launch::Outcome<LaneSamples> sample_focus(const session::PreparedLaunch& p, const session::SimRun& run,
                                          const WarpFocus& focus, const ExplainRequest& r,
                                          const std::function<void(const session::LaunchSetup&)>& on_setup) {
    uint64_t budget = std::min(kFirstSampleBudget, r.max_thread_instructions);
    for (;;) {
        SampleOptions options;
        options.max_thread_instructions = budget;
        options.max_blocks = 0;
        options.focus = &focus;
        options.progress = r.progress;
        options.on_setup = on_setup;
        auto samples = sample_lanes(p, run, options);
        if (!samples) return samples;
        if (samples->focus.settled || !samples->out_of_budget || budget >= r.max_thread_instructions)
            return samples;
        budget = budget > r.max_thread_instructions / kSampleGrowth ? r.max_thread_instructions
                                                                    : budget * kSampleGrowth;
    }
}

// The error when no warp (of those asked for) reached the line within the sample, with the first that did.
std::string no_warp_error(const session::PreparedLaunch& p, const LaneSamples& samples,
                          const std::string& where, bool requested) {
    std::string other;
    if (!samples.focus.by_pc.empty()) {
        const LaneSample& first = samples.focus.by_pc.begin()->second.first;
        const auto c = ctaid_of(p.spec, first.block.linear);
        other =
            fmt::format("; the first warp that did is block {},{},{} warp {} (--block {},{},{} --warp {})",
                        c[0], c[1], c[2], first.warp, c[0], c[1], c[2], first.warp);
    }
    return fmt::format("{}: no warp {}executed {} within the first {} blocks the sample ran{}", p.spec.path,
                       requested ? "of the ones asked for (--block, --warp) " : "", where,
                       samples.blocks_seen, other);
}

ExplainedAccess access_at(const session::PreparedLaunch& p, const session::SimRun& run, uint32_t f,
                          uint32_t pc, AccessSpace space) {
    const auto& inst = p.module->functions[f].body[pc];
    ExplainedAccess x;
    x.function = f;
    x.pc = pc;
    x.ptx_line = inst.loc.ptx_line;
    x.instruction = ir::print_instruction(p.module->functions[f], inst);
    if (inst.loc.inlined_at)
        x.inlined = ir::source_location_text(*p.module, inst.loc, ir::PathStyle::relative);
    x.space = space;
    if (const auto* s = run.counters.line(f, pc)) x.run_cost = *s;
    const AccessRow label{space, access_kind(inst), f, {pc}, {}, nullptr, "", ""};
    x.what = label.label();
    return x;
}

// The explanation's entries for one followed instruction: one per state space its lanes reached in the sample
// (a generic access can reach two), or one saying no warp ran it.
void add_accesses(Explanation& e, const session::PreparedLaunch& p, const session::SimRun& run,
                  const FocusSamples& focused, uint32_t f, uint32_t pc) {
    bool any = false;
    for (const auto& [key, sample] : focused.by_pc) {
        if (std::get<0>(key) != f || std::get<1>(key) != pc) continue;
        any = true;
        ExplainedAccess x = access_at(p, run, f, pc, report_space(std::get<2>(key)));
        x.sampled = true;
        x.from_chosen_warp = focused.from_chosen_warp(sample);
        x.sample = sample;
        x.block = ctaid_of(p.spec, sample.first.block.linear);
        cost_access(x, p, run);
        e.accesses.push_back(std::move(x));
    }
    if (any) return;
    const auto space = p.module->functions[f].body[pc].d.space;
    ExplainedAccess x = access_at(p, run, f, pc,
                                  space == ir::Space::shared  ? AccessSpace::shared
                                  : space == ir::Space::local ? AccessSpace::local
                                                              : AccessSpace::global);
    x.why = x.run_cost.requests
                ? "no warp executed it within the sample run (other warps run it later in the launch)"
                : "no warp executed it in this launch";
    e.accesses.push_back(std::move(x));
}

// "0x0000ffff (lanes 0-15)", "0x55555555 (16 lanes: 0, 2, 4, ...)".
std::string lanes_text(uint32_t mask) {
    const int n = std::popcount(mask);
    if (n == 0) return "no lane";
    const int lo = std::countr_zero(mask), hi = 31 - std::countl_zero(mask);
    if (n == hi - lo + 1) return n == 1 ? fmt::format("lane {}", lo) : fmt::format("lanes {}-{}", lo, hi);
    std::string first;
    int shown = 0;
    for (int l = lo; l <= hi && shown < 3; ++l) {
        if (!(mask >> l & 1u)) continue;
        first += fmt::format("{}{}", shown ? ", " : "", l);
        ++shown;
    }
    return fmt::format("{} lanes ({:#010x}: {}, ...)", n, mask, first);
}

std::string popcount_text(uint32_t mask) {
    const int n = std::popcount(mask);
    return fmt::format("{} lane{}", n, n == 1 ? "" : "s");
}

// Where lanes that arrive at `pc` go on, unconditional jumps followed.
uint32_t landing_pc(const ir::Function& fn, const ir::Cfg& cfg, uint32_t pc) {
    for (int hop = 0; hop < 16 && pc < fn.body.size(); ++hop) {
        const auto& inst = fn.body[pc];
        if (inst.op != ir::Opcode::bra || inst.pred.reg != ir::kNoReg) break;
        const auto& bb = cfg.blocks[cfg.block_of_pc[pc]];
        if (bb.succs.size() != 1 || bb.succs[0] >= cfg.blocks.size()) break;
        pc = cfg.blocks[bb.succs[0]].begin;
    }
    return pc;
}

// The pcs one side of a branch runs from `start` before the sides meet at `meet` (body.size(): at exit).
std::vector<uint32_t> side_pcs(const ir::Function& fn, const ir::Cfg& cfg, uint32_t start, uint32_t meet) {
    std::vector<uint32_t> pcs;
    if (start >= fn.body.size() || start == meet) return pcs;
    const uint32_t stop = meet < fn.body.size() ? cfg.block_of_pc[meet] : cfg.exit_block();
    std::vector<char> seen(cfg.blocks.size(), 0);
    std::vector<uint32_t> work{cfg.block_of_pc[start]};
    while (!work.empty()) {
        const uint32_t b = work.back();
        work.pop_back();
        if (b >= cfg.blocks.size() || b == stop || seen[b]) continue;
        seen[b] = 1;
        const uint32_t from =
            b == cfg.block_of_pc[start] ? std::max(start, cfg.blocks[b].begin) : cfg.blocks[b].begin;
        for (uint32_t pc = from; pc < cfg.blocks[b].end; ++pc) pcs.push_back(pc);
        for (uint32_t next : cfg.blocks[b].succs) work.push_back(next);
    }
    std::sort(pcs.begin(), pcs.end());
    pcs.erase(std::unique(pcs.begin(), pcs.end()), pcs.end());
    return pcs;
}

uint32_t cuda_line(const session::PreparedLaunch& p, const ir::Function& fn, uint32_t pc) {
    if (pc >= fn.body.size()) return 0;
    return ir::call_site(*p.module, fn.body[pc].loc).line;
}

BranchSide branch_side(const session::PreparedLaunch& p, const session::SimRun& run, uint32_t f,
                       const ir::Cfg& cfg, uint32_t start, uint32_t meet) {
    const auto& fn = p.module->functions[f];
    BranchSide side;
    side.first_pc = landing_pc(fn, cfg, start);
    side.ptx_line = side.first_pc < fn.body.size() ? fn.body[side.first_pc].loc.ptx_line : 0;
    const auto pcs = side_pcs(fn, cfg, start, meet);
    // A label's first instructions may come before the side's first .loc: the side's line is the first
    // one its instructions name.
    for (uint32_t pc = side.first_pc; pc < fn.body.size() && !side.line; ++pc) {
        if (pc != side.first_pc && !std::binary_search(pcs.begin(), pcs.end(), pc)) break;
        side.line = cuda_line(p, fn, pc);
    }
    for (uint32_t pc : pcs) {
        // The unconditional jumps that only lead somewhere are bookkeeping, not the side's work.
        const auto& inst = fn.body[pc];
        if (inst.op == ir::Opcode::bra && inst.pred.reg == ir::kNoReg && landing_pc(fn, cfg, pc) == meet)
            continue;
        ++side.instructions;
        if (const auto* c = run.counters.line(f, pc)) {
            side.warp_insts += c->warp_insts;
            side.thread_insts += c->thread_insts;
        }
    }
    return side;
}

void explain_branch(ExplainedBranch& b, bool ptx) {
    const auto& ev = b.sample.first;
    const uint32_t active = ev.active_mask, taken = ev.taken_mask & active, rest = active & ~taken;
    b.taken.lanes = taken;
    b.not_taken.lanes = rest;
    std::string meet = "only when they exit";
    if (!b.meets_at_exit) {
        meet = ptx || !b.meet_line ? fmt::format("at PTX line {}", b.meet_ptx_line)
                                   : fmt::format("at line {} (PTX line {})", b.meet_line, b.meet_ptx_line);
    }
    const uint64_t ran = b.sample.all_executions, split = b.sample.all_split;
    const std::string sample =
        ran ? fmt::format(" In the sample, {} of {} warp executions of this branch split.", split, ran) : "";
    if (taken && rest && b.backward) {
        b.why = fmt::format(
            "a loop's way back, and the lanes disagree: {} go round again, {} are done. The warp keeps "
            "looping until its last lane is done; the done lanes wait, idle, until the loop ends (the lanes "
            "meet again {}). A loop whose trip count is the same for every lane of a warp costs no such "
            "wait.{}",
            popcount_text(taken), popcount_text(rest), meet, sample);
    } else if (taken && rest) {
        b.why = fmt::format(
            "the lanes of this warp disagree on the condition. A warp has one instruction stream, so it runs "
            "the side of the {} that jump while the others wait, then the side of the other {}, and goes on "
            "with all of them {}: each instruction of either side issues for the whole warp with part of its "
            "lanes at work (the active lanes per side above; 32 at best). A condition that is the same for "
            "all 32 lanes of a warp (one that depends on threadIdx.x / 32, blockIdx or a kernel argument) "
            "costs one side per warp.{}",
            popcount_text(taken), popcount_text(rest), meet, sample);
    } else {
        b.why = fmt::format("all {} of this warp went the same way ({}): no divergence in this execution.{}",
                            popcount_text(active), taken ? "they jump" : "they go on", sample);
    }
}

// "lane i reads lane i+16", from the executing lanes' sources.
std::string shuffle_pattern(const engine::WarpSyncEvent& ev) {
    const uint32_t e = ev.executing_mask, in = ev.in_range_mask & e, out = e & ~in;
    std::optional<int> delta, xor_k, same;
    bool is_delta = true, is_xor = true, is_same = true;
    for (uint32_t l = 0; l < 32; ++l) {
        if (!(in >> l & 1u)) continue;
        const int src = ev.source_lane[l];
        const int d = src - static_cast<int>(l), k = src ^ static_cast<int>(l);
        if (!delta) delta = d;
        if (!xor_k) xor_k = k;
        if (!same) same = src;
        is_delta &= *delta == d;
        is_xor &= *xor_k == k;
        is_same &= *same == src;
    }
    std::string text;
    if (!in) {
        text = "no lane's source lies inside its segment: every lane keeps its own value";
    } else if (is_same && std::popcount(in) > 1) {
        text = fmt::format("every lane reads lane {} (a broadcast)", *same);
    } else if (is_delta && *delta != 0) {
        text = fmt::format("lane i reads lane i{}{}", *delta > 0 ? "+" : "-", std::abs(*delta));
    } else if (is_xor && *xor_k != 0) {
        text = fmt::format("lane i reads lane i XOR {} (a butterfly: lanes swap in pairs {} apart)", *xor_k,
                           *xor_k);
    } else if (is_delta) {
        text = "every lane reads itself";
    } else {
        text = "the lanes read the lanes listed below";
    }
    if (in != e) text += fmt::format(" ({})", lanes_text(in));
    if (out) {
        const bool one = std::popcount(out) == 1;
        text += fmt::format(
            "; {} {} for a lane past the end of {} segment and {} {} own value (the optional predicate "
            "output "
            "is false there)",
            lanes_text(out), one ? "asks" : "ask", one ? "its" : "their", one ? "keeps" : "keep",
            one ? "its" : "their");
    }
    uint32_t from_idle = 0;
    for (uint32_t l = 0; l < 32; ++l)
        if ((in >> l & 1u) && !(e >> ev.source_lane[l] & 1u)) from_idle |= 1u << l;
    if (from_idle) {
        text += fmt::format(
            "; {} read a lane that did not execute the shuffle: on a GPU that value is "
            "undefined",
            lanes_text(from_idle));
    }
    return text;
}

void describe_instruction(ExplainedInstruction& x, const session::PreparedLaunch& p,
                          const session::SimRun& run, uint32_t f, uint32_t pc) {
    const auto& fn = p.module->functions[f];
    const auto& inst = fn.body[pc];
    x.function = f;
    x.pc = pc;
    x.ptx_line = inst.loc.ptx_line;
    x.instruction = ir::print_instruction(fn, inst);
    if (inst.loc.inlined_at)
        x.inlined = ir::source_location_text(*p.module, inst.loc, ir::PathStyle::relative);
    if (const auto* c = run.counters.line(f, pc)) x.run_executions = c->warp_insts;
    x.why = x.run_executions ? "no warp executed it within the sample run (other warps run it later)"
                             : "no warp executed it in this launch";
}

ExplainedBranch branch_at(const session::PreparedLaunch& p, const session::SimRun& run,
                          const FocusSamples& focused, const ir::Cfg& cfg, uint32_t f, uint32_t pc,
                          bool ptx) {
    const auto& fn = p.module->functions[f];
    ExplainedBranch b;
    describe_instruction(b, p, run, f, pc);
    // The branch's block has two successors: the one that starts right after it (the lanes whose guard is
    // false) and the label's (the lanes whose guard holds).
    const auto& bb = cfg.blocks[cfg.block_of_pc[pc]];
    uint32_t target = pc + 1;
    for (uint32_t next : bb.succs)
        if (next < cfg.blocks.size() && cfg.blocks[next].begin != pc + 1) target = cfg.blocks[next].begin;
    b.backward = target <= pc;
    b.meet_pc = cfg.reconverge_pc[pc];
    b.meets_at_exit = b.meet_pc >= fn.body.size();
    if (!b.meets_at_exit) {
        b.meet_ptx_line = fn.body[b.meet_pc].loc.ptx_line;
        b.meet_line = cuda_line(p, fn, b.meet_pc);
    }
    b.taken = branch_side(p, run, f, cfg, target, b.meet_pc);
    b.not_taken = branch_side(p, run, f, cfg, pc + 1, b.meet_pc);
    if (auto it = focused.branches.find({f, pc}); it != focused.branches.end()) {
        b.sampled = true;
        b.sample = it->second;
        b.from_chosen_warp = focused.is_chosen(b.sample.first.site.block.linear, b.sample.first.site.warp);
        b.block = b.sample.first.site.block.ctaid;
        explain_branch(b, ptx);
    }
    return b;
}

ExplainedCollective collective_at(const session::PreparedLaunch& p, const session::SimRun& run,
                                  const FocusSamples& focused, uint32_t f, uint32_t pc) {
    const auto& inst = p.module->functions[f].body[pc];
    ExplainedCollective c;
    describe_instruction(c, p, run, f, pc);
    const bool shuffle = inst.op == ir::Opcode::shfl;
    static constexpr const char* kShfl[] = {"", "up", "down", "xor", "idx"};
    static constexpr const char* kVote[] = {"", "all", "any", "uni", "ballot"};
    c.what = shuffle ? fmt::format("shuffle {}", kShfl[static_cast<int>(inst.d.shfl)])
                     : fmt::format("vote {}", kVote[static_cast<int>(inst.d.vote)]);
    auto it = focused.collectives.find({f, pc});
    if (it == focused.collectives.end()) return c;
    c.sampled = true;
    c.sample = it->second;
    const auto& ev = c.sample.first;
    c.from_chosen_warp = focused.is_chosen(ev.site.block.linear, ev.site.warp);
    c.block = ev.site.block.ctaid;
    const uint32_t e = ev.executing_mask;
    if (shuffle) {
        c.pattern = shuffle_pattern(ev);
        c.why =
            "a shuffle hands a 4-byte register from lane to lane within the warp in one instruction: no "
            "shared memory, no barrier. Every lane named in the mask must execute it, and a lane should read "
            "only lanes that do.";
    } else {
        const uint32_t yes = ev.vote_true_mask & e;
        c.pattern =
            fmt::format("{} of the {} executing lanes have the condition true: the ballot is {:#010x}",
                        std::popcount(yes), std::popcount(e), yes);
        switch (inst.d.vote) {
            case ir::VoteMode::all:
                c.pattern += yes == e ? "; all of them: true" : "; not all: false";
                break;
            case ir::VoteMode::any:
                c.pattern += yes ? "; some: true" : "; none: false";
                break;
            case ir::VoteMode::uni:
                c.pattern += yes == 0 || yes == e ? "; all agree: true" : "; they disagree: false";
                break;
            default:
                break;
        }
        c.why =
            "a vote combines one condition of every executing lane into one answer for the whole warp in one "
            "instruction (__ballot_sync, __all_sync, __any_sync): a branch on its result cannot split the "
            "warp.";
    }
    return c;
}

// Each active lane's address named as `warpsim check` names it, the arrays the lanes touched and the span
// from the lowest address to the highest.
void name_lanes(ExplainedAccess& x, const check::CheckContext& names) {
    const LaneSample& s = x.sample.first;
    const bool shared = x.space == AccessSpace::shared;
    if (x.space == AccessSpace::local) return;   // a thread's own stack: no buffer or variable to name
    std::map<uint64_t, std::string> by_address;  // address -> its array, to list arrays in address order
    std::optional<uint32_t> low, high;
    for (uint32_t l = 0; l < 32; ++l) {
        if (!(s.active_mask >> l & 1u)) continue;
        const uint64_t a = s.addr[l];
        x.lane_names[l] = shared ? names.shared_name(a, s.bytes_per_lane) : names.global_name(a);
        const std::string array = shared ? names.shared_array(a) : names.global_array(a);
        if (!array.empty()) by_address.emplace(a, array);
        if (!low || a < s.addr[*low]) low = l;
        if (!high || a > s.addr[*high]) high = l;
    }
    for (const auto& [a, array] : by_address)
        if (std::find(x.arrays.begin(), x.arrays.end(), array) == x.arrays.end()) x.arrays.push_back(array);
    if (!low) return;
    std::string first = x.lane_names[*low];
    std::string last = x.lane_names[*high];
    if (first.empty() || last.empty()) return;
    // A byte array read in wider units says so once: "As[0] to As[31] (in 4-byte elements)".
    std::string unit;
    if (const auto at = first.find(" (in "); at != std::string::npos && last.ends_with(first.substr(at))) {
        unit = first.substr(at);
        first.resize(at);
        last.resize(last.size() - unit.size());
    }
    // "A[0] to A[31]": the argument's number is in the arrays before it.
    const auto space = x.arrays.size() == 1 ? x.arrays.front().find(' ') : std::string::npos;
    if (!shared && space != std::string::npos && first.starts_with(x.arrays.front() + "[") &&
        last.starts_with(x.arrays.front() + "[")) {
        first = first.substr(space + 1);
        last = last.substr(space + 1);
    }
    x.span = (first == last ? first : first + " to " + last) + unit;
}

// The summary's groups: accesses of one kind, on the same arrays, with the same cost and reason for the shown
// warp. The later members of a group ptxas merged (counted in the first) join a group of their kind and
// arrays.
std::vector<AccessGroup> group_accesses(const std::vector<ExplainedAccess>& accesses) {
    std::vector<AccessGroup> groups;
    std::vector<std::string> keys, kinds;
    auto kind_key = [](const ExplainedAccess& x) {
        std::string arrays;
        for (const auto& a : x.arrays) arrays += a + ",";
        return fmt::format("{}|{}|{}|{}", x.what, arrays, x.sampled, x.from_chosen_warp);
    };
    auto add = [&](size_t i, const std::string& key) {
        const auto& x = accesses[i];
        auto it = std::find(keys.begin(), keys.end(), key);
        if (it == keys.end()) {
            keys.push_back(key);
            kinds.push_back(kind_key(x));
            groups.emplace_back();
            it = keys.end() - 1;
        }
        AccessGroup& g = groups[static_cast<size_t>(it - keys.begin())];
        g.members.push_back(i);
        g.merged += x.merged_follower;
        g.warp_cost.add(x.warp_cost);
        g.run_cost.add(x.run_cost);
    };
    for (size_t i = 0; i < accesses.size(); ++i) {
        const auto& x = accesses[i];
        if (x.merged_follower) continue;
        const auto& c = x.warp_cost;
        add(i, fmt::format("{}|{}|{}|{}|{}|{}|{}|{}|{}", kind_key(x), c.requests, c.sectors, c.ideal_sectors,
                           c.wavefronts, c.ideal_wavefronts,
                           x.sampled ? std::popcount(x.sample.first.active_mask) : 0,
                           x.sample.first.bytes_per_lane, x.why));
    }
    for (size_t i = 0; i < accesses.size(); ++i) {
        if (!accesses[i].merged_follower) continue;
        const auto it = std::find(kinds.begin(), kinds.end(), kind_key(accesses[i]));
        add(i, it == kinds.end() ? "merged|" + kind_key(accesses[i])
                                 : keys[static_cast<size_t>(it - kinds.begin())]);
    }
    for (auto& g : groups) std::sort(g.members.begin(), g.members.end());
    return groups;
}

// Ranks every warp that runs the line's instructions by WarpCost (explain.hpp), in one run of the launch.
class WarpRanker : public engine::ExecutionObserver {
  public:
    WarpRanker(const session::PreparedLaunch& p, const session::SimRun& run, const WarpFocus& focus)
        : p_(p), run_(run), focus_(focus) {}
    void on_block_begin(const engine::BlockIndex&) override { ++blocks_seen; }
    void on_memory(const engine::MemoryEvent& e) override {
        if (e.space == engine::MemorySpace::param || e.space == engine::MemorySpace::const_) return;
        if (!followed(e.site)) return;
        const LaneSample s = sample_of(e);
        const LineStats c = one_cost(s, p_, run_, e.site.function, e.site.pc).stats;
        WarpCost& w = cost(e.site);
        w.excess += (c.sectors > c.ideal_sectors ? c.sectors - c.ideal_sectors : 0) +
                    (c.wavefronts > c.ideal_wavefronts ? c.wavefronts - c.ideal_wavefronts : 0);
        add_execution(w, e.active_mask);
    }
    void on_branch(const engine::BranchEvent& e) override {
        if (!followed(e.site)) return;
        WarpCost& w = cost(e.site);
        const uint32_t taken = e.taken_mask & e.active_mask;
        w.splits += taken != 0 && taken != e.active_mask;
        add_execution(w, e.active_mask);
    }
    void on_warp_sync(const engine::WarpSyncEvent& e) override {
        if (!followed(e.site)) return;
        add_execution(cost(e.site), e.executing_mask);
    }

    uint64_t blocks_seen = 0;
    // (linear block, warp) and cost, in the order the warps first ran the line.
    std::vector<std::pair<std::pair<uint64_t, uint32_t>, WarpCost>> warps;

  private:
    bool followed(const engine::EventSite& site) const {
        if (!focus_.follows(site.function, site.pc)) return false;
        return (!focus_.block || *focus_.block == site.block.linear) &&
               (!focus_.warp || *focus_.warp == site.warp);
    }
    WarpCost& cost(const engine::EventSite& site) {
        const auto key = std::make_pair(site.block.linear, site.warp);
        auto [it, fresh] = index_.try_emplace(key, warps.size());
        if (fresh) warps.push_back({key, {}});
        return warps[it->second].second;
    }
    static void add_execution(WarpCost& w, uint32_t active) {
        w.idle += 32 - static_cast<uint64_t>(std::popcount(active));
        ++w.executions;
    }

    const session::PreparedLaunch& p_;
    const session::SimRun& run_;
    const WarpFocus& focus_;
    std::map<std::pair<uint64_t, uint32_t>, size_t> index_;
};

std::string warp_cost_text(const WarpCost& c) {
    return fmt::format(
        "{} sector{} or wavefront{} beyond the ideal, {} split branch{}, {} idle lane{} in {} "
        "execution{}",
        c.excess, c.excess == 1 ? "" : "s", c.excess == 1 ? "" : "s", c.splits, c.splits == 1 ? "" : "es",
        c.idle, c.idle == 1 ? "" : "s", c.executions, c.executions == 1 ? "" : "s");
}

// --worst: one run of the launch (up to the request's budget) that ranks the warps; the focus is then
// narrowed to the costliest one.
launch::Outcome<WorstChoice> rank_warps(const session::PreparedLaunch& p, const session::SimRun& run,
                                        WarpFocus& focus, const ExplainRequest& r) {
    using Fail = launch::Outcome<WorstChoice>;
    auto setup = session::setup_launch(p, run.preset, run.registers.registers);
    if (!setup) return Fail::failure(setup.error());
    WarpRanker ranker(p, run, focus);
    engine::LaunchConfig& cfg = setup->cfg;
    cfg.max_instructions = r.max_thread_instructions;
    cfg.progress = r.progress;
    cfg.observer = &ranker;
    const auto result = setup->sim->launch(*p.module, *p.kernel, cfg, setup->params, nullptr);
    WorstChoice w;
    w.blocks_seen = ranker.blocks_seen;
    w.complete = result.ok();
    w.warps = ranker.warps.size();
    if (ranker.warps.empty()) return w;
    size_t best = 0;
    for (size_t i = 1; i < ranker.warps.size(); ++i)
        if (ranker.warps[i].second.rank() > ranker.warps[best].second.rank()) best = i;
    const auto& [key, cost] = ranker.warps[best];
    w.chosen = cost;
    w.first = ranker.warps.front().second;
    w.first_block = ctaid_of(p.spec, ranker.warps.front().first.first);
    w.first_warp = ranker.warps.front().first.second;
    focus.block = key.first;
    focus.warp = key.second;
    const std::string of =
        fmt::format("the costliest of the {} warp{} that ran this line{}", w.warps, w.warps == 1 ? "" : "s",
                    w.complete ? ""
                               : fmt::format(" in the first {} blocks (the run stopped at "
                                             "the instruction budget)",
                                             w.blocks_seen));
    const auto fb = w.first_block;
    if (best == 0) {
        w.why = fmt::format("{}: {}; it is also the first warp that ran it", of, warp_cost_text(cost));
    } else {
        w.why = fmt::format("{}: {}; the first warp (block ({},{},{}) warp {}): {}", of, warp_cost_text(cost),
                            fb[0], fb[1], fb[2], w.first_warp, warp_cost_text(w.first));
    }
    return w;
}

}  // namespace

std::array<uint32_t, 3> lane_thread(const std::array<uint32_t, 3>& block_dim, uint32_t warp, uint32_t lane) {
    const uint64_t t = uint64_t{warp} * 32 + lane;
    const uint64_t bx = std::max(1u, block_dim[0]), by = std::max(1u, block_dim[1]);
    return {static_cast<uint32_t>(t % bx), static_cast<uint32_t>(t / bx % by),
            static_cast<uint32_t>(t / (bx * by))};
}

std::optional<std::string> explain_request_error(const session::PreparedLaunch& p, const ExplainRequest& r) {
    if (r.line.has_value() == r.ptx_line.has_value()) {
        return p.spec.path + ": say which line to explain: --line N (CUDA source) or --ptx-line N";
    }
    if (auto bad = check_warp_choice(p, r)) return bad;
    if (auto site = find_line(p, r); !site) return site.error();
    return std::nullopt;
}

launch::Outcome<Explanation> explain_line(const session::PreparedLaunch& p, const session::SimRun& run,
                                          const ExplainRequest& r) {
    using Fail = launch::Outcome<Explanation>;
    if (auto bad = explain_request_error(p, r)) return Fail::failure(*bad);
    auto site = find_line(p, r);
    if (!site) return Fail::failure(site.error());
    const std::string where = line_name(p, r, site->file);

    bool executed = false;
    for (const auto& [f, pc] : site->memory) {
        const auto* s = run.counters.line(f, pc);
        executed = executed || (s && s->requests > 0);
    }
    for (const auto& list : {site->branches, site->collectives}) {
        for (const auto& [f, pc] : list) {
            const auto* s = run.counters.line(f, pc);
            executed = executed || (s && s->warp_insts > 0);
        }
    }
    if (!executed) {
        std::string why = run.report.error ? fmt::format("the kernel failed before any warp got there ({})",
                                                         run.report.error->message)
                                           : "every thread skipped it (a branch or a bounds check)";
        return Fail::failure(
            fmt::format("{}: {} has instructions to explain, but no warp executed them in this launch: {}; "
                        "{}",
                        p.spec.path, where, why, try_hint(p, r.ptx_line.has_value(), &run)));
    }

    WarpFocus focus;
    focus.pcs = site->followed();
    if (r.block)
        focus.block = uint64_t{(*r.block)[0]} +
                      uint64_t{p.spec.grid[0]} * ((*r.block)[1] + uint64_t{p.spec.grid[1]} * (*r.block)[2]);
    focus.warp = r.warp;
    std::optional<WorstChoice> worst;
    if (r.worst) {
        auto ranked = rank_warps(p, run, focus, r);
        if (!ranked) return Fail::failure(ranked.error());
        worst = std::move(ranked.value());
    }
    check::CheckContext names;
    auto samples = sample_focus(p, run, focus, r, [&](const session::LaunchSetup& setup) {
        check::name_launch_memory(names, p, setup, run.preset);
    });
    if (!samples) return Fail::failure(samples.error());
    const FocusSamples& focused = samples->focus;

    Explanation e;
    e.spec_path = p.spec.path;
    e.kernel = ir::demangled_base_name(p.kernel->name);
    e.is_ptx_line = r.ptx_line.has_value();
    e.line = e.is_ptx_line ? *r.ptx_line : *r.line;
    if (!e.is_ptx_line) {
        e.source_file = fs::path(std::string(p.module->file_path(site->file))).filename().string();
        e.source_text = read_source_line(p, site->file, e.line);
    }
    e.block_dim = p.spec.block;
    e.warp_requested = r.block || r.warp;
    e.warp_fully_named = r.block && r.warp;
    e.worst = worst;
    if (!focused.warp) return Fail::failure(no_warp_error(p, *samples, where, e.warp_requested));
    e.block = ctaid_of(p.spec, focused.warp->first);
    e.warp = focused.warp->second;
    e.sample_whole = focused.settled;
    for (const auto& [f, pc] : site->memory) add_accesses(e, p, run, focused, f, pc);
    for (auto& x : e.accesses)
        if (x.sampled) name_lanes(x, names);
    e.groups = group_accesses(e.accesses);
    std::map<uint32_t, ir::Cfg> cfgs;
    for (const auto& [f, pc] : site->branches) {
        auto it = cfgs.find(f);
        if (it == cfgs.end()) it = cfgs.emplace(f, ir::build_cfg(p.module->functions[f])).first;
        e.branches.push_back(branch_at(p, run, focused, it->second, f, pc, e.is_ptx_line));
    }
    for (const auto& [f, pc] : site->collectives)
        e.collectives.push_back(collective_at(p, run, focused, f, pc));
    return e;
}

}  // namespace warpsim::report
