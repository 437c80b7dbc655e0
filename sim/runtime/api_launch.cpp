// sim/runtime/api_launch.cpp — kernel launches as nvcc 13's host stubs make them
// (__cudaPushCallConfiguration,
// __cudaPopCallConfiguration, __cudaGetKernel, __cudaLaunchKernel) and as programs call them
// (cudaLaunchKernel): the arguments packed by the kernel's .param layout, the launch run on the simulator
// through the same session code as `warpsim run`, configuration errors returned at once, faults kept for the
// next synchronising call.
#include "sim/runtime/runtime.hpp"

#include "sim/runtime/graph.hpp"

#include <cstring>
#include <exception>

#include <fmt/format.h>

#include "kernels_ir/layout.hpp"
#include "kernels_ir/names.hpp"
#include "launch/result.hpp"
#include "sim/check/check_observer.hpp"
#include "sim/check/context.hpp"
#include "sim/check/findings.hpp"
#include "sim/report/text_report.hpp"
#include "sim/timing/timing.hpp"

using warpsim::runtime::Runtime;

namespace warpsim::runtime {
namespace {

uint64_t as_number(const void* p) {
    return reinterpret_cast<uint64_t>(p);
}

std::string dim_text(const dim3& d) {
    if (d.y == 1 && d.z == 1) return std::to_string(d.x);
    return fmt::format("({},{},{})", d.x, d.y, d.z);
}

// Says once per module why its kernels cannot run.
void report_module_problem(Module& m, const std::string& why) {
    if (m.problem_reported) return;
    m.problem_reported = true;
    std::fprintf(stderr, "warpsim: %s: %s\n",
                 m.ptx_name.empty() ? "the program's fatbinary" : m.ptx_name.c_str(), why.c_str());
}

}  // namespace

// The prepared launch of a kernel (its module's PTX, the parsed function), made once per kernel; each launch
// changes the configuration.
session::PreparedLaunch& prepared_for(Kernel& k) {
    if (!k.prepared) {
        k.prepared = std::make_unique<session::PreparedLaunch>();
        auto& p = *k.prepared;
        p.ptx = k.module->ptx;  // -rdc=true: the linked module's text (Runtime::ensure_loaded)
        p.ptx_name = k.module->ptx_name;
        p.module = k.module->ir;
        p.kernel = k.function;
        p.kernel_index = static_cast<uint32_t>(k.function - k.module->ir->functions.data());
        p.spec.kernel = ir::demangled_base_name(k.device_name);
        p.spec.path = k.module->ptx_name;
        p.spec.source_path = k.module->ptx_name;
        // Any function of the module may be called from the kernel: look at them all.
        for (const auto& fn : k.module->ir->functions)
            for (const auto& inst : fn.body)
                if (ir::family(inst.op) == ir::Family::texture) k.uses_textures = true;
        for (const auto& fn : k.module->ir->functions)
            if (!fn.has_body && fn.name == "cudaGraphSetConditional") k.sets_conditionals = true;
    }
    return *k.prepared;
}

cudaError_t launch_kernel(Runtime& rt, Kernel& k, const LaunchRequest& req) {
    rt.flush_printf();  // CUDA flushes the printf buffer of earlier kernels when a kernel starts
    if (cudaError_t e = rt.sticky()) return e;
    if (rt.context_faulted()) return cudaSuccess;  // queued behind a fault not yet reported: it never runs
    if (auto problem = rt.ensure_loaded(*k.module)) {
        report_module_problem(*k.module, *problem);
        return k.module->ptx.empty() ? cudaErrorNoKernelImageForDevice : cudaErrorInvalidPtx;
    }
    if (!k.function || !k.function->is_entry) {
        std::fprintf(stderr, "warpsim: kernel %s is not in the program's PTX\n", k.device_name.c_str());
        return cudaErrorInvalidDeviceFunction;
    }
    auto& p = prepared_for(k);
    p.spec.grid = {req.grid.x, req.grid.y, req.grid.z};
    p.spec.block = {req.block.x, req.block.y, req.block.z};
    p.spec.shared_bytes = static_cast<uint32_t>(req.shared_bytes);
    p.spec.cluster = req.cluster;

    // The arguments: args[i] points at parameter i, which takes size_bytes() at its .param offset.
    const auto layout = ir::param_layout(k.function->params);
    std::vector<uint8_t> params(layout.total);
    for (size_t i = 0; i < k.function->params.size(); ++i) {
        if (!req.args || !req.args[i]) return cudaErrorInvalidValue;
        std::memcpy(params.data() + layout.offsets[i], req.args[i], k.function->params[i].size_bytes());
    }
    if (cudaError_t e = warpsim::runtime::refuse_implicit_sync(rt, req.stream)) return e;
    if (CUstream_st* capturing = capture_target(rt, req.stream)) {
        // Captured: the arguments are copied into the graph now, the kernel runs when the graph is launched.
        GraphStep step;
        step.kind = GraphStep::Kind::kernel;
        step.kernel = &k;
        step.grid = req.grid;
        step.block = req.block;
        step.shared_bytes = req.shared_bytes;
        step.cluster = req.cluster;
        step.cooperative = req.cooperative;
        step.params = std::move(params);
        step.param_offsets.assign(layout.offsets.begin(), layout.offsets.end());
        return capture_add(*capturing, std::move(step));
    }

    LaunchRecord rec;
    rec.kernel = p.spec.kernel;
    rec.grid = p.spec.grid;
    rec.block = p.spec.block;
    rec.shared_bytes = p.spec.shared_bytes;
    rec.stream = as_number(req.stream);
    LaunchKey key{&k,
                  params,
                  p.spec.grid,
                  p.spec.block,
                  req.cluster.value_or(std::array<uint32_t, 3>{0, 0, 0}),
                  p.spec.shared_bytes,
                  k.max_dynamic_shared_optin,
                  false};
    LaunchReuse::Snapshot before;
    // A cooperative launch is always simulated (its grid workspace lives only while it runs), and so is one
    // that fetches textures or touches surfaces (the reuse footprint does not see those accesses).
    const bool reusable = rt.options().reuse && !rt.options().check && !req.cooperative && !k.uses_textures &&
                          !k.sets_conditionals;
    if (reusable) {
        std::string printf_text;
        if (const LaunchRecord* earlier = rt.reuse().reuse(key, rt.sim().memory(), printf_text)) {
            LaunchRecord again = *earlier;
            again.stream = rec.stream;
            again.reused = true;
            const auto when = rt.clock().kernel(Runtime::stream_id(req.stream), again.predicted_us);
            again.start_us = when.start_us;
            again.end_us = when.end_us;
            rt.queue_printf(printf_text);
            rt.log().add(std::move(again));
            return cudaSuccess;
        }
        before = rt.reuse().snapshot(rt.sim().memory());
    }

    if (!k.registers) k.registers = session::kernel_registers(p, rt.preset());
    session::SimRun run;
    run.preset = rt.preset();
    run.registers = *k.registers;
    auto cfg = session::launch_config(p, rt.preset(), k.registers->registers);
    cfg.max_dynamic_shared_optin = k.max_dynamic_shared_optin;
    cfg.cooperative = req.cooperative;
    cfg.textures = &rt.textures().table;
    session::SimOptions options;
    options.device = rt.preset().name;
    options.max_instructions = rt.options().max_instructions;
    options.workers = rt.options().workers;
    // --check: the checkers watch this very launch (blocks then run one at a time, in order).
    std::optional<check::CheckContext> check_ctx;
    check::FindingLog findings;
    std::optional<check::CheckObserver> observer;
    if (rt.options().check) {
        check_ctx.emplace();
        check_ctx->module = p.module.get();
        check_ctx->kernel_index = p.kernel_index;
        check_ctx->ptx_file = p.ptx_name;
        check_ctx->block_dim = p.spec.block;
        // The engine's shared addresses start after the block's reserved region, as the checkers' names must.
        check_ctx->shared = check::shared_layout(
            *p.module, p.kernel_index, static_cast<uint32_t>(rt.preset().sm.reserved_shared_per_block));
        rt.sim().memory().for_each_overlapping(0, ~uint64_t{0}, [&](const memory::Allocation& a) {
            check_ctx->allocations.push_back({a.base, a.size, a.label, 1});
        });
        observer.emplace(*check_ctx, findings, &rt.sim().memory(), true, true, true, true);
        cfg.observer = &*observer;
    }
    session::run_launch(run, rt.sim(), p, cfg, params, options);
    if (observer && run.fault) observer->abandon_block();
    // What this launch wrote is initialised for the launches after it, as compute-sanitizer's initcheck
    // follows device memory through the whole process (a reduction's second pass reads the first's partials).
    if (observer) {
        std::vector<std::pair<uint64_t, uint64_t>>
            within;  // each range clipped to the allocations it touches
        for (const auto& range : observer->written_global()) {
            // Plain names, not a structured binding: clang 14 (clang-tidy) cannot capture bindings in a
            // lambda.
            const uint64_t lo = range.first, hi = range.second;
            rt.sim().memory().for_each_overlapping(lo, hi, [&](const memory::Allocation& a) {
                within.emplace_back(std::max(lo, a.base), std::min(hi, a.base + a.size));
            });
        }
        for (const auto& [lo, hi] : within) rt.sim().memory().mark_host_written(lo, hi - lo);
    }

    const std::string where =
        fmt::format("{}<<<{}, {}>>>", rec.kernel, dim_text(req.grid), dim_text(req.block));
    if (run.fault && !run.started) {
        // A configuration the launch refuses: the launch call's own error, not sticky.
        std::fprintf(stderr, "warpsim: %s: %s\n", where.c_str(), run.fault->details.c_str());
        return error_code(run.fault->name);
    }
    rt.queue_printf(run.report.printf_output);
    if (findings.size()) {
        const std::string header = fmt::format("warpsim exec --check: {}", where);
        std::fprintf(stderr, "%s", check::render_text(findings, *check_ctx, header).c_str());
        rec.findings = findings.size();
    }
    if (run.fault) {
        // A fault while the kernel ran: the context is unusable from now on; the program hears of it at its
        // next synchronising call (the launch itself succeeded).
        std::fprintf(stderr, "warpsim: %s stopped: %s\n%s\n", where.c_str(), run.fault->message.c_str(),
                     run.fault->details.c_str());
        rt.set_pending_fault(error_code(run.fault->name));
        rec.error = run.fault->name;
    } else {
        const auto timing = timing::predict_run(p, run);
        run.report.predicted = timing.predicted;
        rec.predicted_us = timing.predicted.time_us;
        rec.bound = timing.predicted.bound;
        const auto prov = timing::params_provenance(run.preset);
        rec.timing_basis = "predicted times: timing parameters " +
                           (prov.kind == "borrowed" ? "borrowed from the " + prov.from : prov.kind) +
                           ", clock " + timing.predicted.clock + "; expected error: " + prov.expected_error;
        const auto when = rt.clock().kernel(Runtime::stream_id(req.stream), rec.predicted_us);
        rec.start_us = when.start_us;
        rec.end_us = when.end_us;
        if (!rt.options().report_dir.empty()) {
            run.report.predicted = timing.predicted;
            rec.text_report = report::text_report(p, run) + timing.text;
        }
    }
    auto json = launch::to_json(run.report);
    json["stream"] = rec.stream;
    rec.json = json.dump();
    if (!run.fault && reusable) {
        rec.not_reusable = rt.reuse().record(key, before, run.counters.footprint(), rt.sim().memory(), rec,
                                             run.report.printf_output);
    }
    rt.log().add(std::move(rec));
    return cudaSuccess;
}

}  // namespace warpsim::runtime

