// sim/session/run.cpp — a launch spec end to end on the simulator (see run.hpp).
#include "sim/session/run.hpp"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "kernels_ir/dataflow.hpp"
#include "kernels_ir/layout.hpp"
#include "kernels_ir/names.hpp"
#include "kernels_ir/parser.hpp"
#include "kernels_ir/source_chain.hpp"
#include "kernels_ir/verifier.hpp"
#include "launch/buffer_init.hpp"
#include "launch/hash.hpp"
#include "launch/log.hpp"
#include "launch/memory_budget.hpp"
#include "launch/params.hpp"
#include "launch/source.hpp"
#include "launch/suggest.hpp"
#include "sim/counts/l1_capacity.hpp"
#include "sim/device/ptxas.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/sass/kernel_sass.hpp"
#include "sim/session/sampled_run.hpp"

namespace warpsim::session {
namespace {

// Per function and pc: the global atomics and reductions at a warp-uniform address (counts::CountsConfig).
// The dataflow runs only over functions that have an atomic or reduction (most launches have none).
std::shared_ptr<const std::vector<std::vector<bool>>> uniform_atomics(const ir::Module& m) {
    auto out = std::make_shared<std::vector<std::vector<bool>>>(m.functions.size());
    for (std::size_t f = 0; f < m.functions.size(); ++f) {
        const ir::Function& fn = m.functions[f];
        const bool any = std::any_of(fn.body.begin(), fn.body.end(), [](const ir::Instruction& inst) {
            return inst.op == ir::Opcode::atom || inst.op == ir::Opcode::red;
        });
        if (!any) continue;
        const std::vector<bool> uniform = ir::warp_uniform_registers(fn);
        auto& at = (*out)[f];
        at.assign(fn.body.size(), false);
        for (std::size_t pc = 0; pc < fn.body.size(); ++pc) {
            const ir::Instruction& inst = fn.body[pc];
            if (inst.op == ir::Opcode::atom || inst.op == ir::Opcode::red)
                at[pc] = ir::address_warp_uniform(inst, uniform);
        }
    }
    return out;
}

std::string join_lines(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines) {
        if (!out.empty()) out += '\n';
        out += l;
    }
    return out;
}

// Per executed PTX instruction: where it is (PTX line, CUDA file:line from .loc) and what it cost, like
// Nsight Compute's source view. Keys are stable; zero fields are left out. Inlined code has the user's line
// (the call site in the function's own body) as file:line, and its chain innermost first in "inlined".
nlohmann::json per_line_json(const ir::Module& m, const counts::KernelCounters& counters) {
    nlohmann::json lines = nlohmann::json::array();
    for (const auto& [key, s] : counters.counted_per_pc()) {
        const auto& fn = m.functions.at(key.first);
        if (key.second >= fn.body.size()) continue;
        const auto& inst = fn.body[key.second];
        nlohmann::json row = {{"function", fn.name},
                              {"pc", key.second},
                              {"ptx_line", inst.loc.ptx_line},
                              {"opcode", std::string(ir::opcode_name(inst.op))}};
        if (const ir::SourcePosition at = ir::call_site(m, inst.loc); at.line) {
            row["file"] = std::string(m.file_path(at.file));
            row["line"] = at.line;
        }
        if (inst.loc.inlined_at) {
            nlohmann::json chain = nlohmann::json::array();
            for (const auto& frame : ir::source_chain(m, inst.loc)) {
                nlohmann::json j = {{"file", std::string(m.file_path(frame.at.file))},
                                    {"line", frame.at.line}};
                if (!frame.function.empty()) j["function"] = frame.function;
                chain.push_back(std::move(j));
            }
            row["inlined"] = std::move(chain);
        }
        auto put = [&](const char* name, uint64_t v) {
            if (v) row[name] = v;
        };
        put("warp_insts", s.warp_insts);
        put("thread_insts", s.thread_insts);
        put("requests", s.requests);
        put("sectors", s.sectors);
        put("ideal_sectors", s.ideal_sectors);
        put("wavefronts", s.wavefronts);
        put("ideal_wavefronts", s.ideal_wavefronts);
        put("max_bank_way", s.max_way);
        lines.push_back(std::move(row));
    }
    return lines;
}

// "no kernel named 'vecadd' in vector_add.ptx (did you mean 'vecAdd'?); its kernels: vecAdd, vector_add", the
// names as written in the source (demangled), or the candidates of an ambiguous name with their signatures.
std::string kernel_lookup_error(const ir::Module& m, const launch::LaunchSpec& spec,
                                const ir::KernelLookup& found) {
    std::vector<std::string> names;
    for (const auto& f : m.functions)
        if (f.is_entry) names.push_back(ir::demangled_base_name(f.name));
    const std::string file = std::filesystem::path(spec.source_path).filename().string();
    if (names.empty()) return "no kernel named '" + spec.kernel + "': " + file + " has no .entry";
    if (found.error.find("ambiguous") != std::string::npos) {
        std::string list;
        for (const auto& c : found.candidates) list += "\n  " + launch::demangle(c) + "  (" + c + ")";
        return "kernel name '" + spec.kernel + "' is ambiguous in " + file +
               ": give the mangled name of one of" + list;
    }
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    return "no kernel named '" + spec.kernel + "' in " + file + launch::did_you_mean(spec.kernel, names) +
           "; its kernels: " + list;
}

}  // namespace

