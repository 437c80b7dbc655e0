// warpsim/warpsim.cpp — the public API (warpsim.hpp) over the session, timing and cuda layers.
#include "warpsim/warpsim.hpp"

#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include <spdlog/sinks/base_sink.h>

#include "cuda/gpu_run.hpp"
#include "kernels_ir/ir.hpp"
#include "kernels_ir/names.hpp"
#include "kernels_ir/source_chain.hpp"
#include "launch/elem_type.hpp"
#include "launch/launch_spec.hpp"
#include "launch/log.hpp"
#include "launch/nvrtc.hpp"
#include "launch/result.hpp"
#include "launch/source.hpp"
#include "launch/version.hpp"
#include "sim/check/run_check.hpp"
#include "sim/report/html_report.hpp"
#include "sim/report/lane_sample.hpp"
#include "sim/report/text_report.hpp"
#include "sim/session/run.hpp"
#include "sim/session/sampled_run.hpp"
#include "sim/timing/timing.hpp"

namespace warpsim {

struct Module::Impl {
    std::string name;  // file name for messages
    std::string ptx;
    std::string cu_source;  // the CUDA source when compiled from one: parameter names and C++ types
    std::string compiler;   // "nvrtc 13.0", "nvcc" or "" (PTX given)
    std::shared_ptr<ir::Module> module;
};

// What the text and HTML reports are made of: the launch as prepared (its buffers' initial data no longer
// referenced: the caller's memory may be gone), the simulated run, one warp's addresses per instruction.
struct Result::Reports {
    session::PreparedLaunch prepared;
    session::SimRun run;
    std::optional<report::LaneSamples> samples;
    std::string timing_text;
};

namespace {

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path + ": cannot open");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

launch::ElemType elem_type(Type t) {
    return static_cast<launch::ElemType>(static_cast<uint8_t>(t));
}

launch::LaunchSpec make_spec(const Module& m, const Launch& l) {
    launch::LaunchSpec spec;
    spec.path = "launch of " + l.kernel;
    spec.source = m.name();
    spec.source_path = m.name();
    spec.kernel = l.kernel;
    spec.grid = {l.grid.x, l.grid.y, l.grid.z};
    spec.block = {l.block.x, l.block.y, l.block.z};
    spec.shared_bytes = l.shared_bytes;
    spec.l2 = l.l2 == L2::cold ? launch::L2State::cold : launch::L2State::warm;
    for (std::size_t i = 0; i < l.args.size(); ++i) {
        const Arg& a = l.args[i];
        launch::ArgSpec s;
        s.type = elem_type(a.type);
        s.name = a.name;
        if (a.kind == Arg::Kind::buffer) {
            s.kind = launch::ArgSpec::Kind::buffer;
            s.count = a.count;
            if (!a.data.empty()) {
                if (a.data.size() != a.count * type_bytes(a.type))
                    throw Error(spec.path + ": args[" + std::to_string(i) +
                                "]: " + std::to_string(a.data.size()) + " bytes of data for " +
                                std::to_string(a.count) + " elements of " + std::string(type_name(a.type)));
                s.init.kind = launch::BufferInit::Kind::host;
                s.init.host = {reinterpret_cast<const uint8_t*>(a.data.data()), a.data.size()};
                s.init.text = "host data";
            }
            if (!a.write_back.empty() && a.write_back.size() != a.count * type_bytes(a.type))
                throw Error(spec.path + ": args[" + std::to_string(i) + "]: write_back has " +
                            std::to_string(a.write_back.size()) + " bytes for " + std::to_string(a.count) +
                            " elements of " + std::string(type_name(a.type)));
        } else {
            s.kind = launch::ArgSpec::Kind::scalar;
            if (a.value.size() != type_bytes(a.type))
                throw Error(spec.path + ": args[" + std::to_string(i) + "]: a scalar of " +
                            std::string(type_name(a.type)) + " needs " + std::to_string(type_bytes(a.type)) +
                            " bytes, not " + std::to_string(a.value.size()));
            s.value.resize(a.value.size());
            std::memcpy(s.value.data(), a.value.data(), a.value.size());
        }
        spec.args.push_back(std::move(s));
    }
    return spec;
}

Result from_report(const launch::RunReport& r) {
    Result out;
    out.backend = r.backend;
    out.device = r.device;
    if (r.error) {
        out.error = r.error->name;
        out.error_message = r.error->message;
    }
    out.metrics = r.metrics;
    if (r.predicted) {
        const launch::PredictedTiming& p = *r.predicted;
        Predicted& out_p = out.predicted.emplace();
        out_p.cycles = p.cycles;
        out_p.time_us = p.time_us;
        out_p.dram_gbps = p.dram_gbps;
        out_p.gflops = p.gflops;
        out_p.bound = p.bound;
        out_p.l2 = p.l2;
        out_p.clock_mhz = p.clock_mhz;
        out_p.clock = p.clock;
        out_p.parameters = p.parameters;
        out_p.parameters_origin = p.parameters_origin;
        out_p.expected_error = p.expected_error;
    }
    if (r.measured) out.measured_time_us = r.measured->time_us;
    out.printf_output = r.printf_output;
    out.json = launch::to_json(r).dump(2);
    return out;
}

}  // namespace

