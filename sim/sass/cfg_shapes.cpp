// sim/sass/cfg_shapes.cpp — dominators, loop depths, and the PTX and SASS basic blocks the plans compare.
#include "sim/sass/cfg_shapes.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include <fmt/format.h>

namespace warpsim::sass::shapes {

std::vector<uint32_t> dominators(const std::vector<std::vector<uint32_t>>& succs) {
    const auto n = static_cast<uint32_t>(succs.size());
    std::vector<uint32_t> order, rpo_index(n, kNone);
    std::vector<uint8_t> state(n, 0);
    std::vector<std::pair<uint32_t, std::size_t>> stack;  // iterative depth-first post-order
    if (n == 0) return {};
    stack.push_back({0, 0});
    state[0] = 1;
    while (!stack.empty()) {
        auto& [v, next] = stack.back();
        if (next < succs[v].size()) {
            const uint32_t w = succs[v][next++];
            if (w < n && state[w] == 0) {
                state[w] = 1;
                stack.push_back({w, 0});
            }
            continue;
        }
        order.push_back(v);
        stack.pop_back();
    }
    std::reverse(order.begin(), order.end());
    for (uint32_t i = 0; i < order.size(); ++i) rpo_index[order[i]] = i;
    std::vector<std::vector<uint32_t>> preds(n);
    for (uint32_t v = 0; v < n; ++v)
        for (uint32_t w : succs[v])
            if (w < n) preds[w].push_back(v);
    std::vector<uint32_t> idom(n, kNone);
    idom[0] = 0;
    auto intersect = [&](uint32_t a, uint32_t b) {
        while (a != b) {
            while (rpo_index[a] > rpo_index[b]) a = idom[a];
            while (rpo_index[b] > rpo_index[a]) b = idom[b];
        }
        return a;
    };
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t i = 1; i < order.size(); ++i) {
            const uint32_t v = order[i];
            uint32_t d = kNone;
            for (uint32_t p : preds[v]) {
                if (idom[p] == kNone) continue;
                d = d == kNone ? p : intersect(p, d);
            }
            if (d != idom[v]) {
                idom[v] = d;
                changed = true;
            }
        }
    }
    return idom;
}

bool dominates(const std::vector<uint32_t>& idom, uint32_t a, uint32_t b) {
    if (idom[b] == kNone) return false;
    for (uint32_t v = b;; v = idom[v]) {
        if (v == a) return true;
        if (v == 0) return false;
    }
}

std::vector<uint32_t> loop_depths(const std::vector<std::vector<uint32_t>>& succs,
                                  const std::vector<uint32_t>& idom) {
    const auto n = static_cast<uint32_t>(succs.size());
    std::vector<std::vector<uint32_t>> preds(n);
    for (uint32_t v = 0; v < n; ++v)
        for (uint32_t w : succs[v])
            if (w < n) preds[w].push_back(v);
    std::map<uint32_t, std::set<uint32_t>> loops;  // header -> body
    for (uint32_t v = 0; v < n; ++v) {
        for (uint32_t h : succs[v]) {
            if (h >= n || !dominates(idom, h, v)) continue;
            auto& body = loops[h];
            body.insert(h);
            std::vector<uint32_t> work{v};
            while (!work.empty()) {
                const uint32_t x = work.back();
                work.pop_back();
                if (!body.insert(x).second) continue;
                for (uint32_t p : preds[x]) work.push_back(p);
            }
        }
    }
    std::vector<uint32_t> depth(n, 0);
    for (const auto& [h, body] : loops)
        for (uint32_t v : body) ++depth[v];
    return depth;
}

PtxShape::PtxShape(const ir::Function& f) : cfg(ir::build_cfg(f)) {
    std::vector<std::vector<uint32_t>> succs(cfg.blocks.size());
    for (std::size_t b = 0; b < cfg.blocks.size(); ++b)
        for (uint32_t s : cfg.blocks[b].succs)
            if (s < cfg.blocks.size()) succs[b].push_back(s);
    idom = dominators(succs);
    depth = loop_depths(succs, idom);
    for (uint32_t pc = 0; pc < f.body.size(); ++pc)
        if (f.body[pc].loc.ptx_line != 0) pc_of_line.emplace(f.body[pc].loc.ptx_line, pc);
}