engine::DeviceLimits limits_from(const device::DevicePreset& p) {
    engine::DeviceLimits l;
    l.max_threads_per_block = static_cast<uint32_t>(p.block.max_threads);
    for (int i = 0; i < 3; ++i) {
        l.max_block_dim[i] = static_cast<uint32_t>(p.block.max_dims[i]);
        l.max_grid_dim[i] = static_cast<uint32_t>(std::min<int64_t>(p.grid.max_dims[i], 0xffffffffll));
    }
    l.shared_per_block_default = static_cast<uint32_t>(p.block.shared_default_bytes);
    l.shared_per_block_optin = static_cast<uint32_t>(p.block.shared_optin_bytes);
    l.registers_per_sm = static_cast<uint32_t>(p.sm.registers);
    l.num_sms = static_cast<uint32_t>(p.sm_count);
    l.warp_size = static_cast<uint32_t>(p.warp_size);
    l.reserved_shared_per_block = static_cast<uint32_t>(p.sm.reserved_shared_per_block);
    return l;
}

launch::Outcome<std::shared_ptr<ir::Module>> parse_verified(const std::string& ptx, const std::string& name) {
    using Fail = launch::Outcome<std::shared_ptr<ir::Module>>;
    auto result = ir::parse_ptx(ptx, name);
    std::vector<std::string> errors;
    for (const auto& d : result.diagnostics) {
        if (d.severity == ir::Diagnostic::Severity::error) errors.push_back(d.str());
    }
    if (errors.empty()) {
        for (const auto& d : ir::verify(result.module, name)) {
            if (d.severity == ir::Diagnostic::Severity::error) errors.push_back(d.str());
        }
    }
    if (!errors.empty()) return Fail::failure(join_lines(errors));
    return std::make_shared<ir::Module>(std::move(result.module));
}

namespace {

// "sm_90" -> {90, ""}, "sm_90a" -> {90, "a"}; nullopt for a target that names no architecture (texmode_...).
struct PtxTarget {
    int number = 0;      // 10 * major + minor
    std::string suffix;  // "", "a" (architecture-specific) or "f" (family)
};
std::optional<PtxTarget> parse_target(std::string_view t) {
    if (t.rfind("sm_", 0) != 0) return std::nullopt;
    t.remove_prefix(3);
    PtxTarget r;
    size_t digits = 0;
    while (digits < t.size() && digits < 4 && std::isdigit(static_cast<unsigned char>(t[digits])))
        r.number = r.number * 10 + (t[digits++] - '0');
    if (digits < 2) return std::nullopt;
    r.suffix = std::string(t.substr(digits));
    return r;
}

launch::Outcome<PreparedLaunch> prepare_for(const std::string& spec_path,
                                            const device::DevicePreset* preset) {
    using Fail = launch::Outcome<PreparedLaunch>;
    auto parsed = launch::load_spec(spec_path);
    if (!parsed.ok()) return Fail::failure(parsed.error_text());
    launch::LaunchSpec spec = *parsed.spec;
    if (preset && !spec.arch_given) spec.arch = preset->arch();
    auto ptx = launch::load_source(spec);
    if (!ptx) return Fail::failure(ptx.error());
    const std::string ptx_name = spec.source_path;
    auto module = parse_verified(ptx.value(), ptx_name);
    if (!module) return Fail::failure(module.error());
    auto p = prepare_module(std::move(spec), std::move(ptx.value()), ptx_name, std::move(module.value()), "");
    if (p) p->warnings.insert(p->warnings.begin(), parsed.warnings.begin(), parsed.warnings.end());
    if (p && preset)
        if (std::string e = ptx_target_error(*p, *preset); !e.empty()) return Fail::failure(e);
    return p;
}

}  // namespace

