// tests/counts/access_builders.hpp — helpers that build WarpAccess values for the counts tests.
#pragma once

#include <cstdint>
#include <functional>

#include "sim/counts/access.hpp"

namespace warpsim::counts::test {

inline constexpr uint64_t kBase = 0x7f0000001000ull;  // 256-byte aligned, like cudaMalloc

// A warp access whose lane i (for active lanes) reads address(i); inactive lanes get a far-away address so
// that counting them by mistake changes the result.
inline WarpAccess make_access(AccessSpace space, AccessKind kind, uint8_t bytes, uint32_t mask,
                              const std::function<uint64_t(uint32_t)>& address) {
    WarpAccess a;
    a.space = space;
    a.kind = kind;
    a.bytes_per_lane = bytes;
    a.active_mask = mask;
    for (uint32_t i = 0; i < 32; ++i)
        a.addr[i] = (mask >> i & 1u) ? address(i) : 0x5555000000ull + 4096ull * i;
    return a;
}

inline WarpAccess global_load(uint8_t bytes, uint32_t mask,
                              const std::function<uint64_t(uint32_t)>& address) {
    return make_access(AccessSpace::global, AccessKind::load, bytes, mask, address);
}

inline WarpAccess shared_load(uint8_t bytes, uint32_t mask,
                              const std::function<uint64_t(uint32_t)>& address) {
    return make_access(AccessSpace::shared, AccessKind::load, bytes, mask, address);
}

}  // namespace warpsim::counts::test
