// sim/engine/warp_runner.hpp — runs one warp over its reconvergence stack until it finishes, waits at a
// barrier, uses up its quantum, or faults; and the call-frame plumbing that call/ret share with it.
#pragma once

#include <cstdint>

#include "sim/engine/exec_state.hpp"

namespace warpsim::engine {

enum class RunStatus : uint8_t { quantum, barrier, done, error };

// Sets up a block's warps with the kernel's first frame.
void start_warps(BlockContext& block);

RunStatus run_warp(Warp& warp, BlockContext& block, uint64_t quantum);

// Hands the register files and stacks of a finished block's frames, its warps and its shared memory to
// block.register_pool for the next block.
void recycle_frames(BlockContext& block);

// Pushes a call frame for `fn` with lanes `mask` (returns false after raising a fault on stack overflow).
bool push_frame(Exec& x, const DInst& in, const DecodedFunction& fn, uint32_t mask, uint32_t call_site);

// Lanes of x.warp exited at `in` (exit, ret from the kernel, falling off its end): marks them, tells the
// observer, and releases barriers that only the now fully exited warp was holding up (handlers_barrier.cpp).
void lanes_exited(Exec& x, const DInst& in, uint32_t lanes);

// Removes lanes from every reconvergence entry of the current frame (ret) or of all frames (exit).
void retire_lanes(Warp& warp, uint32_t lanes, bool all_frames);

}  // namespace warpsim::engine
