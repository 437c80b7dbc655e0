// sim/timing/sass_loops.cpp — the loops of an sm_90 SASS function and the round trips their loads wait for.
#include "sim/timing/sass_loops.hpp"

#include <algorithm>
#include <array>

namespace warpsim::timing {

// The control bits start at bit 105 (bit 41 of the high word): stall count (4 bits), yield (1), write
// scoreboard (3), read scoreboard (3), wait mask (6), operand reuse (4). Checked on ptxas's code for
// tests/timing/mlp: each LDG of sumk_u8 sets its own scoreboard 0-5 and each FADD waits for that of the load
// it adds.
uint8_t write_scoreboard(const sass::Instruction& inst) {
    return static_cast<uint8_t>((inst.hi >> 46) & 7);
}
uint8_t wait_mask(const sass::Instruction& inst) {
    return static_cast<uint8_t>((inst.hi >> 52) & 0x3f);
}

namespace {

bool is_global_load(const sass::Instruction& inst) {
    return inst.op && inst.op->space == sass::MemSpace::Global && inst.op->mem == sass::MemOp::Load;
}

SassLoop read_loop(const sass::Function& f, std::size_t first, std::size_t last) {
    SassLoop loop;
    loop.begin = f.code[first].offset;
    loop.end = f.code[last].offset;
    // pending[b]: the round in which the oldest still-pending LDG on scoreboard b was issued (-1: none).
    std::array<int, 6> pending;
    pending.fill(-1);
    int round = 0;
    for (std::size_t i = first; i <= last; ++i) {
        const auto& inst = f.code[i];
        const uint8_t wait = wait_mask(inst);
        bool ends_round = false;
        for (int b = 0; b < 6; ++b) {
            if (!((wait >> b) & 1) || pending[static_cast<std::size_t>(b)] < 0) continue;
            if (pending[static_cast<std::size_t>(b)] == round) ends_round = true;
            pending[static_cast<std::size_t>(b)] = -1;
        }
        if (ends_round) ++round;
        if (!is_global_load(inst)) continue;
        ++loop.loads;
        loop.load_lines.push_back(inst.ptx_line);
        const uint8_t sb = write_scoreboard(inst);
        if (sb < 6 && pending[sb] < 0) pending[sb] = round;
    }
    const bool open = std::any_of(pending.begin(), pending.end(), [&](int r) { return r == round; });
    loop.rounds = static_cast<uint32_t>(round + (open ? 1 : 0));
    return loop;
}

}  // namespace

std::vector<SassLoop> sass_loops(const sass::Function& f) {
    std::vector<SassLoop> out;
    for (std::size_t i = 0; i < f.code.size(); ++i) {
        const auto& inst = f.code[i];
        if (!inst.op || inst.op->flow != sass::Flow::Branch || inst.target < 0 ||
            inst.target > int64_t(inst.offset))
            continue;
        std::size_t first = i;
        while (first > 0 && int64_t(f.code[first].offset) > inst.target) --first;
        if (int64_t(f.code[first].offset) != inst.target) continue;
        SassLoop loop = read_loop(f, first, i);
        if (loop.loads > 0) out.push_back(std::move(loop));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const SassLoop& a, const SassLoop& b) { return a.end - a.begin < b.end - b.begin; });
    return out;
}

}  // namespace warpsim::timing
