// sim/counts/atomic_contention.hpp — how long the L2 is busy with the atomics of a launch, per region of
// memory: what serialises atomics on few addresses (a histogram's bins, one global counter).
//
// Measured on the H200 (tests/timing/atomics: 1056 blocks x 256 threads x 16 atomic adds on K words, CUDA
// events), the L2 performs the atomics of one 512-byte region one request after another, and a warp's
// request to a region costs the longest of
//   - 75 ps per lane (32 lanes on 16 words, 2 each, in two sectors: 2.39 ns a warp),
//   - 660 ps per distinct sector it touches there (32 consecutive words, 4 sectors: 2.57 ns; 4-5: 3.24 ns),
//   - 740 ps per lane on its most-asked word, 1760 ps for floating-point adds (one word for the whole warp:
//     23.7 and 56.3 ns; warp-wide words on 8-64 distinct words of one region: the same 23 ns, so the words
//     of a region do not proceed in parallel).
// Regions proceed in parallel, at most about 30 at once (a million distinct words: 0.107 ns a warp request,
// 3.3 ns / 0.107 = 31; warp-wide words: 23.7 / 0.855 = 28). A warp's integer atomic at an address ptxas
// knows to be warp-uniform is one update (its lanes combined before the L2). The counters sum each region's
// busy time (integer picoseconds, so the sum does not depend on how blocks were spread over workers); the
// timing model takes the busiest region's time and the total over the parallel regions as a limit.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>

#include "sim/counts/access.hpp"
#include "sim/counts/global_sectors.hpp"

namespace warpsim::counts {

struct AtomicCost {
    uint64_t lane_ps = 75;               // per active lane of the request in the region
    uint64_t sector_ps = 660;            // per distinct sector of the region in the request
    uint64_t same_word_int_ps = 740;     // per lane on the request's most-asked word, integer operations
    uint64_t same_word_float_ps = 1760;  // the same for floating-point adds
    uint32_t region_shift = 9;           // 512-byte regions (how many the L2 serves at once is the timing
                                         // model's: timing::ModelParams::atomic_parallel_regions)
};

class AtomicContention {
  public:
    struct Summary {
        uint64_t busiest_ps = 0;       // the busiest region's summed request time
        uint64_t total_ps = 0;         // over all regions
        uint64_t busiest_address = 0;  // first byte of the busiest region
        uint64_t requests = 0;         // warp requests (one per region a warp instruction touched)
        uint64_t regions = 0;          // distinct regions
        uint32_t max_same_word = 0;    // the most lanes of one request on one word
    };

    // One warp-level global atomic or reduction. `combined`: the lanes were combined into one update before
    // reaching the L2 (a warp-wide integer reduction on one word: global_sectors' rmw_sectors rule).
    void add(const WarpAccess& a, const SortedLanes& lanes, bool combined, const AtomicCost& cost);
    void add(const WarpAccess& a, bool combined, const AtomicCost& cost) {
        add(a, sorted_lane_addresses(a), combined, cost);
    }
    void merge(const AtomicContention& other);
    // The same with every summed time and count through `scale` (a sampled launch's block weights). A
    // region's scaled time is an unbiased estimate of its whole-grid time; the busiest of them overestimates
    // a busiest region that only some blocks touch.
    void merge(const AtomicContention& other, const std::function<uint64_t(uint64_t)>& scale);
    Summary summary() const;

  private:
    std::unordered_map<uint64_t, uint64_t> busy_ps_;  // region index -> summed request time
    uint64_t requests_ = 0;
    uint32_t max_same_word_ = 0;
    uint32_t shift_ = 9;  // AtomicCost::region_shift of the requests added
};

}  // namespace warpsim::counts
