// Presentation of occupancy results and device presets for the command line: text tables and JSON.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/device/device.hpp"
#include "sim/device/occupancy.hpp"

namespace warpsim::device {

// One result as a text table: blocks, warps, occupancy, limiter, and what each resource allows.
std::string format_occupancy(const DevicePreset& preset, const KernelResources& kernel,
                             const Occupancy& result);

// {"blocks_per_sm", "warps_per_sm", "occupancy", "limiter", "limiters", "limits": {"warps", "registers",
// "shared", "blocks", "barriers"}, "shared_config_bytes", "registers_per_block", "shared_per_block"};
// a limit that does not apply (the resource is unused) is null.
nlohmann::json occupancy_json(const Occupancy& result);

// Several launches of one kernel shape, one line each (the seed's regs / shared / blocks / occupancy table).
// A launch the calculator rejects shows its error on its line.
std::string format_occupancy_rows(const DevicePreset& preset, const std::vector<KernelResources>& kernels);

// The second axis of a sweep: registers per thread, or dynamic shared memory bytes per block.
enum class SweepAxis { registers, shared_bytes };

struct OccupancySweep {
    SweepAxis axis = SweepAxis::registers;
    std::vector<int> block_sizes;               // rows
    std::vector<std::int64_t> axis_values;      // columns
    std::vector<std::vector<Occupancy>> cells;  // [row][column]
};

// Block sizes 32, 64, ..., 1024 by default.
std::vector<int> default_sweep_block_sizes();

// Occupancy for every block size x axis value, the rest of the launch taken from `base`.
Expected<OccupancySweep> sweep_occupancy(const DevicePreset& preset, const KernelResources& base,
                                         SweepAxis axis, const std::vector<std::int64_t>& axis_values,
                                         const std::vector<int>& block_sizes = default_sweep_block_sizes());

// Rows = block sizes, columns = axis values; each cell "blocks occupancy% limiter-letter"
// (W warps, R registers, S shared memory, B blocks, X barriers; "-" when no block fits).
std::string format_sweep(const DevicePreset& preset, const OccupancySweep& sweep);
nlohmann::json sweep_json(const OccupancySweep& sweep);

// The `warpsim devices` listing: one line per preset, the default marked.
std::string format_devices(const std::vector<DevicePreset>& presets,
                           std::string_view default_name = default_preset_name);
nlohmann::json devices_json(const std::vector<DevicePreset>& presets,
                            std::string_view default_name = default_preset_name);

}  // namespace warpsim::device
