// cli/occupancy_command.cpp — `warpsim occupancy`: blocks per SM, the limiter and a sweep table.
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "launch/json_text.hpp"
#include "sim/device/occupancy.hpp"
#include "sim/session/run.hpp"

namespace warpsim::cli {
namespace {

std::string limit_text(int v) {
    return v == device::OccupancyLimits::unlimited ? "-" : std::to_string(v);
}

nlohmann::ordered_json occupancy_json(const device::Occupancy& o, const device::KernelResources& k) {
    auto lim = [](int v) -> nlohmann::ordered_json {
        return v == device::OccupancyLimits::unlimited ? nlohmann::ordered_json(nullptr)
                                                       : nlohmann::ordered_json(v);
    };
    return {{"blocks_per_sm", o.blocks_per_sm},
            {"warps_per_sm", o.warps_per_sm},
            {"occupancy", o.occupancy},
            {"limiter", device::limiter_name(o.limiter)},
            {"limits",
             {{"warps", lim(o.limits.warps)},
              {"registers", lim(o.limits.registers)},
              {"shared_memory", lim(o.limits.shared)},
              {"blocks", lim(o.limits.blocks)},
              {"barriers", lim(o.limits.barriers)}}},
            {"threads_per_block", k.threads_per_block},
            {"registers_per_thread", k.registers_per_thread},
            {"shared_bytes_per_block", k.static_shared_bytes + k.dynamic_shared_bytes},
            {"shared_config_bytes", o.shared_config_bytes}};
}

void print_occupancy(const device::DevicePreset& p, const device::Occupancy& o,
                     const device::KernelResources& k) {
    std::cout << fmt::format("device {} ({}, {} SMs, {} warps per SM)\n", p.name, p.arch(), p.sm_count,
                             p.sm.max_warps);
    std::cout << fmt::format(
        "kernel {} threads per block, {} registers per thread, {} bytes of shared memory per block\n\n",
        k.threads_per_block, k.registers_per_thread, k.static_shared_bytes + k.dynamic_shared_bytes);
    std::cout << fmt::format(
        "blocks per SM  {}\nwarps per SM   {} of {}\noccupancy      {:.1f} %\nlimiter        {}\n\n",
        o.blocks_per_sm, o.warps_per_sm, p.sm.max_warps, 100.0 * o.occupancy,
        device::limiter_name(o.limiter));
    std::cout << fmt::format("{:<16} {:>14}  {}\n", "resource", "blocks allowed", "why");
    std::cout << fmt::format("{:<16} {:>14}  {} warps per SM / {} warps per block\n", "warps",
                             limit_text(o.limits.warps), p.sm.max_warps, o.warps_per_block);
    std::cout << fmt::format(
        "{:<16} {:>14}  {} registers per SM / {} per block ({} per warp, allocated in units of {})\n",
        "registers", limit_text(o.limits.registers), p.sm.registers, o.registers_per_block,
        o.registers_per_warp, p.sm.register_allocation_unit);
    std::cout << fmt::format("{:<16} {:>14}  {} bytes configured / {} per block (incl. {} reserved)\n",
                             "shared memory", limit_text(o.limits.shared), o.shared_config_bytes,
                             o.shared_per_block, p.sm.reserved_shared_per_block);
    std::cout << fmt::format("{:<16} {:>14}  at most {} resident blocks per SM\n", "blocks",
                             limit_text(o.limits.blocks), p.sm.max_blocks);
}

constexpr int kRegsAxis[] = {16, 32, 40, 48, 64, 80, 96, 128, 168, 255};

// The sweep as data: one row per (threads, registers) pair, for --json and --csv.
int sweep_data(const device::DevicePreset& p, device::KernelResources k, bool json) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    if (!json) std::cout << "threads,registers,occupancy_pct,blocks_per_sm,limiter\n";
    for (int t = 32; t <= 1024; t += 32) {
        for (int r : kRegsAxis) {
            k.threads_per_block = t;
            k.registers_per_thread = r;
            auto o = device::compute_occupancy(p, k);
            if (json) {
                nlohmann::ordered_json row = {{"threads_per_block", t}, {"registers_per_thread", r}};
                if (o) {
                    row["occupancy"] = o->occupancy;
                    row["blocks_per_sm"] = o->blocks_per_sm;
                    row["limiter"] = device::limiter_name(o->limiter);
                } else {
                    row["error"] = o.error();
                }
                rows.push_back(std::move(row));
            } else if (o) {
                std::cout << fmt::format("{},{},{:.1f},{},{}\n", t, r, 100.0 * o->occupancy, o->blocks_per_sm,
                                         device::limiter_name(o->limiter));
            } else {
                std::cout << fmt::format("{},{},,,\n", t, r);
            }
        }
    }
    if (json) {
        nlohmann::ordered_json doc = {
            {"schema", 1},
            {"device", p.name},
            {"shared_bytes_per_block", k.static_shared_bytes + k.dynamic_shared_bytes},
            {"rows", std::move(rows)}};
        std::cout << launch::json_text(doc) << "\n";
    }
    return 0;
}

// A configuration no launch can have: the reason and the limit, or "" when it can launch.
std::string impossible(const device::DevicePreset& p, const device::KernelResources& k) {
    const auto& b = p.block;
    if (k.threads_per_block > b.max_threads)
        return fmt::format(
            "{} threads per block: {} allows at most {} (the launch would fail with "
            "cudaErrorInvalidValue); split the work over more blocks",
            k.threads_per_block, p.name, b.max_threads);
    if (b.max_registers_per_thread > 0 && k.registers_per_thread > b.max_registers_per_thread)
        return fmt::format(
            "{} registers per thread: {} allows at most {} (ptxas caps a kernel there and spills "
            "the rest to local memory)",
            k.registers_per_thread, p.name, b.max_registers_per_thread);
    const long long shared = k.static_shared_bytes + k.dynamic_shared_bytes;
    if (shared > b.shared_optin_bytes)
        return fmt::format(
            "{} bytes of shared memory per block: {} allows at most {} even with the opt-in "
            "(cudaFuncAttributeMaxDynamicSharedMemorySize); no setting can help, use less",
            shared, p.name, b.shared_optin_bytes);
    return "";
}

int sweep(const device::DevicePreset& p, device::KernelResources k) {
    const auto& regs_axis = kRegsAxis;
    std::cout << fmt::format(
        "occupancy (%) on {} by threads per block (rows) and registers per thread (columns), "
        "{} bytes shared per block\n\n{:>7}",
        p.name, k.static_shared_bytes + k.dynamic_shared_bytes, "threads");
    for (int r : regs_axis) std::cout << fmt::format(" {:>6}", r);
    std::cout << "\n";
    for (int t = 32; t <= 1024; t += 32) {
        std::cout << fmt::format("{:>7}", t);
        for (int r : regs_axis) {
            k.threads_per_block = t;
            k.registers_per_thread = r;
            auto o = device::compute_occupancy(p, k);
            std::cout << (o ? fmt::format(" {:>6.1f}", 100.0 * o->occupancy) : std::string("      ?"));
        }
        std::cout << "\n";
    }
    return 0;
}

}  // namespace