namespace {

using warpsim::runtime::CallConfiguration;
using warpsim::runtime::LaunchRequest;
using warpsim::runtime::thread_call_stack;

cudaError_t launch_by_handle(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                             cudaStream_t stream) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    auto* k = rt.kernel_by_host_function(func);
    if (!k) return Runtime::finish(cudaErrorInvalidDeviceFunction);
    LaunchRequest req{grid, block, args, shared, stream, std::nullopt};
    try {
        return Runtime::finish(launch_kernel(rt, *k, req));
    } catch (const std::exception& e) {  // an internal error must not unwind into the program's C code
        std::fprintf(stderr, "warpsim: internal error in the launch of %s: %s\n", k->device_name.c_str(),
                     e.what());
        return Runtime::finish(cudaErrorUnknown);
    }
}

// cudaErrorCooperativeLaunchTooLarge when the grid's blocks could not all be resident at once; cudaSuccess
// otherwise, and also when the occupancy API finds no block fits at all (the launch then says why).
cudaError_t cooperative_fits(const void* func, dim3 grid, dim3 block, size_t shared) {
    int per_sm = 0, sms = 0;
    const int threads = static_cast<int>(uint64_t{block.x} * block.y * block.z);
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, func, threads, shared) != cudaSuccess ||
        per_sm <= 0)
        return cudaSuccess;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    const uint64_t blocks = uint64_t{grid.x} * grid.y * grid.z;
    if (blocks > uint64_t(per_sm) * uint64_t(sms)) {
        std::fprintf(stderr,
                     "warpsim: a cooperative launch of %llu blocks: at most %d per SM x %d SMs can be "
                     "resident at once\n",
                     static_cast<unsigned long long>(blocks), per_sm, sms);
        return cudaErrorCooperativeLaunchTooLarge;
    }
    return cudaSuccess;
}