std::string_view version() {
    return launch::version();
}

namespace {

// Hands each message's text, without the stderr sink's "warpsim: info: " prefix, to a user's function.
class FunctionSink : public spdlog::sinks::base_sink<std::mutex> {
  public:
    explicit FunctionSink(LogSink to) : sink_(std::move(to)) {}

  protected:
    void sink_it_(const spdlog::details::log_msg& msg) override {
        const LogLevel level = msg.level <= spdlog::level::debug  ? LogLevel::debug
                               : msg.level == spdlog::level::info ? LogLevel::info
                               : msg.level == spdlog::level::warn ? LogLevel::warning
                                                                  : LogLevel::error;
        sink_(level, std::string_view(msg.payload.data(), msg.payload.size()));
    }
    void flush_() override {}

  private:
    LogSink sink_;
};

}  // namespace

void set_log(LogLevel level, LogSink sink) {
    using L = spdlog::level::level_enum;
    const L to = level == LogLevel::debug     ? L::debug
                 : level == LogLevel::info    ? L::info
                 : level == LogLevel::warning ? L::warn
                 : level == LogLevel::error   ? L::err
                                              : L::off;
    launch::log::set_sink(sink ? std::make_shared<FunctionSink>(std::move(sink)) : nullptr);
    launch::log::set_level(to);
}

std::string_view type_name(Type t) {
    return launch::elem_name(elem_type(t));
}
std::size_t type_bytes(Type t) {
    return launch::elem_bytes(elem_type(t));
}

Module Module::from_ptx(std::string ptx, std::string name) {
    auto parsed = session::parse_verified(ptx, name);
    if (!parsed) throw Error(parsed.error());
    auto impl = std::make_shared<Impl>();
    impl->name = std::move(name);
    impl->ptx = std::move(ptx);
    impl->module = std::move(parsed.value());
    return Module(std::move(impl));
}

Module Module::from_cuda(std::string source, const std::string& name, const std::string& arch,
                         Compiler compiler) {
    const auto which = compiler == Compiler::nvrtc  ? launch::CudaCompiler::nvrtc
                       : compiler == Compiler::nvcc ? launch::CudaCompiler::nvcc
                                                    : launch::CudaCompiler::automatic;
    auto compiled = launch::compile_cuda(source, name, arch, which);
    if (!compiled) throw Error(compiled.error());
    auto ptx = launch::Outcome<std::string>(std::move(compiled->ptx));
    const std::string ptx_name = std::filesystem::path(name).replace_extension(".ptx").string();
    auto parsed = session::parse_verified(ptx.value(), ptx_name);
    if (!parsed) throw Error(parsed.error());
    auto impl = std::make_shared<Impl>();
    impl->name = ptx_name;
    impl->ptx = std::move(ptx.value());
    impl->cu_source = std::move(source);
    impl->compiler = std::move(compiled->compiler);
    impl->module = std::move(parsed.value());
    return Module(std::move(impl));
}

Module Module::load(const std::string& path) {
    const std::string ext = std::filesystem::path(path).extension().string();
    if (ext == ".ptx") return from_ptx(read_file(path), path);
    if (ext == ".cu") return from_cuda(read_file(path), path);
    throw Error(path + ": neither a .ptx nor a .cu file");
}

