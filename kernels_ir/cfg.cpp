// kernels_ir/cfg.cpp — basic-block splitting and post-dominators (Cooper-Harvey-Kennedy on the reverse CFG).
#include "kernels_ir/cfg.hpp"

#include <algorithm>

namespace warpsim::ir {
namespace {

bool ends_block(const Instruction& inst) {
    switch (inst.op) {
        case Opcode::bra:
        case Opcode::brx:
        case Opcode::exit:
        case Opcode::ret:
        case Opcode::trap:
            return true;
        default:
            return false;
    }
}

// The label pc of a bra, or kNoPc when it has none (a malformed module); pcs past the end mean exit.
uint32_t branch_target(const Instruction& inst) {
    for (const auto& a : inst.args) {
        if (a.kind == Operand::Kind::symbol)
            return a.imm >= 0 && a.imm <= 0xfffffffe ? uint32_t(a.imm) : kNoPc;
    }
    return kNoPc;
}

std::vector<uint32_t> branch_targets(const Function& fn, const Instruction& inst) {
    std::vector<uint32_t> pcs;
    if (inst.op == Opcode::bra) {
        pcs.push_back(branch_target(inst));
    } else if (inst.op == Opcode::brx) {
        for (const auto& a : inst.args) {
            if (a.kind != Operand::Kind::symbol) continue;
            for (const auto& table : fn.branch_tables) {
                if (table.name == a.name) pcs.insert(pcs.end(), table.pcs.begin(), table.pcs.end());
            }
        }
    }
    return pcs;
}

std::vector<uint32_t> find_leaders(const Function& fn) {
    const auto n = static_cast<uint32_t>(fn.body.size());
    std::vector<bool> leader(n + 1, false);
    leader[0] = true;
    for (const auto& l : fn.labels) {
        if (l.pc < n) leader[l.pc] = true;
    }
    for (uint32_t pc = 0; pc < n; ++pc) {
        const Instruction& inst = fn.body[pc];
        if (!ends_block(inst)) continue;
        leader[pc + 1] = true;
        for (uint32_t t : branch_targets(fn, inst)) {
            if (t < n) leader[t] = true;
        }
    }
    std::vector<uint32_t> out;
    for (uint32_t pc = 0; pc < n; ++pc) {
        if (leader[pc]) out.push_back(pc);
    }
    return out;
}

void add_edges(const Function& fn, Cfg& cfg, uint32_t b) {
    const auto n = static_cast<uint32_t>(fn.body.size());
    const uint32_t exit = cfg.exit_block();
    auto block_at = [&](uint32_t pc) { return pc < n ? cfg.block_of_pc[pc] : exit; };
    BasicBlock& bb = cfg.blocks[b];
    const Instruction& last = fn.body[bb.end - 1];
    bool guarded = last.pred.reg != kNoReg;
    bool falls_through = !ends_block(last) || guarded;
    if (last.op == Opcode::bra || last.op == Opcode::brx) {
        for (uint32_t t : branch_targets(fn, last)) bb.succs.push_back(block_at(t == kNoPc ? n : t));
    } else if (ends_block(last)) {
        bb.succs.push_back(exit);
    }
    if (falls_through) bb.succs.push_back(block_at(bb.end));
    std::sort(bb.succs.begin(), bb.succs.end());
    bb.succs.erase(std::unique(bb.succs.begin(), bb.succs.end()), bb.succs.end());
}

void mark_reachable(Cfg& cfg) {
    std::vector<uint32_t> stack{0};
    cfg.blocks[0].reachable = true;
    while (!stack.empty()) {
        uint32_t b = stack.back();
        stack.pop_back();
        for (uint32_t s : cfg.blocks[b].succs) {
            if (s < cfg.blocks.size() && !cfg.blocks[s].reachable) {
                cfg.blocks[s].reachable = true;
                stack.push_back(s);
            }
        }
    }
}

using SuccLists = std::vector<std::vector<uint32_t>>;

// Post-order numbers of the reverse CFG rooted at the virtual exit; kNoPc for blocks that cannot reach it.
std::vector<uint32_t> reverse_postorder_numbers(const SuccLists& succs, std::vector<uint32_t>& order) {
    const auto exit = static_cast<uint32_t>(succs.size());
    SuccLists rev(exit + 1);  // rev[s] = blocks with an edge into s
    for (uint32_t b = 0; b < exit; ++b) {
        for (uint32_t s : succs[b]) rev[s].push_back(b);
    }
    std::vector<uint32_t> po(exit + 1, kNoPc);
    std::vector<bool> seen(exit + 1, false);
    std::vector<std::pair<uint32_t, std::size_t>> stack{{exit, 0}};
    seen[exit] = true;
    uint32_t counter = 0;
    while (!stack.empty()) {
        auto& [node, i] = stack.back();
        if (i < rev[node].size()) {
            uint32_t p = rev[node][i++];
            if (!seen[p]) {
                seen[p] = true;
                stack.push_back({p, 0});
            }
            continue;
        }
        po[node] = counter++;
        order.push_back(node);
        stack.pop_back();
    }
    return po;
}

void compute_ipdoms(Cfg& cfg) {
    const uint32_t exit = cfg.exit_block();
    SuccLists succs(exit);
    for (uint32_t b = 0; b < exit; ++b) succs[b] = cfg.blocks[b].succs;
    std::vector<uint32_t> order;  // post-order; exit last
    std::vector<uint32_t> po = reverse_postorder_numbers(succs, order);
    // Blocks that never reach the exit (endless loops) get a virtual edge to it, so that threads spinning
    // there do not hold the others back: whatever branches into such a loop reconverges at the exit.
    bool added = false;
    for (uint32_t b = 0; b < exit; ++b) {
        if (po[b] == kNoPc) {
            succs[b].push_back(exit);
            added = true;
        }
    }
    if (added) {
        order.clear();
        po = reverse_postorder_numbers(succs, order);
    }
    std::vector<uint32_t> ipdom(exit + 1, kNoPc);
    ipdom[exit] = exit;
    auto intersect = [&](uint32_t a, uint32_t b) {
        while (a != b) {
            while (po[a] < po[b]) a = ipdom[a];
            while (po[b] < po[a]) b = ipdom[b];
        }
        return a;
    };
    bool changed = true;
    while (changed) {
        changed = false;
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            uint32_t b = *it;
            if (b == exit) continue;
            uint32_t next = kNoPc;
            for (uint32_t s : succs[b]) {
                if (ipdom[s] == kNoPc) continue;
                next = next == kNoPc ? s : intersect(s, next);
            }
            if (next != ipdom[b]) {
                ipdom[b] = next;
                changed = true;
            }
        }
    }
    for (uint32_t b = 0; b < exit; ++b) cfg.blocks[b].ipdom = ipdom[b] == kNoPc ? exit : ipdom[b];
}

}  // namespace