launch::Outcome<PreparedLaunch> prepare(const std::string& spec_path) {
    return prepare_for(spec_path, nullptr);
}

launch::Outcome<PreparedLaunch> prepare(const std::string& spec_path, const std::string& device) {
    auto preset = device::load_preset(device);
    if (!preset) return launch::Outcome<PreparedLaunch>::failure(preset.error());
    return prepare_for(spec_path, &preset.value());
}

std::string ptx_target_error(const PreparedLaunch& p, const device::DevicePreset& preset) {
    const int gpu = preset.compute_capability.major * 10 + preset.compute_capability.minor;
    for (const auto& t : p.module->target) {
        const auto target = parse_target(t);
        if (!target) continue;
        const bool loads = target->suffix == "a"   ? target->number == gpu
                           : target->suffix == "f" ? target->number / 10 == gpu / 10 && gpu >= target->number
                                                   : gpu >= target->number;
        if (loads) return {};
        const bool from_cu = p.spec.source_path.ends_with(".cu");
        const std::string fix =
            from_cu ? fmt::format(
                          "the spec's \"arch\": \"{}\" asks for it: give \"{}\" or older, or leave \"arch\" "
                          "out to compile for the device",
                          p.spec.arch, preset.arch())
                    : fmt::format(
                          "give PTX made for {} or older (nvcc -ptx -arch={}), or the .cu as the spec's "
                          "source (warpsim compiles it for the device), or a --device of {} or newer",
                          preset.arch(), preset.arch(), t);
        const char* only = target->suffix == "a" ? " (an architecture-specific target runs on that one only)"
                           : target->suffix == "f" ? " (a family target runs on that major version only)"
                                                   : "";
        return fmt::format(
            "{}: {} is PTX for {} (.target {}), {} the {} preset's {}{}: a GPU of that architecture cannot "
            "load it and refuses the launch with cudaErrorNoKernelImageForDevice (\"no kernel image is "
            "available for execution on the device\"); {}",
            p.spec.path, p.ptx_name, t, t, target->suffix.empty() ? "newer than" : "not made for",
            preset.name, preset.arch(), only, fix);
    }
    return {};
}

std::string ptx_file_label(const PreparedLaunch& p) {
    std::filesystem::path name = std::filesystem::path(p.ptx_name).filename();
    if (name.extension() == ".cu") name.replace_extension(".ptx");
    return name.string();
}

