// kernels_ir/cfg.hpp — basic blocks, successors and immediate post-dominators (SIMT reconvergence points).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels_ir/ir.hpp"

namespace warpsim::ir {

inline constexpr uint32_t kNoPc = 0xffffffffu;

struct BasicBlock {
    uint32_t begin = 0, end = 0;  // instruction pcs [begin, end)
    std::vector<uint32_t> succs;  // block indices; kExitBlock (== blocks.size()) is the virtual exit
    std::vector<uint32_t> preds;  // block indices (the virtual exit has no entry here)
    uint32_t ipdom = 0;           // immediate post-dominator block (blocks.size(): the virtual exit)
    bool reachable = false;       // reachable from the entry block
};

struct Cfg {
    std::vector<BasicBlock> blocks;
    std::vector<uint32_t> block_of_pc;  // pc -> block index
    // For every bra/brx pc (guarded or not), and for every other instruction that ends a block: the pc where
    // the paths leaving it meet again, i.e. the first pc of the immediate post-dominator block; body.size()
    // (the virtual exit) when they only meet at exit/ret. kNoPc for instructions inside a block.
    std::vector<uint32_t> reconverge_pc;
    uint32_t exit_block() const { return static_cast<uint32_t>(blocks.size()); }
};

// Builds the CFG of a function with a body. Edges: bra (to its label; guarded also falls through), brx (to
// every entry of its .branchtargets table and fall through), exit/ret/trap (to the virtual exit; guarded also
// fall through), the last instruction falls through to the virtual exit. Loops without any path to exit
// post-dominate nothing: their blocks get the virtual exit as ipdom.
Cfg build_cfg(const Function& fn);

}  // namespace warpsim::ir
