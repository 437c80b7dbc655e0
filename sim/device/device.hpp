// Device presets: the typed description of a GPU (limits, clocks, memory, caches) loaded from cited JSON.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace warpsim::device {

// A value or an error message (std::expected is C++23; this is the part of it we need).
template <class T>
class Expected {
  public:
    Expected(T value) : state_(std::move(value)) {}  // NOLINT: implicit like std::expected
    static Expected failure(std::string message) { return Expected(Error{std::move(message)}); }

    bool has_value() const { return std::holds_alternative<T>(state_); }
    explicit operator bool() const { return has_value(); }
    const T& value() const& { return std::get<T>(state_); }
    T& value() & { return std::get<T>(state_); }
    T&& value() && { return std::get<T>(std::move(state_)); }
    const T& operator*() const& { return value(); }
    const T* operator->() const { return &value(); }
    // Empty when has_value().
    const std::string& error() const { return has_value() ? empty_ : std::get<Error>(state_).message; }

  private:
    struct Error {
        std::string message;
    };
    explicit Expected(Error e) : state_(std::move(e)) {}
    std::variant<T, Error> state_;
    std::string empty_;
};

struct ComputeCapability {
    int major = 0;
    int minor = 0;
    // "sm_90" for 9.0: the ptxas / nvcc architecture name.
    std::string arch() const { return "sm_" + std::to_string(major) + std::to_string(minor); }
    friend bool operator==(const ComputeCapability&, const ComputeCapability&) = default;
};

// Per-SM resources: what every resident block draws from.
struct SmLimits {
    int max_threads = 0;
    int max_warps = 0;
    int max_blocks = 0;
    int registers = 0;                 // 32-bit registers in the register file
    int register_allocation_unit = 0;  // registers are given to a warp in multiples of this
    int sub_partitions = 0;            // warp schedulers; registers are split evenly between them
    std::int64_t shared_bytes = 0;     // largest shared-memory capacity (the top carveout step)
    std::vector<std::int64_t> shared_carveout_bytes;  // supported capacities, ascending
    int shared_allocation_granularity = 0;
    int reserved_shared_per_block = 0;  // the driver's per-block reservation (1 KB from 8.0)
    std::optional<int> block_barriers;  // barrier slots per SM; unset = no barrier limit modelled
};

struct BlockLimits {
    int max_threads = 0;
    std::array<int, 3> max_dims{};
    std::int64_t shared_default_bytes = 0;  // without cudaFuncAttributeMaxDynamicSharedMemorySize
    std::int64_t shared_optin_bytes = 0;    // the most a block may opt into
    int max_registers = 0;
    int max_registers_per_thread = 0;
};

struct GridLimits {
    std::array<std::int64_t, 3> max_dims{};
};

struct Clocks {
    double sm_boost_mhz = 0;
    std::optional<double> sm_base_mhz;  // unset where no source gives it
    // The SM clock measured under a full load of the GPU (the clock the predictions use, at most the boost
    // clock); unset where nobody measured it (absent or null in the preset).
    std::optional<double> sm_sustained_mhz;
    double memory_mhz = 0;
};

struct MemorySpec {
    std::int64_t bytes = 0;
    double bandwidth_gbps = 0;  // datasheet peak
    int bus_width_bits = 0;
    std::optional<double> measured_copy_gbps;
};

struct CacheSpec {
    std::int64_t l1_bytes_per_sm = 0;  // combined L1 / shared memory
    std::int64_t l2_bytes = 0;
};

// The host link as the CUDA runtime's copies see it: each copy takes latency + bytes / bandwidth.
struct CopyLink {
    double gbps = 0;        // 1e9 bytes per second
    double latency_us = 0;  // the time of a copy of (almost) nothing
};

// What the simulated CUDA runtime (sim/runtime) reports and models beyond the limits above: the product name
// of cudaDeviceProp::name, the copy engines (asyncEngineCount) and the copy model, and cudaDeviceGetAttribute
// values that differ from the H200's (keyed by the enum's name, "cudaDevAttrEccEnabled").
struct CudaRuntimeSpec {
    std::string product_name;
    int copy_engines = 0;
    CopyLink pinned_h2d, pinned_d2h, pageable_h2d, pageable_d2h, device_to_device;
    std::map<std::string, std::int64_t> attributes;
};

// Parameters of the timing model. Until `fitted` is true they are placeholders, not measurements.
struct TimingParams {
    bool fitted = false;
    std::string status;
    std::map<std::string, double> values;
};

struct DevicePreset {
    std::string name;
    std::string description;
    std::string origin;  // "h200.json (built in)" or the user's path: used in messages
    ComputeCapability compute_capability;
    int sm_count = 0;
    int warp_size = 0;
    SmLimits sm;
    BlockLimits block;
    GridLimits grid;
    Clocks clocks;
    MemorySpec memory;
    CacheSpec cache;
    TimingParams timing;
    std::optional<CudaRuntimeSpec>
        cuda_runtime;                            // unset: the runtime reports and models no copies of its own
    std::map<std::string, std::string> sources;  // field path -> where the number comes from

    std::string arch() const { return compute_capability.arch(); }
};

// The preset used when none is named.
inline constexpr std::string_view default_preset_name = "h200";

// A name ("h200") picks a built-in preset; anything with a '/' or ending in ".json" is a file path.
Expected<DevicePreset> load_preset(std::string_view name_or_path);

// Parses and validates one preset's JSON text; `origin` names it in error messages.
Expected<DevicePreset> parse_preset(std::string_view json_text, std::string_view origin);

// The built-in preset names, sorted.
std::vector<std::string> list_presets();

// The JSON text of a built-in preset (as embedded in the binary), or nullopt.
std::optional<std::string_view> builtin_preset_text(std::string_view name);

}  // namespace warpsim::device
