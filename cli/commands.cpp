// cli/commands.cpp — run, ptx and devices: the simulator-side subcommands of `warpsim`.
#include "cli/commands.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/gpu_commands.hpp"
#include "kernels_ir/layout.hpp"
#include "kernels_ir/parser.hpp"
#include "kernels_ir/printer.hpp"
#include "kernels_ir/verifier.hpp"
#include "launch/cxx_signature.hpp"
#include "launch/input_file.hpp"
#include "launch/json_text.hpp"
#include "launch/launch_spec.hpp"
#include "launch/npy.hpp"
#include "launch/show.hpp"
#include "launch/source.hpp"
#include "sim/device/device.hpp"
#include "sim/device/ptxas.hpp"
#include "sim/report/html_report.hpp"
#include "sim/report/lane_sample.hpp"
#include "sim/report/progress.hpp"
#include "sim/report/text_report.hpp"
#include "sim/session/run.hpp"
#include "sim/session/sampled_run.hpp"
#include "sim/timing/timing.hpp"

namespace warpsim::cli {
namespace {

// Exit codes: 0 success, 1 the kernel failed (launch or memory error) or a count differs, 2 bad input,
// 3 the kernel ran but a buffer differs from its "expect", 4 the run stopped at the instruction budget
// (docs/LIMITS.md).
constexpr int kExitKernelError = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitMismatch = 3;
static_assert(kRunSampleAboveDefault == session::kDefaultSampleAbove,
              "--sample-above's default is the session's");

// Writes each buffer after the kernel to DIR/argN.npy; returns the JSON listing, or an error message.
launch::Outcome<nlohmann::ordered_json> save_buffers(const session::PreparedLaunch& p,
                                                     const session::SimRun& run, const std::string& dir) {
    using Fail = launch::Outcome<nlohmann::ordered_json>;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return Fail::failure("--save " + dir + ": cannot create the folder: " + ec.message());
    nlohmann::ordered_json saved = nlohmann::ordered_json::array();
    for (size_t i = 0; i < p.spec.args.size(); ++i) {
        const auto& a = p.spec.args[i];
        if (a.kind != launch::ArgSpec::Kind::buffer || i >= run.final_buffers.size()) continue;
        const std::string file = (std::filesystem::path(dir) / ("arg" + std::to_string(i) + ".npy")).string();
        if (std::string err = launch::write_npy(file, a.type, a.count, run.final_buffers[i]); !err.empty())
            return Fail::failure("--save: " + err);
        nlohmann::ordered_json row = {{"arg", i}};
        if (i < p.arg_names.size() && !p.arg_names[i].empty()) row["name"] = p.arg_names[i];
        row["file"] = file;
        row["type"] = std::string(launch::elem_name(a.type));
        row["count"] = a.count;
        row["dtype"] = launch::npy_descr(a.type);
        saved.push_back(std::move(row));
    }
    return saved;
}

std::string saved_text(const nlohmann::ordered_json& saved) {
    std::string out;
    for (const auto& row : saved) {
        const std::string name = row.contains("name") ? " " + row["name"].get<std::string>() : "";
        out += fmt::format("saved     args[{}]{} -> {} ({} x {})\n", row["arg"].get<size_t>(), name,
                           row["file"].get<std::string>(), row["count"].get<uint64_t>(),
                           row["type"].get<std::string>());
    }
    return out;
}

}  // namespace

int run_command(const RunArgs& args, const char* argv0) {
    if (args.backend == "cuda") return run_on_gpu_command(args, argv0);
    auto prepared = session::prepare(args.spec, args.device);
    if (!prepared) {
        std::cerr << "warpsim: " << prepared.error() << "\n";
        return kExitBadInput;
    }
    for (const auto& w : prepared->warnings) std::cerr << "warpsim: warning: " << w << "\n";
    std::vector<launch::ShowRequest> shows;
    for (const auto& text : args.show) {
        auto r = launch::parse_show(text, prepared->spec, prepared->arg_names);
        if (!r) {
            std::cerr << "warpsim: " << r.error() << "\n";
            return kExitBadInput;
        }
        shows.push_back(*r);
    }
    session::SimOptions options;
    options.keep_buffers = !args.save.empty() || !shows.empty();
    if (args.sample && options.keep_buffers) {
        std::cerr << "warpsim: --sample produces no buffers, so --save and --show have nothing to give: drop "
                     "--sample to run the whole launch\n";
        return kExitBadInput;
    }
    // Queries that need no buffer are sampled automatically above --sample-above.
    options.sample = args.sample                              ? session::SampleMode::on
                     : args.no_sample || options.keep_buffers ? session::SampleMode::off
                                                              : session::SampleMode::automatic;
    options.sample_above = args.sample_above;
    options.device = args.device;
    options.max_instructions = args.max_instructions;
    options.time_limit_seconds = args.time_limit;
    options.printf_fifo_bytes = args.printf_buffer;
    options.workers = args.workers;
    options.verbose = args.verbose > 0;
    options.ptx_level_counts = args.ptx_counts;
    // A progress bar on stderr while the simulation runs, when it takes more than a second and stderr is a
    // terminal.
    auto run = [&] {
        report::ProgressMeter meter(stderr, prepared->spec.block_count(), !args.json && !args.quiet);
        options.progress = &meter.counters();
        auto result = session::run_simulated(*prepared, options);
        options.progress = nullptr;
        return result;
    }();
    if (!run) {
        std::cerr << "warpsim: " << run.error() << "\n";
        return kExitBadInput;
    }
    // The timing model runs on the counts of this very simulation.
    std::string timing_text;
    if (!run->report.error) {
        auto timing = timing::predict_run(*prepared, *run);
        run->report.predicted = timing.predicted;
        timing_text = timing.text;
    }
    // What the user asked to see and keep of the buffers after the kernel.
    std::string buffers_text;
    if (!shows.empty()) {
        nlohmann::ordered_json shown = nlohmann::ordered_json::array();
        for (const auto& r : shows) {
            const auto& arg = prepared->spec.args[r.arg];
            const std::vector<uint8_t> none;
            const auto& bytes = r.arg < run->final_buffers.size() ? run->final_buffers[r.arg] : none;
            buffers_text += launch::format_show(r, arg, bytes);
            shown.push_back(launch::show_json(r, arg, bytes));
        }
        run->report.extra["show"] = shown;  // a copy: extra is nlohmann::json, not ordered_json
    }
    if (!args.save.empty()) {
        auto saved = save_buffers(*prepared, *run, args.save);
        if (!saved) {
            std::cerr << "warpsim: " << saved.error() << "\n";
            return kExitBadInput;
        }
        buffers_text += saved_text(*saved);
        run->report.extra["saved"] = saved.value();  // a copy, as above
    }
    buffers_text += launch::format_checks(run->checks);
    const auto& report = run->report;
    if (auto it = report.extra.find("printf_overwritten"); it != report.extra.end()) {
        std::cerr << fmt::format(
            "warpsim: warning: the kernel printed more than the {}-byte printf buffer "
            "(cudaLimitPrintfFifoSize) holds: the oldest {} records ({} bytes) were "
            "overwritten, as on a GPU; --printf-buffer BYTES makes it larger\n",
            (*it)["fifo_bytes"].get<uint64_t>(), (*it)["records"].get<uint64_t>(),
            (*it)["bytes"].get<uint64_t>());
    }
    // A short second run with an observer gives one warp's addresses per instruction (strides, lane
    // diagrams).
    std::optional<report::LaneSamples> samples;
    if (!args.html.empty() || (!args.json && !args.quiet)) {
        if (auto s = report::sample_lanes(*prepared, *run)) samples = std::move(s.value());
    }
    if (!args.html.empty()) {
        std::ofstream html(args.html, std::ios::binary);
        if (!(html << report::html_report(*prepared, *run, samples ? &*samples : nullptr))) {
            std::cerr << "warpsim: " << args.html << ": cannot write the HTML report\n";
            return kExitBadInput;
        }
    }
    if (args.json) {
        std::cout << launch::json_text(launch::to_json(report)) << "\n";
    } else if (!args.quiet) {
        report::TextReportOptions text_options;
        text_options.samples = samples ? &*samples : nullptr;
        // Source lines as long as the terminal has room for beside the table's 75 other columns; 100
        // columns of them into a file or a pipe.
        if (report::is_terminal(stdout)) {
            const size_t columns = report::terminal_columns(stdout).value_or(110);
            text_options.source_width = columns > 75 ? columns - 75 : 35;
        } else {
            text_options.source_width = 100;
        }
        std::cout << report::text_report(*prepared, *run, text_options);
        if (!timing_text.empty())
            std::cout << "\n" << timing_text << (timing_text.ends_with('\n') ? "" : "\n");
        if (run->sampling) std::cout << "\n" << session::sampling_text(*run->sampling);
        if (!buffers_text.empty()) std::cout << "\n" << buffers_text;
    } else if (run->stopped_at_budget()) {
        std::cerr << "warpsim: " << report.error->message << " (--max-instructions): the counts are partial; "
                  << session::kBudgetAdvice << "\n";
    } else if (report.error) {
        std::cerr << "warpsim: " << report.error->message << "\n" << report.error->details << "\n";
    } else if (!run->checks_passed()) {
        std::cerr << launch::format_checks(run->checks);
    }
    std::string complaint;
    const int code = launch::expectation_exit_code(report, prepared->spec.expect_error, &complaint);
    if (!complaint.empty()) std::cerr << "warpsim: " << prepared->spec.path << ": " << complaint << "\n";
    if (code != 0) return run->stopped_at_budget() ? kExitBudget : kExitKernelError;
    if (!report.error) return run->checks_passed() ? 0 : kExitMismatch;
    return 0;
}

int ptx_command(const PtxArgs& args) {
    std::string text;
    std::string name = args.file;
    if (args.file.ends_with(".cu")) {
        launch::LaunchSpec spec;
        spec.path = args.file;
        spec.source = args.file;
        spec.source_path = args.file;
        spec.arch = args.arch;
        auto compiled = launch::compile_cu(spec, launch::find_nvcc());
        if (!compiled) {
            std::cerr << "warpsim: " << compiled.error() << "\n";
            return kExitBadInput;
        }
        text = compiled.value();
    } else {
        auto read = launch::read_input_file(args.file, launch::kMaxSourceBytes, "PTX file");
        if (!read) {
            std::cerr << "warpsim: " << read.error() << "\n";
            return kExitBadInput;
        }
        text = std::move(read.value());
    }
    auto parsed = ir::parse_ptx(text, name);
    auto diags = parsed.diagnostics;
    if (parsed.ok()) {
        auto more = ir::verify(parsed.module, name);
        diags.insert(diags.end(), more.begin(), more.end());
    }
    bool failed = false;
    for (const auto& d : diags) {
        std::cerr << d.str() << "\n";
        failed = failed || d.severity == ir::Diagnostic::Severity::error;
    }
    if (failed) return kExitBadInput;
    if (args.print) {
        std::cout << ir::print_module(parsed.module);
        return 0;
    }
    const auto& m = parsed.module;
    size_t line_count = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
    std::cout << fmt::format("{}: PTX {}.{}, target {}, {} lines\n", name, m.version_major, m.version_minor,
                             m.target.empty() ? "?" : m.target.front(), line_count);
    // ptxas's own counts (what the GPU allocates), from one ptxas run over the module.
    std::string ptxas_log;
    auto usage = device::ptxas_usage_all(text, args.arch, &ptxas_log);
    launch::LaunchSpec where;
    where.source_path = args.file;
    std::string cu_text;
    if (std::string cu = launch::find_cu_source(where, m); !cu.empty()) {
        std::ifstream in(cu, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        cu_text = ss.str();
    }
    const ir::SharedLayout window = ir::shared_layout(m);
    for (std::size_t k = 0; k < m.functions.size(); ++k) {
        const auto& f = m.functions[k];
        if (!f.is_entry) continue;
        const launch::CxxSignature sig = launch::kernel_signature(f, cu_text);
        std::cout << "\nkernel " << sig.demangled << (sig.demangled != f.name ? "  [" + f.name + "]" : "")
                  << "\n";
        const device::PtxasUsage* u = nullptr;
        if (usage)
            for (const auto& e : *usage)
                if (e.function == f.name) u = &e;
        if (u) {
            std::cout << fmt::format(
                "  ptxas ({}): {} registers per thread, {} bytes static shared, {} bytes stack, "
                "{} barrier{}{}\n",
                args.arch, u->registers, u->shared_bytes, u->stack_frame_bytes, u->barriers,
                u->barriers == 1 ? "" : "s",
                u->spill_stores + u->spill_loads
                    ? fmt::format(", spills {} bytes stored / {} loaded", u->spill_stores, u->spill_loads)
                    : "");
        } else {
            const uint32_t shared = window.static_bytes[k];  // the engine's layout (kernels_ir/layout)
            std::cout << fmt::format(
                "  no ptxas ({}): registers unknown (the PTX declares {} virtual registers; "
                "ptxas allocates far fewer), {} bytes static shared\n",
                ptxas_log.substr(0, ptxas_log.find('\n')), f.regs.size(), shared);
        }
        std::cout << fmt::format("  {} PTX instructions\n", f.body.size());
        for (size_t i = 0; i < f.params.size(); ++i) {
            const auto& prm = f.params[i];
            const launch::CxxParam cxx = i < sig.params.size() ? sig.params[i] : launch::CxxParam{};
            const std::string ptx_type = "." + std::string(ir::type_name(prm.type)) +
                                         (prm.array ? fmt::format("[{}]", prm.array) : "");
            std::cout << fmt::format("  param {:<2} {:<12} {:<22} {} ({} bytes){}\n", i,
                                     cxx.name.empty() ? "-" : cxx.name, cxx.type.empty() ? "-" : cxx.type,
                                     ptx_type, prm.size_bytes(), "  " + prm.name);
        }
    }
    return 0;
}

namespace {

// The `timing params` column of `warpsim devices`.
std::string timing_column(const timing::ParamsProvenance& prov) {
    if (prov.kind == "borrowed") return "from " + prov.from;
    return prov.kind;
}

}  // namespace

int devices_command(const DevicesArgs& args) {
    nlohmann::ordered_json all = nlohmann::ordered_json::array();
    if (!args.json) {
        std::cout << fmt::format("{:<16} {:<6} {:>4} {:>10} {:>10} {:>9} {:>10}  {:<16} {}\n", "name", "arch",
                                 "SMs", "L2 (MiB)", "mem (GiB)", "GB/s", "boost MHz", "timing params",
                                 "description");
    }
    std::string notes;  // per preset: the clock the prediction uses and the error to expect
    for (const auto& name : device::list_presets()) {
        auto p = device::load_preset(name);
        if (!p) {
            std::cerr << "warpsim: " << p.error() << "\n";
            continue;
        }
        const timing::ParamsProvenance prov = timing::params_provenance(*p);
        if (args.json) {
            all.push_back({{"name", p->name},
                           {"arch", p->arch()},
                           {"sms", p->sm_count},
                           {"l2_bytes", p->cache.l2_bytes},
                           {"memory_bytes", p->memory.bytes},
                           {"bandwidth_gbps", p->memory.bandwidth_gbps},
                           {"sm_boost_mhz", p->clocks.sm_boost_mhz},
                           {"description", p->description},
                           {"timing",
                            {{"parameters", prov.kind},
                             {"parameters_from", prov.from},
                             {"parameters_origin", prov.origin},
                             {"expected_error", prov.expected_error},
                             {"clock_mhz", timing::prediction_clock_mhz(*p)},
                             {"clock", timing::clock_text(*p)}}}});
        } else {
            std::cout << fmt::format(
                "{:<16} {:<6} {:>4} {:>10.1f} {:>10.1f} {:>9.0f} {:>10.0f}  {:<16} {}\n", p->name, p->arch(),
                p->sm_count, static_cast<double>(p->cache.l2_bytes) / (1 << 20),
                static_cast<double>(p->memory.bytes) / (1 << 30), p->memory.bandwidth_gbps,
                p->clocks.sm_boost_mhz, timing_column(prov), p->description);
            notes += fmt::format("{:<16} clock {}; expected error: {}\n", p->name, timing::clock_text(*p),
                                 prov.expected_error);
        }
    }
    if (args.json)
        std::cout << launch::json_text(all) << "\n";
    else
        std::cout
            << "\ntiming params: measured = fitted to this GPU's timings; from X = borrowed from the "
               "measured GPU X of the same architecture (its SMs, clock, DRAM bandwidth and L2 size stay "
               "this preset's); defaults = the model's, unvalidated (docs/TIMING.md)\n"
            << notes;
    return 0;
}

}  // namespace warpsim::cli
