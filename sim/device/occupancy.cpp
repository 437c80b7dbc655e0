// The occupancy rules, one function per resource, in the order cuda_occupancy.h applies them.
#include "sim/device/occupancy.hpp"

#include <algorithm>
#include <climits>
#include <string>

namespace warpsim::device {
namespace {

int divide_round_up(int x, int y) {
    return static_cast<int>((std::int64_t{x} + y - 1) / y);
}
std::int64_t round_up64(std::int64_t x, std::int64_t y) {
    return y * ((x + y - 1) / y);
}

// Warp slots: a block takes whole warps.
int warps_limit(const DevicePreset& p, int threads_per_block) {
    if (threads_per_block > p.block.max_threads) return 0;
    return p.sm.max_warps / divide_round_up(threads_per_block, p.warp_size);
}

// Registers go to warps in allocation units, and each of the sub-partitions (one per warp scheduler)
// holds an equal share of the file, so a warp must fit in one sub-partition's share.
int registers_limit(const DevicePreset& p, const KernelResources& k, Occupancy& out) {
    const SmLimits& sm = p.sm;
    // 64-bit: a block of INT_MAX threads overflows int here (it never runs, but its figures are reported).
    const std::int64_t warps_per_block = (std::int64_t{k.threads_per_block} + p.warp_size - 1) / p.warp_size;
    const std::int64_t per_warp =
        round_up64(std::int64_t{k.registers_per_thread} * p.warp_size, sm.register_allocation_unit);
    const std::int64_t per_block = per_warp * warps_per_block;
    out.registers_per_warp = static_cast<int>(per_warp);
    out.registers_per_block = static_cast<int>(std::min<std::int64_t>(per_block, INT_MAX));
    // The hardware's per-block check assumes the block's warps are spread over all sub-partitions at once,
    // so it counts the warps rounded up to a multiple of the sub-partition count.
    const std::int64_t assumed_per_block = per_warp * round_up64(warps_per_block, sm.sub_partitions);
    if (assumed_per_block > p.block.max_registers || per_block > p.block.max_registers) return 0;
    if (per_warp == 0) return OccupancyLimits::unlimited;
    const std::int64_t warps_per_sub_partition = (sm.registers / sm.sub_partitions) / per_warp;
    return static_cast<int>(warps_per_sub_partition * sm.sub_partitions / warps_per_block);
}

// The per-block ceiling: 48 KB unless the kernel opted in and asks for more; the driver's reservation
// comes on top of either.
std::int64_t shared_per_block_ceiling(const DevicePreset& p, const KernelResources& k) {
    std::int64_t ceiling = p.block.shared_default_bytes;
    if (k.max_dynamic_shared_bytes) {
        std::int64_t most =
            k.static_shared_bytes + p.sm.reserved_shared_per_block + *k.max_dynamic_shared_bytes;
        if (most > p.block.shared_default_bytes) ceiling = p.block.shared_optin_bytes;
    }
    return ceiling + p.sm.reserved_shared_per_block;
}

Expected<int> shared_limit(const DevicePreset& p, const KernelResources& k, std::int64_t preferred,
                           Occupancy& out) {
    std::int64_t per_block = k.static_shared_bytes + p.sm.reserved_shared_per_block + k.dynamic_shared_bytes;
    per_block = round_up64(per_block, p.sm.shared_allocation_granularity);
    out.shared_per_block = per_block;
    out.shared_config_bytes = preferred;
    bool over_attribute = k.max_dynamic_shared_bytes && k.dynamic_shared_bytes > *k.max_dynamic_shared_bytes;
    if (over_attribute || per_block > shared_per_block_ceiling(p, k)) return 0;
    // The preference is a hint: when one block does not fit in it, the SM takes the smallest step that does.
    if (preferred < per_block) {
        std::optional<std::int64_t> grown = round_to_carveout(p.sm, per_block);
        if (!grown) {
            return Expected<int>::failure(p.origin + ": " + std::to_string(per_block) +
                                          " bytes of shared memory per block exceed every carveout step");
        }
        out.shared_config_bytes = *grown;
    }
    if (per_block == 0) return OccupancyLimits::unlimited;
    return static_cast<int>(out.shared_config_bytes / per_block);
}

int barriers_limit(const DevicePreset& p, const KernelResources& k) {
    if (!p.sm.block_barriers || k.barriers_per_block <= 0) return OccupancyLimits::unlimited;
    return *p.sm.block_barriers / k.barriers_per_block;
}

std::optional<std::string> invalid_input(const DevicePreset& p, const KernelResources& k) {
    if (k.threads_per_block <= 0) return "threads per block must be positive";
    if (k.registers_per_thread < 0 || k.registers_per_thread > p.block.max_registers_per_thread) {
        return "registers per thread must be 0.." + std::to_string(p.block.max_registers_per_thread) +
               ", got " + std::to_string(k.registers_per_thread);
    }
    if (k.static_shared_bytes < 0 || k.dynamic_shared_bytes < 0)
        return "shared memory sizes must not be negative";
    if (k.static_shared_bytes > INT_MAX / 2 || k.dynamic_shared_bytes > INT_MAX / 2)
        return "shared memory size too large";
    if (k.max_dynamic_shared_bytes &&
        (*k.max_dynamic_shared_bytes < 0 || *k.max_dynamic_shared_bytes > INT_MAX / 2)) {
        return "max dynamic shared memory attribute out of range";
    }
    if (k.carveout_percent < -1 || k.carveout_percent > 100) {
        return "shared memory carveout must be -1 (default) or 0..100 percent, got " +
               std::to_string(k.carveout_percent);
    }
    if (k.barriers_per_block < 0 || k.barriers_per_block > 16) return "barriers per block must be 0..16";
    return std::nullopt;
}

}  // namespace

std::string_view limiter_name(Limiter limiter) {
    switch (limiter) {
        case Limiter::warps:
            return "warps";
        case Limiter::registers:
            return "registers";
        case Limiter::shared_memory:
            return "shared_memory";
        case Limiter::blocks:
            return "blocks";
        case Limiter::barriers:
            return "barriers";
    }
    return "unknown";
}

std::optional<std::int64_t> round_to_carveout(const SmLimits& sm, std::int64_t bytes) {
    for (std::int64_t step : sm.shared_carveout_bytes) {
        if (bytes <= step) return step;
    }
    return std::nullopt;
}

Expected<std::int64_t> preferred_shared_config(const DevicePreset& p, const KernelResources& k) {
    int percent = k.carveout_percent;
    if (percent == -1) {
        switch (k.cache_preference) {
            case CachePreference::prefer_l1:
                percent = 0;
                break;
            case CachePreference::prefer_shared:
                percent = 100;
                break;
            case CachePreference::prefer_equal:
                percent = 50;
                break;
            case CachePreference::none:
                break;
        }
    }
    std::int64_t bytes = percent == -1 ? p.sm.shared_bytes : percent * p.sm.shared_bytes / 100;
    std::optional<std::int64_t> step = round_to_carveout(p.sm, bytes);
    if (!step)
        return Expected<std::int64_t>::failure(p.origin + ": no carveout step holds " +
                                               std::to_string(bytes) + " bytes");
    return *step;
}

Expected<Occupancy> compute_occupancy(const DevicePreset& p, const KernelResources& k) {
    if (std::optional<std::string> why = invalid_input(p, k)) return Expected<Occupancy>::failure(*why);
    Expected<std::int64_t> preferred = preferred_shared_config(p, k);
    if (!preferred) return Expected<Occupancy>::failure(preferred.error());

    Occupancy out;
    out.warps_per_block = divide_round_up(k.threads_per_block, p.warp_size);
    out.limits.registers = registers_limit(p, k, out);
    out.limits.warps = warps_limit(p, k.threads_per_block);
    out.limits.blocks = p.sm.max_blocks;
    Expected<int> shared = shared_limit(p, k, *preferred, out);
    if (!shared) return Expected<Occupancy>::failure(shared.error());
    out.limits.shared = *shared;
    out.limits.barriers = barriers_limit(p, k);

    const OccupancyLimits& l = out.limits;
    out.blocks_per_sm = std::min({l.warps, l.registers, l.shared, l.blocks, l.barriers});
    const std::pair<Limiter, int> each[] = {{Limiter::warps, l.warps},
                                            {Limiter::registers, l.registers},
                                            {Limiter::shared_memory, l.shared},
                                            {Limiter::blocks, l.blocks},
                                            {Limiter::barriers, l.barriers}};
    for (const auto& [limiter, value] : each) {
        if (value == out.blocks_per_sm) out.limiters.push_back(limiter);
    }
    out.limiter = out.limiters.front();
    out.warps_per_sm = out.blocks_per_sm * out.warps_per_block;
    out.occupancy = static_cast<double>(out.warps_per_sm) / p.sm.max_warps;
    return out;
}

}  // namespace warpsim::device
