// sim/counts/sectored_cache.hpp — a set-associative, sectored, LRU cache model (tags only, no data).
#pragma once

#include <cstdint>
#include <vector>

namespace warpsim::counts {

// Geometry. Lines of 128 bytes split into four 32-byte sectors, as in NVIDIA's L1 and L2: a tag may be
// present with only some of its sectors valid, and a sector miss under a tag hit fetches just that sector.
struct CacheGeometry {
    uint64_t bytes = 256 * 1024;
    uint32_t ways = 4;
    uint32_t line_bytes = 128;
    uint32_t sector_bytes = 32;
};

class SectoredCache {
  public:
    SectoredCache() = default;
    // Geometry that does not divide into whole sets is rounded down to at least one set of one way.
    explicit SectoredCache(const CacheGeometry& g);

    // Looks up the sector with index `sector` (address / sector_bytes). A miss allocates the line (evicting
    // the least recently used way of its set) when `allocate` is true; a hit refreshes the line's LRU age.
    // Returns true on a hit.
    bool access(uint64_t sector, bool allocate);
    // Empties the cache in O(1) (an epoch bump; stale lines are recognised lazily).
    void invalidate_all() { ++epoch_; }
    uint32_t sets() const { return sets_; }
    uint32_t ways() const { return ways_; }

  private:
    struct Line {
        uint64_t tag = 0;
        uint64_t last_use = 0;
        uint64_t epoch = 0;  // valid only while equal to the cache's epoch
        uint32_t sector_mask = 0;
    };
    uint32_t sets_ = 0, ways_ = 0;
    uint32_t sectors_per_line_shift_ = 2;
    uint64_t epoch_ = 1;
    uint64_t clock_ = 0;
    std::vector<Line> lines_;  // sets_ x ways_
};

}  // namespace warpsim::counts
