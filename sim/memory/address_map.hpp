// sim/memory/address_map.hpp — where the simulated device puts its heap and the generic-address windows.
#pragma once

#include <cstdint>

namespace warpsim::memory {

// cudaMalloc on a 64-bit Linux host hands out addresses in the 0x7f.. range; ours start there too so that
// printed pointers look familiar. Allocations are 256-byte aligned like cudaMalloc's.
inline constexpr uint64_t kHeapBase = 0x7f00'0000'0000ull;
inline constexpr uint64_t kHeapLimit = 0x7ffe'0000'0000ull;
inline constexpr uint64_t kAllocAlign = 256;

// Generic addressing: like the GPU, a generic address that falls into one of these windows is a shared
// or local address (offset = generic - window base); everything else is global. The windows sit above the
// heap so they never overlap an allocation. Shared offsets are per block, local offsets per thread.
inline constexpr uint64_t kLocalWindow = 0x7ffe'0000'0000ull;
inline constexpr uint64_t kLocalWindowSize = 0x1'0000'0000ull;  // 4 GiB
inline constexpr uint64_t kSharedWindow = 0x7fff'0000'0000ull;
inline constexpr uint64_t kSharedWindowSize = 0x1'0000'0000ull;  // 4 GiB

// Distributed shared memory (thread-block clusters): a shared::cluster address names the shared memory of
// CTA rank r of the cluster as ((r + 1) << kClusterRankShift) + offset (what mapa returns); an address below
// kClusterRankStride is the executing CTA's own (a shared::cta address is a valid shared::cluster address).
// Shared memory per block is far below 16 MiB; a rank fits in the 32-bit shared::cluster addresses.
inline constexpr uint32_t kClusterRankShift = 24;
inline constexpr uint64_t kClusterRankStride = 1ull << kClusterRankShift;

// Kernel parameters in the generic space (cvta.param, PTX ISA 9.7.9.x; `__grid_constant__` parameters):
// read-only, offset = generic - kParamWindow, above the other windows.
inline constexpr uint64_t kParamWindow = 0x8000'0000'0000ull;
inline constexpr uint64_t kParamWindowSize = 0x1'0000'0000ull;

// Function addresses (`mov.u64 %rd, func;`, function pointers in initialisers, indirect calls): code does not
// live in any data window, so a function's address is kFunctionBase + 16 * its index in Module::functions,
// below the heap. Never zero, so `if (fp)` tests behave.
inline constexpr uint64_t kFunctionBase = 0x0100'0000'0000ull;
inline constexpr uint64_t kFunctionStride = 16;
constexpr uint64_t function_address(uint64_t index) {
    return kFunctionBase + kFunctionStride * index;
}

enum class GenericSpace : uint8_t { global, shared, local, param };

constexpr GenericSpace classify_generic(uint64_t addr) {
    if (addr - kSharedWindow < kSharedWindowSize) return GenericSpace::shared;
    if (addr - kLocalWindow < kLocalWindowSize) return GenericSpace::local;
    if (addr - kParamWindow < kParamWindowSize) return GenericSpace::param;
    return GenericSpace::global;
}

}  // namespace warpsim::memory
