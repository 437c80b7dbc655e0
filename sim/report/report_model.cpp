// sim/report/report_model.cpp — per source line rows, access rows and their explanations (see
// report_model.hpp).
#include "sim/report/report_model.hpp"

#include "sim/report/access_pattern.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <tuple>

#include <fmt/format.h>

#include "kernels_ir/source_chain.hpp"
#include "launch/input_file.hpp"
#include "sim/timing/timing.hpp"

namespace warpsim::report {
namespace {

namespace fs = std::filesystem;

double ratio(uint64_t a, uint64_t b) {
    return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
}

std::vector<std::string> read_lines(const fs::path& path) {
    std::vector<std::string> lines;
    // A .file may name anything (/dev/zero, a FIFO): only a regular file is shown.
    if (!launch::is_regular_input(path.string())) return lines;
    std::ifstream in(path);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

// The CUDA file as recorded by .file, or a file of the same name beside the PTX or the spec.
std::pair<std::string, std::vector<std::string>> source_text(const session::PreparedLaunch& p,
                                                             uint32_t file) {
    std::string recorded(p.module->file_path(file));
    if (recorded.empty()) return {};
    fs::path name = fs::path(recorded).filename();
    for (const fs::path& candidate : {fs::path(recorded), fs::path(p.ptx_name).parent_path() / name,
                                      fs::path(p.spec.path).parent_path() / name}) {
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec)) return {name.string(), read_lines(candidate)};
    }
    return {name.string(), {}};
}

std::string trimmed(const std::string& s) {
    auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

// The space the counters saw: sectors are counted for global and local accesses, wavefronts for shared.
AccessSpace space_of(const ir::Instruction& inst, const LineStats& s) {
    if (s.wavefronts > 0 && s.sectors == 0) return AccessSpace::shared;
    return inst.d.space == ir::Space::local ? AccessSpace::local : AccessSpace::global;
}

engine::MemorySpace engine_space(AccessSpace s) {
    switch (s) {
        case AccessSpace::global:
            return engine::MemorySpace::global;
        case AccessSpace::local:
            return engine::MemorySpace::local;
        case AccessSpace::shared:
            return engine::MemorySpace::shared;
    }
    return engine::MemorySpace::global;
}

// Two instructions of a line share an access row when everything a reader compares is the same.
bool same_cost(const LineStats& a, const LineStats& b) {
    return a.sectors * b.requests == b.sectors * a.requests &&
           a.ideal_sectors * b.requests == b.ideal_sectors * a.requests &&
           a.wavefronts * b.requests == b.wavefronts * a.requests &&
           a.ideal_wavefronts * b.requests == b.ideal_wavefronts * a.requests && a.max_way == b.max_way;
}

uint64_t excess_of(AccessSpace space, const LineStats& s) {
    AccessRow a;
    a.space = space;
    a.s = s;
    return a.excess();
}

void add_access(SourceRow& row, uint32_t function, uint32_t pc, const ir::Instruction& inst,
                const LineStats& s, const LaneSamples* samples, const std::string& inlined) {
    const AccessSpace space = space_of(inst, s);
    const AccessKind kind = access_kind(inst);
    const LaneSample* sample = samples ? samples->find(function, pc, engine_space(space)) : nullptr;
    for (auto& a : row.accesses) {
        // Accesses of one kind share a row when they cost the same, or when none of them costs more than its
        // ideal (a loop unrolled by the compiler: four loads of one array with slightly different tails).
        const bool both_ideal = a.excess() == 0 && excess_of(space, s) == 0;
        if (a.space != space || a.kind != kind || a.function != function || a.inlined != inlined ||
            !(same_cost(a.s, s) || both_ideal))
            continue;
        a.pcs.push_back(pc);
        a.s.add(s);
        if (!a.sample) a.sample = sample;
        return;
    }
    AccessRow a;
    a.space = space;
    a.kind = kind;
    a.function = function;
    a.pcs.push_back(pc);
    a.s = s;
    a.sample = sample;
    a.inlined = inlined;
    row.accesses.push_back(a);
}

std::string_view verb(AccessKind k) {
    switch (k) {
        case AccessKind::load:
            return "read";
        case AccessKind::store:
            return "write";
        case AccessKind::atomic:
        case AccessKind::reduction:
            return "update";
        case AccessKind::other:
            return "access";
    }
    return "access";
}

int first_lane(uint32_t mask) {
    for (int l = 0; l < 32; ++l)
        if (mask >> l & 1u) return l;
    return 0;
}

std::string explain_global(const AccessRow& a) {
    const double per = a.per_request(), ideal = a.ideal_per_request(), used = 100.0 * a.efficiency();
    std::string tail = fmt::format(  // not const: the last return moves it
        "{:.2f} sectors per request where {:.2f} would do; {:.1f} % of the bytes "
        "moved are used",
        per, ideal, used);
    const auto v = verb(a.kind);
    if (a.sample) {
        if (auto stride = lane_stride(*a.sample); stride && *stride != 0) {
            const uint64_t step = static_cast<uint64_t>(std::llabs(*stride));
            const uint32_t width = a.sample->bytes_per_lane;
            if (step == width) {
                const uint64_t offset = a.sample->addr[first_lane(a.sample->active_mask)] % 32;
                if (offset != 0) {
                    return fmt::format(
                        "the lanes {} consecutive {}-byte elements, but the first starts {} bytes into "
                        "a 32-byte sector, so the warp straddles one sector more than it needs: {}",
                        v, width, offset, tail);
                }
                return fmt::format(
                    "the lanes {} consecutive {}-byte elements, but not every warp starts on a 32-byte "
                    "boundary, and those that do not straddle one sector more than they need: {}",
                    v, width, tail);
            }
            if (step >= 32) {
                return fmt::format(
                    "lanes {} addresses {} bytes apart: each lane needs its own 32-byte sector; {:.1f} % "
                    "of the bytes moved are used",
                    v, step, used);
            }
            if (step > width) {
                return fmt::format(
                    "lanes {} addresses {} bytes apart: one 32-byte sector holds the data of only {} "
                    "lanes; {}",
                    v, step, 32 / step, tail);
            }
        }
        return fmt::format("lanes {} scattered addresses: {}", v, tail);
    }
    if (per >= 31.5 && ideal <= 4.01) {
        return fmt::format(
            "lanes {} addresses at least 32 bytes apart: each lane needs its own 32-byte sector; "
            "{:.1f} % of the bytes moved are used",
            v, used);
    }
    return tail;
}

std::string explain_shared(const AccessRow& a) {
    const std::string tail = fmt::format("{:.2f} wavefronts per request where {:.2f} would do",
                                         a.per_request(), a.ideal_per_request());
    const uint32_t way = a.s.max_way;
    std::string head =
        way > 1 ? fmt::format("{}-way bank conflict: ", way) : std::string("extra wavefronts: ");
    if (a.sample && a.sample->bytes_per_lane == 4) {
        if (auto stride = lane_stride(*a.sample); stride && *stride > 0 && *stride % 4 == 0) {
            const uint64_t words = static_cast<uint64_t>(*stride) / 4;
            const uint64_t g = std::gcd<uint64_t, uint64_t>(words, 32);
            if (g == 32) {
                return head + fmt::format(
                                  "lanes access words {} apart ({} bytes), a multiple of 32, so every lane "
                                  "lands in bank {} and its different words are served one after another; {}",
                                  words, *stride, lane_bank(*a.sample, first_lane(a.sample->active_mask)),
                                  tail);
            }
            if (g > 1) {
                return head +
                       fmt::format(
                           "lanes access words {} apart ({} bytes), so only {} banks are used, {} lanes "
                           "in each, served one after another; {}",
                           words, *stride, 32 / g, g, tail);
            }
        }
    }
    if (way > 1) {
        return head +
               fmt::format("up to {} lanes ask one bank for different words, served one after another; {}",
                           way, tail);
    }
    return head + tail;
}

// The inlined frames of a chain (all but the row's own line) for a report row: in full up to two levels,
// else the innermost and the outermost with the count between ("helpers.h:545 in laneid, inlined through 4
// more levels from cooperative_groups.h:1409 in thread_block_tile"); explain and --json keep the whole chain.
std::string inlined_text(const ir::Module& m, const std::vector<ir::SourceFrame>& chain) {
    if (chain.size() < 2) return "";
    const size_t inlined = chain.size() - 1;
    if (inlined <= 2) return ir::chain_text(m, chain, ir::PathStyle::relative, 0, inlined);
    return fmt::format("{}, inlined through {} more level{} from {}",
                       ir::chain_text(m, chain, ir::PathStyle::relative, 0, 1), inlined - 2,
                       inlined == 3 ? "" : "s",
                       ir::chain_text(m, chain, ir::PathStyle::relative, inlined - 1, inlined));
}

std::string explain_lanes(const SourceRow& r, double capacity) {
    const double lanes = r.lanes();
    if (r.total.warp_insts == 0 || lanes >= capacity - 0.5) return "";
    if (capacity >= 31.5) {
        return fmt::format(
            "on average {:.1f} of 32 lanes active: the warp's lanes took different paths (a branch or "
            "a bounds check), and the others wait idle while these run",
            lanes);
    }
    return fmt::format(
        "on average {:.1f} lanes active of the {:.1f} each warp of this launch has: the lanes took "
        "different paths (a branch or a bounds check), and the others wait idle",
        lanes, capacity);
}

void fill_costs(const session::PreparedLaunch& p, const session::SimRun& run,
                const launch::PredictedTiming* given, LaunchCosts& c) {
    c.sm_count = static_cast<uint32_t>(std::max(0, run.preset.sm_count));
    c.blocks = p.spec.block_count();
    if (run.occupancy) c.blocks_per_sm = run.occupancy->blocks_per_sm;
    const timing::ModelParams params = timing::params_for(run.preset);
    c.l2_bytes_per_cycle = params.l2_bytes_per_cycle;
    c.shared_wavefronts_per_cycle = params.shared_wavefronts_per_cycle;
    c.l1_sectors_per_cycle = params.l1_sectors_per_cycle;
    c.issue_slots_per_cycle = params.schedulers * params.issue_efficiency;
    const auto counted = run.counters.derived_stats();
    c.global_ld_sectors = counted[static_cast<std::size_t>(counts::Stat::global_ld_sectors)];
    c.l1_global_ld_hits = counted[static_cast<std::size_t>(counts::Stat::l1_global_ld_hits)];
    c.warp_insts = counted[static_cast<std::size_t>(counts::Stat::warp_insts)];
    for (const auto& arg : p.spec.args)
        if (arg.kind == launch::ArgSpec::Kind::buffer) c.buffer_bytes += arg.buffer_bytes();
    // The caller's prediction, or the one the CLI stored with the run, else the model's own (tests and
    // library callers).
    if (const launch::PredictedTiming* known = given                  ? given
                                               : run.report.predicted ? &*run.report.predicted
                                                                      : nullptr) {
        c.kernel_cycles = known->cycles;
        c.bound = known->bound;
    } else if (run.started && !run.report.error && !run.sampling) {
        const auto predicted = timing::predict(p, run);
        c.kernel_cycles = predicted.cycles;
        c.bound = predicted.bound;
    }
}

}  // namespace

AccessKind access_kind(const ir::Instruction& inst) {
    switch (inst.op) {
        case ir::Opcode::ld:
        case ir::Opcode::ldu:
            return AccessKind::load;
        case ir::Opcode::st:
            return AccessKind::store;
        case ir::Opcode::atom:
            return AccessKind::atomic;
        case ir::Opcode::red:
            return AccessKind::reduction;
        default:
            return AccessKind::other;
    }
}

std::string_view space_word(AccessSpace s) {
    switch (s) {
        case AccessSpace::global:
            return "global";
        case AccessSpace::local:
            return "local";
        case AccessSpace::shared:
            return "shared";
    }
    return "global";
}

std::string_view kind_word(AccessKind k) {
    switch (k) {
        case AccessKind::load:
            return "load";
        case AccessKind::store:
            return "store";
        case AccessKind::atomic:
            return "atomic";
        case AccessKind::reduction:
            return "reduction";
        case AccessKind::other:
            return "access";
    }
    return "access";
}

double AccessRow::per_request() const {
    return ratio(space == AccessSpace::shared ? s.wavefronts : s.sectors, s.requests);
}

double AccessRow::ideal_per_request() const {
    return ratio(space == AccessSpace::shared ? s.ideal_wavefronts : s.ideal_sectors, s.requests);
}

uint64_t AccessRow::excess() const {
    const uint64_t have = space == AccessSpace::shared ? s.wavefronts : s.sectors;
    const uint64_t ideal = space == AccessSpace::shared ? s.ideal_wavefronts : s.ideal_sectors;
    return have > ideal ? have - ideal : 0;
}

double AccessRow::efficiency() const {
    return s.sectors ? ratio(s.ideal_sectors, s.sectors) : 1.0;
}

std::string AccessRow::label() const {
    std::string l = fmt::format("{} {}", space_word(space), kind_word(kind));
    if (pcs.size() > 1) l += fmt::format(" x{}", pcs.size());
    return l;
}

double SourceRow::lanes() const {
    return ratio(total.thread_insts, total.warp_insts);
}

std::string SourceRow::where() const {
    if (compiler_generated) return "no line";
    return file ? fmt::format("line {}", line) : fmt::format("PTX line {}", line);
}

uint32_t LaunchCosts::busy_sms() const {
    return static_cast<uint32_t>(std::min<uint64_t>(blocks, sm_count));
}

namespace {

std::string bytes_text(double b) {
    if (b >= 1e9) return fmt::format("{:.1f} GB", b / 1e9);
    if (b >= 1e6) return fmt::format("{:.1f} MB", b / 1e6);
    if (b >= 1e3) return fmt::format("{:.1f} KB", b / 1e3);
    return fmt::format("{:.0f} bytes", b);
}

// Cycles an access row's excess costs: sectors through the device's L2 bandwidth, wavefronts through the
// shared-memory pipes of the SMs that run blocks.
double access_cost(const AccessRow& a, const LaunchCosts& c) {
    const double excess = static_cast<double>(a.excess());
    if (a.space == AccessSpace::shared)
        return excess / (c.shared_wavefronts_per_cycle * std::max<uint32_t>(1, c.busy_sms()));
    return c.l2_bytes_per_cycle > 0 ? excess * 32.0 / c.l2_bytes_per_cycle : excess;
}

// Issue slots the idle lanes of a line cost: with every lane at work the same thread instructions would
// take lanes / capacity of the warp instructions. The intended single-lane instructions are left out.
double lanes_cost(const SourceRow& row, double capacity, const LaunchCosts& c) {
    const double idle = static_cast<double>(row.total.warp_insts) * capacity -
                        static_cast<double>(row.total.thread_insts) -
                        static_cast<double>(row.intended_idle_slots);
    if (idle <= 0) return 0;
    return idle / capacity / (c.issue_slots_per_cycle * std::max<uint32_t>(1, c.busy_sms()));
}

std::string lanes_what(const SourceRow& row, double capacity) {
    const double cap = std::min(32.0, capacity);
    return fmt::format("{:.2f} of {} lanes active on average: a branch or a bounds check idles the rest",
                       row.lanes(),
                       cap == std::floor(cap) ? fmt::format("{:.0f}", cap) : fmt::format("{:.2f}", cap));
}

// The grid's shape: SMs without a block, a tail wave. Costs from the predicted cycles, so only with a
// prediction, and not when the launch overhead is what the time is made of.
void shape_items(const LaunchCosts& c, std::vector<LookAt>& items) {
    if (c.kernel_cycles <= 0 || c.bound == "launch" || c.sm_count == 0 || c.blocks == 0) return;
    const double cycles = c.kernel_cycles;
    if (c.blocks < c.sm_count) {
        const uint64_t idle = c.sm_count - c.blocks;
        items.push_back(
            {"launch",
             fmt::format(
                 "{} of {} SMs get no block: the grid has {} block{}, one SM each at most; a grid of at "
                 "least {} blocks (smaller blocks, or less work per block) puts every SM to work",
                 idle, c.sm_count, c.blocks, c.blocks == 1 ? "" : "s", c.sm_count),
             cycles * static_cast<double>(idle) / static_cast<double>(c.sm_count)});
        return;
    }
    if (c.blocks_per_sm <= 0) return;
    const uint64_t per_wave = static_cast<uint64_t>(c.blocks_per_sm) * c.sm_count;
    const uint64_t waves = (c.blocks + per_wave - 1) / per_wave;
    const uint64_t last = c.blocks - (waves - 1) * per_wave;
    const double fill = static_cast<double>(last) / static_cast<double>(per_wave);
    if (waves < 2 || fill >= 0.5) return;
    // Spread evenly, the blocks would take blocks / per_wave waves' time instead of `waves`.
    const double even = static_cast<double>(c.blocks) / static_cast<double>(per_wave);
    items.push_back(
        {"launch",
         fmt::format("tail wave: {} blocks where {} fit on the GPU at once ({} per SM on {} SMs) run in {} "
                     "waves, the last {:.1f} % full; a grid of a multiple of {} blocks, or fewer and larger "
                     "blocks, leaves no wave mostly empty",
                     c.blocks, per_wave, c.blocks_per_sm, c.sm_count, waves, 100.0 * fill, per_wave),
         cycles * (1.0 - even / static_cast<double>(waves))});
}

// Global loads that read the launch's data many times over, mostly from L1: what a shared-memory tile
// reads once. Listed at the line with the most load sectors.
void reuse_item(const ReportModel& m, std::vector<LookAt>& items) {
    const LaunchCosts& c = m.costs;
    if (c.buffer_bytes == 0 || c.global_ld_sectors == 0) return;
    const double moved = 32.0 * static_cast<double>(c.global_ld_sectors);
    const double times = moved / static_cast<double>(c.buffer_bytes);
    const double hit = ratio(c.l1_global_ld_hits, c.global_ld_sectors);
    if (times < 4 || hit < 0.5) return;
    const SourceRow* where = nullptr;
    uint64_t most = 0;
    for (const auto& row : m.rows)
        for (const auto& a : row.accesses)
            if (a.space == AccessSpace::global && a.kind == AccessKind::load && a.s.sectors > most) {
                most = a.s.sectors;
                where = &row;
            }
    if (!where) return;
    items.push_back(
        {where->where(),
         fmt::format(
             "global loads read {:.1f}x the bytes of the launch's buffers ({} for {}), and {:.1f} % of "
             "their sectors hit in L1: warps read the same data again and again; a tile staged once "
             "in shared memory (a tiled kernel) serves those reads without the requests",
             times, bytes_text(moved), bytes_text(static_cast<double>(c.buffer_bytes)), 100.0 * hit),
         static_cast<double>(c.l1_global_ld_hits) /
             (c.l1_sectors_per_cycle * std::max<uint32_t>(1, c.busy_sms()))});
}

}  // namespace

std::string look_at_share(const LookAt& item) {
    if (item.share < 0.01) return "";
    return fmt::format(" (about {:.0f} % of the predicted kernel time)", 100.0 * std::min(1.0, item.share));
}

std::vector<LookAt> look_at(const ReportModel& m) {
    const LaunchCosts& c = m.costs;
    std::vector<LookAt> items, lanes;
    for (const auto& row : m.rows) {
        for (const auto& a : row.accesses) {
            if (a.excess() == 0) continue;
            items.push_back(
                {row.where(), fmt::format("{}: {}", a.label(), cost_summary(a)), access_cost(a, c)});
        }
        if (!row.lanes_note.empty())
            lanes.push_back(
                {row.where(), lanes_what(row, m.lane_capacity), lanes_cost(row, m.lane_capacity, c)});
    }
    shape_items(c, items);
    reuse_item(m, items);
    auto costlier = [](const LookAt& a, const LookAt& b) { return a.cost_cycles > b.cost_cycles; };
    std::stable_sort(items.begin(), items.end(), costlier);
    // The scale of "worth a look": the kernel's predicted cycles, else the costliest access.
    const double scale = c.kernel_cycles > 0 ? c.kernel_cycles
                         : items.empty()     ? 0.0
                                             : items.front().cost_cycles;
    // Idle lanes only from 1 % of the scale on: a bounds check in a last warp, or a few instructions that
    // ptxas left with one lane, are not worth a look.
    for (auto& l : lanes)
        if (l.cost_cycles > 0 && l.cost_cycles >= 0.01 * scale) items.push_back(std::move(l));
    if (items.empty()) return items;
    std::stable_sort(items.begin(), items.end(), costlier);
    for (auto& it : items) it.share = c.kernel_cycles > 0 ? it.cost_cycles / c.kernel_cycles : 0.0;
    // The other findings under 1 % of the scale are left out when a costlier one is listed (the table still
    // shows them); a launch too small for any cost to show keeps its costly accesses, in order.
    if (items.front().cost_cycles >= 0.01 * scale) {
        items.erase(std::remove_if(items.begin(), items.end(),
                                   [&](const LookAt& it) { return it.cost_cycles < 0.01 * scale; }),
                    items.end());
    }
    if (items.size() > kMaxLookAt) items.resize(kMaxLookAt);
    return items;
}

std::string inlined_note(const SourceRow& r) {
    std::vector<std::string> others;
    for (const auto& chain : r.inlined) {
        const bool named = std::any_of(r.accesses.begin(), r.accesses.end(),
                                       [&](const AccessRow& a) { return a.inlined == chain; });
        if (!named) others.push_back(chain);
    }
    if (others.empty()) return "";
    constexpr size_t kShown = 3;
    std::string out = "inlined here: ";
    for (size_t i = 0; i < std::min(kShown, others.size()); ++i) out += (i ? "; " : "") + others[i];
    if (others.size() > kShown) out += fmt::format("; and {} more", others.size() - kShown);
    return out;
}

std::string explain_access(const AccessRow& a) {
    if (a.s.requests == 0 || a.excess() == 0) return "";
    // Lanes that share addresses (atomic contention, broadcasts, duplicates): the one wording for those.
    if (a.sample)
        if (auto s = sharing_sentence(a.space, a.kind, *a.sample, {a.per_request(), a.ideal_per_request()}))
            return *s;
    return a.space == AccessSpace::shared ? explain_shared(a) : explain_global(a);
}

ReportModel build_model(const session::PreparedLaunch& p, const session::SimRun& run,
                        const LaneSamples* samples, const launch::PredictedTiming* predicted) {
    ReportModel m;
    const uint64_t threads = p.spec.threads_per_block();
    const uint64_t warps = (threads + 31) / 32;
    m.lane_capacity = warps ? static_cast<double>(threads) / static_cast<double>(warps) : 32.0;
    const uint64_t launch_warps = warps * p.spec.block_count();

    // Key: (file, line with compiler-generated last, PTX line for PTX without .loc). Inlined code counts at
    // the call site in the function's own body, the last frame of its chain.
    std::map<std::tuple<uint32_t, uint32_t>, SourceRow> rows;
    for (const auto& [key, s] : run.counters.counted_per_pc()) {
        const auto& fn = p.module->functions.at(key.first);
        if (key.second >= fn.body.size()) continue;
        const auto& inst = fn.body[key.second];
        const ir::SourcePosition at = ir::call_site(*p.module, inst.loc);
        const bool has_loc = at.file != 0;
        const bool generated = has_loc && at.line == 0;
        const uint32_t line = !has_loc ? inst.loc.ptx_line : generated ? UINT32_MAX : at.line;
        auto& row = rows[{at.file, line}];
        row.file = at.file;
        row.line = generated ? 0 : line;
        row.compiler_generated = generated;
        row.total.add(s);
        const auto capacity_slots =
            static_cast<uint64_t>(m.lane_capacity * static_cast<double>(s.warp_insts) + 0.5);
        if (s.warp_insts > 0 && s.thread_insts <= s.warp_insts && s.warp_insts <= launch_warps &&
            capacity_slots > s.thread_insts)
            row.intended_idle_slots += capacity_slots - s.thread_insts;
        std::string inlined;
        if (inst.loc.inlined_at != 0) {
            inlined = inlined_text(*p.module, ir::source_chain(*p.module, inst.loc));
            if (std::find(row.inlined.begin(), row.inlined.end(), inlined) == row.inlined.end())
                row.inlined.push_back(inlined);
        }
        if (s.requests > 0) add_access(row, key.first, key.second, inst, s, samples, inlined);
        if (inst.op == ir::Opcode::bra && inst.pred.reg != ir::kNoReg) row.branches.emplace_back(key);
    }
    std::map<uint32_t, std::vector<std::string>> sources;
    for (auto& [key, row] : rows) {
        if (row.file && !row.compiler_generated) {
            if (!sources.count(row.file)) {
                auto [name, lines] = source_text(p, row.file);
                if (m.source_file.empty() && !lines.empty()) {
                    m.source_file = name;
                    m.source_file_id = row.file;
                    m.source_lines = lines;
                }
                sources[row.file] = std::move(lines);
            }
            const auto& src = sources[row.file];
            if (row.line >= 1 && row.line <= src.size()) row.text = trimmed(src[row.line - 1]);
        }
        for (auto& a : row.accesses) a.note = explain_access(a);
        row.lanes_note = explain_lanes(row, m.lane_capacity);
        m.rows.push_back(std::move(row));
    }

    fill_costs(p, run, predicted, m.costs);

    uint64_t worst_g = 0, worst_s = 0;
    double worst_idle = 0;
    for (size_t r = 0; r < m.rows.size(); ++r) {
        const auto& row = m.rows[r];
        for (size_t i = 0; i < row.accesses.size(); ++i) {
            const auto& a = row.accesses[i];
            uint64_t& worst = a.space == AccessSpace::shared ? worst_s : worst_g;
            auto& slot = a.space == AccessSpace::shared ? m.worst_shared : m.worst_global;
            if (a.excess() > worst) {
                worst = a.excess();
                slot = WorstAccess{r, i};
            }
        }
        if (!row.lanes_note.empty()) {
            const double idle = (m.lane_capacity - row.lanes()) * static_cast<double>(row.total.warp_insts);
            if (idle > worst_idle) {
                worst_idle = idle;
                m.worst_lanes = r;
            }
        }
    }
    return m;
}

}  // namespace warpsim::report
