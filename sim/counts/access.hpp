// sim/counts/access.hpp — the event the SIMT engine emits for every warp-level memory instruction.
#pragma once

#include <array>
#include <cstdint>

namespace warpsim::counts {

enum class AccessSpace : uint8_t { global, shared, local, const_, param };
enum class AccessKind : uint8_t { load, store, atomic, reduction };

// One warp-level memory instruction with at least one active lane, after generic addresses are resolved.
// Addresses: global/const/param are device addresses; local addresses are the thread's own stack offsets
// (plus the local window base), which the counters lay out as the hardware interleaves them; shared
// addresses are byte offsets into the block's shared memory window (so bank = (addr / 4) % 32).
struct WarpAccess {
    AccessSpace space = AccessSpace::global;
    AccessKind kind = AccessKind::load;
    uint8_t bytes_per_lane = 4;     // access width times vector count: 1, 2, 4, 8, 16 (or 32 for .v8.f32)
    uint32_t active_mask = 0;       // lanes that perform the access
    uint32_t pc = 0;                // instruction index within its function
    uint32_t function = 0;          // index into ir::Module::functions
    uint32_t warp = 0;              // warp index within the block (per-warp store merging, local layout)
    bool non_coherent = false;      // ld.global.nc / ldu
    bool caches_in_l1 = true;       // false for .cg/.cs/.cv loads and all stores
    bool async_fill = false;        // the shared-memory write of a cp.async (LDGSTS): not an LSU shared store
    bool redux_op = false;          // a 32-bit integer add/min/max/and/or/xor atomic (REDUX can combine lanes)
    std::array<uint64_t, 32> addr{};
};

}  // namespace warpsim::counts