launch::Outcome<PreparedLaunch> prepare_module(launch::LaunchSpec spec, std::string ptx, std::string ptx_name,
                                               std::shared_ptr<ir::Module> module, std::string cu_text) {
    using Fail = launch::Outcome<PreparedLaunch>;
    PreparedLaunch p;
    p.spec = std::move(spec);
    p.ptx = std::move(ptx);
    p.ptx_name = std::move(ptx_name);
    p.module = std::move(module);
    auto found = ir::find_kernel(*p.module, p.spec.kernel);
    if (!found.function)
        return Fail::failure(p.spec.path + ": kernel: " + kernel_lookup_error(*p.module, p.spec, found));
    p.kernel = found.function;
    p.kernel_index = static_cast<uint32_t>(found.function - p.module->functions.data());
    // The C++ signature first: its messages name the parameter and its type ("a pointer: give a count").
    if (std::string cu = cu_text.empty() ? launch::find_cu_source(p.spec, *p.module) : ""; !cu.empty()) {
        std::ifstream in(cu, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        cu_text = ss.str();
    }
    p.signature = launch::kernel_signature(*p.kernel, cu_text);
    p.arg_names = launch::argument_names(p.signature, p.spec);
    auto typed = launch::check_args_against(p.signature, p.spec);
    if (!typed.errors.empty()) return Fail::failure(join_lines(typed.errors));
    p.warnings.insert(p.warnings.end(), typed.warnings.begin(), typed.warnings.end());
    auto arg_errors = launch::check_args(*p.kernel, p.spec);
    if (!arg_errors.empty()) return Fail::failure(join_lines(arg_errors));
    return p;
}

RegisterInfo kernel_registers(const PreparedLaunch& p, const device::DevicePreset& preset) {
    // The order: ptxas on this very PTX for the preset's architecture, else the spec's
    // `registers`, else an estimate that says how it was made.
    RegisterInfo info;
    info.static_shared_bytes = ir::shared_layout(*p.module).static_bytes.at(p.kernel_index);
    std::string log;
    auto cubin = std::make_shared<std::string>();
    if (auto usage = device::ptxas_usage(p.ptx, preset.arch(), p.kernel->name, &log, cubin.get())) {
        info.cubin = std::move(cubin);
        info.registers = usage->registers;
        info.barriers = std::max(usage->barriers, 1);
        info.static_shared_bytes = usage->shared_bytes;
        info.spill_store_bytes = usage->spill_stores;
        info.spill_load_bytes = usage->spill_loads;
        info.stack_frame_bytes = usage->stack_frame_bytes;
        info.method = "ptxas -v (" + preset.arch() + ")";
        return info;
    }
    // Why ptxas could not say, in its first line ("ptxas not found ...", "ptxas fatal : Value 'sm_70' is not
    // defined for option 'gpu-name'").
    std::string why = log.substr(0, log.find('\n'));
    if (why.ends_with(':') && why.size() + 1 < log.size()) {  // "ptxas failed (exit 255):" and the reason
        const std::string next = log.substr(why.size() + 1, log.find('\n', why.size() + 1) - why.size() - 1);
        why += " " + next.substr(0, 200);
    }
    if (p.spec.registers) {
        info.registers = static_cast<int>(*p.spec.registers);
        info.method = "launch spec 'registers'; no ptxas for " + preset.arch() + ": " + why;
        return info;
    }
    if (auto est = device::estimate_registers(p.ptx, p.kernel->name)) {
        info.registers = est->registers;
        info.method = "estimate, no ptxas for " + preset.arch() + " (" + why + "): " + est->method;
        return info;
    }
    info.registers = 32;
    info.method =
        "estimate: 32, no ptxas for " + preset.arch() + " (" + why + ") and no register declarations";
    return info;
}

launch::Outcome<device::Occupancy> launch_occupancy(const PreparedLaunch& p,
                                                    const device::DevicePreset& preset,
                                                    const RegisterInfo& regs) {
    device::KernelResources k;
    k.threads_per_block = static_cast<int>(std::min<uint64_t>(p.spec.threads_per_block(), 1u << 30));
    k.registers_per_thread = std::clamp(regs.registers, 0, 255);
    k.static_shared_bytes = regs.static_shared_bytes;
    k.dynamic_shared_bytes = p.spec.shared_bytes;
    k.barriers_per_block = regs.barriers;
    if (p.spec.max_dynamic_shared_bytes) k.max_dynamic_shared_bytes = *p.spec.max_dynamic_shared_bytes;
    auto occ = device::compute_occupancy(preset, k);
    if (!occ) return launch::Outcome<device::Occupancy>::failure(occ.error());
    return occ.value();
}

engine::LaunchConfig launch_config(const PreparedLaunch& p, const device::DevicePreset& preset,
                                   int registers) {
    engine::LaunchConfig cfg;
    cfg.grid = p.spec.grid;
    cfg.block = p.spec.block;
    if (p.spec.cluster) cfg.cluster = *p.spec.cluster;
    cfg.dynamic_shared_bytes = p.spec.shared_bytes;
    cfg.max_dynamic_shared_optin = p.spec.max_dynamic_shared_bytes.value_or(0);
    cfg.registers_per_thread = static_cast<uint32_t>(registers);
    cfg.limits = limits_from(preset);
    cfg.ptx_file = ptx_file_label(p);
    cfg.counts_config.l2_bytes = static_cast<uint64_t>(preset.cache.l2_bytes);
    cfg.counts_config.num_sms = static_cast<uint32_t>(preset.sm_count);
    return cfg;
}

launch::Outcome<LaunchSetup> setup_launch(const PreparedLaunch& p, const device::DevicePreset& preset,
                                          int registers) {
    using Fail = launch::Outcome<LaunchSetup>;
    LaunchSetup setup;
    // Every buffer is held once, in the simulated heap, and filled there; nothing else of that size is made.
    uint64_t total = 0, count = 0;
    for (const auto& a : p.spec.args) {
        if (a.kind != launch::ArgSpec::Kind::buffer) continue;
        total += std::max<uint64_t>(a.buffer_bytes(), 1);
        ++count;
    }
    if (std::string e = launch::check_memory_budget(
            total, p.spec.path + ": the " + std::to_string(count) + " buffer" + (count == 1 ? "" : "s"));
        !e.empty()) {
        return Fail::failure(e);
    }
    setup.sim = std::make_unique<engine::Simulator>();
    setup.addresses.assign(p.spec.args.size(), 0);
    for (size_t i = 0; i < p.spec.args.size(); ++i) {
        const auto& a = p.spec.args[i];
        if (a.kind != launch::ArgSpec::Kind::buffer) continue;
        const uint64_t bytes = std::max<uint64_t>(a.buffer_bytes(), 1);
        setup.addresses[i] = setup.sim->malloc(bytes);
        uint8_t* data =
            setup.addresses[i] ? setup.sim->memory().translate(setup.addresses[i], bytes) : nullptr;
        if (!data) {
            return Fail::failure(p.spec.path + ": args[" + std::to_string(i) +
                                 "]: the simulated device heap could not hold this buffer");
        }
        if (std::string e = launch::fill_buffer(p.spec, i, std::span<uint8_t>(data, a.buffer_bytes()));
            !e.empty()) {
            return Fail::failure(e);
        }
        // Filled in place rather than through Simulator::write: initcheck must still see it as written.
        setup.sim->memory().mark_host_written(setup.addresses[i], a.buffer_bytes());
    }
    if (auto loaded = setup.sim->load(*p.module); !loaded.ok) return Fail::failure(loaded.message);
    setup.params = launch::pack_params(*p.kernel, setup.addresses, p.spec);
    setup.cfg = launch_config(p, preset, registers);
    return setup;
}

void configure_launch(SimRun& run, const PreparedLaunch& p, engine::LaunchConfig& cfg,
                      const SimOptions& options) {
    if (!run.occupancy) {
        if (auto occ = launch_occupancy(p, run.preset, run.registers)) run.occupancy = occ.value();
    }
    cfg.max_instructions = options.max_instructions;
    cfg.time_limit_seconds = options.time_limit_seconds;
    cfg.printf_fifo_bytes = options.printf_fifo_bytes;
    cfg.host_workers = options.workers;
    cfg.progress = options.progress;
    // ptxas gave the kernel no stack frame: its PTX local arrays live in registers and the GPU runs no local
    // instruction (local_array_sort, struct_with_array: 0 local sectors on the H200).
    cfg.counts_config.local_in_registers =
        run.registers.method.rfind("ptxas", 0) == 0 && run.registers.stack_frame_bytes == 0;
    // The L1 is what the combined L1/shared array leaves after the carve-out the driver picks for this
    // launch.
    if (run.occupancy) cfg.counts_config.l1_bytes = counts::l1_data_bytes(run.preset, *run.occupancy);
    const auto sass_start = std::chrono::steady_clock::now();
    auto sass = options.ptx_level_counts ? sass::KernelSass{nullptr, "PTX-level counts (--ptx-counts)"}
                                         : sass::kernel_sass(*p.module, p.kernel_index, run.preset.arch(),
                                                             run.registers.cubin.get());
    run.sass_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - sass_start).count();
    run.sass = sass.plan;
    run.counting = sass.counting;
    cfg.counts_config.sass = run.sass;
    cfg.counts_config.uniform_atomics = uniform_atomics(*p.module);
    run.counters = counts::KernelCounters(cfg.counts_config);
}

