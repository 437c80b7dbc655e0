// sim/counts/l1_capacity.cpp — the carve-out the driver picks and the L1 it leaves (see l1_capacity.hpp).
#include "sim/counts/l1_capacity.hpp"

#include <algorithm>

namespace warpsim::counts {

int64_t driver_shared_carveout(const device::DevicePreset& preset, const device::Occupancy& occupancy) {
    const int64_t needed = int64_t{std::max(occupancy.blocks_per_sm, 0)} * occupancy.shared_per_block;
    // The calculator's step already holds the resident blocks (that is how it counted them); a smaller step
    // that holds them too is what the driver takes.
    const auto step = device::round_to_carveout(preset.sm, needed);
    return std::min(step.value_or(occupancy.shared_config_bytes), occupancy.shared_config_bytes);
}

uint64_t l1_data_bytes(const device::DevicePreset& preset, const device::Occupancy& occupancy) {
    const int64_t left = preset.cache.l1_bytes_per_sm - driver_shared_carveout(preset, occupancy);
    return static_cast<uint64_t>(std::max<int64_t>(left, 128));
}

}  // namespace warpsim::counts