const std::string& Module::name() const {
    return impl_->name;
}
const std::string& Module::ptx() const {
    return impl_->ptx;
}
const std::string& Module::compiler() const {
    return impl_->compiler;
}

std::vector<std::string> Module::kernels() const {
    std::vector<std::string> names;
    for (const auto& f : impl_->module->functions) {
        if (f.is_entry) names.push_back(f.name);
    }
    return names;
}

std::vector<Param> Module::parameters(const std::string& kernel) const {
    const ir::KernelLookup found = ir::find_kernel(*impl_->module, kernel);
    if (!found.function) throw Error(impl_->name + ": kernel " + kernel + ": " + found.error);
    std::vector<Param> out;
    for (const ir::Param& p : found.function->params) {
        Param q;
        q.name = p.name;
        q.ptx_type = std::string(ir::type_name(p.type));
        q.bytes = static_cast<std::size_t>(p.size_bytes());
        q.is_float = p.array == 0 && ir::is_float(p.type);
        out.push_back(std::move(q));
    }
    return out;
}

Result run(const Module& module, const Launch& launch, const RunOptions& options) {
    const Module::Impl& m = module.impl();
    auto prepared = session::prepare_module(make_spec(module, launch), m.ptx, m.name, m.module, m.cu_source);
    if (!prepared) throw Error(prepared.error());
    const auto& spec = prepared->spec;
    if (options.backend == Backend::gpu) {
        cuda::RunOptions gpu;
        gpu.runs = options.gpu_runs;
        gpu.warmup = options.gpu_warmup;
        std::vector<std::vector<uint8_t>> buffers;
        gpu.final_buffers = &buffers;
        Result out = from_report(cuda::run_on_gpu(spec, prepared->ptx, *prepared->kernel, gpu));
        out.buffers = std::move(buffers);
        out.warnings = prepared->warnings;
        out.buffers.resize(spec.args.size());
        for (std::size_t i = 0; i < launch.args.size() && i < out.buffers.size(); ++i) {
            const auto& to = launch.args[i].write_back;
            if (to.empty()) continue;
            if (out.ok() && out.buffers[i].size() == to.size())
                std::memcpy(to.data(), out.buffers[i].data(), to.size());
            out.buffers[i].clear();
        }
        return out;
    }
    session::SimOptions sim;
    sim.device = options.device;
    sim.workers = options.workers;
    sim.keep_buffers = !options.sample;
    sim.sample = options.sample ? session::SampleMode::on : session::SampleMode::off;
    // The buffers go straight into the caller's memory, except when the report's lane sample still has to
    // re-run the first blocks on their initial contents (often that same memory): then after it.
    if (!options.reports)
        for (const Arg& a : launch.args)
            sim.write_back.emplace_back(reinterpret_cast<uint8_t*>(a.write_back.data()), a.write_back.size());
    auto run = session::run_simulated(*prepared, sim);
    if (!run) throw Error(run.error());
    std::string timing_text;
    if (!run->report.error) {
        auto timing = timing::predict_run(*prepared, *run);
        run->report.predicted = timing.predicted;
        timing_text = std::move(timing.text);
    }
    Result out = from_report(run->report);
    out.buffers = std::move(run->final_buffers);
    run->final_buffers.clear();
    out.warnings = prepared->warnings;
    out.buffers.resize(spec.args.size());
    if (options.reports) {
        auto kept = std::make_shared<Result::Reports>();
        // The lane sample re-runs the first blocks on the buffers' initial data, still the caller's here.
        if (auto s = report::sample_lanes(*prepared, *run)) kept->samples = std::move(s.value());
        kept->prepared = std::move(prepared.value());
        for (auto& a : kept->prepared.spec.args) a.init.host = {};
        kept->run = std::move(run.value());
        kept->timing_text = std::move(timing_text);
        out.reports = std::move(kept);
        for (std::size_t i = 0; i < launch.args.size() && i < out.buffers.size(); ++i) {
            const auto& to = launch.args[i].write_back;
            if (to.empty()) continue;
            if (out.ok() && !options.sample && out.buffers[i].size() == to.size())
                std::memcpy(to.data(), out.buffers[i].data(), to.size());
            out.buffers[i].clear();
        }
    }
    return out;
}

