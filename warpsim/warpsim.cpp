// warpsim/warpsim.cpp — the public API (warpsim.hpp) over the session, timing and cuda layers.
#include "warpsim/warpsim.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cuda/gpu_run.hpp"
#include "kernels_ir/ir.hpp"
#include "kernels_ir/names.hpp"
#include "launch/elem_type.hpp"
#include "launch/launch_spec.hpp"
#include "launch/nvrtc.hpp"
#include "launch/result.hpp"
#include "launch/source.hpp"
#include "launch/version.hpp"
#include "sim/session/run.hpp"
#include "sim/timing/timing.hpp"

namespace warpsim {

struct Module::Impl {
    std::string name;  // file name for messages
    std::string ptx;
    std::string cu_source;  // the CUDA source when compiled from one: parameter names and C++ types
    std::string compiler;   // "nvrtc 13.0", "nvcc" or "" (PTX given)
    std::shared_ptr<ir::Module> module;
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
        out.predicted = Predicted{r.predicted->cycles, r.predicted->time_us, r.predicted->dram_gbps,
                                  r.predicted->gflops, r.predicted->bound};
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
        return out;
    }
    session::SimOptions sim;
    sim.device = options.device;
    sim.workers = options.workers;
    sim.keep_buffers = !options.sample;
    sim.sample = options.sample ? session::SampleMode::on : session::SampleMode::off;
    auto run = session::run_simulated(*prepared, sim);
    if (!run) throw Error(run.error());
    if (!run->report.error) run->report.predicted = timing::predict_run(*prepared, *run).predicted;
    Result out = from_report(run->report);
    out.buffers = std::move(run->final_buffers);
    out.warnings = prepared->warnings;
    out.buffers.resize(spec.args.size());
    return out;
}

}  // namespace warpsim
