// sim/report/explain_format.cpp — `warpsim explain` as text for a terminal and as JSON (see explain.hpp).
#include "sim/report/explain.hpp"

#include <bit>

#include <fmt/format.h>

#include "sim/report/access_pattern.hpp"
#include "sim/report/text_report.hpp"

namespace warpsim::report {
namespace {

constexpr size_t kWidth = 110;
const std::string kIndent(14, ' ');

std::string triple(const std::array<uint32_t, 3>& v) {
    return fmt::format("({},{},{})", v[0], v[1], v[2]);
}

std::string plural(uint64_t n, const char* word) {
    return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

double per(uint64_t a, uint64_t b) {
    return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
}

std::string header(const Explanation& e) {
    std::string what = e.is_ptx_line ? fmt::format("PTX line {}", e.line)
                                     : fmt::format("line {} of {}", e.line, e.source_file);
    if (!e.source_text.empty()) what += ": " + e.source_text;
    std::string out = wrap(what, "explain   ", std::string(10, ' '), kWidth);
    out += fmt::format("kernel    {}  ({})\n", e.kernel, e.spec_path);
    if (!e.block) return out;
    const uint32_t threads = e.block_dim[0] * e.block_dim[1] * e.block_dim[2];
    const uint32_t last_lane = std::min(31u, threads - 1 - 32 * e.warp);
    std::string warp = fmt::format("block {} warp {}, threads {} to {}", triple(*e.block), e.warp,
                                   triple(lane_thread(e.block_dim, e.warp, 0)),
                                   triple(lane_thread(e.block_dim, e.warp, last_lane)));
    warp += e.worst              ? ": picked by --worst, " + e.worst->why
            : e.warp_fully_named ? ": the warp asked for"
            : e.warp_requested
                ? ": the first warp matching --block / --warp that executed this line"
                : ": the first warp that executed this line (pick another with --block X,Y,Z --warp W)";
    return out + wrap(warp, "warp      ", std::string(10, ' '), kWidth);
}

// Lanes of the shown warp on one word when the access is an atomic that costs more than its ideal, else 0.
uint32_t contended_lanes(const ExplainedAccess& x) {
    const bool atomic = x.kind == AccessKind::atomic || x.kind == AccessKind::reduction;
    const auto& c = x.warp_cost;
    const bool excess =
        x.space == AccessSpace::shared ? c.wavefronts > c.ideal_wavefronts : c.sectors > c.ideal_sectors;
    if (!atomic || !excess) return 0;
    const uint32_t n = address_sharing(x.sample.first).most_on_one;
    return n > 1 ? n : 0;
}

std::string warp_line(const ExplainedAccess& x) {
    const LaneSample& s = x.sample.first;
    const auto lanes = std::popcount(s.active_mask);
    const std::string shape = fmt::format("{} of 32 lanes active, {} bytes each", lanes, s.bytes_per_lane);
    const auto& c = x.warp_cost;
    if (x.space == AccessSpace::shared) {
        if (c.requests == 0) return fmt::format("no shared-memory request counted; {}", shape);
        // Wide lanes fill a pass with more than 32 words: two words per bank is then the ideal, not a
        // conflict.
        const bool conflict = c.wavefronts > c.ideal_wavefronts && c.max_way > 1;
        const uint32_t contended = contended_lanes(x);
        return fmt::format("1 request: {} where {} would do{}; {}", plural(c.wavefronts, "wavefront"),
                           c.ideal_wavefronts,
                           contended  ? fmt::format(" (atomic contention: {} updates of one word)", contended)
                           : conflict ? fmt::format(" ({}-way bank conflict)", c.max_way)
                                      : "",
                           shape);
    }
    return fmt::format("1 request: {} where {} would do; {}", plural(c.sectors, "sector"), c.ideal_sectors,
                       shape);
}

std::string run_line(AccessSpace space, AccessKind kind, const LineStats& r) {
    if (!r.requests) return "no requests";
    if (space == AccessSpace::shared) {
        const bool atomic = kind == AccessKind::atomic || kind == AccessKind::reduction;
        return fmt::format(
            "{}: {:.2f} wavefronts per request where {:.2f} would do{}", plural(r.requests, "request"),
            per(r.wavefronts, r.requests), per(r.ideal_wavefronts, r.requests),
            r.wavefronts > r.ideal_wavefronts && r.max_way > 1
                ? (atomic ? fmt::format(", up to {} updates in one bank, one after another", r.max_way)
                          : fmt::format(", up to {}-way bank conflicts", r.max_way))
                : "");
    }
    return fmt::format("{}: {:.2f} sectors per request where {:.2f} would do ({:.1f} % of the bytes used)",
                       plural(r.requests, "request"), per(r.sectors, r.requests),
                       per(r.ideal_sectors, r.requests),
                       100.0 * (r.sectors ? per(r.ideal_sectors, r.sectors) : 1.0));
}

// "+0 +1 +2 +3", or for many sectors one step apart "+0 +128 +256 ... +3968: 32 sectors, 128 apart".
std::string sector_list(const std::vector<uint64_t>& sectors) {
    const uint64_t base = sectors.front();
    bool even = sectors.size() > 8;
    for (size_t i = 2; even && i < sectors.size(); ++i)
        even = sectors[i] - sectors[i - 1] == sectors[1] - sectors[0];
    std::string list;
    for (size_t i = 0; i < sectors.size(); ++i) {
        if (even && i == 3) {
            list += " ...";
            i = sectors.size() - 1;
        }
        list += fmt::format("{}+{}", list.empty() ? "" : " ", sectors[i] - base);
    }
    if (even) list += fmt::format(": {} sectors, {} apart", sectors.size(), sectors[1] - sectors[0]);
    return list;
}

std::string passes_line(const ExplainedAccess& x) {
    std::string out;
    for (const auto& p : x.passes) {
        if (!out.empty()) out += "; ";
        out += fmt::format("lanes {}-{}: {}", p.first_lane, p.last_lane, plural(p.wavefronts, "wavefront"));
        if (p.wavefronts > p.ideal) {
            // Atomics do not share a word between lanes: the bank serves each lane's update in turn.
            const bool updates = x.kind == AccessKind::atomic || x.kind == AccessKind::reduction;
            out += updates ? fmt::format(" where {} would do (bank {} serves {} updates, one after another)",
                                         p.ideal, p.worst_bank, p.max_way)
                           : fmt::format(" where {} would do (bank {} is asked for {} different words)",
                                         p.ideal, p.worst_bank, p.max_way);
        }
    }
    return out;
}

// A lane's element without the buffer's argument number ("A[1000]" for "args[0] A[1000]") or the unit of a
// byte array read in wider elements: the arrays line above the table says both.
std::string short_element(const ExplainedAccess& x, uint32_t lane) {
    std::string name = x.lane_names[lane];
    if (name.starts_with("args[")) {
        if (const auto space = name.find(' '); space != std::string::npos) name = name.substr(space + 1);
    }
    if (const auto unit = name.find(" (in "); unit != std::string::npos && name.ends_with("-byte elements)"))
        name.resize(unit);
    return name;
}

// One lane's cells: thread, address or offset, the sector or word and bank, and the element.
std::string lane_cells(const ExplainedAccess& x, const std::array<uint32_t, 3>& block_dim, uint32_t lane) {
    const LaneSample& s = x.sample.first;
    const std::string thread = triple(lane_thread(block_dim, s.warp, lane));
    if (!(s.active_mask >> lane & 1u)) return fmt::format("{:>4} {:<12} {:<22}", lane, thread, "(inactive)");
    const uint64_t a = s.addr[lane];
    const std::string element = short_element(x, lane);
    if (x.space == AccessSpace::shared) {
        // A lane of 8 or 16 bytes reads 2 or 4 consecutive words: the banks from its first word's on.
        const uint32_t words = std::max(1u, s.bytes_per_lane / 4);
        const uint32_t bank = lane_bank(s, lane);
        const std::string banks =
            words == 1 ? std::to_string(bank) : fmt::format("{}-{}", bank, (bank + words - 1) % 32);
        return fmt::format("{:>4} {:<12} {:>6} {:>6} {:>5} {:<12}", lane, thread, a, a / 4, banks, element);
    }
    const uint64_t base = x.sectors.empty() ? a / 32 : x.sectors.front();
    return fmt::format("{:>4} {:<12} {:>14} {:>6} {:<12}", lane, thread, fmt::format("{:#x}", a),
                       fmt::format("+{}", a / 32 - base), element);
}

std::string lane_table(const ExplainedAccess& x, const std::array<uint32_t, 3>& block_dim) {
    const std::string head = x.space == AccessSpace::shared
                                 ? fmt::format("{:>4} {:<12} {:>6} {:>6} {:>5} {:<12}", "lane", "thread",
                                               "offset", "word", "bank", "element")
                                 : fmt::format("{:>4} {:<12} {:>14} {:>6} {:<12}", "lane", "thread",
                                               "address", "sector", "element");
    std::string out = "  " + head + " | " + head;
    out.erase(out.find_last_not_of(' ') + 1);
    out += "\n";
    for (uint32_t l = 0; l < 16; ++l) {
        std::string row = "  " + lane_cells(x, block_dim, l) + " | " + lane_cells(x, block_dim, l + 16);
        row.erase(row.find_last_not_of(' ') + 1);
        out += row + "\n";
    }
    return out;
}

// "args[0] A: A[0] to A[31]", "As, Bs", "no buffer or variable the launch knows".
std::string arrays_text(const ExplainedAccess& x) {
    if (x.space == AccessSpace::local) return "the thread's own local memory (its stack)";
    std::string out;
    for (const auto& a : x.arrays) out += (out.empty() ? "" : ", ") + a;
    if (out.empty()) return "outside every buffer and variable of the launch";
    return x.span.empty() ? out : out + ": " + x.span;
}

std::string access_text(const Explanation& e, const ExplainedAccess& x) {
    std::string out = wrap(fmt::format("PTX line {}: {}", x.ptx_line, x.instruction),
                           fmt::format("{:<14}", x.what), kIndent, kWidth);
    if (!x.inlined.empty()) out += wrap(x.inlined, "  source      ", kIndent, kWidth);
    if (!x.sampled) return out + wrap(x.why, "  why         ", kIndent, kWidth);
    const LaneSample& s = x.sample.first;
    if (!x.from_chosen_warp) {
        out +=
            wrap(fmt::format(
                     "this warp never executed it; shown instead: block {} warp {}, the first warp that did",
                     triple(x.block), s.warp),
                 "  note        ", kIndent, kWidth);
    } else if (x.sample.executions > 1) {
        out += wrap(fmt::format("this warp executed it {} times{}; the first is shown", x.sample.executions,
                                e.sample_whole ? "" : " (or more: the sample stopped first)"),
                    "  note        ", kIndent, kWidth);
    }
    out += wrap(arrays_text(x), "  arrays      ", kIndent, kWidth);
    out += wrap(warp_line(x), "  this warp   ", kIndent, kWidth);
    if (!x.passes.empty()) out += wrap(passes_line(x), "  passes      ", kIndent, kWidth);
    if (!x.sectors.empty()) {
        out += wrap(fmt::format("{} (numbered from the warp's lowest, which starts at {:#x})",
                                sector_list(x.sectors), x.sectors.front() * 32),
                    "  sectors     ", kIndent, kWidth);
    }
    out += wrap(run_line(x.space, x.kind, x.run_cost), "  whole run   ", kIndent, kWidth);
    if (!x.sass.empty()) out += wrap(x.sass, "  sass        ", kIndent, kWidth);
    out += wrap(x.why, "  why         ", kIndent, kWidth);
    return out + lane_table(x, e.block_dim);
}

nlohmann::ordered_json lanes_json(const ExplainedAccess& x, const std::array<uint32_t, 3>& block_dim) {
    nlohmann::ordered_json lanes = nlohmann::ordered_json::array();
    const LaneSample& s = x.sample.first;
    for (uint32_t l = 0; l < 32; ++l) {
        if (!(s.active_mask >> l & 1u)) continue;
        const auto t = lane_thread(block_dim, s.warp, l);
        nlohmann::ordered_json lane = {{"lane", l}, {"thread", {t[0], t[1], t[2]}}};
        if (!x.lane_names[l].empty()) lane["element"] = x.lane_names[l];
        if (x.space == AccessSpace::shared) {
            lane["offset"] = s.addr[l];
            lane["word"] = s.addr[l] / 4;
            lane["bank"] = lane_bank(s, l);
        } else {
            lane["address"] = s.addr[l];
            lane["sector"] = s.addr[l] / 32;
        }
        lanes.push_back(std::move(lane));
    }
    return lanes;
}

nlohmann::ordered_json access_json(const Explanation& e, const ExplainedAccess& x) {
    nlohmann::ordered_json j = {
        {"access", x.what}, {"ptx_line", x.ptx_line}, {"instruction", x.instruction}, {"sampled", x.sampled}};
    if (!x.inlined.empty()) j["inlined"] = x.inlined;
    auto cost = [&](const LineStats& c) {
        nlohmann::ordered_json o = {{"requests", c.requests}};
        if (x.space == AccessSpace::shared) {
            o["wavefronts"] = c.wavefronts;
            o["ideal_wavefronts"] = c.ideal_wavefronts;
            o["max_bank_way"] = c.max_way;
        } else {
            o["sectors"] = c.sectors;
            o["ideal_sectors"] = c.ideal_sectors;
        }
        return o;
    };
    j["run"] = cost(x.run_cost);
    if (x.sampled) {
        const LaneSample& s = x.sample.first;
        j["warp"] = {{"block", {x.block[0], x.block[1], x.block[2]}},
                     {"warp", s.warp},
                     {"chosen", x.from_chosen_warp},
                     {"executions", x.sample.executions}};
        j["bytes_per_lane"] = s.bytes_per_lane;
        j["active_lanes"] = std::popcount(s.active_mask);
        j["this_warp"] = cost(x.warp_cost);
        if (x.space == AccessSpace::shared) {
            nlohmann::ordered_json passes = nlohmann::ordered_json::array();
            for (const auto& p : x.passes) {
                passes.push_back({{"lanes", {p.first_lane, p.last_lane}},
                                  {"wavefronts", p.wavefronts},
                                  {"ideal", p.ideal},
                                  {"max_bank_way", p.max_way},
                                  {"worst_bank", p.worst_bank}});
            }
            j["passes"] = passes;
        } else {
            j["sectors"] = x.sectors;
        }
        j["arrays"] = x.arrays;
        if (!x.span.empty()) j["span"] = x.span;
        j["lanes"] = lanes_json(x, e.block_dim);
    }
    if (x.merged_follower) j["merged_into_earlier"] = true;
    if (!x.sass.empty()) j["sass"] = x.sass;
    j["why"] = x.why;
    return j;
}

std::string place(const Explanation& e, uint32_t line, uint32_t ptx_line) {
    return e.is_ptx_line || line == 0 ? fmt::format("PTX line {}", ptx_line)
                                      : fmt::format("line {} (PTX line {})", line, ptx_line);
}

std::string mask_text(uint32_t mask) {
    const int n = std::popcount(mask);
    if (n == 0) return "no lane";
    const int lo = std::countr_zero(mask), hi = 31 - std::countl_zero(mask);
    if (n == hi - lo + 1) return n == 1 ? fmt::format("lane {}", lo) : fmt::format("lanes {}-{}", lo, hi);
    if (mask == 0x55555555u) return "the 16 even lanes";
    if (mask == 0xaaaaaaaau) return "the 16 odd lanes";
    return fmt::format("{} lanes ({:#010x})", n, mask);
}

std::string side_text(const Explanation& e, const BranchSide& side) {
    std::string where = place(e, side.line, side.ptx_line);
    if (side.instructions == 0) return where + ": straight to where the sides meet";
    if (side.warp_insts == 0)
        return fmt::format("{}: {}, which no warp ran", where, plural(side.instructions, "instruction"));
    return fmt::format("{}: {}, {} warp instructions over the run at {:.1f} active lanes on average", where,
                       plural(side.instructions, "instruction"), side.warp_insts,
                       per(side.thread_insts, side.warp_insts));
}

std::string sample_note(bool chosen, const std::array<uint32_t, 3>& block, uint32_t warp, uint64_t executions,
                        bool whole) {
    if (!chosen)
        return fmt::format(
            "this warp never executed it; shown instead: block {} warp {}, the first warp that did",
            triple(block), warp);
    if (executions > 1)
        return fmt::format("this warp executed it {} times{}; the first is shown", executions,
                           whole ? "" : " (or more: the sample stopped first)");
    return "";
}

std::string branch_text(const Explanation& e, const ExplainedBranch& b) {
    std::string out = wrap(fmt::format("PTX line {}: {}", b.ptx_line, b.instruction),
                           b.backward ? "loop branch   " : "branch        ", kIndent, kWidth);
    if (!b.inlined.empty()) out += wrap(b.inlined, "  source      ", kIndent, kWidth);
    if (!b.sampled) return out + wrap(b.why, "  why         ", kIndent, kWidth);
    const auto& ev = b.sample.first;
    const std::string note =
        sample_note(b.from_chosen_warp, b.block, ev.site.warp, b.sample.executions, e.sample_whole);
    if (!note.empty()) out += wrap(note, "  note        ", kIndent, kWidth);
    const std::string meet = b.meets_at_exit ? "they meet again only at exit"
                                             : "they meet again at " + place(e, b.meet_line, b.meet_ptx_line);
    const std::string jump = place(e, b.taken.line, b.taken.ptx_line);
    const std::string on = place(e, b.not_taken.line, b.not_taken.ptx_line);
    std::string ways;
    if (!b.not_taken.lanes)
        ways = fmt::format("all of them jump to {}", jump);
    else if (!b.taken.lanes)
        ways = fmt::format("all of them go on at {}", on);
    else
        ways = fmt::format("{} jump to {}, {} go on at {}", mask_text(b.taken.lanes), jump,
                           mask_text(b.not_taken.lanes), on);
    out += wrap(fmt::format("{} arrived: {}; {}", mask_text(ev.active_mask), ways, meet), "  this warp   ",
                kIndent, kWidth);
    out += wrap(side_text(e, b.taken), "  jump side   ", kIndent, kWidth);
    out += wrap(side_text(e, b.not_taken), "  other side  ", kIndent, kWidth);
    out += wrap(fmt::format("{} of the branch", plural(b.run_executions, "warp execution")), "  whole run   ",
                kIndent, kWidth);
    return out + wrap(b.why, "  why         ", kIndent, kWidth);
}

std::string collective_text(const Explanation& e, const ExplainedCollective& c, bool lanes) {
    std::string out = wrap(fmt::format("PTX line {}: {}", c.ptx_line, c.instruction),
                           fmt::format("{:<14}", c.what), kIndent, kWidth);
    if (!c.inlined.empty()) out += wrap(c.inlined, "  source      ", kIndent, kWidth);
    if (!c.sampled) return out + wrap(c.why, "  why         ", kIndent, kWidth);
    const auto& ev = c.sample.first;
    const std::string note =
        sample_note(c.from_chosen_warp, c.block, ev.site.warp, c.sample.executions, e.sample_whole);
    if (!note.empty()) out += wrap(note, "  note        ", kIndent, kWidth);
    out += wrap(fmt::format("{} executed it: {}", mask_text(ev.executing_mask), c.pattern), "  this warp   ",
                kIndent, kWidth);
    out += wrap(plural(c.run_executions, "warp execution"), "  whole run   ", kIndent, kWidth);
    out += wrap(c.why, "  why         ", kIndent, kWidth);
    if (ev.kind != engine::WarpSyncKind::shfl || !lanes) return out;
    auto cell = [&](uint32_t l) {
        const std::string thread = triple(lane_thread(e.block_dim, ev.site.warp, l));
        if (!(ev.executing_mask >> l & 1u))
            return fmt::format("{:>4} {:<12} {:<12}", l, thread, "(inactive)");
        if (!(ev.in_range_mask >> l & 1u)) return fmt::format("{:>4} {:<12} {:<12}", l, thread, "own value");
        return fmt::format("{:>4} {:<12} {:<12}", l, thread, fmt::format("lane {}", ev.source_lane[l]));
    };
    const std::string head = fmt::format("{:>4} {:<12} {:<12}", "lane", "thread", "reads");
    std::string table = "  " + head + " | " + head;
    table.erase(table.find_last_not_of(' ') + 1);
    out += table + "\n";
    for (uint32_t l = 0; l < 16; ++l) {
        std::string row = "  " + cell(l) + " | " + cell(l + 16);
        row.erase(row.find_last_not_of(' ') + 1);
        out += row + "\n";
    }
    return out;
}

// The summary's collectives: one entry each (what the lanes read or voted, the run's executions), the
// source chain and the reason once per kind.
std::string collectives_summary(const Explanation& e) {
    std::string out;
    for (size_t i = 0; i < e.collectives.size(); ++i) {
        const ExplainedCollective& c = e.collectives[i];
        const bool first_of_kind = i == 0 || e.collectives[i - 1].what != c.what;
        const bool last_of_kind = i + 1 == e.collectives.size() || e.collectives[i + 1].what != c.what;
        if (first_of_kind) out += "\n";
        std::string text = fmt::format("PTX line {}: ", c.ptx_line);
        if (!c.sampled) {
            text += c.why;
        } else {
            const std::string note =
                sample_note(c.from_chosen_warp, c.block, c.sample.first.site.warp, 1, e.sample_whole);
            // The predicate output's aside is for --lanes; the summary keeps one entry to two lines.
            std::string pattern = c.pattern;
            const std::string aside = " (the optional predicate output is false there)";
            if (const auto at = pattern.find(aside); at != std::string::npos) pattern.erase(at, aside.size());
            text += fmt::format(
                "{} executed it: {}; {} over the run{}", mask_text(c.sample.first.executing_mask), pattern,
                plural(c.run_executions, "warp execution"), note.empty() ? "" : " (" + note + ")");
        }
        out += wrap(text, fmt::format("{:<14}", c.what), kIndent, kWidth);
        if (first_of_kind && !c.inlined.empty()) out += wrap(c.inlined, "  source      ", kIndent, kWidth);
        if (last_of_kind && c.sampled) out += wrap(c.why, "  why         ", kIndent, kWidth);
    }
    return out;
}

nlohmann::ordered_json side_json(const BranchSide& side) {
    return {{"ptx_line", side.ptx_line},     {"line", side.line},
            {"lanes", side.lanes},           {"instructions", side.instructions},
            {"warp_insts", side.warp_insts}, {"thread_insts", side.thread_insts}};
}

nlohmann::ordered_json branch_json(const ExplainedBranch& b) {
    nlohmann::ordered_json j = {{"ptx_line", b.ptx_line},
                                {"instruction", b.instruction},
                                {"loop", b.backward},
                                {"sampled", b.sampled},
                                {"run_executions", b.run_executions}};
    if (b.sampled) {
        const auto& ev = b.sample.first;
        j["warp"] = {{"block", {b.block[0], b.block[1], b.block[2]}},
                     {"warp", ev.site.warp},
                     {"chosen", b.from_chosen_warp},
                     {"executions", b.sample.executions},
                     {"split", b.sample.split}};
        j["active_mask"] = ev.active_mask;
        j["sample"] = {{"executions", b.sample.all_executions}, {"split", b.sample.all_split}};
    }
    j["jump"] = side_json(b.taken);
    j["other"] = side_json(b.not_taken);
    if (b.meets_at_exit)
        j["meet"] = "exit";
    else
        j["meet"] = {{"ptx_line", b.meet_ptx_line}, {"line", b.meet_line}};
    j["why"] = b.why;
    return j;
}

nlohmann::ordered_json collective_json(const ExplainedCollective& c) {
    nlohmann::ordered_json j = {{"collective", c.what},         {"ptx_line", c.ptx_line},
                                {"instruction", c.instruction}, {"inlined", c.inlined},
                                {"sampled", c.sampled},         {"run_executions", c.run_executions}};
    if (c.sampled) {
        const auto& ev = c.sample.first;
        j["warp"] = {{"block", {c.block[0], c.block[1], c.block[2]}},
                     {"warp", ev.site.warp},
                     {"chosen", c.from_chosen_warp},
                     {"executions", c.sample.executions}};
        j["executing_mask"] = ev.executing_mask;
        if (ev.kind == engine::WarpSyncKind::shfl) {
            nlohmann::ordered_json lanes = nlohmann::ordered_json::array();
            for (uint32_t l = 0; l < 32; ++l) {
                if (!(ev.executing_mask >> l & 1u)) continue;
                lanes.push_back({{"lane", l},
                                 {"reads", ev.source_lane[l]},
                                 {"in_range", (ev.in_range_mask >> l & 1u) != 0}});
            }
            j["lanes"] = lanes;
        } else {
            j["ballot"] = ev.vote_true_mask & ev.executing_mask;
        }
        j["pattern"] = c.pattern;
    }
    j["why"] = c.why;
    return j;
}

std::string plural_what(size_t n, const std::string& what) {
    return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
}

// The first line of the summary: what the line does, per kind of access and array, and how often the shown
// warp ran it.
std::string does_line(const Explanation& e) {
    std::vector<std::pair<std::string, size_t>> parts;  // "shared load|As" -> count, in first-seen order
    auto count = [&](const std::string& key) {
        for (auto& [k, n] : parts)
            if (k == key) return void(++n);
        parts.emplace_back(key, 1);
    };
    uint64_t runs = 0;
    for (const auto& x : e.accesses) {
        std::string arrays;
        for (const auto& a : x.arrays) arrays += (arrays.empty() ? "" : " and ") + a;
        count(x.what + "|" + arrays);
        if (x.sampled && x.from_chosen_warp) runs = std::max(runs, x.sample.executions);
    }
    for (const auto& b : e.branches) {
        count(std::string(b.backward ? "loop branch" : "conditional branch") + "|");
        if (b.sampled && b.from_chosen_warp) runs = std::max(runs, b.sample.executions);
    }
    for (const auto& c : e.collectives) {
        count(c.what + "|");
        if (c.sampled && c.from_chosen_warp) runs = std::max(runs, c.sample.executions);
    }
    std::string out;
    for (const auto& [key, n] : parts) {
        const auto bar = key.find('|');
        const std::string arrays = key.substr(bar + 1);
        out += (out.empty() ? "" : ", ") + plural_what(n, key.substr(0, bar)) +
               (arrays.empty() ? "" : " of " + arrays);
    }
    if (runs > 1) {
        out += fmt::format("; this warp ran them {} times{}, the first is shown", runs,
                           e.sample_whole ? "" : " (or more: the sample stopped first)");
    }
    return out;
}

// One access group of the summary: what, where, the arrays, this warp's cost, the whole run's, and why.
std::string group_text(const Explanation& e, const AccessGroup& g) {
    size_t lead = g.members.front();
    for (size_t i : g.members) {
        if (!e.accesses[i].merged_follower) {
            lead = i;
            break;
        }
    }
    const ExplainedAccess& x = e.accesses[lead];
    const size_t n = g.members.size();
    std::string out;
    if (n == 1) {
        out = wrap(fmt::format("PTX line {}: {}", x.ptx_line, x.instruction), fmt::format("{:<14}", x.what),
                   kIndent, kWidth);
    } else {
        uint32_t lo = UINT32_MAX, hi = 0;
        for (size_t i : g.members) {
            lo = std::min(lo, e.accesses[i].ptx_line);
            hi = std::max(hi, e.accesses[i].ptx_line);
        }
        out = wrap(fmt::format("{} instructions, PTX lines {}-{} (the first: {})", n, lo, hi, x.instruction),
                   fmt::format("{:<14}", x.what), kIndent, kWidth);
    }
    if (!x.inlined.empty())
        out += wrap(x.inlined + (n > 1 ? " (the first)" : ""), "  source      ", kIndent, kWidth);
    if (!x.sampled) return out + wrap(x.why, "  why         ", kIndent, kWidth);
    if (!x.from_chosen_warp) {
        out +=
            wrap(fmt::format("this warp never executed {}; shown instead: block {} warp {}, the first warp "
                             "that did",
                             n == 1 ? "it" : "them", triple(x.block), x.sample.first.warp),
                 "  note        ", kIndent, kWidth);
    }
    out += wrap(arrays_text(x) + (n > 1 && !x.span.empty() ? " (the first instruction's lanes)" : ""),
                "  arrays      ", kIndent, kWidth);
    std::string cost = warp_line(x);
    const size_t counted = n - g.merged;
    if (counted > 1 && cost.starts_with("1 request: "))
        cost = fmt::format("{} requests, each {}", counted, cost.substr(11));
    if (g.merged) {
        cost += fmt::format(
            "; ptxas merged {} of the {} into the other {} (one wider SASS access each, counted "
            "there)",
            g.merged, n, counted);
    }
    out += wrap(cost, "  this warp   ", kIndent, kWidth);
    out += wrap(run_line(x.space, x.kind, g.run_cost), "  whole run   ", kIndent, kWidth);
    return out + wrap(x.why, "  why         ", kIndent, kWidth);
}

nlohmann::ordered_json stats_json(AccessSpace space, const LineStats& c) {
    nlohmann::ordered_json o = {{"requests", c.requests}};
    if (space == AccessSpace::shared) {
        o["wavefronts"] = c.wavefronts;
        o["ideal_wavefronts"] = c.ideal_wavefronts;
    } else {
        o["sectors"] = c.sectors;
        o["ideal_sectors"] = c.ideal_sectors;
    }
    return o;
}

nlohmann::ordered_json group_json(const Explanation& e, const AccessGroup& g) {
    const ExplainedAccess& first = e.accesses[g.members.front()];
    const ExplainedAccess* lead = &first;
    nlohmann::ordered_json ptx_lines = nlohmann::ordered_json::array();
    for (size_t i : g.members) {
        ptx_lines.push_back(e.accesses[i].ptx_line);
        if (lead->merged_follower && !e.accesses[i].merged_follower) lead = &e.accesses[i];
    }
    nlohmann::ordered_json j = {{"access", lead->what},
                                {"instructions", g.members.size()},
                                {"ptx_lines", ptx_lines},
                                {"merged", g.merged},
                                {"arrays", lead->arrays}};
    if (!lead->span.empty()) j["span"] = lead->span;
    j["this_warp"] = stats_json(lead->space, g.warp_cost);
    j["run"] = stats_json(lead->space, g.run_cost);
    j["why"] = lead->why;
    return j;
}

nlohmann::ordered_json worst_json(const WorstChoice& w) {
    auto cost = [](const WarpCost& c) {
        return nlohmann::ordered_json{{"excess", c.excess},
                                      {"split_branches", c.splits},
                                      {"idle_lanes", c.idle},
                                      {"executions", c.executions}};
    };
    return {{"warps_ranked", w.warps},
            {"blocks_seen", w.blocks_seen},
            {"whole_grid", w.complete},
            {"cost", cost(w.chosen)},
            {"first_warp",
             {{"block", {w.first_block[0], w.first_block[1], w.first_block[2]}},
              {"warp", w.first_warp},
              {"cost", cost(w.first)}}},
            {"why", w.why}};
}

}  // namespace

std::string explain_text(const Explanation& e, bool lanes) {
    std::string out = header(e);
    if (!e.accesses.empty() || !e.branches.empty() || !e.collectives.empty())
        out += wrap(does_line(e), "does      ", std::string(10, ' '), kWidth);
    if (lanes) {
        for (const auto& x : e.accesses) out += "\n" + access_text(e, x);
    } else {
        for (const auto& g : e.groups) out += "\n" + group_text(e, g);
    }
    for (const auto& b : e.branches) out += "\n" + branch_text(e, b);
    if (lanes) {
        for (const auto& c : e.collectives) out += "\n" + collective_text(e, c, lanes);
    } else {
        out += collectives_summary(e);
    }
    if (!lanes && (!e.accesses.empty() || !e.collectives.empty() || !e.branches.empty())) {
        return out + "\n" +
               wrap(
                   "more: --lanes (lane by lane: threads, addresses, sectors or banks, elements), --worst "
                   "(the costliest warp)",
                   "", "", kWidth);
    }
    if (!lanes || e.accesses.empty()) return out;
    out += "\n" +
           wrap(
               "sector: an aligned 32-byte piece of memory, the unit global loads and stores move; "
               "wavefront: one pass through shared memory's 32 banks of 4-byte words (bank = word mod 32); "
               "offset: byte offset in the block's shared memory.",
               "", "", kWidth);
    return out;
}

nlohmann::ordered_json explain_json(const Explanation& e) {
    nlohmann::ordered_json j = {{"spec", e.spec_path}, {"kernel", e.kernel}};
    if (e.is_ptx_line) {
        j["ptx_line"] = e.line;
    } else {
        j["file"] = e.source_file;
        j["line"] = e.line;
        j["source"] = e.source_text;
    }
    if (e.block) {
        j["warp"] = {{"block", {(*e.block)[0], (*e.block)[1], (*e.block)[2]}},
                     {"warp", e.warp},
                     {"requested", e.warp_requested},
                     {"chosen_by", e.worst              ? "worst"
                                   : e.warp_fully_named ? "requested"
                                   : e.warp_requested   ? "first matching"
                                                        : "first"},
                     {"whole", e.sample_whole}};
        if (e.worst) j["warp"]["worst"] = worst_json(*e.worst);
    }
    nlohmann::ordered_json groups = nlohmann::ordered_json::array();
    for (const auto& g : e.groups) groups.push_back(group_json(e, g));
    if (!e.accesses.empty() || !e.branches.empty() || !e.collectives.empty())
        j["summary"] = {{"does", does_line(e)}, {"groups", groups}};
    nlohmann::ordered_json accesses = nlohmann::ordered_json::array();
    for (const auto& x : e.accesses) accesses.push_back(access_json(e, x));
    j["accesses"] = accesses;
    nlohmann::ordered_json branches = nlohmann::ordered_json::array();
    for (const auto& b : e.branches) branches.push_back(branch_json(b));
    j["branches"] = branches;
    nlohmann::ordered_json collectives = nlohmann::ordered_json::array();
    for (const auto& c : e.collectives) collectives.push_back(collective_json(c));
    j["collectives"] = collectives;
    return j;
}

}  // namespace warpsim::report
