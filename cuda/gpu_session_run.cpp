// cuda/gpu_session_run.cpp — buffers, launches, synchronisation, timings and hashes of one GPU run.
#include "cuda/gpu_session.hpp"

#include <algorithm>

#include "launch/buffer_init.hpp"
#include "launch/hash.hpp"
#include "launch/params.hpp"

namespace warpsim::cuda {

// The driver gives the resident blocks; which resource binds is worked out from the device and function
// attributes (registers are allocated per warp in units of 256, each block reserves 1 KiB of shared
// memory on sm_80 and later), and named only when that bound equals the driver's answer.
std::optional<launch::OccupancyReport> GpuSession::occupancy(const launch::LaunchSpec& spec) {
    int blocks = 0;
    const uint64_t threads = spec.threads_per_block();
    if (threads > 1024 || f_.cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, func_, int(threads),
                                                                         spec.shared_bytes) != CUDA_SUCCESS)
        return std::nullopt;
    launch::OccupancyReport o;
    const uint32_t warps_per_block = uint32_t((threads + 31) / 32);
    const int max_warps = device_attribute(kAttrMaxThreadsPerSM) / 32;
    o.blocks_per_sm = uint32_t(blocks);
    o.warps_per_sm = o.blocks_per_sm * warps_per_block;
    o.occupancy = max_warps ? double(o.warps_per_sm) / max_warps : 0;
    const int regs = function_attribute(kFuncNumRegs);
    const int regs_per_warp = (regs * 32 + 255) / 256 * 256;
    const int shared_per_block = function_attribute(kFuncSharedSizeBytes) + int(spec.shared_bytes) + 1024;
    struct Bound {
        const char* name;
        int blocks;
    };
    const Bound bounds[] = {
        {"warps", max_warps / int(warps_per_block)},
        {"registers", regs_per_warp
                          ? device_attribute(kAttrMaxRegistersPerSM) / regs_per_warp / int(warps_per_block)
                          : 1 << 30},
        {"shared", device_attribute(kAttrMaxSharedPerSM) / shared_per_block},
        {"blocks", device_attribute(kAttrMaxBlocksPerSM)},
    };
    o.limiter = blocks == 0 ? "does not fit" : "";
    for (const auto& b : bounds)
        if (blocks > 0 && b.blocks == blocks && o.limiter.empty()) o.limiter = b.name;
    return o;
}

bool GpuSession::allocate_and_fill(const launch::LaunchSpec& spec) {
    buffers_.assign(spec.args.size(), 0);
    for (size_t i = 0; i < spec.args.size(); ++i) {
        const auto& a = spec.args[i];
        if (a.kind != launch::ArgSpec::Kind::buffer) continue;
        auto host = launch::make_buffer(spec, i);
        if (!host) {
            report_.error = launch::ReportError{"WARPSIM_BUFFER_INIT", host.error(), ""};
            return false;
        }
        const std::string label =
            "args[" + std::to_string(i) + "] (" + std::to_string(host->size()) + " bytes)";
        if (!check(f_.cuMemAlloc_v2(&buffers_[i], host->size()), "cuMemAlloc " + label)) return false;
        if (!check(f_.cuMemcpyHtoD_v2(buffers_[i], host->data(), host->size()), "cuMemcpyHtoD " + label))
            return false;
    }
    return true;
}

void GpuSession::pack(const ir::Function& kernel, const launch::LaunchSpec& spec) {
    params_ = launch::pack_params(kernel, std::vector<uint64_t>(buffers_.begin(), buffers_.end()), spec);
}

bool GpuSession::launch(const launch::LaunchSpec& spec) {
    if (capture_printf_) capture_.begin();
    size_t size = params_.size();
    void* extra[] = {kLaunchParamBufferPointer, params_.data(), kLaunchParamBufferSize, &size,
                     kLaunchParamEnd};
    const auto& g = spec.grid;
    const auto& b = spec.block;
    if (spec.cluster) return launch_cluster(spec, extra);
    return check(f_.cuLaunchKernel(func_, g[0], g[1], g[2], b[0], b[1], b[2], spec.shared_bytes, nullptr,
                                   nullptr, params_.empty() ? nullptr : extra),
                 "cuLaunchKernel",
                 "grid (" + std::to_string(g[0]) + ", " + std::to_string(g[1]) + ", " + std::to_string(g[2]) +
                     "), block (" + std::to_string(b[0]) + ", " + std::to_string(b[1]) + ", " +
                     std::to_string(b[2]) + "), " + std::to_string(spec.shared_bytes) +
                     " bytes of dynamic shared memory");
}