bool PtxShape::post_dominates(uint32_t a, uint32_t b) const {
    for (uint32_t v = b; v < cfg.blocks.size(); v = cfg.blocks[v].ipdom) {
        if (v == a) return true;
        if (cfg.blocks[v].ipdom == v) return false;
    }
    return false;
}

std::optional<uint32_t> PtxShape::pc(uint32_t line) const {
    auto it = pc_of_line.find(line);
    return it == pc_of_line.end() ? std::nullopt : std::optional<uint32_t>(it->second);
}

SassBlocks sass_blocks(const Function& code) {
    SassBlocks out;
    const auto n = static_cast<uint32_t>(code.code.size());
    auto& index_of = out.index_of;
    for (uint32_t i = 0; i < n; ++i) index_of.emplace(code.code[i].offset, i);
    std::vector<bool> leader(n + 1, false);
    std::vector<int64_t> target(n, -1);
    leader[0] = true;
    for (uint32_t i = 0; i < n && out.error.empty(); ++i) {
        const Instruction& in = code.code[i];
        // An opcode the table does not know yet is an operand form of a known one or a new instruction; the
        // sm_90 control-flow opcodes all lie in 0x940-0x95f (opcodes.def), so one outside that range does not
        // change the warp's flow and counts as one instruction.
        if (!in.op && ((in.lo & 0xfff) >= 0x940 && (in.lo & 0xfff) <= 0x95f)) {
            out.error =
                fmt::format("a control-flow opcode the decoder does not know at SASS {:#06x}", in.offset);
            break;
        }
        switch (flow_of(in)) {
            // A CALL returns to the instruction after it, so the caller's flow goes on there; the subroutine
            // (after the kernel's last EXIT) is reached through no edge. Whether a reachable call can be
            // counted is for the planner to say; a RET or an indirect branch in reachable code cannot.
            case Flow::Call:
            case Flow::Return:
            case Flow::Indirect:
                break;
            case Flow::Branch: {
                auto it = index_of.find(in.target);
                if (it == index_of.end()) {
                    out.error = fmt::format("a branch at SASS {:#06x} without a known target", in.offset);
                    break;
                }
                target[i] = it->second;
                leader[it->second] = true;
                leader[i + 1] = true;
                break;
            }
            case Flow::Exit:
                leader[i + 1] = true;
                break;
            default:
                break;
        }
    }
    if (!out.error.empty()) return out;
    std::vector<uint32_t> block_of(n, 0);
    for (uint32_t i = 0; i < n; ++i) {
        if (leader[i]) {
            if (i > 0) out.end.push_back(i);
            out.begin.push_back(i);
        }
        block_of[i] = static_cast<uint32_t>(out.begin.size() - 1);
    }
    if (n > 0) out.end.push_back(n);
    const auto blocks = static_cast<uint32_t>(out.begin.size());
    out.succs.resize(blocks);
    out.preds.resize(blocks);
    for (uint32_t b = 0; b < blocks; ++b) {
        const uint32_t last = out.end[b] - 1;
        const Instruction& in = code.code[last];
        const bool ends_warp = flow_of(in) == Flow::Exit || flow_of(in) == Flow::Branch;
        if (flow_of(in) == Flow::Branch)
            out.succs[b].push_back(block_of[static_cast<uint32_t>(target[last])]);
        if ((!ends_warp || !in.always()) && out.end[b] < n) out.succs[b].push_back(b + 1);
        for (uint32_t s : out.succs[b]) out.preds[s].push_back(b);
    }
    out.reachable.assign(blocks, false);
    std::vector<uint32_t> work{0};
    while (!work.empty()) {
        const uint32_t b = work.back();
        work.pop_back();
        if (b >= blocks || out.reachable[b]) continue;
        out.reachable[b] = true;
        for (uint32_t s : out.succs[b]) work.push_back(s);
    }
    for (uint32_t i = 0; i < n && out.error.empty(); ++i) {
        const Instruction& in = code.code[i];
        if (!out.reachable[block_of[i]]) continue;
        if (flow_of(in) == Flow::Call) out.calls.push_back(i);
        if (flow_of(in) == Flow::Return || flow_of(in) == Flow::Indirect)
            out.error = fmt::format("the SASS returns or branches indirectly ({} at {:#06x})",
                                    in.op->mnemonic, in.offset);
    }
    return out;
}

}  // namespace warpsim::sass::shapes