int occupancy_command(const OccupancyArgs& args) {
    auto preset = device::load_preset(args.device);
    if (!preset) {
        std::cerr << "warpsim: " << preset.error() << "\n";
        return 2;
    }
    device::KernelResources k;
    k.threads_per_block = args.threads;
    k.registers_per_thread = args.regs;
    k.static_shared_bytes = args.shared_bytes;
    k.carveout_percent = args.carveout;
    if (k.static_shared_bytes > preset->block.shared_default_bytes)
        k.max_dynamic_shared_bytes = preset->block.shared_optin_bytes;
    if (!args.spec.empty()) {
        auto prepared = session::prepare(args.spec, args.device);
        if (!prepared) {
            std::cerr << "warpsim: " << prepared.error() << "\n";
            return 2;
        }
        auto regs = session::kernel_registers(*prepared, preset.value());
        k.threads_per_block = static_cast<int>(prepared->spec.threads_per_block());
        k.registers_per_thread = regs.registers;
        k.static_shared_bytes = regs.static_shared_bytes;
        k.dynamic_shared_bytes = prepared->spec.shared_bytes;
        if (prepared->spec.max_dynamic_shared_bytes)
            k.max_dynamic_shared_bytes = *prepared->spec.max_dynamic_shared_bytes;
        if (!args.json)
            std::cout << "registers per thread: " << regs.registers << " (" << regs.method << ")\n";
    } else if (!args.sweep && args.threads <= 0) {
        std::cerr
            << "warpsim: occupancy needs a launch spec or --threads N (with --regs R and --shared-bytes S)\n";
        return 2;
    }
    if (args.csv && !args.sweep) {
        std::cerr << "warpsim: occupancy --csv prints the --sweep table; add --sweep (or use --json)\n";
        return 2;
    }
    if (args.sweep)
        return args.json || args.csv ? sweep_data(preset.value(), k, args.json) : sweep(preset.value(), k);
    if (args.threads < 0 || args.regs < 0 || args.shared_bytes < 0) {
        std::cerr << "warpsim: occupancy: --threads, --regs and --shared-bytes cannot be negative\n";
        return 2;
    }
    if (std::string why = impossible(preset.value(), k); !why.empty()) {
        std::cerr << "warpsim: " << why << "\n";
        return 2;
    }
    auto occ = device::compute_occupancy(preset.value(), k);
    if (!occ) {
        std::cerr << "warpsim: " << occ.error() << "\n";
        return 2;
    }
    if (args.json) {
        std::cout << launch::json_text(occupancy_json(occ.value(), k)) << "\n";
    } else {
        print_occupancy(preset.value(), occ.value(), k);
    }
    return 0;
}

}  // namespace warpsim::cli
