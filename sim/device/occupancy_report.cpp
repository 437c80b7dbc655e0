// Text tables and JSON for occupancy results, sweeps and the device list.
#include "sim/device/occupancy_report.hpp"

#include <fmt/format.h>

namespace warpsim::device {
namespace {

std::string bytes_text(std::int64_t bytes) {
    if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0)
        return fmt::format("{} MiB", bytes / (1024 * 1024));
    if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("{} KB", bytes / 1024);
    return fmt::format("{} B", bytes);
}

std::string limit_text(int limit) {
    return limit == OccupancyLimits::unlimited ? std::string("no limit") : std::to_string(limit);
}

nlohmann::json limit_json(int limit) {
    return limit == OccupancyLimits::unlimited ? nlohmann::json(nullptr) : nlohmann::json(limit);
}

char limiter_letter(Limiter limiter) {
    switch (limiter) {
        case Limiter::warps:
            return 'W';
        case Limiter::registers:
            return 'R';
        case Limiter::shared_memory:
            return 'S';
        case Limiter::blocks:
            return 'B';
        case Limiter::barriers:
            return 'X';
    }
    return '?';
}

std::string limiters_text(const Occupancy& r) {
    std::string text(limiter_name(r.limiter));
    if (r.limiters.size() > 1) {
        text += " (also";
        for (std::size_t i = 1; i < r.limiters.size(); ++i)
            text += std::string(" ") + std::string(limiter_name(r.limiters[i]));
        text += ")";
    }
    return text;
}

std::string launch_text(const KernelResources& k) {
    std::string text = fmt::format("{} threads, {} registers/thread, {} static + {} dynamic shared",
                                   k.threads_per_block, k.registers_per_thread,
                                   bytes_text(k.static_shared_bytes), bytes_text(k.dynamic_shared_bytes));
    if (k.carveout_percent >= 0) text += fmt::format(", carveout {}%", k.carveout_percent);
    if (k.max_dynamic_shared_bytes)
        text += fmt::format(", opted in to {}", bytes_text(*k.max_dynamic_shared_bytes));
    return text;
}

}  // namespace

std::string format_occupancy(const DevicePreset& p, const KernelResources& k, const Occupancy& r) {
    std::string out =
        fmt::format("occupancy on {} ({}, {} SMs): {}\n", p.name, p.arch(), p.sm_count, launch_text(k));
    out += fmt::format("  blocks per SM   {}\n", r.blocks_per_sm);
    out += fmt::format("  warps per SM    {} of {}\n", r.warps_per_sm, p.sm.max_warps);
    out += fmt::format("  occupancy       {:.1f}%\n", r.occupancy * 100.0);
    out += fmt::format("  limiter         {}\n\n", limiters_text(r));
    out += fmt::format("  {:<15} {:>14}   {:<20} {}\n", "resource", "blocks allowed", "per block", "per SM");
    out += fmt::format("  {:<15} {:>14}   {:<20} {}\n", "warps", limit_text(r.limits.warps),
                       fmt::format("{} warps", r.warps_per_block), fmt::format("{} warps", p.sm.max_warps));
    out += fmt::format("  {:<15} {:>14}   {:<20} {}\n", "registers", limit_text(r.limits.registers),
                       fmt::format("{} ({} per warp)", r.registers_per_block, r.registers_per_warp),
                       fmt::format("{} in {} sub-partitions", p.sm.registers, p.sm.sub_partitions));
    out += fmt::format(
        "  {:<15} {:>14}   {:<20} {}\n", "shared memory", limit_text(r.limits.shared),
        fmt::format("{} B", r.shared_per_block),
        fmt::format("{} B (carveout step {})", r.shared_config_bytes, bytes_text(r.shared_config_bytes)));
    out += fmt::format("  {:<15} {:>14}   {:<20} {}\n", "blocks", limit_text(r.limits.blocks), "1",
                       p.sm.max_blocks);
    out +=
        fmt::format("  {:<15} {:>14}   {:<20} {}\n", "barriers", limit_text(r.limits.barriers),
                    std::to_string(k.barriers_per_block),
                    p.sm.block_barriers ? std::to_string(*p.sm.block_barriers) : std::string("not modelled"));
    return out;
}

nlohmann::json occupancy_json(const Occupancy& r) {
    nlohmann::json limiters = nlohmann::json::array();
    for (Limiter l : r.limiters) limiters.push_back(std::string(limiter_name(l)));
    return {{"blocks_per_sm", r.blocks_per_sm},
            {"warps_per_sm", r.warps_per_sm},
            {"occupancy", r.occupancy},
            {"limiter", std::string(limiter_name(r.limiter))},
            {"limiters", limiters},
            {"limits",
             {{"warps", limit_json(r.limits.warps)},
              {"registers", limit_json(r.limits.registers)},
              {"shared", limit_json(r.limits.shared)},
              {"blocks", limit_json(r.limits.blocks)},
              {"barriers", limit_json(r.limits.barriers)}}},
            {"shared_config_bytes", r.shared_config_bytes},
            {"registers_per_block", r.registers_per_block},
            {"shared_per_block", r.shared_per_block}};
}

std::string format_occupancy_rows(const DevicePreset& p, const std::vector<KernelResources>& kernels) {
    std::string out = fmt::format("{:>7} {:>5} {:>10} {:>10} {:>7} {:>6} {:>9}  {}\n", "threads", "regs",
                                  "static", "dynamic", "blocks", "warps", "occupancy", "limiter");
    for (const KernelResources& k : kernels) {
        auto r = compute_occupancy(p, k);
        std::string head =
            fmt::format("{:>7} {:>5} {:>10} {:>10}", k.threads_per_block, k.registers_per_thread,
                        bytes_text(k.static_shared_bytes), bytes_text(k.dynamic_shared_bytes));
        if (!r) {
            out += head + "  error: " + r.error() + "\n";
            continue;
        }
        out += fmt::format("{} {:>7} {:>6} {:>8.1f}%  {}\n", head, r->blocks_per_sm, r->warps_per_sm,
                           r->occupancy * 100.0, limiters_text(*r));
    }
    return out;
}

