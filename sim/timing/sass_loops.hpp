// sim/timing/sass_loops.hpp — how many global loads each loop of a kernel's SASS keeps in flight: the loops
// (a backward BRA to an earlier label), the LDGs of each body with their PTX lines, and the round trips one
// pass through the body waits for, read off the scoreboards ptxas sets in each instruction's control bits.
// ptxas may unroll a PTX loop further and issue the copies' loads together (a column sum: 4 loads per PTX
// iteration, 16 LDGs per SASS iteration waited for once), which the PTX does not show; the timing model takes
// it from here.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/sass/decode.hpp"

namespace warpsim::timing {

// The control bits of an sm_90 instruction (bits 105-125 of its 128): the scoreboard a variable-latency
// instruction (LDG, LDS, S2R, ...) releases when its result is written (7: none) and the scoreboards it waits
// for before it issues (bit b: scoreboard b).
uint8_t write_scoreboard(const sass::Instruction& inst);
uint8_t wait_mask(const sass::Instruction& inst);

struct SassLoop {
    uint32_t begin = 0, end = 0;  // byte offsets: the branch target, and the backward branch itself
    uint32_t loads = 0;           // LDG instructions in the body
    // Round trips to memory per pass through the body: waits on a scoreboard of an LDG issued since the last
    // such wait, plus one when loads issued after the last wait are still pending at the back edge.
    uint32_t rounds = 0;
    std::vector<uint32_t> load_lines;  // the PTX line of each LDG (0: no line table)
};

// Every loop of `f` whose body holds an LDG, innermost first where loops nest (by body size).
std::vector<SassLoop> sass_loops(const sass::Function& f);

}  // namespace warpsim::timing
