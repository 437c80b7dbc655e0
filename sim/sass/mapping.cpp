// sim/sass/mapping.cpp — maps a kernel's SASS shared-memory instructions back onto its PTX accesses.
#include "sim/sass/mapping.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "kernels_ir/details.hpp"

namespace warpsim::sass {

namespace {

// One ld.shared / st.shared of the PTX with a register (or symbol) base and a constant offset.
struct PtxShared {
    uint32_t pc = 0, line = 0, block = 0;
    bool store = false;
    uint32_t bytes = 0;
    uint32_t base_reg = ir::kNoReg;
    std::string base_symbol;
    int64_t offset = 0;
    ir::Guard guard;
};

bool ends_block(const ir::Instruction& in) {
    const ir::ExecClass c = ir::exec_class_of(in);
    return c == ir::ExecClass::branch || c == ir::ExecClass::barrier;
}

// The basic block of every pc: a new block starts at each label and after each branch or barrier.
std::vector<uint32_t> block_ids(const ir::Function& f) {
    std::set<uint32_t> starts;
    for (const auto& l : f.labels) starts.insert(l.pc);
    std::vector<uint32_t> ids(f.body.size());
    uint32_t id = 0;
    for (uint32_t pc = 0; pc < f.body.size(); ++pc) {
        if (pc > 0 && (starts.count(pc) || ends_block(f.body[pc - 1]))) ++id;
        ids[pc] = id;
    }
    return ids;
}

std::vector<PtxShared> shared_accesses(const ir::Function& f, const std::vector<uint32_t>& blocks) {
    std::vector<PtxShared> out;
    for (uint32_t pc = 0; pc < f.body.size(); ++pc) {
        const ir::Instruction& in = f.body[pc];
        if ((in.op != ir::Opcode::ld && in.op != ir::Opcode::st) || in.d.space != ir::Space::shared) continue;
        const bool store = in.op == ir::Opcode::st;
        const std::size_t at = store ? 0 : 1;
        if (in.args.size() <= at || in.args[at].kind != ir::Operand::Kind::address) continue;
        const ir::Operand& a = in.args[at];
        PtxShared s;
        s.pc = pc;
        s.line = in.loc.ptx_line;
        s.block = blocks[pc];
        s.store = store;
        s.bytes = ir::type_bytes(in.d.type) * in.d.vec;
        s.base_reg = a.reg;
        s.base_symbol = a.name;
        s.offset = a.imm;
        s.guard = in.pred;
        out.push_back(s);
    }
    return out;
}

bool writes_reg(const ir::Instruction& in, uint32_t reg) {
    if (in.args.empty() || reg == ir::kNoReg) return false;
    const ir::Operand& d = in.args[0];
    if (d.kind == ir::Operand::Kind::reg) return d.reg == reg;
    for (const auto& e : d.elems)
        if (e.kind == ir::Operand::Kind::reg && e.reg == reg) return true;
    return false;
}

bool same_base(const PtxShared& a, const PtxShared& b) {
    return a.block == b.block && a.store == b.store && a.bytes == b.bytes && a.base_reg == b.base_reg &&
           a.base_symbol == b.base_symbol && a.guard == b.guard;
}

// The accesses of the group of `width` bytes that holds `member`: indices into `all`, leader first; empty
// when no complete group of unused accesses exists.
std::vector<std::size_t> merge_group(const ir::Function& f, const std::vector<PtxShared>& all,
                                     const std::vector<bool>& used, std::size_t member, uint32_t width) {
    const PtxShared& m = all[member];
    const uint32_t n = width / m.bytes;
    std::vector<std::size_t> best;
    for (uint32_t k = 0; k < n; ++k) {
        const int64_t start = m.offset - int64_t(k) * m.bytes;
        std::vector<std::size_t> group;
        for (uint32_t j = 0; j < n; ++j) {
            auto it = std::find_if(all.begin(), all.end(), [&](const PtxShared& s) {
                return same_base(s, m) && s.offset == start + int64_t(j) * m.bytes;
            });
            if (it == all.end() || used[std::size_t(it - all.begin())]) break;
            group.push_back(std::size_t(it - all.begin()));
        }
        if (group.size() != n) continue;
        auto [lo, hi] = std::minmax_element(
            group.begin(), group.end(), [&](std::size_t a, std::size_t b) { return all[a].pc < all[b].pc; });
        bool base_kept = true;
        for (uint32_t pc = all[*lo].pc; pc < all[*hi].pc && base_kept; ++pc)
            base_kept = !writes_reg(f.body[pc], m.base_reg);
        if (!base_kept) continue;
        if (start % width == 0) return group;
        if (best.empty()) best = group;
    }
    return best;
}

void plan_merges(const ir::Function& f, uint32_t function, const Function& code,
                 const std::vector<PtxShared>& all, counts::SassPlan& plan) {
    std::map<uint32_t, std::size_t> by_line;
    for (std::size_t i = 0; i < all.size(); ++i) by_line.emplace(all[i].line, i);
    std::vector<bool> used(all.size(), false);
    for (const Instruction& inst : code.code) {
        if (!inst.op || inst.op->space != MemSpace::Shared) continue;
        if (inst.op->mnemonic != "LDS" && inst.op->mnemonic != "STS") continue;
        auto it = by_line.find(inst.ptx_line);
        if (it == by_line.end()) continue;
        const PtxShared& m = all[it->second];
        if (m.store != (inst.op->mem == MemOp::Store) || m.bytes == 0 || inst.width <= m.bytes ||
            inst.width % m.bytes)
            continue;
        auto group = merge_group(f, all, used, it->second, inst.width);
        if (group.empty()) continue;
        auto& roles = plan.shared[function];
        uint32_t first_line = ~0u, last_line = 0;
        for (std::size_t g : group) {
            used[g] = true;
            first_line = std::min(first_line, all[g].line);
            last_line = std::max(last_line, all[g].line);
        }
        plan.notes.push_back(fmt::format(
            "ptxas merged the {} {}-byte shared {}s of PTX lines {}-{} into one {} (SASS {:#06x}): "
            "one instruction, counted as {}-byte accesses",
            group.size(), m.bytes, m.store ? "store" : "load", first_line, last_line, describe(inst),
            inst.offset, inst.width));
        const auto note = static_cast<uint16_t>(plan.notes.size());
        for (std::size_t g : group) roles[all[g].pc] = {counts::SassPlan::Role::follower, 0, note};
        roles[all[group.front()].pc] = {counts::SassPlan::Role::leader, inst.width, note};
    }
}

// Generic ld/st/atom/red (no state space: SASS LD/ST/ATOM/RED) that reach shared memory, in every function
// the kernel may call: the H200 counts their wavefronts but not as shared-memory instructions
// (generic_pointers: op_shared_ld 0; cg_reduce_tile128's generic atom.or on its tile barrier word:
// op_shared_atom 0, 10,289 atomic wavefronts).
void plan_generic(const ir::Module& module, counts::SassPlan& plan) {
    for (uint32_t fi = 0; fi < module.functions.size(); ++fi) {
        const ir::Function& f = module.functions[fi];
        for (uint32_t pc = 0; pc < f.body.size(); ++pc) {
            const ir::Instruction& in = f.body[pc];
            const bool memory = in.op == ir::Opcode::ld || in.op == ir::Opcode::st ||
                                in.op == ir::Opcode::atom || in.op == ir::Opcode::red;
            if (!memory || in.d.space != ir::Space::none) continue;
            plan.shared[fi].resize(f.body.size());
            plan.shared[fi][pc] = {counts::SassPlan::Role::generic, 0, 0};
        }
    }
}

// The PTX pc a guarded bra at pc jumps to (nullopt: none, or out of the function).
std::optional<uint32_t> jump_target(const ir::Function& f, uint32_t pc) {
    const ir::Instruction& br = f.body[pc];
    if (br.op != ir::Opcode::bra || br.args.empty() || br.args[0].imm < 0 ||
        uint64_t(br.args[0].imm) > f.body.size())
        return std::nullopt;
    return static_cast<uint32_t>(br.args[0].imm);
}

// A guarded PTX branch and the straight-line region [first, end) that warps enter only through it: the
// fall-through of `@p bra END` (region at head + 1), or the target of `@p bra A; bra.uni END; A:` (region at
// head + 2, which no other branch targets). `branch_lines`: the PTX lines of the branches ptxas removes when
// it if-converts the region.
struct Candidate {
    uint32_t head = 0, first = 0, end = 0;
    std::set<uint32_t> branch_lines;
};

std::optional<Candidate> region_candidate(const ir::Function& f, const std::set<uint32_t>& labelled,
                                          uint32_t h) {
    const ir::Instruction& br = f.body[h];
    if (br.op != ir::Opcode::bra || br.pred.reg == ir::kNoReg) return std::nullopt;
    const auto target = jump_target(f, h);
    if (!target) return std::nullopt;
    Candidate c{h, h + 1, *target, {br.loc.ptx_line}};
    if (*target == h + 2 && h + 1 < f.body.size() && f.body[h + 1].op == ir::Opcode::bra &&
        f.body[h + 1].pred.reg == ir::kNoReg) {
        const auto end = jump_target(f, h + 1);
        if (!end || *end <= h + 2) return std::nullopt;
        for (uint32_t pc = 0; pc < f.body.size(); ++pc)
            if (pc != h && f.body[pc].op == ir::Opcode::bra && jump_target(f, pc) == h + 2)
                return std::nullopt;
        c = {h, h + 2, *end, {br.loc.ptx_line, f.body[h + 1].loc.ptx_line}};
    } else if (*target <= h + 1 || labelled.count(h + 1)) {
        return std::nullopt;
    }
    for (uint32_t pc = c.first; pc < c.end; ++pc)
        if ((pc > c.first && labelled.count(pc)) || ends_block(f.body[pc]) ||
            f.body[pc].op == ir::Opcode::call)
            return std::nullopt;
    return c;
}

void plan_regions(const ir::Function& f, uint32_t function, const Function& code, counts::SassPlan& plan) {
    std::set<uint32_t> labelled;
    for (const auto& l : f.labels) labelled.insert(l.pc);
    for (uint32_t h = 0; h + 1 < f.body.size(); ++h) {
        const auto c = region_candidate(f, labelled, h);
        if (!c) continue;
        std::set<uint32_t> lines;
        for (uint32_t pc = c->first; pc < c->end; ++pc) lines.insert(f.body[pc].loc.ptx_line);
        counts::SassPlan::Region region{function, c->head, c->first};
        bool predicated = true, branch_kept = false;
        // Each PTX access is counted once however often its line appears: a loop ptxas unrolled holds one
        // copy of the region per trip (spmv_ell: 7 copies of each guarded load), and a trip issues one.
        std::set<std::pair<uint32_t, int>> counted;
        for (const Instruction& inst : code.code) {
            if (inst.op && inst.op->flow == Flow::Branch && c->branch_lines.count(inst.ptx_line))
                branch_kept = true;
            if (!inst.op || !lines.count(inst.ptx_line)) continue;
            const bool load = inst.op->mem == MemOp::Load, store = inst.op->mem == MemOp::Store;
            const bool shared = inst.op->space == MemSpace::Shared &&
                                (inst.op->mnemonic == "LDS" || inst.op->mnemonic == "STS");
            const bool global = inst.op->space == MemSpace::Global && (load || store);
            if (!shared && !global) continue;
            predicated = predicated && !inst.always();
            if (!counted.insert({inst.ptx_line, int(shared) * 2 + int(store)}).second) continue;
            if (shared) (store ? region.shared_stores : region.shared_loads) += 1;
            if (global) (store ? region.global_stores : region.global_loads) += 1;
        }
        const uint32_t accesses =
            region.shared_loads + region.shared_stores + region.global_loads + region.global_stores;
        if (!predicated || branch_kept || accesses == 0) continue;
        plan.regions.push_back(region);
        plan.notes.push_back(fmt::format(
            "ptxas if-converted the branch at PTX line {} into predicated instructions ({} LDS, {} STS, "
            "{} LDG, {} STG): every warp that reaches it issues them, with no active lane where the PTX "
            "branches around them",
            f.body[c->head].loc.ptx_line, region.shared_loads, region.shared_stores, region.global_loads,
            region.global_stores));
    }
}

}  // namespace

counts::SassPlan plan_shared_accesses(const ir::Module& module, uint32_t function, const Function& code) {
    counts::SassPlan plan;
    if (function >= module.functions.size()) return plan;
    const ir::Function& f = module.functions[function];
    plan.shared.resize(module.functions.size());
    plan.shared[function].resize(f.body.size());
    const auto blocks = block_ids(f);
    const auto all = shared_accesses(f, blocks);
    plan_generic(module, plan);
    plan_merges(f, function, code, all, plan);
    plan_regions(f, function, code, plan);
    return plan;
}

}  // namespace warpsim::sass
