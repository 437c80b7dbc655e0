// sim/engine/reconverge.cpp — immediate post-dominators on the instruction-level CFG (Cooper, Harvey and
// Kennedy's iterative dominator algorithm run on the reversed graph).
#include "sim/engine/reconverge.hpp"

#include <algorithm>

namespace warpsim::engine {

namespace {
constexpr uint32_t kUnset = 0xffffffffu;

std::vector<std::vector<uint32_t>> successors(const ir::Function& fn) {
    const uint32_t n = static_cast<uint32_t>(fn.body.size());
    std::vector<std::vector<uint32_t>> succ(n);
    for (uint32_t pc = 0; pc < n; ++pc) {
        const ir::Instruction& in = fn.body[pc];
        const bool guarded = in.pred.reg != ir::kNoReg;
        auto& s = succ[pc];
        switch (in.op) {
        case ir::Opcode::bra:
            if (!in.args.empty() && in.args[0].kind == ir::Operand::Kind::symbol && in.args[0].imm >= 0)
                s.push_back(static_cast<uint32_t>(std::min<int64_t>(in.args[0].imm, n)));
            if (guarded || s.empty()) s.push_back(pc + 1);
            break;
        case ir::Opcode::brx:
            for (const auto& t : fn.branch_tables)
                if (in.args.size() > 1 && t.name == in.args[1].name)
                    for (uint32_t p : t.pcs) s.push_back(std::min(p, n));
            if (guarded || s.empty()) s.push_back(pc + 1);
            break;
        case ir::Opcode::exit:
        case ir::Opcode::ret:
        case ir::Opcode::trap:
            s.push_back(n);
            if (guarded) s.push_back(pc + 1);
            break;
        default:
            s.push_back(pc + 1);
        }
    }
    return succ;
}

}  // namespace

std::vector<uint32_t> immediate_post_dominators(const ir::Function& fn) {
    const uint32_t n = static_cast<uint32_t>(fn.body.size());
    const uint32_t exit = n;
    auto succ = successors(fn);
    // Predecessors in the reversed graph are the successors in the forward graph; walk the reversed graph
    // from the exit to get a postorder numbering.
    std::vector<std::vector<uint32_t>> rsucc(n + 1);  // reversed edges: exit -> ... -> entry
    for (uint32_t pc = 0; pc < n; ++pc)
        for (uint32_t s : succ[pc]) rsucc[s].push_back(pc);
    std::vector<uint32_t> order;  // postorder of the reversed graph
    std::vector<uint32_t> po(n + 1, kUnset);
    std::vector<std::pair<uint32_t, uint32_t>> work{{exit, 0}};
    std::vector<bool> seen(n + 1, false);
    seen[exit] = true;
    while (!work.empty()) {
        auto& [node, i] = work.back();
        if (i < rsucc[node].size()) {
            uint32_t next = rsucc[node][i++];
            if (!seen[next]) {
                seen[next] = true;
                work.push_back({next, 0});
            }
        } else {
            po[node] = static_cast<uint32_t>(order.size());
            order.push_back(node);
            work.pop_back();
        }
    }
    std::vector<uint32_t> ipdom(n + 1, kUnset);
    ipdom[exit] = exit;
    auto intersect = [&](uint32_t a, uint32_t b) {
        while (a != b) {
            while (po[a] < po[b]) a = ipdom[a];
            while (po[b] < po[a]) b = ipdom[b];
        }
        return a;
    };
    for (bool changed = true; changed;) {
        changed = false;
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            uint32_t node = *it;
            if (node == exit) continue;
            uint32_t idom = kUnset;
            for (uint32_t s : succ[node]) {  // reversed-graph predecessors
                if (ipdom[s] == kUnset) continue;
                idom = idom == kUnset ? s : intersect(s, idom);
            }
            if (idom != kUnset && ipdom[node] != idom) {
                ipdom[node] = idom;
                changed = true;
            }
        }
    }
    ipdom.pop_back();
    // Instructions that cannot reach the exit (infinite loops) reconverge nowhere: use the exit.
    for (auto& d : ipdom)
        if (d == kUnset) d = exit;
    return ipdom;
}

}  // namespace warpsim::engine