namespace {

// What to change in the spec when the block asks for more shared memory than the launch may have ("" when it
// fits): the engine's message speaks of the CUDA attribute, a spec sets it with `max_dynamic_shared_bytes`.
std::string shared_memory_advice(const PreparedLaunch& p, const engine::LaunchConfig& cfg) {
    const uint64_t fixed = ir::shared_layout(*p.module).static_bytes.at(p.kernel_index);
    const uint64_t dynamic = p.spec.shared_bytes, total = fixed + dynamic;
    const uint64_t most = cfg.limits.shared_per_block_optin, plain = cfg.limits.shared_per_block_default;
    const auto& attr = p.spec.max_dynamic_shared_bytes;
    if (total > most) {
        return fmt::format(
            "in {}: \"shared_bytes\": {} (dynamic) with {} bytes of static shared memory is more than any "
            "opt-in "
            "allows; lower \"shared_bytes\" to at most {}{}",
            p.spec.path, dynamic, fixed, most > fixed ? most - fixed : 0,
            fixed ? " or declare less __shared__ memory in the kernel" : "");
    }
    if (attr && *attr > 0 && dynamic > *attr) {
        return fmt::format(
            "in {}: \"max_dynamic_shared_bytes\": {} is below \"shared_bytes\": {}; raise it to {}",
            p.spec.path, *attr, dynamic, dynamic);
    }
    if ((!attr || *attr == 0) && total > plain) {
        return fmt::format(
            "in {}: add \"max_dynamic_shared_bytes\": {} (what cudaFuncSetAttribute with "
            "cudaFuncAttributeMaxDynamicSharedMemorySize does), or lower \"shared_bytes\" to at most {}",
            p.spec.path, dynamic, plain > fixed ? plain - fixed : 0);
    }
    return {};
}

}  // namespace

