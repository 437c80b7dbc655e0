// sim/check/run_check.cpp — one launch spec on the simulator with the checkers attached.
#include "sim/check/run_check.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <filesystem>

#include "launch/buffer_init.hpp"
#include "launch/log.hpp"
#include "launch/params.hpp"
#include "sim/check/check_observer.hpp"
#include "sim/check/memcheck.hpp"
#include "sim/device/device.hpp"

namespace warpsim::check {
namespace {

// "args[2] c": the spec's name for the argument, else the kernel's C++ parameter name, where known.
std::string arg_name(const session::PreparedLaunch& p, size_t i) {
    std::string s = fmt::format("args[{}]", i);
    const std::string& name = i < p.arg_names.size() ? p.arg_names[i] : p.spec.args[i].name;
    return name.empty() ? s : s + " " + name;
}

}  // namespace

std::optional<std::string> select_tools(const std::vector<std::string>& names, CheckOptions& o) {
    if (names.empty()) return std::nullopt;
    o.memcheck = o.racecheck = o.synccheck = o.initcheck = false;
    for (const auto& list : names) {
        size_t start = 0;
        while (start <= list.size()) {
            size_t comma = list.find(',', start);
            std::string n =
                list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            if (n == "memcheck")
                o.memcheck = true;
            else if (n == "racecheck")
                o.racecheck = true;
            else if (n == "synccheck")
                o.synccheck = true;
            else if (n == "initcheck")
                o.initcheck = true;
            else if (n == "all")
                o.memcheck = o.racecheck = o.synccheck = o.initcheck = true;
            else
                return fmt::format(
                    "--tool: unknown tool '{}' (expected memcheck, racecheck, synccheck, initcheck "
                    "or all)",
                    n);
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
    }
    return std::nullopt;
}

void name_launch_memory(CheckContext& ctx, const session::PreparedLaunch& p,
                        const session::LaunchSetup& setup, const device::DevicePreset& preset) {
    // The engine's shared addresses start after the block's reserved region (sim/engine/simulator.hpp).
    ctx.shared =
        shared_layout(*p.module, p.kernel_index, static_cast<uint32_t>(preset.sm.reserved_shared_per_block));
    ctx.allocations.clear();
    for (size_t i = 0; i < p.spec.args.size() && i < setup.addresses.size(); ++i) {
        const auto& a = p.spec.args[i];
        if (a.kind != launch::ArgSpec::Kind::buffer) continue;
        ctx.allocations.push_back(
            {setup.addresses[i], a.buffer_bytes(), arg_name(p, i), launch::elem_bytes(a.type)});
    }
    for (const auto& v : p.module->globals) {
        if (v.space != ir::Space::global && v.space != ir::Space::const_) continue;
        if (auto addr = setup.sim->symbol_address(*p.module, v.name))
            ctx.allocations.push_back(
                {*addr, v.size_bytes(), CheckContext::source_name(v.name),
                 std::max<uint32_t>(1, ir::type_bytes(v.type) * std::max<uint8_t>(1, v.vec))});
    }
}

launch::Outcome<CheckResult> check_prepared(const session::PreparedLaunch& p, const CheckOptions& options) {
    using Fail = launch::Outcome<CheckResult>;
    auto preset = device::load_preset(options.device);
    if (!preset) return Fail::failure(preset.error());
    if (std::string e = session::ptx_target_error(p, preset.value()); !e.empty()) return Fail::failure(e);
    CheckResult r;
    r.module = p.module;
    r.kernel = p.spec.kernel;
    r.spec = p.spec.path;
    r.ctx.module = p.module.get();
    r.ctx.kernel_index = p.kernel_index;
    r.ctx.ptx_file = session::ptx_file_label(p);
    r.ctx.block_dim = p.spec.block;
    const auto regs = session::kernel_registers(p, preset.value());
    auto setup = session::setup_launch(p, preset.value(), regs.registers);
    if (!setup) return Fail::failure(setup.error());
    auto& sim = *setup->sim;
    name_launch_memory(r.ctx, p, *setup, preset.value());
    engine::LaunchConfig& cfg = setup->cfg;
    cfg.max_instructions = options.max_instructions;
    cfg.time_limit_seconds = options.time_limit_seconds;
    cfg.host_workers = 1;
    launch::log::logger().info(
        "check {}: grid ({},{},{}) x block ({},{},{}) on the simulated {}, one host thread, memcheck {}, "
        "racecheck {} ({}), synccheck {}, initcheck {}, {} schedule(s)",
        p.spec.kernel, p.spec.grid[0], p.spec.grid[1], p.spec.grid[2], p.spec.block[0], p.spec.block[1],
        p.spec.block[2], options.device, options.memcheck ? "on" : "off", options.racecheck ? "on" : "off",
        options.race_global ? "shared and global" : "shared only", options.synccheck ? "on" : "off",
        options.initcheck ? "on" : "off", options.schedules);
    cfg.schedule_seed = options.schedule_seed;
    CheckObserver observer(r.ctx, r.log, &sim.memory(), options.racecheck, options.race_global,
                           options.synccheck, options.initcheck);
    cfg.observer = &observer;
    cfg.progress = options.progress;
    if (options.launch_started) options.launch_started(0, std::max<uint32_t>(options.schedules, 1));
    auto result = sim.launch(*p.module, *p.kernel, cfg, setup->params, nullptr);
    if (result.error) {
        observer.abandon_block();
        r.error = result.error;
        if (result.error->kind == engine::Fault::not_supported)
            r.incomplete = result.error->message;
        else if (result.error->kind == engine::Fault::budget_exhausted)
            // warpsim's own limit, not a fault of the kernel: the check covers the work done until then.
            r.incomplete = fmt::format(
                "the run stopped at the instruction budget of {} thread-instructions before the kernel "
                "finished (raise --max-instructions N)",
                options.max_instructions);
        else
            r.log.add(launch_error_finding(*result.error, r.ctx));
    }
    if (options.schedules > 1 && r.incomplete.empty()) {
        r.schedules.push_back({options.schedule_seed, read_buffers(p, *setup), result.error});
        for (uint32_t k = 1; k < options.schedules; ++k) {
            if (options.launch_started) options.launch_started(k, options.schedules);
            auto run = run_schedule(p, preset.value(), regs.registers, options.schedule_seed + k,
                                    options.max_instructions, options.progress);
            if (!run) return Fail::failure(run.error());
            r.schedules.push_back(std::move(run.value()));
        }
        if (auto f = compare_schedules(r.schedules)) r.log.add(std::move(*f));
        r.notes.push_back(fmt::format("ran {} schedules (seeds {}..{}); the checkers watched the first",
                                      options.schedules, options.schedule_seed,
                                      options.schedule_seed + options.schedules - 1));
    }
    return r;
}

}  // namespace warpsim::check
