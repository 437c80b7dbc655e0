// sim/counts/global_sectors.hpp — the global-memory coalescer: 32-byte sectors a warp access touches.
#pragma once

#include <array>
#include <cstdint>

#include "sim/counts/access.hpp"

namespace warpsim::counts {

inline constexpr uint32_t kSectorBytes = 32;
inline constexpr uint32_t kSectorShift = 5;

// The distinct sector indices (address / 32) touched by a warp access, ascending. 32 lanes each touching
// at most two sectors (a 32-byte lane, or a misaligned one straddling a boundary) bound the size at 64.
struct SectorList {
    std::array<uint64_t, 64> sector;  // left uninitialised on purpose: only [0, size) is ever read
    uint32_t size = 0;
};

// Fills `out` with the distinct naturally aligned 32-byte sectors touched by the active lanes, ascending.
// Coalesced warps (lane addresses non-decreasing) take a linear path; anything else is sorted.
void collect_sectors(const WarpAccess& access, SectorList& out);

// Local memory as the hardware lays it out: the threads of a warp interleave their stacks in 4-byte words
// (word w of lane l at w * 128 + l * 4), so 32 lanes reading one stack offset touch one 128-byte line (4
// sectors; the H200 counts 1778 local store sectors for 448 requests in math_f32_precise, where a
// thread-contiguous layout gives 448). The stack offset is the low 32 bits of a local address (the engine's
// local window is 4 GiB aligned); `warp_base`, a multiple of 128, places the warp's stacks. Returns the
// number of distinct sectors and fills `out` with them, ascending (the first 64 if there are more).
uint32_t collect_local_sectors(const WarpAccess& access, uint64_t warp_base, SectorList& out);

// Distinct 32-byte sectors touched by the active lanes (what l1tex__t_sectors_* counts per request).
uint32_t count_sectors(const WarpAccess& access);

// The active lanes' addresses in ascending order: lanes of one word, one sector and one region adjacent.
// Sorted once per atomic request and shared by rmw_sectors and counts::AtomicContention.
struct SortedLanes {
    std::array<uint64_t, 32> addr{};
    uint32_t n = 0;
};
SortedLanes sorted_lane_addresses(const WarpAccess& access);

// l1tex__t_sectors of a global atom/red request. The H200 counts, per distinct sector, as many sectors as
// the most lanes that update one address in it (same-address updates are applied one per pass): measured
// f32 red at one address 32, at four addresses of one sector (8 lanes each) 8, exch at 32 distinct
// addresses 4. A red of a 32-bit integer add/min/max/and/or/xor at one warp-uniform address is 1: ptxas
// combines the lanes first (REDUX) and one lane sends it (atomic_int_global: 14 such reds per warp at 1,
// inc/dec and 64-bit ones at 32).
uint32_t rmw_sectors(const WarpAccess& access, const SortedLanes& lanes);
inline uint32_t rmw_sectors(const WarpAccess& access) {
    return rmw_sectors(access, sorted_lane_addresses(access));
}

// The sectors the active lanes' distinct bytes would need if they were perfectly packed and aligned:
// ceil(distinct bytes / 32). Lanes that share an address are served by the same bytes, so they count once:
// 32 lanes x 4 B -> 4, 8 lanes x 4 B -> 1, 32 lanes on one 4-byte word (a broadcast) -> 1, 32 lanes on two
// words -> 1. With `private_lanes` (local memory: each lane's address is its own) every lane's bytes count.
uint32_t ideal_sectors(const WarpAccess& access, bool private_lanes = false);

// The bytes `count` lanes of `width` bytes starting at `addr` touch, each byte counted once.
uint64_t distinct_bytes(const uint64_t* addr, uint32_t count, uint32_t width);

}  // namespace warpsim::counts