void fill_report(SimRun& run, const PreparedLaunch& p, const engine::LaunchConfig& cfg,
                 const engine::LaunchResult& result) {
    run.warp_instructions = result.warp_instructions;
    run.thread_instructions = result.thread_instructions;
    run.started = result.host_workers != 0;
    if (const auto taken = run.counters.slow_paths_taken(); taken.warps != 0) {
        // The plan counted on no warp calling an f32 division's or reciprocal's slow-path subroutine.
        const auto& at = p.module->functions.at(taken.function).body.at(taken.pc);
        run.counting = fmt::format(
            "per SASS instruction (ptxas {}) for shared memory; instruction totals: PTX-level counts (the "
            "slow-path subroutine of the {} at PTX line {} ran in {} warp{}, and its own path is not "
            "counted)",
            run.preset.arch(), at.op == ir::Opcode::div ? "division" : "reciprocal", at.loc.ptx_line,
            taken.warps, taken.warps == 1 ? "" : "s");
    } else if (const auto loops = run.counters.unrolled_loops_failure(); !loops.empty()) {
        // The plan counts ptxas's unrolled loops from each warp entry's trip count (SassPlan::loops).
        run.counting = fmt::format(
            "per SASS instruction (ptxas {}) for shared memory; instruction totals: PTX-level counts ({})",
            run.preset.arch(), loops);
    }
    auto& r = run.report;
    r.kernel = p.spec.kernel;
    r.device = run.preset.name;
    r.backend = "sim";
    r.spec = p.spec.path;
    r.launch.grid = p.spec.grid;
    r.launch.block = p.spec.block;
    r.launch.shared_bytes = p.spec.shared_bytes;
    r.launch.registers_per_thread = static_cast<uint32_t>(run.registers.registers);
    if (run.occupancy) {
        launch::OccupancyReport o;
        o.blocks_per_sm = static_cast<uint32_t>(run.occupancy->blocks_per_sm);
        o.warps_per_sm = static_cast<uint32_t>(run.occupancy->warps_per_sm);
        o.occupancy = run.occupancy->occupancy;
        o.limiter = std::string(device::limiter_name(run.occupancy->limiter));
        r.occupancy = o;
    }
    r.printf_output = result.printf_output;
    if (result.printf_dropped_records) {
        r.extra["printf_overwritten"] = {{"records", result.printf_dropped_records},
                                         {"bytes", result.printf_dropped_bytes},
                                         {"fifo_bytes", cfg.printf_fifo_bytes}};
    }
    if (result.error && result.error->kind == engine::Fault::budget_exhausted) {
        // warpsim's own limit, not a GPU's error: said as such, with the counts so far kept and marked
        // partial.
        r.error = launch::ReportError{
            std::string(kBudgetStopName),
            fmt::format("stopped at the instruction budget of {} thread-instructions", cfg.max_instructions),
            result.error->details};
        run.fault = result.error;
        r.extra["budget_stop"] = {{"max_instructions", cfg.max_instructions},
                                  {"thread_instructions", result.thread_instructions},
                                  {"warp_instructions", result.warp_instructions},
                                  {"partial", true},
                                  {"advice", std::string(kBudgetAdvice)},
                                  {"partial_metrics", run.counters.metrics()}};
    } else if (result.error) {
        r.error = launch::ReportError{result.error->name, result.error->message, result.error->details};
        run.fault = result.error;
        if (result.error->kind == engine::Fault::invalid_value && !run.started)
            if (std::string advice = shared_memory_advice(p, cfg); !advice.empty())
                r.error->details += "\n" + advice;
    } else {
        r.metrics = run.counters.metrics();
        r.extra["lines"] = per_line_json(*p.module, run.counters);
        r.extra["counting"] = run.counting;
        if (run.sass && !run.sass->notes.empty()) r.extra["sass"] = run.sass->notes;
    }
}