cudaError_t cooperative_launch(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                               cudaStream_t stream) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();  // recursive: the occupancy API below takes it too
    auto* k = rt.kernel_by_host_function(func);
    if (!k) return Runtime::finish(cudaErrorInvalidDeviceFunction);
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    if (cudaError_t e = cooperative_fits(func, grid, block, shared)) return Runtime::finish(e);
    LaunchRequest req{grid, block, args, shared, stream, std::nullopt, true};
    try {
        return Runtime::finish(launch_kernel(rt, *k, req));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "warpsim: internal error in the launch of %s: %s\n", k->device_name.c_str(),
                     e.what());
        return Runtime::finish(cudaErrorUnknown);
    }
}

}  // namespace

extern "C" {

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                     struct CUstream_st* stream) {
    thread_call_stack().push_back({gridDim, blockDim, sharedMem, stream});
    return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem, void* stream) {
    auto& stack = thread_call_stack();
    if (stack.empty()) return cudaErrorMissingConfiguration;
    const CallConfiguration c = stack.back();
    stack.pop_back();
    *gridDim = c.grid;
    *blockDim = c.block;
    *sharedMem = c.shared_bytes;
    *static_cast<cudaStream_t*>(stream) = c.stream;
    return cudaSuccess;
}

// The kernel handle of a host stub: the host function's address itself (registered before main).
cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* func) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!kernel) return Runtime::finish(cudaErrorInvalidValue);
    if (!rt.kernel_by_host_function(func)) return Runtime::finish(cudaErrorInvalidDeviceFunction);
    *kernel = reinterpret_cast<cudaKernel_t>(const_cast<void*>(func));
    return cudaSuccess;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args,
                               size_t sharedMem, cudaStream_t stream) {
    return launch_by_handle(reinterpret_cast<const void*>(kernel), gridDim, blockDim, args, sharedMem,
                            stream);
}

