// sim/timing/profile.hpp — what the timing model needs from one simulated launch: the launch shape,
// occupancy, per-class issue counts, memory traffic per level, and the executed basic blocks with their
// dependency graphs (so the per-warp latency chain can be recomputed for any parameter set).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace warpsim::ir {
struct Function;
}  // namespace warpsim::ir

namespace warpsim::session {
struct PreparedLaunch;
struct SimRun;
}  // namespace warpsim::session

namespace warpsim::timing {

// Issue classes: what pipe an instruction occupies. Order matters: class_names() follows it.
enum class Pipe : uint8_t { int_alu, fp32, fp64, fp16, sfu, lsu, branch, barrier, warp, misc, count };
inline constexpr std::size_t kPipeCount = static_cast<std::size_t>(Pipe::count);
const char* pipe_name(Pipe p);

// Latency kinds of the dependency graph.
enum class LatKind : uint8_t { alu, fp32, fp64, sfu, shared, global, constant, warp, barrier, none };

// One instruction of an executed basic block: its latency kind, the in-block producers of its sources
// (indices into the block; -1 none) and, for memory, where its data comes from.
struct ChainInst {
    LatKind kind = LatKind::alu;
    std::array<int16_t, 4> deps{-1, -1, -1, -1};
    float l1_hit = 0;        // share of sectors that hit in L1 (global loads)
    float lines = 1;         // distinct 128-byte lines per request (global loads)
    float extra_passes = 0;  // shared: wavefronts per request beyond the first (bank conflicts)
    bool is_load = false;    // stores do not produce a value the chain waits for
};

struct ChainBlock {
    double warp_execs = 0;  // warp-level executions of the block's first instruction, whole launch
    std::vector<ChainInst> insts;
    // Where ptxas unrolled the loop this block belongs to beyond the PTX (sass_loops.hpp): the copies of the
    // block's global loads in one pass through the SASS loop, and the round trips that pass waits for (0: not
    // known, or not unrolled further).
    double sass_copies = 1, sass_rounds = 0;
};

// Everything the model reads, per launch. Totals are whole-launch; the model divides by blocks.
struct LaunchProfile {
    std::string kernel;
    uint64_t blocks = 0;
    uint32_t threads_per_block = 0;
    uint32_t warps_per_block = 0;
    uint32_t blocks_per_sm = 1;  // from occupancy
    uint32_t sm_count = 132;
    double clock_mhz = 1980;
    double dram_peak_gbps = 4800;
    std::array<double, kPipeCount> warp_insts{};  // per issue class
    double global_sectors = 0;                    // L1TEX sectors of global + local accesses
    double shared_wavefronts = 0;
    double shared_ideal_wavefronts = 0;
    double l2_sectors = 0;        // sectors the L2 serves (reads, writes, atomics)
    double l2_read_hit_rate = 0;  // of L2 read sectors
    double dram_bytes = 0;        // read + written
    double flops = 0;             // fp32/fp64 operations of the lanes that executed (fma = 2)
    double barriers = 0;          // warp-level barrier instructions
    double l2_read_sectors = 0, l2_write_sectors = 0;  // the parts of l2_sectors (atomics count in both)
    double dram_read_bytes = 0, dram_write_bytes = 0;  // the counts model's (cold L2, as ncu measures)
    double footprint_bytes = 0;                        // distinct bytes (32-byte sectors) read or written
    double footprint_read_bytes = 0, footprint_write_bytes = 0;
    // What the footprint takes of the L2's capacity: a read allocates its whole 64-byte granule (the DRAM
    // fetch unit), so one sector read per 128-byte line takes twice its bytes; written sectors their own.
    double footprint_l2_bytes = 0;
    double l2_capacity_bytes = 0;  // of the preset
    bool l2_cold = false;          // the spec's "l2": "cold": the L2 keeps nothing from a previous run
    double l1_capacity_bytes = 0;  // per SM
    // Global stores and loads per PTX line summed: sectors and the ideal sectors for their bytes (a store
    // with more sectors than ideal writes partial sectors, which the L2 merges byte by byte).
    double store_sectors = 0, store_ideal_sectors = 0, load_sectors = 0, load_ideal_sectors = 0;
    // Global atomics and reductions in the L2 (counts::AtomicContention): the busiest 512-byte region's
    // summed request time and the total over all regions (ModelParams::atomic_parallel_regions says how many
    // regions the L2 serves at once).
    double atomic_busiest_ns = 0, atomic_total_ns = 0;
    double atomic_requests = 0;
    uint32_t atomic_max_same_word = 0;  // the most lanes of one warp request on one word
    double local_sectors = 0;  // L1TEX sectors of .local accesses the PTX makes (part of global_sectors)
    // ptxas's spills (per thread: bytes of spill stores/loads in the code, the stack frame), and the
    // static instruction count of the kernel, to scale code bytes into executed traffic.
    double spill_store_bytes = 0, spill_load_bytes = 0, stack_frame_bytes = 0;
    double static_insts = 0;
    // PTX instructions that ptxas expands into a sequence (an integer division or remainder: 11 SASS
    // instructions each in examples/occupancy_probe's many_registers), read off the SASS line table: lines
    // outside SASS loops with at least kExpansion times as many SASS as PTX instructions. Their executions
    // per issue class, and the SASS instructions those executions issue; the model charges the latter instead
    // of the class weight.
    std::array<double, kPipeCount> expanded_warp_insts{};
    double expanded_sass_insts = 0;
    // The spill code in the SASS (sass_spills.hpp, ptxas -lineinfo): STL/LDL instructions at PTX lines that
    // are no PTX local access, and their warp-level executions (each counts as often as its PTX line ran).
    // spill_sites_known is false without ptxas or spills: the model then scales by the average instruction.
    bool spill_sites_known = false;
    double spill_store_insts = 0, spill_load_insts = 0;
    double spill_store_execs = 0, spill_load_execs = 0;
    std::vector<ChainBlock> chain;  // executed basic blocks
};

// Builds the profile from a prepared launch and its simulated run (counts, occupancy, preset).
LaunchProfile build_profile(const session::PreparedLaunch& p, const session::SimRun& run);

// fn's instructions [begin, end) as one chain without statistics: each one's in-range producers of the
// registers it reads (ir::operand_roles), as build_profile finds them per executed block.
ChainBlock chain_of(const ir::Function& fn, uint32_t begin, uint32_t end);

}  // namespace warpsim::timing
