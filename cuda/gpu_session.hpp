// cuda/gpu_session.hpp — one context, module and set of buffers on the GPU; every driver call is checked
// and a failure is written into the run report with the driver's own error name and string.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cuda/driver_api.hpp"
#include "kernels_ir/ir.hpp"
#include "launch/launch_spec.hpp"
#include "launch/result.hpp"

namespace warpsim::cuda {

// Sends file descriptor 1 to a temporary file while the GPU may print (device printf is written to the
// process's stdout by the driver at synchronisation points), so that `--json` output stays clean.
class StdoutCapture {
  public:
    StdoutCapture() = default;
    StdoutCapture(const StdoutCapture&) = delete;
    StdoutCapture& operator=(const StdoutCapture&) = delete;
    ~StdoutCapture() { end(); }
    bool begin();
    std::string end();  // restores stdout and returns what was written meanwhile
    bool active() const { return saved_fd_ >= 0; }

  private:
    int saved_fd_ = -1;
    int file_fd_ = -1;
};

class GpuSession {
  public:
    GpuSession(const Driver& driver, launch::RunReport& report, bool capture_printf)
        : d_(driver), f_(driver.fn()), report_(report), capture_printf_(capture_printf) {}
    GpuSession(const GpuSession&) = delete;
    GpuSession& operator=(const GpuSession&) = delete;
    ~GpuSession();

    bool open(int device);
    const std::string& device_name() const { return name_; }
    nlohmann::json device_json() const;
    bool load_module(std::string_view ptx, const std::string& context);
    bool get_function(const std::string& name);
    int function_attribute(int attr);
    nlohmann::json function_json();
    bool set_max_dynamic_shared(uint32_t bytes);
    std::optional<launch::OccupancyReport> occupancy(const launch::LaunchSpec& spec);
    bool allocate_and_fill(const launch::LaunchSpec& spec);
    void pack(const ir::Function& kernel, const launch::LaunchSpec& spec);
    bool launch(const launch::LaunchSpec& spec);
    bool synchronize();
    std::optional<float> timed_launch(const launch::LaunchSpec& spec);  // milliseconds
    bool hash_buffers(const launch::LaunchSpec& spec, std::vector<std::vector<uint8_t>>* keep = nullptr);
    std::string take_printf();

  private:
    bool check(CUresult r, const std::string& call, const std::string& details = {});
    bool launch_cluster(const launch::LaunchSpec& spec, void** extra);
    int device_attribute(int attr);

    const Driver& d_;
    const DriverFunctions& f_;
    launch::RunReport& report_;
    bool capture_printf_;
    StdoutCapture capture_;
    std::string printf_;
    bool first_sync_done_ = false;
    CUdevice dev_ = 0;
    CUcontext ctx_ = nullptr;
    CUmodule module_ = nullptr;
    CUfunction func_ = nullptr;
    CUevent start_ = nullptr, stop_ = nullptr;
    std::string name_;
    int driver_version_ = 0;
    std::vector<CUdeviceptr> buffers_;  // per spec argument; 0 for scalars
    // Written before each timed launch of a spec with "l2": "cold", to flush the L2: twice its size.
    CUdeviceptr flush_ = 0;
    size_t flush_bytes_ = 0;
    std::vector<uint8_t> params_;
};

}  // namespace warpsim::cuda
