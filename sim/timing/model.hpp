// sim/timing/model.hpp — the cycle-approximate timing model: blocks dispatched to SMs in waves as
// occupancy allows; per SM, issue and pipe throughput of 4 schedulers, the L1/shared data path, and the
// per-warp dependency chain (latency, hidden only by other warps: Little's law); per wave, the device's
// L2 and DRAM bandwidth; plus a launch overhead. Parameters come from the preset (fitted once per GPU).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/timing/profile.hpp"

namespace warpsim::timing {

struct ModelParams {
    // Fitted once per GPU (tests/timing, Eigen least squares over the calibration set).
    double launch_overhead_us = 4.0;   // CUDA-event time of an empty launch
    double dram_efficiency = 0.88;     // achievable share of the datasheet DRAM bandwidth
    double l2_bytes_per_cycle = 2800;  // device-wide L2 bandwidth
    // A global load that reads DRAM, as the warp chain counts it: fitted, since it grows with the traffic of
    // the whole GPU (the H200's one-thread pointer chase, tests/timing/mlp, takes 650 cycles a step from
    // DRAM; a grid-stride loop of 66 blocks that also writes, 880 an iteration).
    double dram_latency_cycles = 900;
    // Measured, not fitted: a dependent global load that hits L2 (the one-thread chase over 4 MiB kept in L2:
    // 287.5 cycles a step, less the 8 cycles of the step's two address instructions), or L1 (over 16
    // KiB: 54.8).
    double l2_latency_cycles = 280;
    double l1_latency_cycles = 47;
    double issue_efficiency = 0.8;       // share of cycles a scheduler with ready warps issues
    double overlap_p = 3;                // p of the p-norm that combines overlapping limits (inf = max)
    double block_overhead_cycles = 200;  // start and drain of one block on an SM
    double block_issue_cycles = 50;      // an SM accepts a new block at most this often (dispatch rate)
    // Share of the PTX integer and branch instructions that take an issue slot in SASS: ptxas unrolls
    // loops (one counter update, compare and branch per several iterations) and folds address arithmetic.
    double int_issue_weight = 0.5;
    // Extra L2 cost of a partially written sector (a store whose bytes fill less than its sectors: the L2
    // merges it byte by byte), in full-sector transfers.
    double partial_sector_cost = 1;
    // What the L2 still holds when the same launch runs again (CUDA-event timing repeats a launch): all of a
    // footprint (LaunchProfile::footprint_l2_bytes: 64-byte granules read, sectors written) up to
    // l2_keep_all_fraction of the capacity, none of one from the keep-none fraction on, a linearly falling
    // share in between (hashed sets fill unevenly: the fullest overflow first). The keep-none fraction is
    // l2_keep_none_fraction for a footprint only read and l2_keep_none_written_fraction for one half or more
    // written (linear in between). Measured on the H200 with re-read, copy and in-place streams of 8-96 MiB
    // (tests/timing/l2_reuse), not fitted.
    double l2_keep_all_fraction = 0.67, l2_keep_none_fraction = 0.90, l2_keep_none_written_fraction = 0.80;
    // Global loads one warp keeps outstanding: a counted loop unrolled 16 or 32 times by one warp on the H200
    // takes 1/9.4 of a round trip per load (tests/timing/mlp, sumk_u16/u32 1x32), not 1/16 or 1/32.
    double loads_in_flight_per_warp = 9.4;
    // A dependent load whose lanes touch several 128-byte lines takes longer: per line beyond the first from
    // the L2 (or DRAM), per line beyond the eighth from the L1. Measured on the H200 with one warp's chase
    // whose requests touch 1 to 32 lines (tests/timing/scatter: 290 cycles a step for one line, 364 for 32
    // from the L2; 58-64 for 2 to 8 lines, 116 for 32 from the L1), not fitted.
    double l2_cycles_per_line = 2.4, l1_cycles_per_line = 2.2;
    double l1_lines_free = 8;
    // Architectural (whitepaper / microbenchmark figures; not fitted).
    double alu_latency = 4, fp32_latency = 4, fp64_latency = 8, sfu_latency = 18, shared_latency = 30;
    double constant_latency = 4, warp_latency = 24, barrier_latency = 20;
    // 512-byte regions whose atomics the L2 performs at once (counts::AtomicContention; measured on the H200,
    // tests/timing/atomics: a million distinct words 3.3 / 0.107 = 31, warp-wide words 23.7 / 0.855 = 28).
    double atomic_parallel_regions = 30;
    double schedulers = 4;            // warp schedulers per SM, one issue each per cycle
    double l1_sectors_per_cycle = 4;  // 128 B per cycle per SM
    double shared_wavefronts_per_cycle = 1;
    // Warp instructions per SM per cycle for each Pipe (int, fp32, fp64, fp16, sfu, lsu, branch,
    // barrier, warp, misc): H100/H200 SM has 64 INT32, 128 FP32, 64 FP64, 16 SFU, 32 LD/ST lanes.
    // Integer counts 4: ptxas folds much PTX integer work (mov, cvt, address arithmetic) into other SASS.
    std::array<double, kPipeCount> pipe_rate{4, 4, 2, 4, 0.5, 1, 2, 1, 1, 4};
};

// The names of the fitted parameters, in the order the fitter uses.
const std::vector<std::string>& fitted_names();
double get_param(const ModelParams& m, const std::string& name);
void set_param(ModelParams& m, const std::string& name, double v);
// Applies the known names of a preset's "timing" values; unknown ones are ignored.
ModelParams params_from_values(const std::map<std::string, double>& values, ModelParams base = {});
std::map<std::string, double> params_to_values(const ModelParams& m);

struct Wave {
    uint64_t count = 1;   // how many identical waves this row stands for
    uint64_t blocks = 0;  // blocks in one such wave
    uint32_t max_blocks_per_sm = 0;
    uint32_t sms_busy = 0;
    double cycles = 0;  // of one such wave
};

// Cycles of the limits, summed over waves, for the bound and the text.
struct Components {
    double latency = 0, issue = 0, pipe = 0, lsu = 0, dram = 0, l2 = 0;
    double atomic = 0;              // cycles of the L2's atomic serialisation (the whole launch)
    double spill_share = 0;         // share of the L2 and DRAM bytes that are register spills
    double shared_part = 0;         // share of the LSU time spent in shared wavefronts
    double memory_chain_share = 0;  // share of the warp chain waiting on global memory
};

struct Prediction {
    double cycles = 0;   // kernel cycles, without the launch overhead
    double time_us = 0;  // including the launch overhead
    double overhead_us = 0;
    double dram_gbps = 0, gflops = 0;
    std::string bound;       // short code: dram, l2, latency, issue, shared, lsu, tail, launch
    std::string bound_text;  // in words
    std::vector<Wave> waves;
    Components parts;
    Pipe top_pipe = Pipe::fp32;
    double chain_cycles_per_warp = 0;
    uint32_t warps_per_sm = 0;  // in a full wave
    double l2_kept = 0;         // share of the footprint the L2 keeps from one run of the launch to the next
    double dram_bytes = 0;      // what the model charges DRAM with (steady state of repeated launches)
    double spill_bytes = 0;     // local-memory bytes of ptxas's register spills (L1), whole launch
    double atomic_parallel_regions = 0;  // ModelParams::atomic_parallel_regions the prediction used
};

// Register spills (ptxas -v) turned into executed local-memory traffic of the launch. Where the SASS was
// read (LaunchProfile::spill_sites_known), each STL/LDL counts as often as its PTX line ran, with ptxas's
// spill bytes spread evenly over those instructions; else the spill code's bytes per thread are scaled by
// how often the average instruction of the kernel ran. Per warp, a 4-byte spill of 32 lanes is 4 sectors,
// so sectors per warp = bytes per thread.
struct SpillTraffic {
    double store_sectors = 0, load_sectors = 0;  // L1, whole launch
    double instructions = 0;                     // warp instructions, whole launch (4-byte accesses)
    double l1_hit = 1, l2_hit = 1;  // of the reloads: stack frames of resident threads vs capacity
};
SpillTraffic spill_traffic(const LaunchProfile& prof);

// The share of the launch's footprint that stays in L2 between repeated runs (see l2_keep_all_fraction).
double l2_kept_share(const LaunchProfile& prof, const ModelParams& m);

// The per-warp dependency chain in cycles (average warp), for the given latencies.
double chain_cycles(const LaunchProfile& prof, const ModelParams& m, double* memory_share = nullptr);

Prediction predict_profile(const LaunchProfile& prof, const ModelParams& m);

// The text block of the report: time, bound, limits, and the waves (per-SM timeline).
std::string prediction_text(const LaunchProfile& prof, const Prediction& pred);

}  // namespace warpsim::timing
