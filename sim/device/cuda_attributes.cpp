// The CUDA runtime's view of a device preset: cudaDeviceGetAttribute by number.
#include "sim/device/cuda_attributes.hpp"

#include <algorithm>

namespace warpsim::device {

namespace {

struct AttributeRow {
    int number;
    std::string_view name;
    std::int64_t h200_value;
};

constexpr AttributeRow attribute_rows[] = {
#define WARPSIM_CUDA_ATTRIBUTE(number, name, value) {number, #name, value},
#include "sim/device/cuda_attributes.def"
#undef WARPSIM_CUDA_ATTRIBUTE
};

const AttributeRow* find_row(int number) {
    const auto* end = std::end(attribute_rows);
    const auto* it = std::find_if(std::begin(attribute_rows), end,
                                  [&](const AttributeRow& r) { return r.number == number; });
    return it == end ? nullptr : it;
}

std::int64_t khz(double mhz) {
    return static_cast<std::int64_t>(mhz * 1000.0 + 0.5);
}

// The attributes that a preset describes itself (numbers as in driver_types.h).
std::optional<std::int64_t> from_preset(const DevicePreset& p, int number) {
    switch (number) {
        case 1:
            return p.block.max_threads;
        case 2:
            return p.block.max_dims[0];
        case 3:
            return p.block.max_dims[1];
        case 4:
            return p.block.max_dims[2];
        case 5:
            return p.grid.max_dims[0];
        case 6:
            return p.grid.max_dims[1];
        case 7:
            return p.grid.max_dims[2];
        case 8:
            return p.block.shared_default_bytes;
        case 10:
            return p.warp_size;
        case 12:
            return p.block.max_registers;
        case 13:
            return khz(p.clocks.sm_boost_mhz);
        case 16:
            return p.sm_count;
        case 33:
        case 34:
        case 50:
            return 0;  // the PCI location: a simulated device sits in no slot
        case 36:
            return khz(p.clocks.memory_mhz);
        case 37:
            return p.memory.bus_width_bits;
        case 38:
            return p.cache.l2_bytes;
        case 39:
            return p.sm.max_threads;
        case 40:
            return copy_engines(p);
        case 75:
            return p.compute_capability.major;
        case 76:
            return p.compute_capability.minor;
        case 81:
            return p.sm.shared_bytes;
        case 82:
            return p.sm.registers;
        case 97:
            return p.block.shared_optin_bytes;
        case 106:
            return p.sm.max_blocks;
        case 111:
            return p.sm.reserved_shared_per_block;
        case 120:
            return p.compute_capability.major >= 9 ? 1 : 0;  // thread block clusters from 9.0
        default:
            return std::nullopt;
    }
}

}  // namespace

std::optional<std::int64_t> cuda_attribute(const DevicePreset& preset, int number) {
    const AttributeRow* row = find_row(number);
    if (row == nullptr) return std::nullopt;
    if (preset.cuda_runtime) {
        auto it = preset.cuda_runtime->attributes.find(std::string(row->name));
        if (it != preset.cuda_runtime->attributes.end()) return it->second;
    }
    if (auto v = from_preset(preset, number)) return v;
    return row->h200_value;
}

std::string_view cuda_attribute_name(int number) {
    const AttributeRow* row = find_row(number);
    return row == nullptr ? std::string_view() : row->name;
}

bool is_cuda_attribute_name(std::string_view name) {
    return std::any_of(std::begin(attribute_rows), std::end(attribute_rows),
                       [&](const AttributeRow& r) { return r.name == name; });
}

int copy_engines(const DevicePreset& preset) {
    return preset.cuda_runtime ? preset.cuda_runtime->copy_engines : 3;
}

}  // namespace warpsim::device
