// sim/timing/profile.cpp — builds a LaunchProfile from the counts of a simulated run and the kernel's IR.
#include "sim/timing/profile.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "kernels_ir/details.hpp"
#include "kernels_ir/operand_roles.hpp"
#include "sim/sass/decode.hpp"
#include "sim/session/run.hpp"
#include "sim/timing/sass_loops.hpp"
#include "sim/timing/sass_spills.hpp"
#include "sim/timing/timing.hpp"

namespace warpsim::timing {

const char* pipe_name(Pipe p) {
    static constexpr const char* names[] = {"integer",
                                            "fp32",
                                            "fp64",
                                            "fp16",
                                            "special function",
                                            "memory (LSU)",
                                            "branch",
                                            "barrier",
                                            "warp (shuffle/vote)",
                                            "other"};
    auto i = static_cast<std::size_t>(p);
    return i < std::size(names) ? names[i] : "?";
}

namespace {

bool is_memory_op(ir::Opcode op) {
    return op == ir::Opcode::ld || op == ir::Opcode::ldu || op == ir::Opcode::st || op == ir::Opcode::atom ||
           op == ir::Opcode::red;
}

bool is_cheap_space(ir::Space s) {
    return s == ir::Space::param || s == ir::Space::const_;
}

void collect_regs(const ir::Operand& o, std::vector<uint32_t>& out) {
    if ((o.kind == ir::Operand::Kind::reg || o.kind == ir::Operand::Kind::address) && o.reg != ir::kNoReg)
        out.push_back(o.reg);
    for (const auto& e : o.elems) collect_regs(e, out);
}

Pipe pipe_of(const ir::Instruction& inst) {
    if (is_memory_op(inst.op)) return is_cheap_space(inst.d.space) ? Pipe::int_alu : Pipe::lsu;
    switch (ir::exec_class_of(inst)) {
        case ir::ExecClass::int_alu:
            return Pipe::int_alu;
        case ir::ExecClass::fp32:
            return Pipe::fp32;
        case ir::ExecClass::fp64:
            return Pipe::fp64;
        case ir::ExecClass::fp16:
            return Pipe::fp16;
        case ir::ExecClass::sfu:
            return Pipe::sfu;
        case ir::ExecClass::mem:
            return Pipe::lsu;
        case ir::ExecClass::branch:
            return Pipe::branch;
        case ir::ExecClass::barrier:
            return Pipe::barrier;
        case ir::ExecClass::warp:
            return Pipe::warp;
        default:
            return Pipe::misc;
    }
}

LatKind latency_of(const ir::Instruction& inst) {
    if (is_memory_op(inst.op)) {
        if (is_cheap_space(inst.d.space)) return LatKind::constant;
        auto sp = inst.d.space;
        bool shared =
            sp == ir::Space::shared || sp == ir::Space::shared_cta || sp == ir::Space::shared_cluster;
        return shared ? LatKind::shared : LatKind::global;
    }
    switch (ir::exec_class_of(inst)) {
        case ir::ExecClass::fp32:
        case ir::ExecClass::fp16:
            return LatKind::fp32;
        case ir::ExecClass::fp64:
            return LatKind::fp64;
        case ir::ExecClass::sfu:
            return LatKind::sfu;
        case ir::ExecClass::warp:
            return LatKind::warp;
        case ir::ExecClass::barrier:
            return LatKind::barrier;
        case ir::ExecClass::branch:
            return LatKind::none;
        default:
            return LatKind::alu;
    }
}

bool ends_block(ir::Opcode op) {
    using O = ir::Opcode;
    return op == O::bra || op == O::brx || op == O::ret || op == O::exit || op == O::call || op == O::bar ||
           op == O::barrier;
}

// Splits a function into basic blocks (start pcs): at labels and after control transfers.
std::vector<uint32_t> block_starts(const ir::Function& fn) {
    std::set<uint32_t> starts{0};
    for (const auto& l : fn.labels) starts.insert(l.pc);
    for (uint32_t pc = 0; pc < fn.body.size(); ++pc)
        if (ends_block(fn.body[pc].op)) starts.insert(pc + 1);
    std::vector<uint32_t> out;
    for (auto s : starts)
        if (s < fn.body.size()) out.push_back(s);
    return out;
}

ChainInst chain_inst(const ir::Instruction& inst, const counts::KernelCounters::LineStats* s,
                     std::vector<int>& last_writer, std::vector<uint32_t>& scratch) {
    ChainInst c;
    c.kind = latency_of(inst);
    c.is_load = inst.op != ir::Opcode::st && inst.op != ir::Opcode::red;
    scratch.clear();
    const ir::OperandRoles roles(inst);
    for (std::size_t a = 0; a < inst.args.size(); ++a)
        if (roles[a] != ir::Role::written) collect_regs(inst.args[a], scratch);
    if (inst.pred.reg != ir::kNoReg) scratch.push_back(inst.pred.reg);
    std::size_t nd = 0;
    for (auto r : scratch) {
        if (r >= last_writer.size() || last_writer[r] < 0) continue;
        auto w = static_cast<int16_t>(last_writer[r]);
        if (std::find(c.deps.begin(), c.deps.begin() + nd, w) != c.deps.begin() + nd) continue;
        if (nd < c.deps.size()) c.deps[nd++] = w;
    }
    if (s && c.kind == LatKind::global && s->sectors)
        c.l1_hit = static_cast<float>(double(s->l1_hits) / double(s->sectors));
    if (s && c.kind == LatKind::global && s->load_requests)
        c.lines = static_cast<float>(double(s->load_lines) / double(s->load_requests));
    if (s && c.kind == LatKind::shared && s->warp_insts && s->wavefronts > s->warp_insts)
        c.extra_passes = static_cast<float>(double(s->wavefronts) / double(s->warp_insts) - 1.0);
    return c;
}

// Instructions [begin, end) of fn into blk (at most 30000), each with its in-range producers; counters
// (nullptr: none) give the per-line statistics.
void fill_chain(const ir::Function& fn, uint32_t begin, uint32_t end, const counts::KernelCounters* counters,
                uint32_t fi, ChainBlock& blk, std::vector<int>& last_writer) {
    std::vector<uint32_t> scratch, dests;
    std::fill(last_writer.begin(), last_writer.end(), -1);
    for (uint32_t pc = begin; pc < end && pc < fn.body.size() && blk.insts.size() < 30000; ++pc) {
        const auto& inst = fn.body[pc];
        blk.insts.push_back(
            chain_inst(inst, counters ? counters->line(fi, pc) : nullptr, last_writer, scratch));
        if (!ir::operand_roles(inst).writes()) continue;
        dests.clear();
        collect_regs(inst.args[0], dests);
        for (auto r : dests)
            if (r < last_writer.size()) last_writer[r] = static_cast<int>(blk.insts.size() - 1);
    }
}

bool is_global_load(const ir::Instruction& inst) {
    return (inst.op == ir::Opcode::ld || inst.op == ir::Opcode::ldu) && inst.d.space == ir::Space::global;
}

// The SASS loops of `fn` (innermost first) and, per loop, how many of fn's PTX global loads have their line
// among its LDGs': a loop with more LDGs than that is the PTX loop unrolled further by ptxas.
struct SassLoopMap {
    std::vector<SassLoop> loops;
    // PTX line -> the loop holding the most LDGs of it (the unrolled main loop rather than its remainder
    // loop, which holds the line once per PTX copy and runs for the last few iterations), innermost on a tie.
    std::map<uint32_t, std::size_t> loop_of_line;
    std::vector<double> ptx_loads;  // per loop
};

SassLoopMap map_sass_loops(const ir::Function& fn, const sass::Program* program) {
    SassLoopMap map;
    const sass::Function* code = program ? program->find(fn.name) : nullptr;
    if (!code) return map;
    map.loops = sass_loops(*code);
    std::map<uint32_t, uint32_t> best;  // line -> LDGs of it in loop_of_line's loop
    for (std::size_t l = 0; l < map.loops.size(); ++l) {
        std::map<uint32_t, uint32_t> copies;
        for (auto line : map.loops[l].load_lines)
            if (line != 0) ++copies[line];
        for (const auto& [line, n] : copies)
            if (n > best[line]) best[line] = n, map.loop_of_line[line] = l;
    }
    map.ptx_loads.assign(map.loops.size(), 0.0);
    for (const auto& inst : fn.body) {
        if (!is_global_load(inst)) continue;
        auto it = map.loop_of_line.find(inst.loc.ptx_line);
        if (it != map.loop_of_line.end()) map.ptx_loads[it->second] += 1;
    }
    return map;
}

// The SASS loop of the block [begin, end) when all its global loads are in one that ptxas unrolled further.
void set_sass_copies(const ir::Function& fn, uint32_t begin, uint32_t end, const SassLoopMap& map,
                     ChainBlock& blk) {
    std::size_t loop = map.loops.size();
    for (uint32_t pc = begin; pc < end; ++pc) {
        if (!is_global_load(fn.body[pc])) continue;
        auto it = map.loop_of_line.find(fn.body[pc].loc.ptx_line);
        if (it == map.loop_of_line.end() || (loop != map.loops.size() && loop != it->second)) return;
        loop = it->second;
    }
    if (loop == map.loops.size() || map.ptx_loads[loop] <= 0) return;
    double copies = double(map.loops[loop].loads) / map.ptx_loads[loop];
    if (copies < 1.5) return;
    blk.sass_copies = copies;
    blk.sass_rounds = double(map.loops[loop].rounds);
}

// PTX lines of `fn` that ptxas expanded into sequences (sass_expanded_issue below), with SASS instructions
// per PTX instruction of the line. Lines inside a SASS loop are left out: an unrolled loop holds several
// copies of each line, and the copies' count is no expansion.
constexpr double kExpansion = 3;

std::map<uint32_t, double> expanded_lines(const ir::Function& fn, const sass::Program* program) {
    std::map<uint32_t, double> out;
    const sass::Function* code = program ? program->find(fn.name) : nullptr;
    if (!code || code->code.empty()) return out;
    std::vector<std::pair<uint32_t, uint32_t>>
        loops;  // [target, branch] byte ranges of every backward branch
    for (const auto& inst : code->code)
        if (inst.op && inst.op->flow == sass::Flow::Branch && inst.target >= 0 &&
            inst.target < int64_t(inst.offset))
            loops.emplace_back(static_cast<uint32_t>(inst.target), inst.offset);
    std::map<uint32_t, double> sass_count, ptx_count;
    for (const auto& inst : code->code) {
        if (inst.ptx_line == 0) continue;
        bool in_loop = std::any_of(loops.begin(), loops.end(), [&](const auto& l) {
            return inst.offset >= l.first && inst.offset <= l.second;
        });
        sass_count[inst.ptx_line] += in_loop ? -1e9 : 1;  // a line with any instruction in a loop is left out
    }
    for (const auto& inst : fn.body) ptx_count[inst.loc.ptx_line] += 1;
    for (const auto& [line, n] : sass_count) {
        auto it = ptx_count.find(line);
        if (it == ptx_count.end() || n <= 0) continue;
        if (n >= kExpansion * it->second) out[line] = n / it->second;
    }
    return out;
}

void add_chain(const ir::Function& fn, uint32_t fi, const counts::KernelCounters& counters,
               const sass::Program* program, std::vector<ChainBlock>& out) {
    std::vector<int> last_writer(fn.regs.size(), -1);
    const SassLoopMap sass_map = map_sass_loops(fn, program);
    auto starts = block_starts(fn);
    for (std::size_t b = 0; b < starts.size(); ++b) {
        uint32_t begin = starts[b];
        uint32_t end = b + 1 < starts.size() ? starts[b + 1] : static_cast<uint32_t>(fn.body.size());
        const auto* first = counters.line(fi, begin);
        if (!first || first->warp_insts == 0) continue;
        ChainBlock blk;
        blk.warp_execs = double(first->warp_insts);
        fill_chain(fn, begin, end, &counters, fi, blk, last_writer);
        set_sass_copies(fn, begin, end, sass_map, blk);
        out.push_back(std::move(blk));
    }
}

double flops_of(const ir::Instruction& inst, uint64_t lanes) {
    auto cls = ir::exec_class_of(inst);
    if (cls != ir::ExecClass::fp32 && cls != ir::ExecClass::fp64 && cls != ir::ExecClass::fp16) return 0;
    using O = ir::Opcode;
    if (inst.op == O::fma || inst.op == O::mad) return 2.0 * double(lanes);
    if (inst.op == O::add || inst.op == O::sub || inst.op == O::mul) return double(lanes);
    return 0;
}

// Weights ptxas's spill instructions by how often their PTX line ran (ptxas -lineinfo, sass_spills.hpp).
// STL/LDL at a PTX ld.local/st.local are the PTX's own local accesses, already in the counts: not spills.
// A line that holds no instruction ('{', a label) takes the next instruction's count. Only for sm_90, the
// architecture whose STL/LDL encodings were checked against nvdisasm; others keep the average estimate.
void add_spill_sites(const session::PreparedLaunch& p, const session::SimRun& run, LaunchProfile& prof) {
    if (run.preset.arch() != "sm_90") return;
    // The cubin of the run's own ptxas call when there was one (ptxas -v -lineinfo), else ptxas again.
    auto sites = run.registers.cubin && !run.registers.cubin->empty()
                     ? sass_local_accesses(*run.registers.cubin)
                     : sass_local_accesses_of_ptx(p.ptx, run.preset.arch());
    if (!sites) return;
    std::map<uint32_t, double> execs;
    std::set<uint32_t> ptx_local;
    for (uint32_t fi = 0; fi < p.module->functions.size(); ++fi) {
        const auto& fn = p.module->functions[fi];
        for (uint32_t pc = 0; pc < fn.body.size(); ++pc) {
            const auto& inst = fn.body[pc];
            const auto* s = run.counters.line(fi, pc);
            double& n = execs[inst.loc.ptx_line];
            n = std::max(n, s ? double(s->warp_insts) : 0.0);
            if (is_memory_op(inst.op) && inst.d.space == ir::Space::local)
                ptx_local.insert(inst.loc.ptx_line);
        }
    }
    for (const auto& site : *sites) {
        if (site.ptx_line == 0 || ptx_local.count(site.ptx_line)) continue;
        auto it = execs.lower_bound(site.ptx_line);
        double n = it != execs.end() ? it->second : 0.0;
        (site.store ? prof.spill_store_insts : prof.spill_load_insts) += 1;
        (site.store ? prof.spill_store_execs : prof.spill_load_execs) += n;
    }
    prof.spill_sites_known = prof.spill_store_insts + prof.spill_load_insts > 0;
}

}  // namespace

ChainBlock chain_of(const ir::Function& fn, uint32_t begin, uint32_t end) {
    ChainBlock blk;
    std::vector<int> last_writer(fn.regs.size(), -1);
    fill_chain(fn, begin, end, nullptr, 0, blk, last_writer);
    return blk;
}

LaunchProfile build_profile(const session::PreparedLaunch& p, const session::SimRun& run) {
    LaunchProfile prof;
    const auto& L = run.report.launch;
    prof.kernel = run.report.kernel;
    prof.blocks = uint64_t(L.grid[0]) * L.grid[1] * L.grid[2];
    prof.threads_per_block = L.block[0] * L.block[1] * L.block[2];
    uint32_t ws = run.preset.warp_size > 0 ? uint32_t(run.preset.warp_size) : 32u;
    prof.warps_per_block = (prof.threads_per_block + ws - 1) / ws;
    prof.blocks_per_sm = run.occupancy && run.occupancy->blocks_per_sm > 0 ? run.occupancy->blocks_per_sm : 1;
    prof.sm_count = run.preset.sm_count > 0 ? uint32_t(run.preset.sm_count) : 1u;
    prof.clock_mhz = prediction_clock_mhz(run.preset);
    prof.dram_peak_gbps = run.preset.memory.bandwidth_gbps > 0 ? run.preset.memory.bandwidth_gbps : 1000;

    const auto st = run.counters.derived_stats();
    auto S = [&](counts::Stat s) { return double(st[static_cast<std::size_t>(s)]); };
    using counts::Stat;
    prof.global_sectors = S(Stat::global_ld_sectors) + S(Stat::global_st_sectors) +
                          S(Stat::global_atom_sectors) + S(Stat::global_red_sectors) +
                          S(Stat::local_ld_sectors) + S(Stat::local_st_sectors);
    prof.shared_wavefronts =
        S(Stat::shared_ld_wavefronts) + S(Stat::shared_st_wavefronts) + S(Stat::shared_atom_wavefronts);
    prof.shared_ideal_wavefronts = S(Stat::shared_ld_ideal_wavefronts) + S(Stat::shared_st_ideal_wavefronts) +
                                   S(Stat::shared_atom_ideal_wavefronts);
    prof.l2_sectors = S(Stat::l2_read_sectors) + S(Stat::l2_write_sectors) + S(Stat::l2_atom_sectors) +
                      S(Stat::l2_red_sectors);
    prof.l2_read_hit_rate =
        S(Stat::l2_read_sectors) > 0 ? S(Stat::l2_read_hits) / S(Stat::l2_read_sectors) : 0;
    prof.dram_bytes = S(Stat::dram_read_bytes) + S(Stat::dram_write_bytes);
    prof.dram_read_bytes = S(Stat::dram_read_bytes);
    prof.dram_write_bytes = S(Stat::dram_write_bytes);
    prof.l2_read_sectors = S(Stat::l2_read_sectors) + S(Stat::l2_atom_sectors) + S(Stat::l2_red_sectors);
    prof.l2_write_sectors = S(Stat::l2_write_sectors) + S(Stat::l2_atom_sectors) + S(Stat::l2_red_sectors);
    prof.local_sectors = S(Stat::local_ld_sectors) + S(Stat::local_st_sectors);
    const auto fp = run.counters.footprint_totals();
    prof.footprint_bytes = double(fp.either) * 32.0;
    prof.footprint_read_bytes = double(fp.read) * 32.0;
    prof.footprint_write_bytes = double(fp.write) * 32.0;
    prof.footprint_l2_bytes = double(fp.read_blocks64) * 64.0 + double(fp.either - fp.read) * 32.0;
    prof.l2_capacity_bytes = double(run.counters.config().l2_bytes);
    prof.l2_cold = p.spec.l2 == launch::L2State::cold;
    prof.l1_capacity_bytes = double(run.counters.config().l1_bytes);
    const auto atom = run.counters.atomic_contention();
    prof.atomic_busiest_ns = double(atom.busiest_ps) * 1e-3;
    prof.atomic_total_ns = double(atom.total_ps) * 1e-3;
    prof.atomic_requests = double(atom.requests);
    prof.atomic_max_same_word = atom.max_same_word;
    prof.spill_store_bytes = double(run.registers.spill_store_bytes);
    prof.spill_load_bytes = double(run.registers.spill_load_bytes);
    prof.stack_frame_bytes = double(run.registers.stack_frame_bytes);
    prof.static_insts = double(p.kernel->body.size());

    for (const auto& [key, s] : run.counters.per_pc()) {
        if (key.first >= p.module->functions.size()) continue;
        const auto& fn = p.module->functions[key.first];
        if (key.second >= fn.body.size()) continue;
        const auto& inst = fn.body[key.second];
        prof.warp_insts[static_cast<std::size_t>(pipe_of(inst))] += double(s.warp_insts);
        prof.flops += flops_of(inst, s.thread_insts_pred_on);
        if (ir::exec_class_of(inst) == ir::ExecClass::barrier) prof.barriers += double(s.warp_insts);
        if (latency_of(inst) == LatKind::global && inst.d.space != ir::Space::local) {
            bool store =
                inst.op == ir::Opcode::st || inst.op == ir::Opcode::red || inst.op == ir::Opcode::atom;
            (store ? prof.store_sectors : prof.load_sectors) += double(s.sectors);
            (store ? prof.store_ideal_sectors : prof.load_ideal_sectors) += double(s.ideal_sectors);
        }
    }
    if (prof.spill_store_bytes > 0 || prof.spill_load_bytes > 0) add_spill_sites(p, run, prof);
    // The SASS ptxas made of the PTX (the run's ptxas -v -lineinfo call), for the loops it unrolled further:
    // sm_90 only, the architecture whose encodings and control bits were checked.
    std::optional<sass::Program> program;
    if (run.preset.arch() == "sm_90" && run.registers.cubin && !run.registers.cubin->empty())
        program = sass::decode_cubin(*run.registers.cubin);
    std::set<uint32_t> fns;
    for (const auto& [key, s] : run.counters.per_pc()) fns.insert(key.first);
    for (auto fi : fns)
        if (fi < p.module->functions.size())
            add_chain(p.module->functions[fi], fi, run.counters, program ? &*program : nullptr, prof.chain);
    for (auto fi : fns) {
        if (fi >= p.module->functions.size() || !program) continue;
        const auto& fn = p.module->functions[fi];
        const auto lines = expanded_lines(fn, &*program);
        if (lines.empty()) continue;
        for (uint32_t pc = 0; pc < fn.body.size(); ++pc) {
            auto it = lines.find(fn.body[pc].loc.ptx_line);
            const auto* s = run.counters.line(fi, pc);
            if (it == lines.end() || !s || s->warp_insts == 0) continue;
            prof.expanded_warp_insts[static_cast<std::size_t>(pipe_of(fn.body[pc]))] += double(s->warp_insts);
            prof.expanded_sass_insts += double(s->warp_insts) * it->second;
        }
    }
    return prof;
}

}  // namespace warpsim::timing