std::vector<int> default_sweep_block_sizes() {
    std::vector<int> sizes;
    for (int t = 32; t <= 1024; t += 32) sizes.push_back(t);
    return sizes;
}

Expected<OccupancySweep> sweep_occupancy(const DevicePreset& p, const KernelResources& base, SweepAxis axis,
                                         const std::vector<std::int64_t>& axis_values,
                                         const std::vector<int>& block_sizes) {
    OccupancySweep sweep;
    sweep.axis = axis;
    sweep.block_sizes = block_sizes;
    sweep.axis_values = axis_values;
    for (int threads : block_sizes) {
        std::vector<Occupancy>& row = sweep.cells.emplace_back();
        for (std::int64_t value : axis_values) {
            KernelResources k = base;
            k.threads_per_block = threads;
            if (axis == SweepAxis::registers) {
                k.registers_per_thread = static_cast<int>(value);
            } else {
                k.dynamic_shared_bytes = value;
            }
            auto r = compute_occupancy(p, k);
            if (!r) return Expected<OccupancySweep>::failure(r.error());
            row.push_back(*r);
        }
    }
    return sweep;
}

std::string format_sweep(const DevicePreset& p, const OccupancySweep& s) {
    bool regs = s.axis == SweepAxis::registers;
    std::string out =
        fmt::format("occupancy on {} ({}): rows = threads per block, columns = {}\n", p.name, p.arch(),
                    regs ? "registers per thread" : "dynamic shared memory per block");
    out +=
        "cell = blocks per SM, occupancy, limiter (W warps, R registers, S shared memory, B blocks, X "
        "barriers)\n";
    out += fmt::format("{:>7}", "threads");
    for (std::int64_t v : s.axis_values)
        out += fmt::format(" {:>11}", regs ? std::to_string(v) : bytes_text(v));
    out += "\n";
    for (std::size_t i = 0; i < s.block_sizes.size(); ++i) {
        out += fmt::format("{:>7}", s.block_sizes[i]);
        for (const Occupancy& r : s.cells[i]) {
            std::string cell = r.blocks_per_sm == 0
                                   ? std::string("0 - ") + limiter_letter(r.limiter)
                                   : fmt::format("{} {:.0f}% {}", r.blocks_per_sm, r.occupancy * 100.0,
                                                 limiter_letter(r.limiter));
            out += fmt::format(" {:>11}", cell);
        }
        out += "\n";
    }
    return out;
}

nlohmann::json sweep_json(const OccupancySweep& s) {
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t i = 0; i < s.block_sizes.size(); ++i) {
        nlohmann::json cells = nlohmann::json::array();
        for (const Occupancy& r : s.cells[i]) cells.push_back(occupancy_json(r));
        rows.push_back({{"threads_per_block", s.block_sizes[i]}, {"cells", cells}});
    }
    return {{"axis", s.axis == SweepAxis::registers ? "registers_per_thread" : "dynamic_shared_bytes"},
            {"axis_values", s.axis_values},
            {"rows", rows}};
}

std::string format_devices(const std::vector<DevicePreset>& presets, std::string_view default_name) {
    std::string out = fmt::format("{:<24} {:<6} {:>4} {:>9} {:>8} {:>9} {:>8} {:>10} {:>11} {:>10}  {}\n",
                                  "name", "arch", "SMs", "warps/SM", "regs/SM", "smem/SM", "L2", "memory",
                                  "bandwidth", "boost", "description");
    for (const DevicePreset& p : presets) {
        std::string name = p.name == default_name ? p.name + " (default)" : p.name;
        out += fmt::format("{:<24} {:<6} {:>4} {:>9} {:>8} {:>9} {:>8} {:>10} {:>11} {:>10}  {}\n", name,
                           p.arch(), p.sm_count, p.sm.max_warps, p.sm.registers,
                           bytes_text(p.sm.shared_bytes), bytes_text(p.cache.l2_bytes),
                           fmt::format("{:.1f} GiB", p.memory.bytes / 1073741824.0),
                           fmt::format("{:.0f} GB/s", p.memory.bandwidth_gbps),
                           fmt::format("{:.0f} MHz", p.clocks.sm_boost_mhz), p.description);
    }
    return out;
}

nlohmann::json devices_json(const std::vector<DevicePreset>& presets, std::string_view default_name) {
    nlohmann::json list = nlohmann::json::array();
    for (const DevicePreset& p : presets) {
        list.push_back({{"name", p.name},
                        {"default", p.name == default_name},
                        {"description", p.description},
                        {"arch", p.arch()},
                        {"sm_count", p.sm_count},
                        {"max_warps_per_sm", p.sm.max_warps},
                        {"registers_per_sm", p.sm.registers},
                        {"shared_bytes_per_sm", p.sm.shared_bytes},
                        {"l2_bytes", p.cache.l2_bytes},
                        {"memory_bytes", p.memory.bytes},
                        {"bandwidth_gbps", p.memory.bandwidth_gbps},
                        {"sm_boost_mhz", p.clocks.sm_boost_mhz},
                        {"timing_fitted", p.timing.fitted}});
    }
    return list;
}

}  // namespace warpsim::device
