// sim/counts/sectored_cache.cpp — lookups, LRU replacement and lazy invalidation of the sectored cache.
#include "sim/counts/sectored_cache.hpp"

#include <algorithm>
#include <bit>

namespace warpsim::counts {

SectoredCache::SectoredCache(const CacheGeometry& g) {
    const uint32_t line = std::bit_floor(std::max<uint32_t>(g.line_bytes, 1));
    const uint32_t sector = std::min(line, std::bit_floor(std::max<uint32_t>(g.sector_bytes, 1)));
    sectors_per_line_shift_ = static_cast<uint32_t>(std::countr_zero(line / sector));
    ways_ = std::max<uint32_t>(g.ways, 1);
    sets_ = static_cast<uint32_t>(std::max<uint64_t>(g.bytes / (static_cast<uint64_t>(line) * ways_), 1));
    lines_.assign(static_cast<std::size_t>(sets_) * ways_, Line{});
}

bool SectoredCache::access(uint64_t sector, bool allocate) {
    if (lines_.empty()) return false;
    const uint64_t line_index = sector >> sectors_per_line_shift_;
    const uint32_t bit = 1u << (sector & ((1u << sectors_per_line_shift_) - 1));
    Line* set = &lines_[static_cast<std::size_t>(line_index % sets_) * ways_];
    const uint64_t tag = line_index / sets_;
    ++clock_;
    Line* victim = set;
    for (uint32_t w = 0; w < ways_; ++w) {
        Line& l = set[w];
        if (l.epoch != epoch_) {
            if (victim->epoch == epoch_) victim = &l;  // prefer an empty way over any valid one
            continue;
        }
        if (l.tag == tag) {
            l.last_use = clock_;
            if (l.sector_mask & bit) return true;
            if (allocate) l.sector_mask |= bit;
            return false;
        }
        if (victim->epoch == epoch_ && l.last_use < victim->last_use) victim = &l;
    }
    if (!allocate) return false;
    *victim = Line{tag, clock_, epoch_, bit};
    return false;
}

}  // namespace warpsim::counts
