// sim/counts/unrolled_loop.hpp — a one-block PTX loop that ptxas unrolled further than the PTX, with
// remainder blocks (counts::SassPlan::loops): which of its SASS blocks a warp runs, and how often, for a
// given trip count, or for lanes that leave it after different ones.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace warpsim::counts {

// The SASS blocks a loop's trips run in: a main loop holding `copies` trips of the PTX body (ptxas's unrolled
// loop), straight or looping remainder blocks holding fewer, and blocks of none (the tests between them).
// ptxas chooses among them by the trips left: the largest chunk that still fits, as in the H200's counts of
// tests/sass/cases (tests/sass/block_counts_tests.cpp).
struct UnrolledLoop {
    static constexpr int32_t kNone = -1;  // no such edge
    static constexpr int32_t kExit = -2;  // the edge leaves the loop's SASS blocks
    struct Node {
        uint32_t copies = 0;       // trips of the PTX loop body one run holds
        int32_t taken = kNone;     // the node its last instruction branches to (kExit, kNone)
        int32_t fall = kNone;      // the node it falls through to (kExit, kNone)
        bool conditional = false;  // its branch is predicated: taken and fall are the two ways on
        uint32_t global_loads = 0, global_stores = 0;  // its LDG / STG instructions
        bool guarded_access = false;                   // one of them is predicated
    };
    uint32_t function = 0, header_pc = 0;  // the PTX loop block's first instruction
    uint32_t header_line = 0;              // its PTX line, for messages
    std::vector<uint32_t> exit_pcs;        // first instructions of the PTX blocks the loop leaves to
    std::vector<Node> nodes;
    // The SASS block before the loop: where it goes into the loop (its branch's target and its fall-through;
    // kExit where an edge skips the loop, kNone where it has no such edge).
    int32_t entry_taken = kNone, entry_fall = kNone;
};

// How often each node runs, and how often its branch is taken, in one entry of `trips` trips (>= 1).
struct LoopWalk {
    std::vector<uint64_t> runs, taken;
    bool entry_taken = false;  // the block before the loop went in by its branch
};
// nullopt when the chunks cannot make `trips` (no node fits what is left, or the walk does not end).
std::optional<LoopWalk> walk_unrolled_loop(const UnrolledLoop& loop, uint64_t trips);

// One warp entry whose lanes leave after different trip counts: each lane walks the chunks its own trips
// need (walk_unrolled_loop), and the warp runs a node as often as its busiest lane does (a node in a loop of
// its own until its last lane leaves; another node once if any lane goes through it: the lanes meet again at
// the BSYNC ptxas puts after each chunk). Per node: the warp's runs, the lanes summed over them, the lanes
// that took its branch, and the runs at which its branch split the lanes (divergent: a BSYNC that the split
// groups reach apart is issued once more each). The last element is the entry: the branch into the loop.
struct GroupWalk {
    struct Node {
        uint64_t runs = 0, lanes = 0, taken = 0, taken_lanes = 0, divergent = 0;
    };
    std::vector<Node> nodes;  // loop.nodes.size() + 1
};
// `lanes`: (trip count >= 1, lanes with it) of the entry. nullopt when a trip count does not walk, or a lane
// runs a node that is not a loop of its own more than once (its lanes' groups are not known then).
std::optional<GroupWalk> walk_lane_groups(const UnrolledLoop& loop,
                                          const std::vector<std::pair<uint64_t, uint32_t>>& lanes);

}  // namespace warpsim::counts
