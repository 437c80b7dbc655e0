// sim/runtime/runtime.cpp — the runtime's one state object: created at the first call, the device heap in an
// address range reserved in the process, modules parsed on first use, the summary at exit.
#include "sim/runtime/runtime.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>

#include "kernels_ir/link.hpp"
#include "kernels_ir/parser.hpp"
#include "kernels_ir/printer.hpp"
#include "kernels_ir/verifier.hpp"
#include "sim/memory/address_map.hpp"
#include "sim/runtime/report_writer.hpp"

namespace warpsim::runtime {

Runtime& Runtime::get() {
    // Leaked on purpose: atexit handlers and static destructors of the program run after ours would have.
    static Runtime* runtime = [] {
        auto* r = new Runtime();
        std::atexit([] { Runtime::get().at_exit(); });
        return r;
    }();
    return *runtime;
}

Runtime::Runtime() : sim_(std::make_unique<engine::Simulator>()) {
    std::string problems;
    options_ = options_from_environment(problems);
    if (!problems.empty()) std::fprintf(stderr, "warpsim: %s", problems.c_str());
    auto preset = device::load_preset(options_.device);
    if (!preset) {
        std::fprintf(stderr, "warpsim: device preset '%s': %s; using h200\n", options_.device.c_str(),
                     preset.error().c_str());
        preset = device::load_preset("h200");
    }
    if (preset) preset_ = preset.value();
    clock_ = std::make_unique<timing::StreamClock>(timing::CopyModel::for_preset(preset_));
    // cudaDeviceGetLimit's answers: the printf FIFO as the H200 reported it (tests/hardware/programs); the
    // heap, stack and device-runtime limits are CUDA's documented defaults (not measured here).
    limits_ = {{cudaLimitPrintfFifoSize, 8650752},
               {cudaLimitMallocHeapSize, 8u << 20},
               {cudaLimitStackSize, 1024},
               {cudaLimitDevRuntimeSyncDepth, 2},
               {cudaLimitDevRuntimePendingLaunchCount, 2048},
               {cudaLimitMaxL2FetchGranularity, 64},
               {cudaLimitPersistingL2CacheSize, 0}};
    if (!addresses_.reserve() ||
        !sim_->memory().set_heap(addresses_.heap_base() + memory::kAllocAlign, addresses_.heap_limit())) {
        std::fprintf(stderr,
                     "warpsim: could not reserve an address range for device memory; device pointers "
                     "may alias host memory\n");
    }
}

void Runtime::at_exit() {
    auto guard = lock();
    if (!pending_printf_.empty()) {
        std::fprintf(stderr,
                     "warpsim: the program exited without synchronising after its last kernel; that "
                     "kernel's device printf output (%zu bytes) was never flushed, as with CUDA: call "
                     "cudaDeviceSynchronize() before exit\n",
                     pending_printf_.size());
    }
    if (pending_fault_ != cudaSuccess && sticky_error_ == cudaSuccess) {
        std::fprintf(stderr,
                     "warpsim: a kernel failed with %s and the program exited without synchronising, so it "
                     "never saw the error: check cudaDeviceSynchronize()'s result\n",
                     error_name(pending_fault_));
    }
    std::fflush(stdout);
    if (!options_.quiet) log_.print_summary(stderr);
    if (!options_.report_dir.empty()) write_reports(options_.report_dir, log_, preset_, stderr);
}

cudaError_t Runtime::finish(cudaError_t code) {
    if (code != cudaSuccess) thread_last_error() = code;
    return code;
}

Module& Runtime::add_module(const void* wrapper) {
    auto m = std::make_unique<Module>();
    m->handle_key = wrapper;
    modules_.push_back(std::move(m));
    return *modules_.back();
}

Kernel& Runtime::add_kernel(Module& m, const void* host_function, std::string device_name) {
    auto k = std::make_unique<Kernel>();
    k->module = &m;
    k->host_function = host_function;
    k->device_name = std::move(device_name);
    auto& slot = kernels_[host_function];
    slot = std::move(k);
    return *slot;
}

Variable& Runtime::add_variable(Module& m, const void* host_shadow, std::string device_name, uint64_t size,
                                bool constant) {
    auto v = std::make_unique<Variable>();
    v->module = &m;
    v->host_shadow = host_shadow;
    v->device_name = std::move(device_name);
    v->size = size;
    v->constant = constant;
    auto& slot = variables_[host_shadow];
    slot = std::move(v);
    return *slot;
}

Kernel* Runtime::kernel_by_host_function(const void* host_function) {
    auto it = kernels_.find(host_function);
    return it == kernels_.end() ? nullptr : it->second.get();
}

Variable* Runtime::variable_by_host_shadow(const void* host_shadow) {
    auto it = variables_.find(host_shadow);
    if (it != variables_.end()) return it->second.get();
    auto managed = managed_by_address_.find(host_shadow);
    return managed == managed_by_address_.end() ? nullptr : managed->second;
}

void Runtime::remove_module(const void* wrapper) {
    // The simulator keeps its loaded copy (its allocations stay valid); kernels stay registered, since the
    // program's own atexit order may still launch after another translation unit unregistered.
    (void)wrapper;
}

std::optional<std::string> Runtime::ensure_loaded(Module& m) {
    if (!m.load_error.empty()) return m.load_error;
    if (m.ir) return std::nullopt;
    std::string errors;
    auto read = [&](const std::string& text, const std::string& name) {
        auto parsed = ir::parse_ptx(text, name);
        for (const auto& d : parsed.diagnostics)
            if (d.severity == ir::Diagnostic::Severity::error) errors += d.str() + "\n";
        return std::move(parsed.module);
    };
    if (m.ptx_parts.size() > 1) {
        // -rdc=true: the translation units' PTX linked into one module as nvlink links their SASS. The linked
        // module is printed and read again, so that ptxas, the reports and the engine see one PTX text whose
        // line numbers are the module's own.
        std::vector<ir::Module> parts;
        std::vector<std::string> names;
        for (std::size_t i = 0; i < m.ptx_parts.size(); ++i) {
            names.push_back(m.ptx_name + " (translation unit " + std::to_string(i + 1) + ")");
            parts.push_back(read(m.ptx_parts[i], names.back()));
        }
        if (errors.empty()) {
            ir::LinkResult linked = ir::link_modules(std::move(parts), names);
            for (const auto& d : linked.diagnostics)
                if (d.severity == ir::Diagnostic::Severity::error) errors += d.str() + "\n";
            if (errors.empty()) m.ptx = ir::print_module(linked.module);
        }
        if (!errors.empty()) {
            m.load_error =
                "the program's separately compiled PTX (-rdc=true) could not be linked:\n" + errors;
            return m.load_error;
        }
    }
    ir::Module module = read(m.ptx, m.ptx_name);
    if (errors.empty()) {
        for (const auto& d : ir::verify(module, m.ptx_name))
            if (d.severity == ir::Diagnostic::Severity::error) errors += d.str() + "\n";
    }
    if (!errors.empty()) {
        m.load_error = "the program's PTX could not be read:\n" + errors;
        return m.load_error;
    }
    m.ir = std::make_shared<ir::Module>(std::move(module));
    engine::Simulator::Placement placed;
    if (auto problem = place_managed(m, placed)) {
        m.load_error = *problem;
        return m.load_error;
    }
    if (auto loaded = sim_->load(*m.ir, placed); !loaded.ok) {
        m.load_error = loaded.message;
        return m.load_error;
    }
    for (auto& [host, k] : kernels_) {
        if (k->module != &m) continue;
        k->function = m.ir->find_function(k->device_name);
    }
    return std::nullopt;
}

// A __managed__ variable lives in host pages of the reserved range that the allocation table maps (as
// cudaMallocManaged memory does): the kernel reaches it at that address, the host through the pointer
// nvcc's code reads (*hostVarPtrAddress, set here), so both see the same bytes at the same address. The
// simulator writes the variable's initialiser there when it loads the module.
std::optional<std::string> Runtime::place_managed(Module& m, engine::Simulator::Placement& placed) {
    for (auto& [host, v] : variables_) {
        if (v->module != &m || !v->managed || v->size == 0) continue;
        void* p = addresses_.map_shared(v->size);
        if (!p || !sim_->memory().map_host(reinterpret_cast<uint64_t>(p), v->size, static_cast<uint8_t*>(p),
                                           v->device_name)) {
            if (p) addresses_.unmap_shared(p);
            return "no memory for the __managed__ variable " + v->device_name + " (" +
                   std::to_string(v->size) + " bytes)";
        }
        host_.add(p, v->size, kManagedFlag, true);
        placed[v->device_name] = reinterpret_cast<uint64_t>(p);
        *static_cast<void**>(const_cast<void*>(v->host_shadow)) = p;
        managed_by_address_[p] = v.get();
    }
    return std::nullopt;
}

std::optional<uint64_t> Runtime::variable_address(Variable& v) {
    if (ensure_loaded(*v.module)) return std::nullopt;
    return sim_->symbol_address(*v.module->ir, v.device_name);
}

void Runtime::flush_printf() {
    if (pending_printf_.empty()) return;
    std::fwrite(pending_printf_.data(), 1, pending_printf_.size(), stdout);
    std::fflush(stdout);
    pending_printf_.clear();
}

timing::StreamClock::StreamId Runtime::stream_id(cudaStream_t s) {
    const auto id = reinterpret_cast<timing::StreamClock::StreamId>(s);
    return id == reinterpret_cast<uint64_t>(cudaStreamLegacy) ||
                   id == reinterpret_cast<uint64_t>(cudaStreamPerThread)
               ? timing::StreamClock::legacy_stream
               : id;
}

cudaError_t Runtime::synchronize() {
    clock_->host_wait(clock_->device_end());
    return synchronized();
}

cudaError_t Runtime::synchronized() {
    flush_printf();
    if (pending_fault_ != cudaSuccess && sticky_error_ == cudaSuccess) sticky_error_ = pending_fault_;
    return sticky_error_;
}

bool Runtime::is_device_range(uint64_t addr, uint64_t n) const {
    return sim_->memory().translate(addr, n == 0 ? 1 : n) != nullptr;
}

cudaError_t& thread_last_error() {
    thread_local cudaError_t last = cudaSuccess;
    return last;
}

cudaStreamCaptureMode& thread_capture_mode() {
    thread_local cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal;
    return mode;
}

std::vector<CallConfiguration>& thread_call_stack() {
    thread_local std::vector<CallConfiguration> stack;
    return stack;
}

cudaError_t not_supported(const char* api_name) {
    static std::mutex mutex;
    static std::set<std::string> said;
    {
        std::lock_guard guard(mutex);
        if (said.insert(api_name).second)
            std::fprintf(stderr, "warpsim: %s is not supported yet\n", api_name);
    }
    return Runtime::finish(cudaErrorNotSupported);
}

}  // namespace warpsim::runtime
