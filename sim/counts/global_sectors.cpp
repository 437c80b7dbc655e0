// sim/counts/global_sectors.cpp — distinct-sector counting for warp-level global and local accesses.
#include "sim/counts/global_sectors.hpp"

#include <algorithm>
#include <bit>

namespace warpsim::counts {

namespace {

// Whether all 32 lanes are active and lane l's address is lane 0's + l * width (a fully coalesced warp), in a
// loop without branches.
bool contiguous_warp(const WarpAccess& access, uint64_t width) {
    if (access.active_mask != 0xffffffffu) return false;
    uint64_t differ = 0;
    for (uint32_t l = 0; l < 32; ++l) differ |= access.addr[l] ^ (access.addr[0] + l * width);
    return differ == 0;
}

}  // namespace

void collect_sectors(const WarpAccess& access, SectorList& out) {
    out.size = 0;
    const uint64_t width = access.bytes_per_lane == 0 ? 1 : access.bytes_per_lane;
    if (width <= 32 && contiguous_warp(access, width)) {
        // The lanes' bytes are one range of 32 * width <= 1024 bytes: at most 33 sectors, all of them new.
        const uint64_t first = access.addr[0] >> kSectorShift;
        const uint64_t end = (access.addr[0] + 32 * width - 1) >> kSectorShift;
        for (uint64_t sector = first; sector <= end; ++sector) out.sector[out.size++] = sector;
        return;
    }
    bool ascending = true;
    // Sector indices are addresses >> 5, so ~0 can never be a real previous sector.
    uint64_t last = ~uint64_t{0};
    for (uint32_t mask = access.active_mask; mask != 0; mask &= mask - 1) {
        const uint64_t addr = access.addr[static_cast<uint32_t>(std::countr_zero(mask))];
        const uint64_t first = addr >> kSectorShift;
        const uint64_t end = (addr + width - 1) >> kSectorShift;
        // Repeats of the previous sector (neighbouring lanes) are dropped here, so the sorted path below is
        // only taken by genuinely scattered warps.
        if (first == end) {
            if (first == last) continue;
            ascending &= last == ~uint64_t{0} || first > last;
            out.sector[out.size++] = first;
            last = first;
            continue;
        }
        for (uint64_t s = first; s <= end && out.size < out.sector.size(); ++s) {
            if (s == last) continue;
            ascending &= last == ~uint64_t{0} || s > last;
            out.sector[out.size++] = s;
            last = s;
        }
    }
    if (ascending) return;
    std::sort(out.sector.begin(), out.sector.begin() + out.size);
    out.size = static_cast<uint32_t>(std::unique(out.sector.begin(), out.sector.begin() + out.size) -
                                     out.sector.begin());
}

uint32_t collect_local_sectors(const WarpAccess& access, uint64_t warp_base, SectorList& out) {
    // A lane's bytes [o, o + width) cover the 4-byte words o/4 .. (o + width - 1)/4; word w of lane l lies in
    // sector (warp_base / 32) + w * 4 + l / 8. At most 32 lanes x 8 words (a .v8 access).
    std::array<uint64_t, 256> all;
    uint32_t n = 0;
    const uint64_t width = access.bytes_per_lane == 0 ? 1 : access.bytes_per_lane;
    const uint64_t base = warp_base >> kSectorShift;
    for (uint32_t mask = access.active_mask; mask != 0; mask &= mask - 1) {
        const auto lane = static_cast<uint32_t>(std::countr_zero(mask));
        const uint64_t offset = access.addr[lane] & 0xffff'ffffull;
        const uint64_t last_word = (offset + width - 1) >> 2;
        for (uint64_t w = offset >> 2; w <= last_word && n < all.size(); ++w)
            all[n++] = base + w * 4 + lane / 8;
    }
    std::sort(all.begin(), all.begin() + n);
    n = static_cast<uint32_t>(std::unique(all.begin(), all.begin() + n) - all.begin());
    out.size = std::min<uint32_t>(n, static_cast<uint32_t>(out.sector.size()));
    std::copy(all.begin(), all.begin() + out.size, out.sector.begin());
    return n;
}

uint32_t count_sectors(const WarpAccess& access) {
    SectorList list;
    collect_sectors(access, list);
    return list.size;
}

SortedLanes sorted_lane_addresses(const WarpAccess& access) {
    SortedLanes s;
    for (uint32_t mask = access.active_mask; mask != 0; mask &= mask - 1)
        s.addr[s.n++] = access.addr[static_cast<uint32_t>(std::countr_zero(mask))];
    std::sort(s.addr.begin(), s.addr.begin() + s.n);
    return s;
}

uint32_t rmw_sectors(const WarpAccess& access, const SortedLanes& lanes) {
    const auto& addr = lanes.addr;
    const uint32_t n = lanes.n;
    if (n == 0) return 0;
    if (access.kind == AccessKind::reduction && access.redux_op && addr[0] == addr[n - 1]) return 1;
    uint32_t total = 0, sector_max = 0, run = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const bool same_sector = i > 0 && (addr[i] >> kSectorShift) == (addr[i - 1] >> kSectorShift);
        if (!same_sector) {
            total += sector_max;
            sector_max = 0;
        }
        run = i > 0 && addr[i] == addr[i - 1] ? run + 1 : 1;
        sector_max = std::max(sector_max, run);
    }
    return total + sector_max;
}

uint64_t distinct_bytes(const uint64_t* addr, uint32_t count, uint32_t width) {
    if (count == 0) return 0;
    // Lanes whose addresses rise (or fall) by at least the width overlap nowhere: most warps, no sorting.
    bool rising = true, falling = true;
    for (uint32_t i = 1; i < count; ++i) {
        rising &= addr[i] >= addr[i - 1] + width;
        falling &= addr[i - 1] >= addr[i] + width;
    }
    if (rising || falling) return uint64_t{count} * width;
    std::array<uint64_t, 32> sorted{};
    const uint32_t n = std::min<uint32_t>(count, 32);
    std::copy(addr, addr + n, sorted.begin());
    std::sort(sorted.begin(), sorted.begin() + n);
    uint64_t total = 0, covered_to = 0;  // the union so far ends (exclusively) at covered_to
    for (uint32_t i = 0; i < n; ++i) {
        const uint64_t end = sorted[i] + width;
        if (i == 0 || sorted[i] >= covered_to)
            total += width;
        else if (end > covered_to)
            total += end - covered_to;
        covered_to = std::max(covered_to, end);
    }
    return total;
}

uint32_t ideal_sectors(const WarpAccess& access, bool private_lanes) {
    const auto lanes = static_cast<uint32_t>(std::popcount(access.active_mask));
    uint64_t bytes = uint64_t{lanes} * access.bytes_per_lane;
    if (!private_lanes && lanes == 32 && access.bytes_per_lane > 0) {
        bytes = distinct_bytes(access.addr.data(), 32, access.bytes_per_lane);
    } else if (!private_lanes && lanes > 1 && access.bytes_per_lane > 0) {
        std::array<uint64_t, 32> addr;
        uint32_t n = 0;
        for (uint32_t mask = access.active_mask; mask != 0; mask &= mask - 1)
            addr[n++] = access.addr[static_cast<uint32_t>(std::countr_zero(mask))];
        bytes = distinct_bytes(addr.data(), n, access.bytes_per_lane);
    }
    return static_cast<uint32_t>((bytes + kSectorBytes - 1) / kSectorBytes);
}

}  // namespace warpsim::counts