Cfg build_cfg(const Function& fn) {
    Cfg cfg;
    const auto n = static_cast<uint32_t>(fn.body.size());
    cfg.block_of_pc.assign(n, 0);
    cfg.reconverge_pc.assign(n, kNoPc);
    if (n == 0) return cfg;
    std::vector<uint32_t> leaders = find_leaders(fn);
    for (std::size_t i = 0; i < leaders.size(); ++i) {
        BasicBlock bb;
        bb.begin = leaders[i];
        bb.end = i + 1 < leaders.size() ? leaders[i + 1] : n;
        for (uint32_t pc = bb.begin; pc < bb.end; ++pc) cfg.block_of_pc[pc] = static_cast<uint32_t>(i);
        cfg.blocks.push_back(std::move(bb));
    }
    for (uint32_t b = 0; b < cfg.blocks.size(); ++b) add_edges(fn, cfg, b);
    for (uint32_t b = 0; b < cfg.blocks.size(); ++b) {
        for (uint32_t s : cfg.blocks[b].succs) {
            if (s < cfg.blocks.size()) cfg.blocks[s].preds.push_back(b);
        }
    }
    mark_reachable(cfg);
    compute_ipdoms(cfg);
    for (const auto& bb : cfg.blocks) {
        cfg.reconverge_pc[bb.end - 1] = bb.ipdom == cfg.exit_block() ? n : cfg.blocks[bb.ipdom].begin;
    }
    return cfg;
}

}  // namespace warpsim::ir