// A launch with a cluster shape (the spec's "cluster"): cuLaunchKernelEx with the cluster-dimension
// attribute.
bool GpuSession::launch_cluster(const launch::LaunchSpec& spec, void** extra) {
    const auto& g = spec.grid;
    const auto& b = spec.block;
    const auto& c = *spec.cluster;
    const std::string what = "grid (" + std::to_string(g[0]) + ", " + std::to_string(g[1]) + ", " +
                             std::to_string(g[2]) + "), cluster (" + std::to_string(c[0]) + ", " +
                             std::to_string(c[1]) + ", " + std::to_string(c[2]) + ")";
    if (!f_.cuLaunchKernelEx)
        return check(1, "cuLaunchKernelEx",
                     "the driver has no cuLaunchKernelEx (CUDA 12+ is needed for clusters); " + what);
    LaunchAttribute attr;
    attr.id = kLaunchAttributeClusterDimension;
    attr.value.cluster_dim = {c[0], c[1], c[2]};
    LaunchConfigEx cfg;
    cfg.grid_x = g[0], cfg.grid_y = g[1], cfg.grid_z = g[2];
    cfg.block_x = b[0], cfg.block_y = b[1], cfg.block_z = b[2];
    cfg.shared_bytes = spec.shared_bytes;
    cfg.attrs = &attr;
    cfg.num_attrs = 1;
    return check(f_.cuLaunchKernelEx(&cfg, func_, nullptr, params_.empty() ? nullptr : extra),
                 "cuLaunchKernelEx", what);
}

// The first synchronisation ends the hashed run: what the kernel printed until then is the report's.
bool GpuSession::synchronize() {
    bool ok = check(f_.cuCtxSynchronize(), "cuCtxSynchronize (the kernel failed while running)");
    if (!first_sync_done_) {
        printf_ = capture_.end();
        first_sync_done_ = true;
    }
    return ok;
}

std::optional<float> GpuSession::timed_launch(const launch::LaunchSpec& spec) {
    if (!start_ && (!check(f_.cuEventCreate(&start_, 0), "cuEventCreate") ||
                    !check(f_.cuEventCreate(&stop_, 0), "cuEventCreate")))
        return std::nullopt;
    if (spec.l2 == launch::L2State::cold) {
        // "l2": "cold": overwrite twice the L2's size before the launch, so that it finds none of its data
        // there (what Nsight Compute's --cache-control all does by flushing).
        if (!flush_) {
            flush_bytes_ = 2 * size_t(std::max(device_attribute(kAttrL2CacheSize), 32 << 20));
            if (!check(
                    f_.cuMemAlloc_v2(&flush_, flush_bytes_), "cuMemAlloc (the L2 flush buffer)",
                    "\"l2\": \"cold\" needs " + std::to_string(flush_bytes_ >> 20) + " MiB of device memory"))
                return std::nullopt;
        }
        if (!check(f_.cuMemsetD8_v2(flush_, 0x5a, flush_bytes_), "cuMemsetD8 (the L2 flush)"))
            return std::nullopt;
    }
    if (!check(f_.cuEventRecord(start_, nullptr), "cuEventRecord")) return std::nullopt;
    if (!launch(spec)) return std::nullopt;
    if (!check(f_.cuEventRecord(stop_, nullptr), "cuEventRecord")) return std::nullopt;
    if (!check(f_.cuEventSynchronize(stop_), "cuEventSynchronize (the kernel failed while running)"))
        return std::nullopt;
    float ms = 0;
    if (!check(f_.cuEventElapsedTime(&ms, start_, stop_), "cuEventElapsedTime")) return std::nullopt;
    return ms;
}

bool GpuSession::hash_buffers(const launch::LaunchSpec& spec, std::vector<std::vector<uint8_t>>* keep) {
    if (keep) keep->assign(spec.args.size(), {});
    for (size_t i = 0; i < spec.args.size(); ++i) {
        const auto& a = spec.args[i];
        if (a.kind != launch::ArgSpec::Kind::buffer) continue;
        std::vector<uint8_t> host(a.buffer_bytes());
        if (!check(f_.cuMemcpyDtoH_v2(host.data(), buffers_[i], host.size()),
                   "cuMemcpyDtoH args[" + std::to_string(i) + "]"))
            return false;
        report_.buffers.push_back({uint32_t(i), launch::hex16(launch::fnv1a64(host))});
        if (keep) (*keep)[i] = std::move(host);
    }
    return true;
}

std::string GpuSession::take_printf() {
    capture_.end();  // output of the timing launches is dropped
    return std::move(printf_);
}

}  // namespace warpsim::cuda