std::string Result::text_report() const {
    if (!reports) throw Error("warpsim::Result::text_report: the run kept no report (RunOptions::reports)");
    const Reports& r = *reports;
    report::TextReportOptions text_options;
    text_options.samples = r.samples ? &*r.samples : nullptr;
    std::string out = report::text_report(r.prepared, r.run, text_options);
    if (!r.timing_text.empty()) out += "\n" + r.timing_text + (r.timing_text.ends_with('\n') ? "" : "\n");
    if (r.run.sampling) out += "\n" + session::sampling_text(*r.run.sampling);
    return out;
}

std::string Result::html_report() const {
    if (!reports) throw Error("warpsim::Result::html_report: the run kept no report (RunOptions::reports)");
    return report::html_report(reports->prepared, reports->run,
                               reports->samples ? &*reports->samples : nullptr);
}

namespace {

FindingParty party_of(const check::Party& p, const check::CheckContext& ctx) {
    FindingParty out;
    out.what = p.what;
    out.where = ctx.where(p.at);
    out.ptx_line = ctx.ptx_line(p.at);
    out.function = ctx.function_name(p.at);
    out.thread = p.thread;
    out.block = p.block;
    const ir::Instruction* in = ctx.instruction(p.at);
    if (const uint32_t line = ctx.cuda_line(p.at); line != 0 && in) {
        out.line = line;
        out.location =
            ir::frame_text(*ctx.module, ir::call_site(*ctx.module, in->loc), ir::PathStyle::relative);
    } else {
        out.line = out.ptx_line;
        out.location = ctx.ptx_file + ":" + std::to_string(out.ptx_line);
    }
    return out;
}

}  // namespace

CheckReport check_launch(const Module& module, const Launch& launch, const CheckOptions& options) {
    const Module::Impl& m = module.impl();
    check::CheckOptions o;
    if (auto err = check::select_tools(options.tools, o)) throw Error("warpsim::check_launch: " + *err);
    o.device = options.device;
    o.race_global = options.race_global;
    o.schedules = std::max<uint32_t>(1, options.schedules);
    auto prepared = session::prepare_module(make_spec(module, launch), m.ptx, m.name, m.module, m.cu_source);
    if (!prepared) throw Error(prepared.error());
    auto checked = check::check_prepared(*prepared, o);
    if (!checked) throw Error(checked.error());
    const check::CheckResult& r = *checked;
    CheckReport out;
    out.kernel = r.kernel;
    out.notes = r.notes;
    out.incomplete = r.incomplete;
    for (const check::Finding& f : r.log.findings()) {
        Finding g;
        g.tool = std::string(check::tool_name(f.tool));
        g.kind = f.kind;
        g.title = f.title;
        for (const auto& p : f.parties) g.parties.push_back(party_of(p, r.ctx));
        g.address = f.address;
        g.space = f.space;
        g.variable = f.variable;
        g.notes = f.notes;
        g.fix = f.fix;
        g.count = f.count;
        out.findings.push_back(std::move(g));
    }
    std::string tools;
    for (auto [on, name] : {std::pair{o.memcheck, "memcheck"},
                            {o.racecheck, "racecheck"},
                            {o.synccheck, "synccheck"},
                            {o.initcheck, "initcheck"}})
        if (on) tools += (tools.empty() ? "" : " ") + std::string(name);
    std::string header = r.kernel + " (" + r.spec + "), tools: " + tools;
    for (const auto& n : r.notes) header += "\n========= note: " + n;
    if (!r.incomplete.empty())
        header +=
            "\n========= the check is incomplete: " + r.incomplete + "; findings before that point follow";
    out.text = check::render_text(r.log, r.ctx, header);
    nlohmann::json j = check::render_json(r.log, r.ctx);
    j["kernel"] = r.kernel;
    j["notes"] = r.notes;
    if (!r.incomplete.empty()) j["incomplete"] = r.incomplete;
    out.json = j.dump(2);
    return out;
}

}  // namespace warpsim
