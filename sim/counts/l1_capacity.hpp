// sim/counts/l1_capacity.hpp — the L1 data-cache capacity of one launch: what the combined L1/shared-memory
// array of an SM leaves after the shared-memory carve-out the driver configures for the kernel.
#pragma once

#include <cstdint>

#include "sim/device/device.hpp"
#include "sim/device/occupancy.hpp"

namespace warpsim::counts {

// The shared-memory carve-out (a step of sm.shared_carveout_bytes) the driver configures for a launch with
// this occupancy. Without a carve-out preference the driver sizes shared memory so that it does not limit
// occupancy (CUDA C++ Programming Guide, compute capabilities 8.x and 9.0: "the driver automatically
// configures the shared memory capacity for each kernel to avoid shared memory occupancy bottlenecks"):
// the smallest step that holds the resident blocks' shared memory, blocks_per_sm x shared_per_block (the
// 1 KB per-block system reservation included). The occupancy calculator's shared_config_bytes is the
// preference's step (228 KB on sm_90 by default), which only bounds how many blocks fit; the driver does not
// keep 228 KB of shared memory for a kernel that uses 8.
int64_t driver_shared_carveout(const device::DevicePreset& preset, const device::Occupancy& occupancy);

// cache.l1_bytes_per_sm less driver_shared_carveout: the L1 data capacity of each SM during the launch
// (H200: 256 KB combined; 8 blocks of 256 threads without shared variables take the 8 KB step, leaving
// 248 KB). At least one 128-byte line.
uint64_t l1_data_bytes(const device::DevicePreset& preset, const device::Occupancy& occupancy);

}  // namespace warpsim::counts