void run_launch(SimRun& run, engine::Simulator& sim, const PreparedLaunch& p, engine::LaunchConfig cfg,
                std::span<const uint8_t> params, const SimOptions& options) {
    configure_launch(run, p, cfg, options);
    launch_configured(run, sim, p, cfg, params, nullptr);
}

void launch_configured(SimRun& run, engine::Simulator& sim, const PreparedLaunch& p, engine::LaunchConfig cfg,
                       std::span<const uint8_t> params, const engine::BlockCounts* ran_before) {
    const uint64_t budget = cfg.max_instructions;
    if (ran_before) {
        cfg.skip_block = ran_before->linear;
        cfg.max_instructions -= std::min(cfg.max_instructions, ran_before->thread_instructions);
    }
    const auto launch_start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    auto result = sim.launch(*p.module, *p.kernel, cfg, params, &run.counters);
    run.launch_cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    run.launch_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - launch_start).count();
    if (ran_before) {
        run.counters.merge(ran_before->counters);
        result.warp_instructions += ran_before->warp_instructions;
        result.thread_instructions += ran_before->thread_instructions;
        // The user's budget, not what the pilot block left of it.
        if (result.error && result.error->kind == engine::Fault::budget_exhausted) {
            const std::string left = fmt::format("budget of {} ", cfg.max_instructions);
            if (auto at = result.error->details.find(left); at != std::string::npos)
                result.error->details.replace(at, left.size(), fmt::format("budget of {} ", budget));
        }
        cfg.max_instructions = budget;
    }
    fill_report(run, p, cfg, result);
}

launch::Outcome<SimRun> new_run(const PreparedLaunch& p, const SimOptions& options) {
    auto preset = device::load_preset(options.device);
    if (!preset) return launch::Outcome<SimRun>::failure(preset.error());
    if (std::string e = ptx_target_error(p, preset.value()); !e.empty())
        return launch::Outcome<SimRun>::failure(e);
    SimRun run;
    run.preset = preset.value();
    run.registers = kernel_registers(p, run.preset);
    auto& log = launch::log::logger();
    log.info("{}: {} registers per thread ({}), {} bytes of static shared memory", p.spec.kernel,
             run.registers.registers, run.registers.method, run.registers.static_shared_bytes);
    auto occ = launch_occupancy(p, run.preset, run.registers);
    if (occ) {
        run.occupancy = occ.value();
        const auto& o = *run.occupancy;
        auto limit = [](int v) {
            return v == device::OccupancyLimits::unlimited ? std::string("-") : fmt::format("{}", v);
        };
        log.info(
            "{}: occupancy on {}: {} blocks per SM, {} warps ({:.1f} %), limited by {}; blocks per SM "
            "each resource allows: warps {}, registers {}, shared memory {}, blocks {}, barriers {}",
            p.spec.kernel, options.device, o.blocks_per_sm, o.warps_per_sm, 100 * o.occupancy,
            device::limiter_name(o.limiter), limit(o.limits.warps), limit(o.limits.registers),
            limit(o.limits.shared), limit(o.limits.blocks), limit(o.limits.barriers));
    } else {
        log.info("{}: no occupancy: {}", p.spec.kernel, occ.error());
    }
    return run;
}

