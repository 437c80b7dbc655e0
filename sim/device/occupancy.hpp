// The occupancy calculator: resident blocks per SM and what limits them, as pure functions over a preset.
// It follows the rules of the CUDA toolkit's cuda_occupancy.h (cudaOccMaxActiveBlocksPerMultiprocessor)
// and tests/device/ checks that the two agree block for block; docs/OCCUPANCY.md explains the rules.
#pragma once

#include <climits>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/device/device.hpp"

namespace warpsim::device {

enum class Limiter { warps, registers, shared_memory, blocks, barriers };

std::string_view limiter_name(
    Limiter limiter);  // "warps", "registers", "shared_memory", "blocks", "barriers"

// The legacy cudaFuncSetCacheConfig preference; used only when carveout_percent is -1 (the default).
enum class CachePreference { none, prefer_shared, prefer_l1, prefer_equal };

// What one block of a kernel asks of an SM.
struct KernelResources {
    int threads_per_block = 0;
    int registers_per_thread = 0;           // from ptxas ("Used N registers"), or the launch spec
    std::int64_t static_shared_bytes = 0;   // the kernel's .shared variables
    std::int64_t dynamic_shared_bytes = 0;  // the launch's shared_bytes
    // cudaFuncAttributeMaxDynamicSharedMemorySize as the CUDA runtime reports it for the kernel. Unset means
    // the kernel never opted in: blocks are held to the 48 KB default (block.shared_default_bytes).
    std::optional<std::int64_t> max_dynamic_shared_bytes;
    // cudaFuncAttributePreferredSharedMemoryCarveout: -1 (default) or a percentage of sm.shared_bytes.
    int carveout_percent = -1;
    CachePreference cache_preference = CachePreference::none;
    int barriers_per_block =
        1;  // named barriers (bar.sync ids) a block uses; ptxas reports "used N barriers"
};

// Blocks per SM that each resource alone allows. `unlimited` where the resource is not used at all
// (no registers, no shared memory, no barrier limit on this architecture).
struct OccupancyLimits {
    static constexpr int unlimited = INT_MAX;
    int warps = 0;
    int registers = 0;
    int shared = 0;
    int blocks = 0;
    int barriers = unlimited;
};

struct Occupancy {
    int blocks_per_sm = 0;
    int warps_per_block = 0;
    int warps_per_sm = 0;
    double occupancy = 0.0;            // warps_per_sm / sm.max_warps
    Limiter limiter = Limiter::warps;  // the first of `limiters` in the order of the Limiter enum
    std::vector<Limiter> limiters;     // every resource whose limit equals blocks_per_sm
    OccupancyLimits limits;
    std::int64_t shared_config_bytes =
        0;                       // the shared-memory capacity the SM is configured to (a carveout step)
    int registers_per_warp = 0;  // after rounding to the allocation unit
    int registers_per_block = 0;
    std::int64_t shared_per_block = 0;  // static + dynamic + reserved, rounded to the allocation granularity
};

// Rejects inputs no launch could have (negative sizes, more than 255 registers, a carveout outside -1..100).
// Inputs a launch could have but that do not fit (1025 threads, 64 KB without opting in) give 0 blocks.
Expected<Occupancy> compute_occupancy(const DevicePreset& preset, const KernelResources& kernel);

// Rounds a requested shared-memory capacity up to the smallest supported carveout step; nullopt if
// it exceeds the largest.
std::optional<std::int64_t> round_to_carveout(const SmLimits& sm, std::int64_t bytes);

// The carveout step the preference asks for, before the SM grows it to fit one block.
Expected<std::int64_t> preferred_shared_config(const DevicePreset& preset, const KernelResources& kernel);

}  // namespace warpsim::device
