// sim/report/html_source.cpp — the source view of the HTML page (see html_source.hpp).
#include "sim/report/html_source.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "kernels_ir/cfg.hpp"
#include "kernels_ir/source_chain.hpp"
#include "sim/report/access_pattern.hpp"
#include "sim/report/html_report.hpp"

namespace warpsim::report {
namespace {

using nlohmann::json;

// The heat colour (and only it): a cell's share of the kernel's total in its column, white 0 % to this 100 %.
constexpr int kHeatR = 106, kHeatG = 61, kHeatB = 154;

double share(double part, double whole) {
    return whole > 0 ? std::clamp(part / whole, 0.0, 1.0) : 0.0;
}

// A table cell shaded by its share; dark cells get white text.
std::string heat_cell(const std::string& text, double s, const std::string& title) {
    const double alpha = 0.85 * s;
    return fmt::format(R"(<td class="num" style="background:rgba({},{},{},{:.2f}){}" title="{}">{}</td>)",
                       kHeatR, kHeatG, kHeatB, alpha, alpha > 0.5 ? ";color:#fff" : "", html_escape(title),
                       text);
}

double idle_slots(const SourceRow& r, double capacity) {
    return std::max(
        0.0, capacity * static_cast<double>(r.total.warp_insts) - static_cast<double>(r.total.thread_insts));
}

uint64_t shared_excess(const SourceRow& r) {
    uint64_t n = 0;
    for (const auto& a : r.accesses)
        if (a.space == AccessSpace::shared) n += a.excess();
    return n;
}

uint64_t global_atomics(const SourceRow& r) {
    uint64_t n = 0;
    for (const auto& a : r.accesses)
        if (a.space == AccessSpace::global &&
            (a.kind == AccessKind::atomic || a.kind == AccessKind::reduction))
            n += a.s.requests;
    return n;
}

// A shared load or store of the line costs more than its ideal: its way count is a bank conflict (atomics on
// one word are contention, not a conflict, and are not given a way).
bool bank_conflict(const SourceRow& r) {
    return std::any_of(r.accesses.begin(), r.accesses.end(), [](const AccessRow& a) {
        return a.space == AccessSpace::shared && a.kind != AccessKind::atomic &&
               a.kind != AccessKind::reduction && a.excess() > 0;
    });
}

double time_work(const SourceRow& r, TimeBasis b) {
    switch (b) {
        case TimeBasis::sectors:
            return static_cast<double>(r.total.sectors);
        case TimeBasis::atomics:
            return static_cast<double>(global_atomics(r));
        case TimeBasis::wavefronts:
            return static_cast<double>(r.total.wavefronts);
        case TimeBasis::memory_passes:
            return static_cast<double>(r.total.sectors + r.total.wavefronts);
        case TimeBasis::instructions:
            return static_cast<double>(r.total.warp_insts);
    }
    return 0;
}

// The kernel's totals of each shaded column.
struct Totals {
    double warp_insts = 0, idle = 0, sectors = 0, wavefronts = 0, conflicts = 0, time = 0;
};

Totals totals_of(const ReportModel& m, TimeBasis b) {
    Totals t;
    for (const auto& r : m.rows) {
        t.warp_insts += static_cast<double>(r.total.warp_insts);
        t.idle += idle_slots(r, m.lane_capacity);
        t.sectors += static_cast<double>(r.total.sectors);
        t.wavefronts += static_cast<double>(r.total.wavefronts);
        t.conflicts += static_cast<double>(shared_excess(r));
        t.time += time_work(r, b);
    }
    return t;
}

std::string pct(double s) {
    return fmt::format("{:.1f} %", 100.0 * s);
}

std::string block_text(const engine::BlockIndex& b) {
    return fmt::format("({},{},{})", b.ctaid[0], b.ctaid[1], b.ctaid[2]);
}

json lanes_of(uint32_t mask) {
    json out = json::array();
    for (int l = 0; l < 32; ++l)
        if (mask >> l & 1u) out.push_back(l);
    return out;
}

json sample_json(const AccessRow& a) {
    const LaneSample& s = *a.sample;
    json j = {{"block", block_text(s.block)},
              {"warp", s.warp},
              {"bytes", s.bytes_per_lane},
              {"active", lanes_of(s.active_mask)}};
    json per_lane = json::array();
    if (a.space == AccessSpace::shared) {
        // Per bank: distinct words asked for (loads, stores) or updates served in turn (atomics).
        const bool atomic = a.kind == AccessKind::atomic || a.kind == AccessKind::reduction;
        const uint32_t words = std::max(1u, s.bytes_per_lane / 4);
        std::map<uint32_t, std::set<uint64_t>> distinct;
        std::array<uint64_t, 32> updates{};
        for (int l = 0; l < 32; ++l) {
            json banks = json::array();
            if (s.active_mask >> l & 1u) {
                for (uint32_t k = 0; k < words; ++k) {
                    const uint64_t word = s.addr[l] / 4 + k;
                    const auto bank = static_cast<uint32_t>(word % 32);
                    banks.push_back(bank);
                    distinct[bank].insert(word);
                    ++updates[bank];
                }
            }
            per_lane.push_back(banks);
        }
        json count = json::array();
        for (uint32_t b = 0; b < 32; ++b) count.push_back(atomic ? updates[b] : distinct[b].size());
        j["lane_banks"] = per_lane;
        j["bank_count"] = count;
        j["count_of"] = atomic ? "updates served one after another" : "different words asked for";
        // A lane of B bytes asks each bank for up to B / 4 words even at the ideal (the warp is served in
        // B / 4 passes): only more than that costs extra wavefronts.
        j["fair"] = atomic ? 1 : words;
        j["unit"] = atomic ? "update" : "different word";
        return j;
    }
    const std::set<uint64_t> sectors = active_sectors(s);
    const uint64_t base = sectors.empty() ? 0 : *sectors.begin();
    json addr = json::array();
    for (int l = 0; l < 32; ++l) {
        json secs = json::array();
        if (s.active_mask >> l & 1u) {
            for (uint64_t sec = lane_sector(s, l); sec <= lane_last_sector(s, l); ++sec)
                secs.push_back(sec - base);
            addr.push_back(fmt::format("0x{:x}", s.addr[l]));
        } else {
            addr.push_back("");
        }
        per_lane.push_back(secs);
    }
    json rel = json::array();
    for (uint64_t sec : sectors) rel.push_back(sec - base);
    j["lane_sectors"] = per_lane;
    j["sectors"] = rel;
    j["base"] = fmt::format("0x{:x}", base * 32);
    j["addr"] = addr;
    if (auto st = lane_stride(s)) j["stride"] = *st;
    return j;
}

json access_json(const AccessRow& a) {
    json j = {{"label", a.label()},
              {"space", std::string(space_word(a.space))},
              {"requests", a.s.requests},
              {"per_request", a.per_request()},
              {"ideal", a.ideal_per_request()},
              {"unit", a.space == AccessSpace::shared ? "wavefronts" : "sectors"},
              {"wasteful", a.excess() > 0},
              {"note", a.note}};
    if (a.sample) j["sample"] = sample_json(a);
    return j;
}

// Where lanes that arrive at `pc` go on, as the table names lines: unconditional jumps followed, and the
// compiler's setup instructions (.loc line 0) before the first instruction of a line skipped.
std::string landing_where(const ir::Module& mod, const ir::Function& fn, const ir::Cfg& cfg, uint32_t pc,
                          bool cuda) {
    for (int hop = 0; hop < 16 && pc < fn.body.size(); ++hop) {
        const auto& inst = fn.body[pc];
        if (inst.op == ir::Opcode::bra && inst.pred.reg == ir::kNoReg) {
            const auto& bb = cfg.blocks[cfg.block_of_pc[pc]];
            if (bb.succs.size() != 1 || bb.succs[0] >= cfg.blocks.size()) break;
            pc = cfg.blocks[bb.succs[0]].begin;
            continue;
        }
        if (!cuda) break;
        const ir::SourcePosition at = ir::call_site(mod, inst.loc);
        if (at.file != 0 && at.line != 0) return fmt::format("line {}", at.line);
        ++pc;
    }
    if (pc >= fn.body.size()) return "the end of the kernel";
    return fmt::format("PTX line {}", fn.body[pc].loc.ptx_line);
}

json branches_json(const session::PreparedLaunch& p, const SourceRow& r, const LaneSamples* samples,
                   bool cuda, std::map<uint32_t, ir::Cfg>& cfgs) {
    json out = json::array();
    for (const auto& [f, pc] : r.branches) {
        const auto& fn = p.module->functions.at(f);
        auto cfg = cfgs.find(f);
        if (cfg == cfgs.end()) cfg = cfgs.emplace(f, ir::build_cfg(fn)).first;
        json j = {{"ptx_line", fn.body[pc].loc.ptx_line}};
        const BranchSeen* seen = nullptr;
        if (samples)
            if (auto it = samples->branches.find({f, pc}); it != samples->branches.end()) seen = &it->second;
        if (seen) {
            const auto& e = seen->shown;
            j["block"] = block_text(e.site.block);
            j["warp"] = e.site.warp;
            j["active"] = lanes_of(e.active_mask);
            j["taken"] = lanes_of(e.taken_mask & e.active_mask);
            j["on"] = lanes_of(e.active_mask & ~e.taken_mask);
            j["target"] = landing_where(*p.module, fn, cfg->second, e.target_pc, cuda);
            j["next"] = landing_where(*p.module, fn, cfg->second, pc + 1, cuda);
            j["executions"] = seen->executions;
            j["split"] = seen->split;
        }
        out.push_back(j);
    }
    return out;
}

bool active_line(const SourceRow& r) {
    return !r.accesses.empty() || !r.branches.empty();
}

// One <tr> of the table: number, text, the shaded columns.
std::string line_row(const SourceRow* r, size_t index, const std::string& token, const std::string& number,
                     const std::string& code, const ReportModel& m, const Totals& t, TimeBasis basis) {
    if (!r) {
        return fmt::format(R"(<tr class="srcline"><td class="ln">{}</td><td class="code" title="{}">{}</td>)"
                           R"(<td colspan="6"></td></tr>)"
                           "\n",
                           number, code, code);
    }
    const bool act = active_line(*r);
    std::string out = fmt::format(R"(<tr class="srcline{}" data-line="{}" data-row="{}"{}>)",
                                  act ? " act" : "", token, index, act ? R"( tabindex="0")" : "");
    out += fmt::format(R"(<td class="ln">{}{}</td><td class="code" title="{}">{}</td>)",
                       act ? "&#9656; " : "", number, code, code);
    const double wi = static_cast<double>(r->total.warp_insts);
    out += heat_cell(std::to_string(r->total.warp_insts), share(wi, t.warp_insts),
                     fmt::format("{} of the kernel's warp instructions", pct(share(wi, t.warp_insts))));
    const double idle = idle_slots(*r, m.lane_capacity);
    out +=
        heat_cell(fmt::format("{:.2f}", r->lanes()), share(idle, t.idle),
                  fmt::format("{:.2f} active lanes per warp instruction; shade: {} of the kernel's idle lane "
                              "slots",
                              r->lanes(), pct(share(idle, t.idle))));
    const auto sec = static_cast<double>(r->total.sectors);
    out += heat_cell(r->total.sectors ? std::to_string(r->total.sectors) : "", share(sec, t.sectors),
                     fmt::format("{} of the kernel's global and local sectors", pct(share(sec, t.sectors))));
    const auto wf = static_cast<double>(r->total.wavefronts);
    out += heat_cell(r->total.wavefronts ? std::to_string(r->total.wavefronts) : "", share(wf, t.wavefronts),
                     fmt::format("{} of the kernel's shared wavefronts", pct(share(wf, t.wavefronts))));
    const auto extra = static_cast<double>(shared_excess(*r));
    std::string conflict_text;
    if (extra > 0)
        conflict_text = r->total.max_way > 1 && bank_conflict(*r)
                            ? fmt::format("{:.0f} ({}-way)", extra, r->total.max_way)
                            : fmt::format("{:.0f}", extra);
    out += heat_cell(
        conflict_text, share(extra, t.conflicts),
        fmt::format("{} of the kernel's shared wavefronts beyond the ideal", pct(share(extra, t.conflicts))));
    const double tw = time_work(*r, basis);
    out += heat_cell(tw > 0 ? pct(share(tw, t.time)) : "", share(tw, t.time),
                     fmt::format("estimated share of the kernel's time: {}", time_basis_words(basis)));
    return out + "</tr>\n";
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
        if (!l.empty() && l.back() == '\r') l.pop_back();
        out.push_back(l);
    }
    return out;
}

const char* kScript = R"JS(
(function () {
  var data = JSON.parse(document.getElementById('line-data').textContent);
  var NS = document.getElementById('heat-scale').namespaceURI;
  var C = {work: '#3b7dd8', absent: '#d8d8d8', good: '#3c9d4e', bad: '#d2452f', link: '#8a8a8a'};
  var panel = document.getElementById('line-detail');
  // The panel moves into a row of its own under the line shown.
  var holder = el('tr', {id: 'detail-row'}), cell = el('td', {colspan: 8});
  holder.appendChild(cell);
  function el(tag, attrs, text, svg) {
    var e = svg ? document.createElementNS(NS, tag) : document.createElement(tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function lx(l) { return 20 + l * 30 + 15; }
  function laneBoxes(s, y, on, label, side) {
    s.appendChild(el('text', {x: 2, y: y - 5}, label, true));
    for (var l = 0; l < 32; l++) {
      var a = on.indexOf(l) >= 0;
      var r = el('rect', {x: lx(l) - 12, y: y, width: 24, height: 20, fill: a ? C.work : C.absent,
                          'data-lane': l}, undefined, true);
      if (side) { r.setAttribute('data-side', side); r.setAttribute('data-on', a ? 1 : 0); }
      s.appendChild(r);
      s.appendChild(el('text', {x: lx(l), y: y + 14, 'text-anchor': 'middle', fill: a ? '#fff' : '#666'}, l, true));
    }
  }
  function caption(text, kind) { return el('p', {'class': 'caption', 'data-kind': kind}, text); }
  function globalSvg(id, a) {
    var s = a.sample, n = s.sectors.length, step = 960 / Math.max(n, 1), box = Math.min(24, step - 2);
    var svg = el('svg', {id: id, width: 1000, height: 200, 'class': 'detail-svg'}, undefined, true);
    var slot = {};
    s.sectors.forEach(function (sec, i) { slot[sec] = i; });
    function sx(sec) { return 20 + step * slot[sec] + step / 2; }
    s.lane_sectors.forEach(function (secs, l) {
      secs.forEach(function (sec) {
        svg.appendChild(el('line', {'data-lane': l, 'data-sector': sec, x1: lx(l), y1: 40, x2: sx(sec), y2: 140,
                                    stroke: C.link}, undefined, true));
      });
    });
    laneBoxes(svg, 20, s.active, 'lanes');
    var every = Math.ceil(28 / step);
    s.sectors.forEach(function (sec, i) {
      svg.appendChild(el('rect', {x: sx(sec) - box / 2, y: 140, width: box, height: 20,
                                  fill: a.wasteful ? C.bad : C.good, 'data-sector': sec}, undefined, true));
      if (i % every === 0)
        svg.appendChild(el('text', {x: sx(sec), y: 175, 'text-anchor': 'middle'}, '+' + sec, true));
    });
    svg.appendChild(el('text', {x: 2, y: 195}, '32-byte sectors from the lowest (' + s.base + '): ' + n +
                                               ' touched', true));
    return svg;
  }
  function sharedSvg(id, a) {
    var s = a.sample;
    var svg = el('svg', {id: id, width: 1000, height: 200, 'class': 'detail-svg'}, undefined, true);
    s.lane_banks.forEach(function (banks, l) {
      banks.forEach(function (b) {
        svg.appendChild(el('line', {'data-lane': l, 'data-bank': b, x1: lx(l), y1: 40, x2: lx(b), y2: 140,
                                    stroke: C.link}, undefined, true));
      });
    });
    laneBoxes(svg, 20, s.active, 'lanes');
    s.bank_count.forEach(function (c, b) {
      svg.appendChild(el('rect', {x: lx(b) - 12, y: 140, width: 24, height: 20, 'data-bank': b, 'data-count': c,
                                  fill: c === 0 ? C.absent : c <= s.fair ? C.good : C.bad}, undefined, true));
      svg.appendChild(el('text', {x: lx(b), y: 154, 'text-anchor': 'middle', fill: '#fff'}, c ? c : '', true));
      svg.appendChild(el('text', {x: lx(b), y: 175, 'text-anchor': 'middle'}, b, true));
    });
    svg.appendChild(el('text', {x: 2, y: 195}, 'banks, each labelled with the ' + s.count_of +
                                               ' (more than ' + s.fair + ' costs extra wavefronts)', true));
    return svg;
  }
  function branchSvg(id, b) {
    var svg = el('svg', {id: id, width: 1000, height: 110, 'class': 'detail-svg'}, undefined, true);
    laneBoxes(svg, 20, b.taken, 'lanes that jump to ' + b.target, 'taken');
    laneBoxes(svg, 75, b.on, 'lanes that go on to ' + b.next, 'not-taken');
    return svg;
  }
  function show(tr) {
    var key = tr.getAttribute('data-row'), d = data[key];
    var old = document.querySelector('tr.sel');
    if (old) old.classList.remove('sel');
    tr.classList.add('sel');
    panel.textContent = '';
    panel.setAttribute('data-row', key);
    cell.appendChild(panel);
    tr.parentNode.insertBefore(holder, tr.nextSibling);
    panel.appendChild(el('h3', {}, d.where + (d.text ? ': ' + d.text : '')));
    d.accesses.forEach(function (a, i) {
      panel.appendChild(el('h4', {}, a.label + ': ' + a.requests + (a.requests === 1 ? ' request, ' : ' requests, ') + a.per_request.toFixed(2) + ' ' +
                                     a.unit + ' per request where ' + a.ideal.toFixed(2) + ' would do'));
      if (a.note) panel.appendChild(caption(a.note, 'note'));
      if (!a.sample) { panel.appendChild(caption('No warp of this access was sampled.', 'none')); return; }
      var s = a.sample;
      var head = 'One warp: block ' + s.block + ' warp ' + s.warp + ', ' + s.active.length + ' active lanes, ' +
                 s.bytes + ' bytes per lane';
      if (a.space === 'shared') {
        var worst = Math.max.apply(null, s.bank_count);
        panel.appendChild(caption(head + '; the busiest bank: ' + worst + ' ' + s.unit + (worst === 1 ? '' : 's') +
                                  (s.unit === 'update' ? ' served one after another.' : ' asked for.'), 'shared'));
        panel.appendChild(sharedSvg('detail-banks-' + i, a));
      } else {
        panel.appendChild(caption(head + '; it touches ' + s.sectors.length + ' sectors' +
                                  (s.stride !== undefined ? ', lanes ' + s.stride + ' bytes apart' : '') + '.',
                                  'global'));
        panel.appendChild(globalSvg('detail-sectors-' + i, a));
      }
    });
    d.branches.forEach(function (b, i) {
      if (!b.block) {
        panel.appendChild(caption('Branch at PTX line ' + b.ptx_line + ': no warp of the sample reached it.', 'none'));
        return;
      }
      panel.appendChild(el('h4', {}, 'branch at PTX line ' + b.ptx_line));
      panel.appendChild(caption('One warp: block ' + b.block + ' warp ' + b.warp + ', ' + b.active.length +
                                ' lanes at the branch: ' + b.taken.length + ' jump to ' + b.target + ', ' +
                                b.on.length + ' go on to ' + b.next + '. In the sample the warps split here ' +
                                b.split + ' of ' + b.executions + ' times.', 'branch'));
      panel.appendChild(branchSvg('detail-branch-' + i, b));
    });
  }
  var table = document.getElementById('source-lines');
  table.addEventListener('click', function (ev) {
    var tr = ev.target.closest('tr.act');
    if (!tr) return;
    show(tr);
    history.replaceState(null, '', '#line=' + tr.getAttribute('data-line'));
  });
  table.addEventListener('keydown', function (ev) {
    if (ev.key === 'Enter' && ev.target.matches('tr.act')) ev.target.click();
  });
  var m = /^#line=(\w+)$/.exec(location.hash);
  if (m) {
    var tr = table.querySelector('tr.act[data-line="' + m[1] + '"]');
    if (tr) tr.dispatchEvent(new MouseEvent('click', {bubbles: true}));
    else panel.appendChild(caption('Line ' + m[1] + ' has no memory or branch activity to draw.', 'none'));
  }
})();
)JS";

std::string legend(TimeBasis basis) {
    std::string out = R"(<p class="legend">Shade of a cell: its share of the kernel's total in that column )";
    out += R"((for lanes, of the idle lane slots) <svg id="heat-scale" width="120" height="12">)";
    for (int i = 0; i < 10; ++i)
        out +=
            fmt::format(R"svg(<rect x="{}" y="0" width="12" height="12" fill="rgba({},{},{},{:.2f})"/>)svg",
                        i * 12, kHeatR, kHeatG, kHeatB, 0.85 * (i + 0.5) / 10);
    out += fmt::format(
        "</svg> 0 % to 100 %. Time: an estimate, {}. Lines marked &#9656; have memory or branch activity: "
        "click one to see its lanes.</p>\n",
        time_basis_words(basis));
    return out;
}

}  // namespace

TimeBasis time_basis(std::string_view bound) {
    if (bound == "dram" || bound == "l2") return TimeBasis::sectors;
    if (bound == "atomic") return TimeBasis::atomics;
    if (bound == "shared") return TimeBasis::wavefronts;
    if (bound == "lsu") return TimeBasis::memory_passes;
    return TimeBasis::instructions;
}

std::string_view time_basis_words(TimeBasis b) {
    switch (b) {
        case TimeBasis::sectors:
            return "the line's share of the global and local sectors (the launch is bound by memory "
                   "bandwidth)";
        case TimeBasis::atomics:
            return "the line's share of the global atomics (the launch is bound by the L2's atomics)";
        case TimeBasis::wavefronts:
            return "the line's share of the shared wavefronts (the launch is bound by bank conflicts)";
        case TimeBasis::memory_passes:
            return "the line's share of the sectors and wavefronts (the launch is bound by the L1 data path)";
        case TimeBasis::instructions:
            return "the line's share of the warp instructions (the launch is bound by issue or latency)";
    }
    return "";
}

std::string source_section(const session::PreparedLaunch& p, const ReportModel& m, const LaneSamples* samples,
                           std::string_view bound) {
    const TimeBasis basis = time_basis(bound);
    const Totals t = totals_of(m, basis);
    // The lines shown in order: the CUDA file's from the first counted line to the last (one more either
    // side), else the PTX's; rows elsewhere (another file, compiler setup) follow, named as the report names
    // them.
    const bool cuda = m.source_file_id != 0 && !m.source_lines.empty();
    const std::vector<std::string> ptx = cuda ? std::vector<std::string>{} : split_lines(p.ptx);
    const std::vector<std::string>& text = cuda ? m.source_lines : ptx;
    std::map<uint32_t, size_t> by_line;
    std::vector<size_t> elsewhere;
    for (size_t i = 0; i < m.rows.size(); ++i) {
        const auto& r = m.rows[i];
        const bool here = !r.compiler_generated && (cuda ? r.file == m.source_file_id : r.file == 0) &&
                          r.line >= 1 && r.line <= text.size();
        if (here)
            by_line[r.line] = i;
        else
            elsewhere.push_back(i);
    }
    std::string out = "<h2 id=\"source\">The source, line by line</h2>\n";
    out +=
        fmt::format("<p class=\"caption\">{}</p>\n",
                    cuda ? html_escape(fmt::format("{}: the lines of the kernel, with what ran at each "
                                                   "(inlined code counts at the line that calls it).",
                                                   m.source_file))
                         : "The PTX (no CUDA source line information maps it), with what ran at each line.");
    out += legend(basis);
    out +=
        "<table class=\"source\" id=\"source-lines\"><tr><th>line</th><th>source</th><th>warp inst</th>"
        "<th>lanes</th><th>sectors</th><th>wavefronts</th><th title=\"shared wavefronts beyond the ideal: "
        "bank "
        "conflicts, or atomics on one word\">extra wavefronts</th><th>time</th></tr>\n";
    json data = json::object();
    std::map<uint32_t, ir::Cfg> cfgs;
    auto add_data = [&](size_t i) {
        const auto& r = m.rows[i];
        if (!active_line(r)) return;
        json accesses = json::array();
        for (const auto& a : r.accesses) accesses.push_back(access_json(a));
        data[std::to_string(i)] = {{"where", r.where()},
                                   {"text", r.text},
                                   {"accesses", accesses},
                                   {"branches", branches_json(p, r, samples, cuda, cfgs)}};
    };
    if (!by_line.empty()) {
        const uint32_t first = std::max<uint32_t>(1, by_line.begin()->first - 1);
        const auto last = static_cast<uint32_t>(std::min<size_t>(text.size(), by_line.rbegin()->first + 1));
        for (uint32_t line = first; line <= last; ++line) {
            auto it = by_line.find(line);
            const SourceRow* r = it == by_line.end() ? nullptr : &m.rows[it->second];
            const size_t index = r ? it->second : 0;
            out += line_row(r, index, std::to_string(line), std::to_string(line), html_escape(text[line - 1]),
                            m, t, basis);
            if (r) add_data(index);
        }
    }
    for (size_t i : elsewhere) {
        const auto& r = m.rows[i];
        const std::string code = r.compiler_generated ? "(no source line: compiler setup)"
                                 : r.text.empty()     ? ""
                                                      : html_escape(r.text);
        out += line_row(&r, i, fmt::format("r{}", i), html_escape(r.where()), code, m, t, basis);
        add_data(i);
    }
    out += "</table>\n";
    out +=
        "<div id=\"line-detail\" class=\"detail\"><p>Click a line marked &#9656; to see its lanes "
        "here.</p></div>\n";
    out +=
        "<noscript><p class=\"caption\">The per-line lane diagrams are drawn by the page's script; with "
        "JavaScript off the table above and the diagrams below still show the run.</p></noscript>\n";
    // '<' as \u003c: the JSON can never close its <script> element.
    std::string blob = data.dump(-1, ' ', false, json::error_handler_t::replace);
    std::string safe;
    safe.reserve(blob.size());
    for (char c : blob) safe += c == '<' ? std::string("\\u003c") : std::string(1, c);
    out += "<script type=\"application/json\" id=\"line-data\">" + safe + "</script>\n";
    out += std::string("<script>") + kScript + "</script>\n";
    return out;
}

}  // namespace warpsim::report