// The per-thread-default-stream spellings take stream 0 as the per-thread stream (which a capture may
// record).
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args,
                                    size_t sharedMem, cudaStream_t stream) {
    return launch_by_handle(reinterpret_cast<const void*>(kernel), gridDim, blockDim, args, sharedMem,
                            stream == nullptr ? cudaStreamPerThread : stream);
}

cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                             cudaStream_t stream) {
    return launch_by_handle(func, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaLaunchKernel_ptsz(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                  size_t sharedMem, cudaStream_t stream) {
    return launch_by_handle(func, gridDim, blockDim, args, sharedMem,
                            stream == nullptr ? cudaStreamPerThread : stream);
}

// cudaLaunchKernelEx's C form: the configuration with its attributes (thread-block clusters, cooperative).
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
    if (!config) return Runtime::finish(cudaErrorInvalidValue);
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    auto* k = rt.kernel_by_host_function(func);
    if (!k) return Runtime::finish(cudaErrorInvalidDeviceFunction);
    LaunchRequest req{config->gridDim,          config->blockDim, args,
                      config->dynamicSmemBytes, config->stream,   std::nullopt};
    for (unsigned i = 0; i < config->numAttrs; ++i) {
        const cudaLaunchAttribute& a = config->attrs[i];
        if (a.id == cudaLaunchAttributeClusterDimension) {
            req.cluster = std::array<uint32_t, 3>{a.val.clusterDim.x, a.val.clusterDim.y, a.val.clusterDim.z};
        } else if (a.id == cudaLaunchAttributeCooperative && a.val.cooperative) {
            req.cooperative = true;
        }
    }
    if (req.cooperative) {
        if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
        if (cudaError_t e = cooperative_fits(func, req.grid, req.block, req.shared_bytes))
            return Runtime::finish(e);
    }
    try {
        return Runtime::finish(launch_kernel(rt, *k, req));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "warpsim: internal error in the launch of %s: %s\n", k->device_name.c_str(),
                     e.what());
        return Runtime::finish(cudaErrorUnknown);
    }
}

cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config, const void* func, void** args) {
    return cudaLaunchKernelExC(config, func, args);
}

// A cooperative launch: every block must be resident at once (the occupancy calculator's blocks per SM times
// the SMs), else cudaErrorCooperativeLaunchTooLarge, not sticky, as the H200 answered (tests/programs,
// error.cooperative_too_large); the engine then runs all blocks together with a grid workspace for
// grid.sync().
cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                                        cudaStream_t stream) {
    return cooperative_launch(func, grid, block, args, shared, stream);
}

cudaError_t cudaLaunchCooperativeKernel_ptsz(const void* func, dim3 grid, dim3 block, void** args,
                                             size_t shared, cudaStream_t stream) {
    return cooperative_launch(func, grid, block, args, shared,
                              stream == nullptr ? cudaStreamPerThread : stream);
}

}  // extern "C"