launch::Outcome<SimRun> run_simulated(const PreparedLaunch& p, const SimOptions& options) {
    using Fail = launch::Outcome<SimRun>;
    if (options.sample == SampleMode::on) {
        auto sampled = run_sampled(p, options);
        if (sampled && sampled->sampling)
            launch::log::logger().info("{}: sampled: {} of {} blocks run ({})", p.spec.kernel,
                                       sampled->sampling->blocks_run, sampled->sampling->grid_blocks,
                                       sampled->sampling->reason);
        return sampled;
    }
    auto started = new_run(p, options);
    if (!started) return started;
    SimRun run = std::move(started.value());

    auto setup = setup_launch(p, run.preset, run.registers.registers);
    if (!setup) return Fail::failure(setup.error());
    auto& sim = *setup->sim;
    engine::LaunchConfig cfg = setup->cfg;
    configure_launch(run, p, cfg, options);
    auto& log = launch::log::logger();
    log.info(
        "launch {} ({}): grid ({},{},{}) x block ({},{},{}), {} bytes of dynamic shared memory, on the "
        "simulated {}",
        p.spec.kernel, p.ptx_name, p.spec.grid[0], p.spec.grid[1], p.spec.grid[2], p.spec.block[0],
        p.spec.block[1], p.spec.block[2], p.spec.shared_bytes, options.device);
    log.debug("{}: counted {}", p.spec.kernel, run.counting);
    // A pilot block says whether the launch is large enough to sample; if not, the whole run leaves it out.
    std::optional<engine::BlockCounts> pilot;
    if (options.sample == SampleMode::automatic && sample_if_large(run, p, *setup, cfg, options, pilot)) {
        if (run.sampling)
            log.info("{}: sampled: {} of {} blocks run ({})", p.spec.kernel, run.sampling->blocks_run,
                     run.sampling->grid_blocks, run.sampling->reason);
        return run;
    }
    log.debug("{}: every block runs ({})", p.spec.kernel,
              options.sample == SampleMode::off ? "sampling off"
              : pilot ? "a pilot block says the grid is below the sampling threshold"
                      : "a launch that is small, keeps buffers, prints or whose blocks interact");
    launch_configured(run, sim, p, cfg, setup->params, pilot ? &*pilot : nullptr);
    log.debug(
        "{}: simulated in {:.3f} s: {} PTX warp instructions, {} thread instructions{}", p.spec.kernel,
        run.launch_seconds, run.warp_instructions, run.thread_instructions,
        run.fault ? fmt::format("; stopped: {}", run.report.error ? run.report.error->name : "fault") : "");
    auto& r = run.report;
    bool has_expect = false;
    for (const auto& a : p.spec.args) has_expect = has_expect || a.expect.has_value();
    const bool keep = options.keep_buffers || (has_expect && !run.fault);
    if (keep) run.final_buffers.resize(p.spec.args.size());
    for (size_t i = 0; i < p.spec.args.size(); ++i) {
        if (p.spec.args[i].kind != launch::ArgSpec::Kind::buffer) continue;
        const uint64_t n = p.spec.args[i].buffer_bytes();
        const uint8_t* bytes = n ? sim.memory().translate(setup->addresses[i], n) : nullptr;
        if (!bytes && n) continue;
        r.buffers.push_back(
            {static_cast<uint32_t>(i), launch::hex16(launch::fnv1a64(std::span<const uint8_t>(bytes, n)))});
        if (i < options.write_back.size() && !options.write_back[i].empty()) {
            assert(options.write_back[i].size() == n && "SimOptions::write_back: a span of another size");
            if (!run.fault && !r.error && n) std::memcpy(options.write_back[i].data(), bytes, n);
            continue;
        }
        if (keep) run.final_buffers[i].assign(bytes, bytes + n);
    }
    if (has_expect && !run.fault) {
        auto checks = launch::check_expectations(p.spec, run.final_buffers, p.arg_names);
        if (!checks) return Fail::failure(checks.error());
        run.checks = std::move(checks.value());
        r.extra["expect"] = launch::checks_json(run.checks);
        r.extra["verdict"] = run.checks_passed() ? "pass" : "fail";
        if (!options.keep_buffers) run.final_buffers.clear();
    }
    return run;
}

bool SimRun::checks_passed() const {
    return std::all_of(checks.begin(), checks.end(), [](const launch::BufferCheck& c) { return c.passed(); });
}

}  // namespace warpsim::session
