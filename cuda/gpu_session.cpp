// cuda/gpu_session.cpp — checked driver calls for one GPU run.
#include "cuda/gpu_session.hpp"

#include <unistd.h>

#include <cstdio>

#include "launch/buffer_init.hpp"
#include "launch/hash.hpp"
#include "launch/params.hpp"

namespace warpsim::cuda {

bool StdoutCapture::begin() {
    if (active()) return true;
    std::fflush(stdout);
    FILE* tmp = std::tmpfile();
    if (!tmp) return false;
    file_fd_ = ::dup(::fileno(tmp));
    std::fclose(tmp);  // the dup keeps the (already unlinked) file open
    saved_fd_ = ::dup(STDOUT_FILENO);
    if (file_fd_ < 0 || saved_fd_ < 0 || ::dup2(file_fd_, STDOUT_FILENO) < 0) {
        if (file_fd_ >= 0) ::close(file_fd_);
        if (saved_fd_ >= 0) ::close(saved_fd_);
        file_fd_ = saved_fd_ = -1;
        return false;
    }
    return true;
}

std::string StdoutCapture::end() {
    if (!active()) return {};
    std::fflush(stdout);
    ::dup2(saved_fd_, STDOUT_FILENO);
    ::close(saved_fd_);
    saved_fd_ = -1;
    std::string text;
    char buf[4096];
    ::lseek(file_fd_, 0, SEEK_SET);
    for (ssize_t n; (n = ::read(file_fd_, buf, sizeof buf)) > 0;) text.append(buf, size_t(n));
    ::close(file_fd_);
    file_fd_ = -1;
    return text;
}

GpuSession::~GpuSession() {
    capture_.end();
    if (!ctx_) return;
    // Best effort: after a sticky run-time error these fail too, and the context's destruction frees all.
    for (CUdeviceptr p : buffers_)
        if (p) f_.cuMemFree_v2(p);
    if (flush_) f_.cuMemFree_v2(flush_);
    if (start_) f_.cuEventDestroy_v2(start_);
    if (stop_) f_.cuEventDestroy_v2(stop_);
    if (module_) f_.cuModuleUnload(module_);
    f_.cuCtxDestroy_v2(ctx_);
}

bool GpuSession::check(CUresult r, const std::string& call, const std::string& details) {
    if (r == CUDA_SUCCESS) return true;
    if (!report_.error) {
        std::string where = call + (details.empty() ? "" : "\n" + details);
        report_.error = launch::ReportError{d_.error_name(r), d_.error_string(r), where};
    }
    return false;
}

int GpuSession::device_attribute(int attr) {
    int v = 0;
    if (f_.cuDeviceGetAttribute(&v, attr, dev_) != CUDA_SUCCESS) return 0;
    return v;
}

bool GpuSession::open(int device) {
    if (!check(f_.cuInit(0), "cuInit")) return false;
    f_.cuDriverGetVersion(&driver_version_);
    int count = 0;
    if (!check(f_.cuDeviceGetCount(&count), "cuDeviceGetCount")) return false;
    if (!check(f_.cuDeviceGet(&dev_, device), "cuDeviceGet(" + std::to_string(device) + ")",
               std::to_string(count) + " CUDA device(s) present"))
        return false;
    char name[256] = {};
    if (!check(f_.cuDeviceGetName(name, sizeof name - 1, dev_), "cuDeviceGetName")) return false;
    name_ = name;
    return check(f_.cuCtxCreate_v2(&ctx_, 0, dev_), "cuCtxCreate");
}

nlohmann::json GpuSession::device_json() const {
    auto* self = const_cast<GpuSession*>(this);  // attribute queries do not change the session
    nlohmann::json j;
    j["name"] = name_;
    j["compute_capability"] = std::to_string(self->device_attribute(kAttrComputeCapabilityMajor)) + "." +
                              std::to_string(self->device_attribute(kAttrComputeCapabilityMinor));
    j["driver_version"] =
        std::to_string(driver_version_ / 1000) + "." + std::to_string(driver_version_ % 1000 / 10);
    j["sms"] = self->device_attribute(kAttrMultiprocessorCount);
    j["clock_khz"] = self->device_attribute(kAttrClockRateKHz);
    j["memory_clock_khz"] = self->device_attribute(kAttrMemoryClockRateKHz);
    j["memory_bus_bits"] = self->device_attribute(kAttrMemoryBusWidth);
    j["l2_bytes"] = self->device_attribute(kAttrL2CacheSize);
    j["max_threads_per_sm"] = self->device_attribute(kAttrMaxThreadsPerSM);
    j["max_blocks_per_sm"] = self->device_attribute(kAttrMaxBlocksPerSM);
    j["registers_per_sm"] = self->device_attribute(kAttrMaxRegistersPerSM);
    j["shared_per_sm"] = self->device_attribute(kAttrMaxSharedPerSM);
    j["shared_per_block_optin"] = self->device_attribute(kAttrMaxSharedPerBlockOptin);
    return j;
}

bool GpuSession::load_module(std::string_view ptx, const std::string& context) {
    std::string image(ptx);  // the driver wants a NUL-terminated image
    std::vector<char> info(16384, 0), error(16384, 0);
    int options[] = {kJitInfoLogBuffer, kJitInfoLogBufferSizeBytes, kJitErrorLogBuffer,
                     kJitErrorLogBufferSizeBytes};
    void* values[] = {info.data(), reinterpret_cast<void*>(info.size() - 1), error.data(),
                      reinterpret_cast<void*>(error.size() - 1)};
    CUresult r = f_.cuModuleLoadDataEx(&module_, image.c_str(), 4, options, values);
    if (r != CUDA_SUCCESS) module_ = nullptr;
    return check(r, "cuModuleLoadDataEx(" + context + ")", error.data());
}

bool GpuSession::get_function(const std::string& name) {
    return check(f_.cuModuleGetFunction(&func_, module_, name.c_str()), "cuModuleGetFunction(" + name + ")");
}

int GpuSession::function_attribute(int attr) {
    int v = 0;
    if (f_.cuFuncGetAttribute(&v, attr, func_) != CUDA_SUCCESS) return 0;
    return v;
}

nlohmann::json GpuSession::function_json() {
    return {{"registers", function_attribute(kFuncNumRegs)},
            {"static_shared_bytes", function_attribute(kFuncSharedSizeBytes)},
            {"local_bytes", function_attribute(kFuncLocalSizeBytes)},
            {"max_threads_per_block", function_attribute(kFuncMaxThreadsPerBlock)}};
}

bool GpuSession::set_max_dynamic_shared(uint32_t bytes) {
    return check(f_.cuFuncSetAttribute(func_, kFuncMaxDynamicSharedSizeBytes, int(bytes)),
                 "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, " + std::to_string(bytes) + ")");
}

}  // namespace warpsim::cuda
