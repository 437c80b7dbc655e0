// sim/counts/global_sectors.cpp — distinct-sector counting for warp-level global and local accesses.
#include "sim/counts/global_sectors.hpp"

#include <algorithm>
#include <bit>

namespace warpsim::counts {

void collect_sectors(const WarpAccess& access, SectorList& out) {
    out.size = 0;
    const uint64_t width = access.bytes_per_lane == 0 ? 1 : access.bytes_per_lane;
    bool ascending = true;
    uint64_t last = 0;
    bool have_last = false;
    for (uint32_t mask = access.active_mask; mask != 0; mask &= mask - 1) {
        const uint64_t addr = access.addr[static_cast<uint32_t>(std::countr_zero(mask))];
        const uint64_t first = addr >> kSectorShift;
        const uint64_t end = (addr + width - 1) >> kSectorShift;
        for (uint64_t s = first; s <= end; ++s) {
            // Repeats of the previous sector (the common case of neighbouring lanes) are dropped here so the
            // sorted path is only taken by genuinely scattered warps.
            if (have_last && s == last) continue;
            if (have_last && s < last) ascending = false;
            if (out.size < out.sector.size()) out.sector[out.size++] = s;
            last = s;
            have_last = true;
        }
    }
    if (ascending) return;
    std::sort(out.sector.begin(), out.sector.begin() + out.size);
    out.size = static_cast<uint32_t>(std::unique(out.sector.begin(), out.sector.begin() + out.size) -
                                     out.sector.begin());
}

uint32_t count_sectors(const WarpAccess& access) {
    SectorList list;
    collect_sectors(access, list);
    return list.size;
}

uint32_t ideal_sectors(const WarpAccess& access) {
    const uint64_t bytes = static_cast<uint64_t>(std::popcount(access.active_mask)) * access.bytes_per_lane;
    return static_cast<uint32_t>((bytes + kSectorBytes - 1) / kSectorBytes);
}

}  // namespace warpsim::counts
