// sim/sass/cfg_shapes.hpp — the control-flow shapes the SASS plans compare (sim/sass/block_counts.cpp): the
// dominators and loop depths of a graph, a PTX function's basic blocks with their dominators, post-dominators
// and loop depths (PtxShape), and a SASS function's basic blocks (SassBlocks).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kernels_ir/cfg.hpp"
#include "kernels_ir/ir.hpp"
#include "sim/sass/decode.hpp"

namespace warpsim::sass::shapes {

// Immediate dominators of a graph given by successor lists, entry node 0 (Cooper, Harvey, Kennedy);
// unreachable nodes keep idom == kNone.
constexpr uint32_t kNone = 0xffffffffu;

std::vector<uint32_t> dominators(const std::vector<std::vector<uint32_t>>& succs);
bool dominates(const std::vector<uint32_t>& idom, uint32_t a, uint32_t b);
// Loop depth of every node: the number of natural loops (back edges v -> h with h dominating v) holding it.
std::vector<uint32_t> loop_depths(const std::vector<std::vector<uint32_t>>& succs,
                                  const std::vector<uint32_t>& idom);

// The PTX side: basic blocks, dominators, post-dominators, loop depths, and the pc of every PTX line.
struct PtxShape {
    ir::Cfg cfg;
    std::vector<uint32_t> idom, depth;
    std::map<uint32_t, uint32_t> pc_of_line;

    explicit PtxShape(const ir::Function& f);
    bool post_dominates(uint32_t a, uint32_t b) const;
    std::optional<uint32_t> pc(uint32_t line) const;
};

// The SASS side: basic blocks [begin, end) of instruction indices, successors, reachability.
struct SassBlocks {
    std::vector<uint32_t> begin, end;
    std::vector<std::vector<uint32_t>> succs, preds;
    std::vector<bool> reachable;
    std::vector<uint32_t> calls;           // indices of the reachable CALL instructions
    std::map<int64_t, uint32_t> index_of;  // SASS offset -> instruction index
    std::string error;                     // why the SASS cannot be mapped ("" when it can)
};

inline Flow flow_of(const Instruction& in) {
    return in.op ? in.op->flow : Flow::None;
}

// The SASS control-flow graph: blocks split at branch targets, after BRA and EXIT; `error` says why it cannot
// be mapped (an unknown control-flow opcode, a branch without a known target, a reachable RET or indirect
// branch).
SassBlocks sass_blocks(const Function& code);

}  // namespace warpsim::sass::shapes
