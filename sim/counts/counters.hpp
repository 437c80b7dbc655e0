// sim/counts/counters.hpp — per-launch statistics fed by the SIMT engine: instructions, lanes, memory
// requests, sectors, wavefronts, bank conflicts, cache and DRAM traffic, per kernel and per PTX line.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/counts/access.hpp"

namespace warpsim::counts {

// Sizes of the modelled caches; filled from the device preset by the caller.
struct CountsConfig {
    uint64_t l1_bytes = 256 * 1024;
    uint64_t l2_bytes = 60ull * 1024 * 1024;
    uint32_t num_sms = 132;
};

// One worker's statistics. The engine makes one per worker thread (or per block), calls on_instruction for
// every warp-level instruction it executes and on_access for every warp-level memory instruction, then
// merges the workers in block order; the result must not depend on how blocks were spread over workers.
class KernelCounters {
public:
    KernelCounters() = default;
    explicit KernelCounters(const CountsConfig& cfg) : cfg_(cfg) {}

    // A warp executed the instruction at (function, pc) with these lanes active (guard already applied:
    // pass the lanes whose guard predicate was true; lanes masked off by the guard still count as issued
    // for warp-instruction counts, so `issued_mask` is the warp's active mask and `exec_mask` the subset
    // that executed).
    void on_instruction(uint32_t function, uint32_t pc, uint32_t issued_mask, uint32_t exec_mask);
    void on_access(const WarpAccess& access);
    // The engine calls this when a block starts and finishes, with the block's linear index and the SM it
    // was placed on (cache models that are per SM need it).
    void on_block_begin(uint64_t block_linear, uint32_t sm);
    void on_block_end(uint64_t block_linear, uint32_t sm);

    void merge(const KernelCounters& other);

    // Metrics keyed by Nsight Compute metric names (see metric_table()).
    std::map<std::string, double> metrics() const;

    struct LineStats {
        uint64_t warp_insts = 0, thread_insts = 0;
        uint64_t requests = 0, sectors = 0, ideal_sectors = 0;
        uint64_t wavefronts = 0, ideal_wavefronts = 0;
    };
    // Per (function, pc) statistics, for per-source-line reports.
    const std::map<std::pair<uint32_t, uint32_t>, LineStats>& per_pc() const { return per_pc_; }

private:
    CountsConfig cfg_;
    uint64_t warp_insts_ = 0;
    uint64_t thread_insts_ = 0;
    std::map<std::pair<uint32_t, uint32_t>, LineStats> per_pc_;
};

}  // namespace warpsim::counts
