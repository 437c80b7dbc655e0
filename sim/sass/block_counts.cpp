// sim/sass/block_counts.cpp — ties each SASS basic block of a kernel to the PTX basic block it runs with.
#include "sim/sass/block_counts.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>

#include <fmt/format.h>

#include "kernels_ir/cfg.hpp"
#include "sim/sass/cfg_shapes.hpp"

namespace warpsim::sass {

namespace {

using namespace shapes;

bool ends_thread(const ir::Instruction& in) {
    return in.op == ir::Opcode::ret || in.op == ir::Opcode::exit;
}

bool is_memory(const ir::Instruction& in) {
    const bool op = in.op == ir::Opcode::ld || in.op == ir::Opcode::st || in.op == ir::Opcode::atom ||
                    in.op == ir::Opcode::red;
    return op && in.d.space != ir::Space::param && in.d.space != ir::Space::const_;
}

// An f32 division or reciprocal whose SASS may call a slow-path subroutine, counted as
// SassPlan::Runs::on_slow_path: div.rn.f32 and rcp.rn.f32 without .ftz (sim/arith/slow_path.hpp knows their
// operands' rule; the engine tells the counters of every warp that needs it).
// An f32 .approx instruction whose SASS scales some operands around the MUFU (sim/arith/slow_path.hpp).
bool scales_around_mufu(const ir::Instruction& in) {
    using O = ir::Opcode;
    return (in.op == O::rsqrt || in.op == O::sqrt || in.op == O::lg2 || in.op == O::ex2 || in.op == O::div) &&
           in.d.type == ir::Type::f32 && in.d.approx && !in.d.ftz;
}

bool has_counted_slow_path(const ir::Instruction& in) {
    return (in.op == ir::Opcode::div || in.op == ir::Opcode::rcp) && in.d.type == ir::Type::f32 &&
           in.d.rnd == ir::Rounding::rn && !in.d.ftz && !in.d.approx;
}

// `@p bra A; bra.uni B`: ptxas makes the pair one predicated BRA to B with the line of the bra.uni. The
// guarded branch before an unguarded one at pc, whose lanes and divergence are the SASS branch's (nullopt:
// none).
std::optional<uint32_t> paired_guarded_branch(const ir::Function& f, uint32_t pc) {
    const auto is_bra = [&](uint32_t at) { return f.body[at].op == ir::Opcode::bra; };
    if (pc == 0 || !is_bra(pc) || f.body[pc].pred.reg != ir::kNoReg || !is_bra(pc - 1) ||
        f.body[pc - 1].pred.reg == ir::kNoReg)
        return std::nullopt;
    return pc - 1;
}

// The PTX pc of a SASS instruction's line. BSYNC, the reconvergence point a branch's paths meet at, takes the
// line of the instruction before it in the line table (the last of one path): it has none of its own.
std::optional<uint32_t> line_pc(const PtxShape& ptx, const Instruction& in) {
    if (in.op && in.op->mnemonic == "BSYNC") return std::nullopt;
    return ptx.pc(in.ptx_line);
}

// The PTX block a SASS block runs with (see block_counts.hpp), or an error.
std::optional<uint32_t> choose_anchor(const ir::Function& f, const PtxShape& ptx, const Function& code,
                                      uint32_t begin, uint32_t end, std::string& why) {
    // A ret's line may also sit on code ptxas duplicated into the blocks before it (their EXIT): it decides
    // only for a block that has nothing else.
    std::set<uint32_t> unguarded, any, exits;
    std::map<uint32_t, uint32_t> share;  // PTX block -> SASS instructions of this block from it
    for (uint32_t i = begin; i < end; ++i) {
        const auto pc = line_pc(ptx, code.code[i]);
        if (!pc) continue;
        const uint32_t b = ptx.cfg.block_of_pc[*pc];
        ++share[b];
        if (ends_thread(f.body[*pc])) {
            exits.insert(b);
            continue;
        }
        any.insert(b);
        if (code.code[i].always()) unguarded.insert(b);
    }
    std::set<uint32_t>& cands = !unguarded.empty() ? unguarded : !any.empty() ? any : exits;
    if (cands.empty()) return std::nullopt;
    uint32_t shallowest = kNone;
    for (uint32_t b : cands) shallowest = std::min(shallowest, ptx.depth[b]);
    std::vector<uint32_t> level;
    for (uint32_t b : cands)
        if (ptx.depth[b] == shallowest) level.push_back(b);
    // One candidate dominating all others and one post-dominating all others (the same block, or a branch and
    // the block where its paths meet) run equally often; what lies between them was hoisted or if-converted
    // into this SASS block: the dominating one is taken.
    for (uint32_t head : level) {
        bool dominates_all = true, bracketed = false;
        for (uint32_t d : level) dominates_all = dominates_all && (d == head || dominates(ptx.idom, head, d));
        for (uint32_t tail : level) {
            bool post_all = true;
            for (uint32_t d : level) post_all = post_all && (d == tail || ptx.post_dominates(tail, d));
            bracketed = bracketed || post_all;
        }
        if (dominates_all && bracketed) return head;
    }
    // Candidates that every other one dominates or post-dominates run as often as each other where more than
    // one qualifies (the same loop depth): the one most of the block's instructions come from is taken.
    std::optional<uint32_t> best;
    for (uint32_t c : level) {
        bool ordered = true;
        for (uint32_t d : level)
            ordered = ordered && (d == c || dominates(ptx.idom, d, c) || ptx.post_dominates(d, c));
        if (ordered && (!best || share[c] > share[*best])) best = c;
    }
    if (!best)
        why = fmt::format(
            "the SASS block at {:#06x} mixes PTX blocks that neither dominate nor post-dominate "
            "each other",
            code.code[begin].offset);
    return best;
}

void refuse(counts::SassPlan& plan, const std::string& why) {
    plan.blocks.clear();
    plan.loops.clear();
    plan.line_shares.clear();
    plan.rejoins.clear();
    plan.loop_rejoins.clear();
    plan.instructions_mapped = false;
    plan.instruction_counting = "PTX-level counts (" + why + ")";
}

// A PTX memory instruction that ptxas emitted more than once: an unrolled or duplicated region (outside the
// unrolled loops whose copies are counted, in_loop).
std::optional<uint32_t> duplicated_memory_line(const ir::Function& f, const PtxShape& ptx,
                                               const Function& code, const SassBlocks& sb,
                                               const std::vector<std::pair<uint32_t, uint32_t>>& in_loop) {
    std::map<uint32_t, uint32_t> copies;
    for (std::size_t b = 0; b < sb.begin.size(); ++b) {
        if (!sb.reachable[b] || in_loop[b].first != kNone) continue;
        for (uint32_t i = sb.begin[b]; i < sb.end[b]; ++i) {
            const Instruction& in = code.code[i];
            if (!in.memory()) continue;
            const auto pc = ptx.pc(in.ptx_line);
            if (pc && is_memory(f.body[*pc]) && ++copies[in.ptx_line] > 1) return in.ptx_line;
        }
    }
    return std::nullopt;
}

// The PTX block a PTX bra jumps to (kNone: none).
uint32_t branch_target_block(const ir::Function& f, const PtxShape& ptx, uint32_t pc) {
    for (const auto& a : f.body[pc].args)
        if (a.kind == ir::Operand::Kind::symbol && a.imm >= 0 && uint64_t(a.imm) < f.body.size())
            return ptx.cfg.block_of_pc[uint32_t(a.imm)];
    return kNone;
}

// The selp whose operand the unguarded instruction at pc computes, when that is the only use of its
// destination register: (the selp's pc, whether it is the first operand). ptxas if-converts `selp d, a, b, p`
// into computing b, then a into the same register under p (or the other way round).
std::optional<std::pair<uint32_t, bool>> feeds_selp(const ir::Function& f, uint32_t pc) {
    const ir::Instruction& p = f.body[pc];
    if (p.args.empty() || p.args[0].kind != ir::Operand::Kind::reg) return std::nullopt;
    const uint32_t r = p.args[0].reg;
    uint32_t uses = 0;
    std::optional<std::pair<uint32_t, bool>> out;
    const auto count = [&](const ir::Operand& o, auto&& self) -> uint32_t {
        uint32_t n = (o.kind == ir::Operand::Kind::reg || o.kind == ir::Operand::Kind::address) && o.reg == r;
        for (const auto& e : o.elems) n += self(e, self);
        return n;
    };
    for (uint32_t k = 0; k < f.body.size(); ++k) {
        const ir::Instruction& in = f.body[k];
        uint32_t n = in.pred.reg == r ? 1 : 0;
        for (const auto& a : in.args) n += count(a, count);
        if (k == pc) {
            if (n != 1) return std::nullopt;  // the destination is also a source
            continue;
        }
        if (n == 0) continue;
        uses += n;
        if (in.op != ir::Opcode::selp || in.args.size() != 4 || in.pred.reg != ir::kNoReg)
            return std::nullopt;
        const bool first = in.args[1].kind == ir::Operand::Kind::reg && in.args[1].reg == r;
        const bool second = in.args[2].kind == ir::Operand::Kind::reg && in.args[2].reg == r;
        if (first == second) return std::nullopt;
        out = std::pair{k, first};
    }
    return uses == 1 ? out : std::nullopt;
}

// ptxas's warp-aggregated atomic: VOTEU.ANY of the active lanes, UFLO (the lowest of them), then the atomic
// (with a REDUX or POPC of the operands) guarded by "this lane is that one", all on the atomic's PTX line and
// in one block (no branch between them).
bool elects_leader(const Function& code, uint32_t i) {
    bool vote = false, flo = false;
    for (uint32_t k = i; k-- > 0;) {
        const Instruction& in = code.code[k];
        if (in.ptx_line != code.code[i].ptx_line || (in.op && in.op->flow != Flow::None)) break;
        vote = vote || in.mnemonic() == "VOTEU";
        flo = flo || in.mnemonic() == "UFLO";
    }
    return vote && flo;
}

// Whose lanes a predicated SASS instruction runs on (counts::SassPlan::Lanes). `anchor_of(index)`: the PTX
// block the SASS instruction at that index runs with (kNone: unknown).
template <class AnchorOf>
counts::SassPlan::LineShare lanes_of(const ir::Function& f, const PtxShape& ptx, const Function& code,
                                     uint32_t i, uint32_t anchor_block, AnchorOf anchor_of) {
    using L = counts::SassPlan::Lanes;
    const Instruction& in = code.code[i];
    counts::SassPlan::LineShare share;
    const auto pc = line_pc(ptx, in);
    share.pc = pc.value_or(ptx.cfg.blocks[anchor_block].begin);
    share.lanes_pc = share.pc;
    if (in.always()) return share;
    share.lanes = L::unknown;
    if (!pc) return share;
    const ir::Instruction& p = f.body[*pc];
    const bool guarded = p.pred.reg != ir::kNoReg;
    // The branch around a slow-path call: while no lane needs the call (else the totals are PTX-level), every
    // active lane takes the fast side.
    if (has_counted_slow_path(p) && flow_of(in) == Flow::Branch) {
        share.lanes = L::issued;
        return share;
    }
    if (const auto guard = paired_guarded_branch(f, *pc); guard && flow_of(in) == Flow::Branch) {
        // The SASS branch goes where the bra.uni goes (the guard false) or where the guarded bra goes.
        const uint32_t sass_target = anchor_of(in.target);
        share.lanes_pc = *guard;
        if (sass_target != kNone && sass_target == branch_target_block(f, ptx, *pc))
            share.lanes = L::guard_off;
        if (sass_target != kNone && sass_target == branch_target_block(f, ptx, *guard))
            share.lanes = L::guard_on;
        return share;
    }
    if (p.op == ir::Opcode::bra && guarded && flow_of(in) == Flow::Branch) {
        const uint32_t taken = branch_target_block(f, ptx, *pc);
        const uint32_t fall = *pc + 1 < f.body.size() ? ptx.cfg.block_of_pc[*pc + 1] : kNone;
        // `@p bra A; bra.uni B`: the guard-false lanes go on to B.
        const uint32_t fall_on = *pc + 1 < f.body.size() && paired_guarded_branch(f, *pc + 1)
                                     ? branch_target_block(f, ptx, *pc + 1)
                                     : fall;
        const uint32_t sass_target = anchor_of(in.target);
        if (sass_target != kNone && sass_target == taken) share.lanes = L::guard_on;
        if (sass_target != kNone && (sass_target == fall || sass_target == fall_on))
            share.lanes = L::guard_off;
        return share;
    }
    if (p.op == ir::Opcode::bra && guarded && flow_of(in) == Flow::Exit) {
        // `@p bra` to a ret, or over one, compiled into a predicated EXIT.
        auto starts_with_exit = [&](uint32_t block) {
            return block != kNone && ends_thread(f.body[ptx.cfg.blocks[block].begin]);
        };
        const uint32_t fall = *pc + 1 < f.body.size() ? ptx.cfg.block_of_pc[*pc + 1] : kNone;
        if (starts_with_exit(branch_target_block(f, ptx, *pc))) share.lanes = L::guard_on;
        if (starts_with_exit(fall)) share.lanes = L::guard_off;
        return share;
    }
    if (p.op == ir::Opcode::bra) return share;
    // The two instructions of the scaling, guarded by the FSETP's negation (the lanes it scales).
    if (!guarded && scales_around_mufu(p) && in.guard_negated &&
        (in.mnemonic() == "FMUL" || in.mnemonic() == "FADD")) {
        share.lanes = L::scaled;
        return share;
    }
    if (!guarded && flow_of(in) == Flow::None && ptx.cfg.block_of_pc[*pc] == anchor_block)
        if (const auto sel = feeds_selp(f, *pc); sel && ptx.cfg.block_of_pc[sel->first] == anchor_block) {
            share.lanes = sel->second ? L::selected : L::rejected;
            share.lanes_pc = sel->first;
            return share;
        }
    if (!guarded && (p.op == ir::Opcode::atom || p.op == ir::Opcode::red) && in.op &&
        (in.op->mem == MemOp::Atomic || in.op->mem == MemOp::Reduction) && elects_leader(code, i)) {
        share.lanes = L::leader;
        return share;
    }
    if (guarded) {
        share.lanes = L::guard_on;
    } else if (ptx.cfg.block_of_pc[*pc] != anchor_block) {
        share.lanes = L::entered;
    }
    return share;
}

// SASS blocks that ptxas put on one edge of a guarded PTX branch: every instruction with a line carries the
// branch's line, and the block leads to the PTX block on one side of it only (a loop preheader: the loop's
// first trip starts behind it). They run as often as warps leave the branch on that side.
std::vector<counts::SassPlan::Block> edge_blocks(const ir::Function& f, const PtxShape& ptx,
                                                 const Function& code, const SassBlocks& sb) {
    using Runs = counts::SassPlan::Runs;
    std::vector<counts::SassPlan::Block> out(sb.begin.size());
    for (uint32_t b = 0; b < sb.begin.size(); ++b) {
        if (!sb.reachable[b] || sb.succs[b].size() != 1 || sb.succs[b][0] == b) continue;
        std::optional<uint32_t> branch;
        bool one = true;
        for (uint32_t i = sb.begin[b]; i < sb.end[b] && one; ++i) {
            const auto pc = line_pc(ptx, code.code[i]);
            if (!pc) continue;
            one = !branch || *branch == *pc;
            branch = pc;
        }
        if (!branch || !one) continue;
        const ir::Instruction& br = f.body[*branch];
        if (br.op != ir::Opcode::bra || br.pred.reg == ir::kNoReg || *branch + 1 >= f.body.size()) continue;
        // Which side the next SASS block starts: the PTX blocks its instructions come from.
        const uint32_t next = sb.succs[b][0];
        std::set<uint32_t> ahead;
        for (uint32_t i = sb.begin[next]; i < sb.end[next]; ++i)
            if (const auto pc = line_pc(ptx, code.code[i])) ahead.insert(ptx.cfg.block_of_pc[*pc]);
        const bool fall = ahead.count(ptx.cfg.block_of_pc[*branch + 1]) > 0;
        const bool taken = ahead.count(branch_target_block(f, ptx, *branch)) > 0;
        if (fall != taken) out[b] = {0, *branch, 0, fall ? Runs::on_fallthrough : Runs::on_taken};
    }
    return out;
}

// The instruction of a one-block PTX loop whose SASS copies say how many trips of the body a SASS block
// holds: its first memory access, else its first floating-point add, multiply or fma (ptxas keeps each once
// per trip where it unrolls). nullopt: none.
struct LoopMarker {
    uint32_t line = 0;
    bool memory = false;
};

std::optional<LoopMarker> loop_marker(const ir::Function& f, const PtxShape& ptx, uint32_t block) {
    const auto& b = ptx.cfg.blocks[block];
    for (uint32_t pc = b.begin; pc < b.end; ++pc)
        if (is_memory(f.body[pc])) return LoopMarker{f.body[pc].loc.ptx_line, true};
    using O = ir::Opcode;
    for (uint32_t pc = b.begin; pc < b.end; ++pc) {
        const auto& in = f.body[pc];
        const bool fp = in.d.type == ir::Type::f32 || in.d.type == ir::Type::f64;
        if (fp &&
            (in.op == O::add || in.op == O::sub || in.op == O::mul || in.op == O::fma || in.op == O::mad))
            return LoopMarker{in.loc.ptx_line, false};
    }
    return std::nullopt;
}

bool is_copy(const Instruction& in, const LoopMarker& m) {
    if (in.ptx_line != m.line) return false;
    if (m.memory) return in.memory();
    const auto name = in.mnemonic();
    return name == "FADD" || name == "FMUL" || name == "FFMA" || name == "DADD" || name == "DMUL" ||
           name == "DFMA";
}

// One-block PTX loops that ptxas unrolled further (a SASS block holds two or more trips of the body), with
// their SASS blocks (those anchored on the loop block) as the nodes of a counts::UnrolledLoop. A loop whose
// copies are predicated, whose blocks end the thread, or which is entered from more than one SASS block is
// left to the other checks (which refuse it). in_loop[b]: (loop, node) of SASS block b, or kNone.
std::vector<counts::UnrolledLoop> unrolled_loops(const ir::Function& f, uint32_t function,
                                                 const PtxShape& ptx, const Function& code,
                                                 const SassBlocks& sb, const std::vector<uint32_t>& anchor,
                                                 std::vector<std::pair<uint32_t, uint32_t>>& in_loop,
                                                 std::vector<uint32_t>& entry_of) {
    using U = counts::UnrolledLoop;
    std::vector<U> out;
    const auto n = static_cast<uint32_t>(sb.begin.size());
    in_loop.assign(n, {kNone, kNone});
    entry_of.assign(n, kNone);
    for (uint32_t lb = 0; lb < ptx.cfg.blocks.size(); ++lb) {
        const auto& pb = ptx.cfg.blocks[lb];
        if (std::find(pb.succs.begin(), pb.succs.end(), lb) == pb.succs.end()) continue;
        const auto marker = loop_marker(f, ptx, lb);
        if (!marker) continue;
        std::vector<uint32_t> region;
        std::map<uint32_t, int32_t> node_of;
        for (uint32_t b = 0; b < n; ++b)
            if (sb.reachable[b] && anchor[b] == lb) {
                node_of[b] = static_cast<int32_t>(region.size());
                region.push_back(b);
            }
        U loop;
        loop.function = function;
        loop.header_pc = pb.begin;
        loop.header_line = f.body[pb.begin].loc.ptx_line;
        bool ok = !region.empty(), unrolled = false;
        for (uint32_t b : region) {
            U::Node node;
            for (uint32_t i = sb.begin[b]; i < sb.end[b]; ++i) {
                const Instruction& in = code.code[i];
                if (in.op && in.op->space == MemSpace::Global && in.op->mem == MemOp::Load)
                    ++node.global_loads;
                if (in.op && in.op->space == MemSpace::Global && in.op->mem == MemOp::Store)
                    ++node.global_stores;
                if (in.op && in.op->space == MemSpace::Global && !in.always()) node.guarded_access = true;
                if (!is_copy(code.code[i], *marker)) continue;
                ok = ok && code.code[i].always();
                ++node.copies;
            }
            unrolled = unrolled || node.copies >= 2;
            const Instruction& last = code.code[sb.end[b] - 1];
            ok = ok && flow_of(last) != Flow::Exit;
            auto to = [&](uint32_t s) { return node_of.count(s) ? node_of[s] : U::kExit; };
            if (flow_of(last) == Flow::Branch) {
                node.taken = to(sb.succs[b][0]);
                node.conditional = !last.always();
                if (node.conditional) node.fall = sb.succs[b].size() > 1 ? to(sb.succs[b][1]) : U::kNone;
            } else if (!sb.succs[b].empty()) {
                node.fall = to(sb.succs[b][0]);
            }
            loop.nodes.push_back(node);
        }
        // Exactly one SASS block outside leads in: the loop's preheader, run once per entry.
        std::set<uint32_t> from;
        for (uint32_t b : region)
            for (uint32_t p : sb.preds[b])
                if (!node_of.count(p)) from.insert(p);
        ok = ok && unrolled && from.size() == 1;
        if (!ok) continue;
        const uint32_t pre = *from.begin();
        const Instruction& last = code.code[sb.end[pre] - 1];
        auto to = [&](uint32_t s) { return node_of.count(s) ? node_of[s] : U::kExit; };
        if (flow_of(last) == Flow::Branch) {
            loop.entry_taken = to(sb.succs[pre][0]);
            if (!last.always() && sb.succs[pre].size() > 1) loop.entry_fall = to(sb.succs[pre][1]);
        } else if (!sb.succs[pre].empty()) {
            loop.entry_fall = to(sb.succs[pre][0]);
        }
        for (uint32_t s : pb.succs)
            if (s != lb && s < ptx.cfg.blocks.size()) loop.exit_pcs.push_back(ptx.cfg.blocks[s].begin);
        if (loop.exit_pcs.empty()) continue;
        for (std::size_t k = 0; k < region.size(); ++k)
            in_loop[region[k]] = {static_cast<uint32_t>(out.size()), static_cast<uint32_t>(k)};
        // Its branch's lanes follow the walk when both its ways lead into the loop; a way around the loop
        // runs also where the loop is not entered, which lanes_of counts.
        if (loop.entry_taken >= 0 && loop.entry_fall >= 0) entry_of[pre] = static_cast<uint32_t>(out.size());
        out.push_back(std::move(loop));
    }
    return out;
}

// A SASS block outside the SASS loop of its PTX block (ptxas hoisted loop-invariant instructions of the loop
// body, a constant load, in front of the loop), reached only from a guarded branch whose one side is that
// PTX block: it runs once per warp entering the loop there, as a block on that edge of the branch does
// (edges[b], as edge_blocks makes them).
void hoisted_entries(const ir::Function& f, const PtxShape& ptx, const Function& code, const SassBlocks& sb,
                     const std::vector<uint32_t>& anchor, const std::vector<uint32_t>& sass_depth,
                     std::vector<counts::SassPlan::Block>& edges) {
    using Runs = counts::SassPlan::Runs;
    for (uint32_t b = 0; b < sb.begin.size(); ++b) {
        if (!sb.reachable[b] || edges[b].runs != Runs::with_block || anchor[b] == kNone ||
            sass_depth[b] >= ptx.depth[anchor[b]] || sb.preds[b].size() != 1 || sb.succs[b].size() != 1)
            continue;
        const uint32_t p = sb.preds[b][0];
        const Instruction& last = code.code[sb.end[p] - 1];
        const auto pc = line_pc(ptx, last);
        if (flow_of(last) != Flow::Branch || last.always() || !pc || f.body[*pc].op != ir::Opcode::bra ||
            f.body[*pc].pred.reg == ir::kNoReg || *pc + 1 >= f.body.size())
            continue;
        if (anchor[b] == branch_target_block(f, ptx, *pc))
            edges[b] = {0, *pc, 0, Runs::on_taken};
        else if (anchor[b] == ptx.cfg.block_of_pc[*pc + 1])
            edges[b] = {0, *pc, 0, Runs::on_fallthrough};
    }
}

// The BSYNC of every BSSY region and the conditional branches directly inside it (not in a nested region):
// a warp that diverges at one of them arrives at the BSYNC in two groups and issues it twice.
// The branches of unrolled loops and into them (loop_branch, per SASS instruction: (loop, node), node ==
// nodes.size() for the branch into it) split a warp where its lanes leave after different trip counts, as
// often as the lanes' walks say (SassPlan::LoopRejoin).
bool plan_rejoins(const ir::Function& f, uint32_t function, const PtxShape& ptx, const Function& code,
                  const SassBlocks& sb, const std::vector<bool>& live,
                  const std::vector<std::pair<uint32_t, uint32_t>>& loop_branch, counts::SassPlan& plan,
                  std::string& why) {
    const auto& index_of = sb.index_of;
    struct Region {
        uint32_t begin = 0, bsync = 0;
    };
    std::vector<Region> regions;
    for (uint32_t i = 0; i < code.code.size(); ++i) {
        const Instruction& in = code.code[i];
        if (!live[i] || !in.op || in.op->mnemonic != "BSSY") continue;
        auto it = index_of.find(in.target - 16);
        if (it == index_of.end() || it->second <= i || code.code[it->second].mnemonic() != "BSYNC") {
            why = fmt::format("the BSSY at SASS {:#06x} has no BSYNC before its target", in.offset);
            return false;
        }
        regions.push_back({i, it->second});
    }
    for (uint32_t k = 0; k < code.code.size(); ++k) {
        const Instruction& in = code.code[k];
        if (!live[k] || !in.op || in.op->flow != Flow::Branch || in.always()) continue;
        // A slow-path call's branch sends no lane to the call while the counts hold (Runs::on_slow_path).
        if (const auto pc = line_pc(ptx, in); pc && has_counted_slow_path(f.body[*pc])) continue;
        const Region* inner = nullptr;
        for (const auto& r : regions)
            if (r.begin < k && k < r.bsync && (!inner || r.begin > inner->begin)) inner = &r;
        if (!inner) continue;
        if (loop_branch[k].first != kNone) {
            const auto bsync_line = ptx.pc(code.code[inner->bsync].ptx_line);
            const auto& loop = plan.loops[loop_branch[k].first];
            plan.loop_rejoins.push_back(
                {loop_branch[k].first, loop_branch[k].second, bsync_line.value_or(loop.header_pc)});
            continue;
        }
        auto pc = line_pc(ptx, in);
        if (pc)
            if (const auto guard = paired_guarded_branch(f, *pc)) pc = guard;
        if (!pc || f.body[*pc].op != ir::Opcode::bra || f.body[*pc].pred.reg == ir::kNoReg) {
            why = fmt::format("the branch at SASS {:#06x} inside a BSSY region is no PTX branch", in.offset);
            return false;
        }
        const auto bsync_line = ptx.pc(code.code[inner->bsync].ptx_line);
        plan.rejoins.push_back({function, *pc, bsync_line.value_or(*pc)});
    }
    return true;
}

}  // namespace

void plan_instruction_counts(const ir::Module& module, uint32_t function, const Function& code,
                             counts::SassPlan& plan) {
    if (function >= module.functions.size() || code.code.empty())
        return refuse(plan, "no SASS for the kernel");
    const ir::Function& f = module.functions[function];
    for (const auto& in : f.body)
        if (in.op == ir::Opcode::call) return refuse(plan, "the kernel calls functions");
    const SassBlocks sb = sass_blocks(code);
    if (!sb.error.empty()) return refuse(plan, sb.error);
    const PtxShape ptx(f);
    // Blocks holding a slow-path call run with the division or reciprocal at slow_pc (Runs::on_slow_path).
    const auto n = static_cast<uint32_t>(sb.begin.size());
    std::vector<uint32_t> slow_pc(n, kNone);
    std::vector<bool> live(code.code.size(), false);
    for (uint32_t b = 0; b < n; ++b) {
        if (!sb.reachable[b]) continue;
        for (uint32_t i = sb.begin[b]; i < sb.end[b]; ++i) {
            live[i] = true;
            if (flow_of(code.code[i]) != Flow::Call) continue;
            const auto pc = ptx.pc(code.code[i].ptx_line);
            if (!pc || !has_counted_slow_path(f.body[*pc]))
                return refuse(plan, fmt::format("the SASS calls a subroutine at {:#06x} (PTX line {}), whose "
                                                "path the counts do not follow",
                                                code.code[i].offset, code.code[i].ptx_line));
            if (slow_pc[b] != kNone && slow_pc[b] != *pc)
                return refuse(plan, fmt::format("the SASS block at {:#06x} calls two slow paths",
                                                code.code[sb.begin[b]].offset));
            slow_pc[b] = *pc;
        }
    }
    auto slow = [&](uint32_t b) { return slow_pc[b] != kNone; };
    // Successors and predecessors apart from slow-path blocks: the flow while no lane takes a slow path.
    auto fast_succs = [&](uint32_t b) {
        std::vector<uint32_t> out;
        for (uint32_t s : sb.succs[b])
            if (!slow(s)) out.push_back(s);
        return out;
    };
    auto fast_preds = [&](uint32_t b) {
        std::vector<uint32_t> out;
        for (uint32_t p : sb.preds[b])
            if (!slow(p)) out.push_back(p);
        return out;
    };
    const auto sass_idom = dominators(sb.succs);
    const auto sass_depth = loop_depths(sb.succs, sass_idom);
    std::vector<uint32_t> anchor(n, kNone);
    std::string why;
    for (uint32_t b = 0; b < n; ++b) {
        if (!sb.reachable[b] || slow(b)) continue;
        auto a = choose_anchor(f, ptx, code, sb.begin[b], sb.end[b], why);
        if (!why.empty()) return refuse(plan, why);
        if (a) anchor[b] = *a;
    }
    // Blocks without a PTX line of their own run with their only predecessor (or successor) when that one
    // has no other way out (in).
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = 0; b < n; ++b) {
            if (!sb.reachable[b] || slow(b) || anchor[b] != kNone) continue;
            const auto preds = fast_preds(b), succs = fast_succs(b);
            if (preds.size() == 1 && fast_succs(preds[0]).size() == 1 && anchor[preds[0]] != kNone) {
                anchor[b] = anchor[preds[0]];
                changed = true;
            } else if (succs.size() == 1 && fast_preds(succs[0]).size() == 1 && anchor[succs[0]] != kNone) {
                anchor[b] = anchor[succs[0]];
                changed = true;
            }
        }
    }
    std::vector<std::pair<uint32_t, uint32_t>> in_loop;
    std::vector<uint32_t> entry_of;  // SASS block -> the unrolled loop it leads into (kNone)
    auto loops = unrolled_loops(f, function, ptx, code, sb, anchor, in_loop, entry_of);
    if (auto line = duplicated_memory_line(f, ptx, code, sb, in_loop))
        return refuse(plan,
                      fmt::format("ptxas emitted the memory access of PTX line {} more than once, as in "
                                  "an unrolled loop",
                                  *line));
    auto edges = edge_blocks(f, ptx, code, sb);
    hoisted_entries(f, ptx, code, sb, anchor, sass_depth, edges);
    std::map<uint32_t, std::vector<uint32_t>> sass_of_ptx;
    std::map<std::pair<uint32_t, counts::SassPlan::Runs>, uint32_t> sass_of_edge;
    for (uint32_t b = 0; b < n; ++b) {
        if (!sb.reachable[b] || slow(b) || in_loop[b].first != kNone) continue;
        if (edges[b].runs != counts::SassPlan::Runs::with_block) {
            if (!sass_of_edge.emplace(std::pair{edges[b].anchor_pc, edges[b].runs}, b).second)
                return refuse(plan, fmt::format("two SASS blocks on one edge of the PTX branch at line {}",
                                                f.body[edges[b].anchor_pc].loc.ptx_line));
            continue;
        }
        if (anchor[b] == kNone)
            return refuse(plan, fmt::format("the SASS block at {:#06x} carries no PTX line to count it by",
                                            code.code[sb.begin[b]].offset));
        if (sass_depth[b] != ptx.depth[anchor[b]])
            return refuse(plan,
                          fmt::format("the SASS block at {:#06x} lies in {} loops, its PTX block in {} "
                                      "(ptxas restructured a loop)",
                                      code.code[sb.begin[b]].offset, sass_depth[b], ptx.depth[anchor[b]]));
        sass_of_ptx[anchor[b]].push_back(b);
    }
    // A PTX block split over several SASS blocks: they must run one after the other, each once.
    for (const auto& [pb, list] : sass_of_ptx) {
        for (std::size_t k = 1; k < list.size(); ++k) {
            const uint32_t x = list[k - 1], y = list[k];
            const auto succs = fast_succs(x);
            if (succs.size() != 1 || succs[0] != y || fast_preds(y).size() != 1)
                return refuse(plan,
                              fmt::format("the PTX block at line {} runs in SASS blocks {:#06x} and {:#06x} "
                                          "that need not run together (duplicated or unrolled code)",
                                          f.body[ptx.cfg.blocks[pb].begin].loc.ptx_line,
                                          code.code[sb.begin[x]].offset, code.code[sb.begin[y]].offset));
        }
    }
    plan.blocks.clear();
    plan.line_shares.clear();
    std::map<int64_t, uint32_t> anchor_at;  // SASS block start offset -> its PTX block
    for (uint32_t b = 0; b < n; ++b)
        if (sb.reachable[b]) anchor_at.emplace(code.code[sb.begin[b]].offset, anchor[b]);
    const auto& index_at = sb.index_of;
    // A branch to a BSYNC sends its lanes on to what follows the rejoin: the PTX block of the first
    // instruction after it with a line of its own (the BSYNC's block may take its anchor from the path that
    // falls into it).
    auto anchor_of = [&](int64_t offset) {
        if (auto at = index_at.find(offset); at != index_at.end()) {
            uint32_t k = at->second;
            while (k < code.code.size() && code.code[k].mnemonic() == "BSYNC") ++k;
            if (k != at->second && k < code.code.size())
                if (const auto pc = line_pc(ptx, code.code[k])) return ptx.cfg.block_of_pc[*pc];
        }
        auto it = anchor_at.find(offset);
        return it == anchor_at.end() ? kNone : it->second;
    };
    plan.pred_on_mapped = true;
    for (uint32_t b = 0; b < n; ++b) {
        if (!sb.reachable[b]) continue;
        if (slow(b)) {
            const auto index = static_cast<uint32_t>(plan.blocks.size());
            plan.blocks.push_back(
                {function, slow_pc[b], sb.end[b] - sb.begin[b], counts::SassPlan::Runs::on_slow_path});
            for (uint32_t i = sb.begin[b]; i < sb.end[b]; ++i) {
                const auto pc = line_pc(ptx, code.code[i]).value_or(slow_pc[b]);
                plan.line_shares.push_back({index, pc, counts::SassPlan::Lanes::issued, pc});
            }
            continue;
        }
        if (in_loop[b].first != kNone) {
            const auto index = static_cast<uint32_t>(plan.blocks.size());
            const auto& loop = loops[in_loop[b].first];
            plan.blocks.push_back({function, loop.header_pc, sb.end[b] - sb.begin[b],
                                   counts::SassPlan::Runs::in_unrolled_loop, in_loop[b].first,
                                   in_loop[b].second});
            for (uint32_t i = sb.begin[b]; i < sb.end[b]; ++i) {
                const Instruction& in = code.code[i];
                const uint32_t pc = line_pc(ptx, in).value_or(loop.header_pc);
                auto lanes = counts::SassPlan::Lanes::issued;
                if (!in.always())
                    lanes = flow_of(in) == Flow::Branch && i + 1 == sb.end[b]
                                ? counts::SassPlan::Lanes::loop_branch
                                : counts::SassPlan::Lanes::unknown;
                if (lanes == counts::SassPlan::Lanes::unknown) plan.pred_on_mapped = false;
                plan.line_shares.push_back({index, pc, lanes, pc});
            }
            continue;
        }
        const bool edge = edges[b].runs != counts::SassPlan::Runs::with_block;
        const uint32_t anchor_pc = edge ? edges[b].anchor_pc : ptx.cfg.blocks[anchor[b]].begin;
        const auto index = static_cast<uint32_t>(plan.blocks.size());
        plan.blocks.push_back({function, anchor_pc, sb.end[b] - sb.begin[b], edges[b].runs});
        for (uint32_t i = sb.begin[b]; i < sb.end[b]; ++i) {
            auto share = lanes_of(f, ptx, code, i, anchor[b], anchor_of);
            share.block = index;
            // The branch into an unrolled loop goes by the trips the loop's entries make.
            if (entry_of[b] != kNone && i + 1 == sb.end[b] && flow_of(code.code[i]) == Flow::Branch &&
                !code.code[i].always()) {
                share.lanes = counts::SassPlan::Lanes::loop_entry;
                share.loop = entry_of[b];
            }
            if (share.lanes == counts::SassPlan::Lanes::unknown) plan.pred_on_mapped = false;
            plan.line_shares.push_back(share);
        }
    }
    plan.loops = std::move(loops);
    plan.rejoins.clear();
    plan.loop_rejoins.clear();
    std::vector<std::pair<uint32_t, uint32_t>> loop_branch(code.code.size(), {kNone, kNone});
    for (uint32_t b = 0; b < n; ++b) {
        if (in_loop[b].first != kNone) loop_branch[sb.end[b] - 1] = in_loop[b];
        if (entry_of[b] != kNone)
            loop_branch[sb.end[b] - 1] = {entry_of[b],
                                          static_cast<uint32_t>(plan.loops[entry_of[b]].nodes.size())};
    }
    if (!plan_rejoins(f, function, ptx, code, sb, live, loop_branch, plan, why)) return refuse(plan, why);
    plan.instructions_mapped = true;
    plan.instruction_counting = "per SASS instruction (ptxas sm_90)";
}

}  // namespace warpsim::sass
