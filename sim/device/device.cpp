// Loads device presets (built in or from a user's file) and validates every field once, naming it on error.
#include "sim/device/device.hpp"

#include "sim/device/cuda_attributes.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "launch/input_file.hpp"
#include "launch/json_text.hpp"
#include "sim/device/preset_texts.hpp"

namespace warpsim::device {
namespace {

using nlohmann::json;

// Thrown inside the parser only; parse_preset turns it into an Expected failure.
struct FieldError {
    std::string field;
    std::string what;
};

// Reads fields by dotted path ("sm.max_warps") and remembers which numbers it read, so that
// the sources check can demand a citation for each of them.
class PresetReader {
  public:
    explicit PresetReader(const json& root) : root_(root) {}

    const json* find(std::string_view path) const {
        const json* node = &root_;
        std::size_t start = 0;
        while (start <= path.size()) {
            std::size_t dot = path.find('.', start);
            if (dot == std::string_view::npos) dot = path.size();
            std::string key(path.substr(start, dot - start));
            if (!node->is_object() || !node->contains(key)) return nullptr;
            node = &(*node)[key];
            start = dot + 1;
        }
        return node;
    }

    const json& require(std::string_view path, std::string_view expectation) const {
        const json* node = find(path);
        if (node == nullptr)
            throw FieldError{std::string(path), "missing (" + std::string(expectation) + ")"};
        return *node;
    }

    // An object whose keys must all be in `allowed` (keys starting with '_' are comments).
    void object(std::string_view path, std::initializer_list<std::string_view> allowed) const {
        const json& node = path.empty() ? root_ : require(path, "expected an object");
        if (!node.is_object()) throw FieldError{std::string(path), "expected an object"};
        for (const auto& item : node.items()) {
            const std::string& key = item.key();
            if (key.starts_with('_')) continue;
            if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
                std::string full = path.empty() ? key : std::string(path) + "." + key;
                throw FieldError{full, "unknown field (a typo? keys starting with '_' are comments)"};
            }
        }
    }

    std::int64_t integer(std::string_view path, std::int64_t min, std::int64_t max,
                         std::string_view expectation) {
        const json& node = require(path, expectation);
        if (!node.is_number_integer()) throw FieldError{std::string(path), std::string(expectation)};
        std::int64_t v = node.get<std::int64_t>();
        if (node.is_number_unsigned() && node.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
            throw FieldError{std::string(path), std::string(expectation)};
        if (v < min || v > max) throw FieldError{std::string(path), std::string(expectation)};
        numbers_.insert(std::string(path));
        return v;
    }
    int positive_int(std::string_view path) {
        return static_cast<int>(integer(path, 1, INT_MAX, "expected a positive integer"));
    }
    int nonnegative_int(std::string_view path) {
        return static_cast<int>(integer(path, 0, INT_MAX, "expected a non-negative integer"));
    }
    std::int64_t positive_int64(std::string_view path) {
        return integer(path, 1, INT64_MAX, "expected a positive integer");
    }

    double positive_number(std::string_view path) {
        const json& node = require(path, "expected a positive number");
        if (!node.is_number() || node.get<double>() <= 0)
            throw FieldError{std::string(path), "expected a positive number"};
        numbers_.insert(std::string(path));
        return node.get<double>();
    }
    std::optional<double> optional_positive_number(std::string_view path) {
        const json& node = require(path, "expected a positive number or null");
        numbers_.insert(std::string(path));
        if (node.is_null()) return std::nullopt;
        if (!node.is_number() || node.get<double>() <= 0)
            throw FieldError{std::string(path), "expected a positive number or null"};
        return node.get<double>();
    }

    template <std::size_t N, class T>
    std::array<T, N> positive_array(std::string_view path, T max) {
        std::string expectation = "expected an array of " + std::to_string(N) + " positive integers";
        const json& node = require(path, expectation);
        if (!node.is_array() || node.size() != N) throw FieldError{std::string(path), expectation};
        std::array<T, N> out{};
        for (std::size_t i = 0; i < N; ++i) {
            const json& e = node[i];
            if (!e.is_number_integer() || e.get<std::int64_t>() <= 0 ||
                e.get<std::int64_t>() > static_cast<std::int64_t>(max))
                throw FieldError{std::string(path), expectation};
            out[i] = static_cast<T>(e.get<std::int64_t>());
        }
        numbers_.insert(std::string(path));
        return out;
    }

    std::string string(std::string_view path, std::string fallback) const {
        const json* node = find(path);
        if (node == nullptr) return fallback;
        if (!node->is_string()) throw FieldError{std::string(path), "expected a string"};
        return node->get<std::string>();
    }

    // Records a field read by hand as a number that needs a source.
    void cite(std::string_view path) { numbers_.insert(std::string(path)); }
    const std::set<std::string>& numbers() const { return numbers_; }

  private:
    const json& root_;
    std::set<std::string> numbers_;
};

void read_sm(PresetReader& r, SmLimits& sm) {
    r.object("sm", {"max_threads", "max_warps", "max_blocks", "registers", "register_allocation_unit",
                    "sub_partitions", "shared_bytes", "shared_carveout_kb", "shared_allocation_granularity",
                    "reserved_shared_per_block", "block_barriers"});
    sm.max_threads = r.positive_int("sm.max_threads");
    sm.max_warps = r.positive_int("sm.max_warps");
    sm.max_blocks = r.positive_int("sm.max_blocks");
    sm.registers = r.positive_int("sm.registers");
    sm.register_allocation_unit = r.positive_int("sm.register_allocation_unit");
    sm.sub_partitions = r.positive_int("sm.sub_partitions");
    sm.shared_bytes = r.positive_int64("sm.shared_bytes");
    sm.shared_allocation_granularity = r.positive_int("sm.shared_allocation_granularity");
    sm.reserved_shared_per_block = r.nonnegative_int("sm.reserved_shared_per_block");

    const char* steps_expectation = "expected a non-empty ascending array of non-negative integers (KB)";
    const json& steps = r.require("sm.shared_carveout_kb", steps_expectation);
    if (!steps.is_array() || steps.empty()) throw FieldError{"sm.shared_carveout_kb", steps_expectation};
    for (const json& step : steps) {
        if (!step.is_number_integer() || step.get<std::int64_t>() < 0 || step.get<std::int64_t>() > (1 << 20))
            throw FieldError{"sm.shared_carveout_kb", steps_expectation};
        std::int64_t bytes = step.get<std::int64_t>() * 1024;
        if (!sm.shared_carveout_bytes.empty() && bytes <= sm.shared_carveout_bytes.back())
            throw FieldError{"sm.shared_carveout_kb", steps_expectation};
        sm.shared_carveout_bytes.push_back(bytes);
    }
    r.cite("sm.shared_carveout_kb");

    const json& barriers = r.require("sm.block_barriers", "expected a positive integer or null");
    if (!barriers.is_null()) {
        sm.block_barriers = static_cast<int>(
            r.integer("sm.block_barriers", 1, INT_MAX, "expected a positive integer or null"));
    }
}

void read_block_and_grid(PresetReader& r, BlockLimits& block, GridLimits& grid) {
    r.object("block", {"max_threads", "max_dims", "shared_default_bytes", "shared_optin_bytes",
                       "max_registers", "max_registers_per_thread"});
    block.max_threads = r.positive_int("block.max_threads");
    block.max_dims = r.positive_array<3, int>("block.max_dims", INT_MAX);
    block.shared_default_bytes = r.positive_int64("block.shared_default_bytes");
    block.shared_optin_bytes = r.positive_int64("block.shared_optin_bytes");
    block.max_registers = r.positive_int("block.max_registers");
    block.max_registers_per_thread = static_cast<int>(
        r.integer("block.max_registers_per_thread", 1, 255, "expected an integer from 1 to 255"));
    r.object("grid", {"max_dims"});
    grid.max_dims = r.positive_array<3, std::int64_t>("grid.max_dims", INT64_MAX);
}

void read_clocks_memory_cache(PresetReader& r, DevicePreset& p) {
    r.object("clocks", {"sm_boost_mhz", "sm_base_mhz", "sm_sustained_mhz", "memory_mhz"});
    p.clocks.sm_boost_mhz = r.positive_number("clocks.sm_boost_mhz");
    p.clocks.sm_base_mhz = r.optional_positive_number("clocks.sm_base_mhz");
    if (r.find("clocks.sm_sustained_mhz") != nullptr)
        p.clocks.sm_sustained_mhz = r.optional_positive_number("clocks.sm_sustained_mhz");
    p.clocks.memory_mhz = r.positive_number("clocks.memory_mhz");
    r.object("memory", {"bytes", "bandwidth_gbps", "bus_width_bits", "measured_copy_gbps"});
    p.memory.bytes = r.positive_int64("memory.bytes");
    p.memory.bandwidth_gbps = r.positive_number("memory.bandwidth_gbps");
    p.memory.bus_width_bits = r.positive_int("memory.bus_width_bits");
    p.memory.measured_copy_gbps = r.optional_positive_number("memory.measured_copy_gbps");
    r.object("cache", {"l1_bytes_per_sm", "l2_bytes"});
    p.cache.l1_bytes_per_sm = r.positive_int64("cache.l1_bytes_per_sm");
    p.cache.l2_bytes = r.positive_int64("cache.l2_bytes");
}

void read_timing(PresetReader& r, TimingParams& timing) {
    const json& node = r.require("timing", "expected an object");
    if (!node.is_object()) throw FieldError{"timing", "expected an object"};
    for (const auto& item : node.items()) {
        const std::string path = "timing." + item.key();
        if (item.key() == "fitted") {
            if (!item.value().is_boolean()) throw FieldError{path, "expected true or false"};
            timing.fitted = item.value().get<bool>();
        } else if (item.key() == "_status") {
            if (!item.value().is_string()) throw FieldError{path, "expected a string"};
            timing.status = item.value().get<std::string>();
        } else if (!item.key().starts_with('_')) {
            if (!item.value().is_number()) throw FieldError{path, "expected a number"};
            timing.values[item.key()] = item.value().get<double>();
        }
    }
    if (!node.contains("fitted"))
        throw FieldError{"timing.fitted", "missing (say whether the parameters are fitted)"};
}

CopyLink read_copy_link(PresetReader& r, const std::string& path) {
    r.object(path, {"gbps", "latency_us"});
    CopyLink link;
    link.gbps = r.positive_number(path + ".gbps");
    link.latency_us = r.positive_number(path + ".latency_us");
    return link;
}

void read_cuda_runtime(PresetReader& r, DevicePreset& p) {
    if (r.find("cuda_runtime") == nullptr) return;
    r.object("cuda_runtime", {"product_name", "copy_engines", "pinned_h2d", "pinned_d2h", "pageable_h2d",
                              "pageable_d2h", "device_to_device", "attributes"});
    CudaRuntimeSpec spec;
    spec.product_name = r.string("cuda_runtime.product_name", "");
    if (spec.product_name.empty()) throw FieldError{"cuda_runtime.product_name", "expected the product name"};
    spec.copy_engines = r.positive_int("cuda_runtime.copy_engines");
    spec.pinned_h2d = read_copy_link(r, "cuda_runtime.pinned_h2d");
    spec.pinned_d2h = read_copy_link(r, "cuda_runtime.pinned_d2h");
    spec.pageable_h2d = read_copy_link(r, "cuda_runtime.pageable_h2d");
    spec.pageable_d2h = read_copy_link(r, "cuda_runtime.pageable_d2h");
    spec.device_to_device = read_copy_link(r, "cuda_runtime.device_to_device");
    if (const json* attrs = r.find("cuda_runtime.attributes")) {
        if (!attrs->is_object()) throw FieldError{"cuda_runtime.attributes", "expected an object"};
        for (const auto& item : attrs->items()) {
            if (item.key().starts_with('_')) continue;
            std::string path = "cuda_runtime.attributes." + item.key();
            if (!is_cuda_attribute_name(item.key()))
                throw FieldError{path, "not a cudaDeviceAttr of CUDA 13 (names as in driver_types.h)"};
            spec.attributes[item.key()] = r.integer(path, INT_MIN, INT_MAX, "expected a 32-bit integer");
        }
    }
    p.cuda_runtime = std::move(spec);
}

// Cross-field rules: a preset that breaks one would make the occupancy calculator lie.
void check_consistency(const DevicePreset& p) {
    const SmLimits& sm = p.sm;
    if (p.compute_capability.major < 7) {
        throw FieldError{"compute_capability", "compute capability " +
                                                   std::to_string(p.compute_capability.major) + "." +
                                                   std::to_string(p.compute_capability.minor) +
                                                   " is not supported: warpsim models 7.0 and newer"};
    }
    if (static_cast<std::int64_t>(sm.max_warps) * p.warp_size != sm.max_threads) {
        throw FieldError{"sm.max_threads", std::to_string(sm.max_threads) + " is not sm.max_warps (" +
                                               std::to_string(sm.max_warps) + ") x warp_size (" +
                                               std::to_string(p.warp_size) + ")"};
    }
    if (sm.shared_carveout_bytes.back() != sm.shared_bytes) {
        throw FieldError{"sm.shared_carveout_kb", "the largest step must equal sm.shared_bytes (" +
                                                      std::to_string(sm.shared_bytes) + " bytes)"};
    }
    if (sm.registers % sm.sub_partitions != 0) {
        throw FieldError{"sm.sub_partitions", "must divide sm.registers evenly"};
    }
    if (p.block.max_threads > sm.max_threads) throw FieldError{"block.max_threads", "exceeds sm.max_threads"};
    if (p.block.shared_default_bytes > p.block.shared_optin_bytes) {
        throw FieldError{"block.shared_default_bytes", "exceeds block.shared_optin_bytes"};
    }
    if (p.block.shared_optin_bytes + sm.reserved_shared_per_block > sm.shared_bytes) {
        throw FieldError{"block.shared_optin_bytes",
                         "plus sm.reserved_shared_per_block exceeds sm.shared_bytes"};
    }
    if (p.block.max_registers > sm.registers) throw FieldError{"block.max_registers", "exceeds sm.registers"};
    if (p.clocks.sm_sustained_mhz && *p.clocks.sm_sustained_mhz > p.clocks.sm_boost_mhz)
        throw FieldError{"clocks.sm_sustained_mhz",
                         "exceeds clocks.sm_boost_mhz (a GPU holds at most its boost clock)"};
}

// Every number must say where it comes from: the field itself or one of its parents in "sources".
void check_sources(const PresetReader& r, const DevicePreset& p) {
    for (const std::string& path : r.numbers()) {
        std::string prefix = path;
        bool cited = p.sources.contains(prefix);
        while (!cited && prefix.find('.') != std::string::npos) {
            prefix.resize(prefix.rfind('.'));
            cited = p.sources.contains(prefix);
        }
        if (!cited) throw FieldError{path, "no source given (add \"" + path + "\" to \"sources\")"};
    }
    if (!p.timing.values.empty() && !p.sources.contains("timing")) {
        throw FieldError{"timing", "no source given (add \"timing\" to \"sources\")"};
    }
}

DevicePreset read_preset(const json& root, std::string_view default_name) {
    PresetReader r(root);
    r.object("", {"name", "description", "compute_capability", "sm_count", "warp_size", "sm", "block", "grid",
                  "clocks", "memory", "cache", "timing", "cuda_runtime", "sources"});
    DevicePreset p;
    p.name = r.string("name", std::string(default_name));
    p.description = r.string("description", "");
    r.object("compute_capability", {"major", "minor"});
    p.compute_capability.major =
        static_cast<int>(r.integer("compute_capability.major", 1, 99, "expected an integer from 1 to 99"));
    p.compute_capability.minor =
        static_cast<int>(r.integer("compute_capability.minor", 0, 9, "expected an integer from 0 to 9"));
    p.sm_count = r.positive_int("sm_count");
    p.warp_size = r.positive_int("warp_size");
    read_sm(r, p.sm);
    read_block_and_grid(r, p.block, p.grid);
    read_clocks_memory_cache(r, p);
    read_timing(r, p.timing);
    read_cuda_runtime(r, p);

    const json& sources = r.require("sources", "expected an object mapping field paths to their sources");
    if (!sources.is_object())
        throw FieldError{"sources", "expected an object mapping field paths to their sources"};
    for (const auto& item : sources.items()) {
        if (!item.value().is_string() || item.value().get<std::string>().empty())
            throw FieldError{"sources." + item.key(), "expected a non-empty string"};
        p.sources[item.key()] = item.value().get<std::string>();
    }
    check_consistency(p);
    check_sources(r, p);
    return p;
}

std::string line_col(std::string_view text, std::size_t byte) {
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return std::to_string(line) + ":" + std::to_string(col);
}

std::string stem_of(std::string_view origin) {
    std::size_t slash = origin.find_last_of('/');
    std::string_view base = slash == std::string_view::npos ? origin : origin.substr(slash + 1);
    if (base.ends_with(".json")) base.remove_suffix(5);
    return std::string(base);
}

}  // namespace

Expected<DevicePreset> parse_preset(std::string_view json_text, std::string_view origin) {
    if (std::size_t at = launch::json_too_deep(json_text); at != std::string_view::npos) {
        return Expected<DevicePreset>::failure(
            std::string(origin) + ":" + line_col(json_text, at) + ": JSON nested more than " +
            std::to_string(launch::kMaxJsonNesting) + " levels deep; a device preset needs a few");
    }
    json root;
    try {
        root = json::parse(json_text.begin(), json_text.end());
    } catch (const json::parse_error& e) {
        // nlohmann's byte is one past the offending character.
        std::size_t at = e.byte > 0 ? e.byte - 1 : 0;
        std::string what = e.what();
        std::size_t colon = what.rfind(": ");
        return Expected<DevicePreset>::failure(
            std::string(origin) + ":" + line_col(json_text, at) +
            ": invalid JSON: " + (colon == std::string::npos ? what : what.substr(colon + 2)));
    } catch (const json::exception& e) {
        // A number beyond a double's range ("1e999"): nlohmann throws out_of_range 406, without a position.
        std::string what = e.what();
        std::size_t close = what.find("] ");
        return Expected<DevicePreset>::failure(std::string(origin) + ": invalid JSON: " +
                                               (close == std::string::npos ? what : what.substr(close + 2)) +
                                               "; give numbers a double can hold");
    }
    if (!root.is_object())
        return Expected<DevicePreset>::failure(std::string(origin) + ": expected a JSON object");
    try {
        DevicePreset preset = read_preset(root, stem_of(origin));
        preset.origin = std::string(origin);
        return preset;
    } catch (const FieldError& e) {
        return Expected<DevicePreset>::failure(std::string(origin) + ": field '" + e.field + "': " + e.what);
    } catch (const json::exception& e) {
        return Expected<DevicePreset>::failure(std::string(origin) + ": " + e.what());
    }
}

std::optional<std::string_view> builtin_preset_text(std::string_view name) {
    for (const EmbeddedPreset& preset : embedded_presets()) {
        if (preset.name == name) return preset.json;
    }
    return std::nullopt;
}

std::vector<std::string> list_presets() {
    std::vector<std::string> names;
    for (const EmbeddedPreset& preset : embedded_presets()) names.emplace_back(preset.name);
    std::sort(names.begin(), names.end());
    return names;
}

Expected<DevicePreset> load_preset(std::string_view name_or_path) {
    bool is_path = name_or_path.find('/') != std::string_view::npos || name_or_path.ends_with(".json");
    if (!is_path) {
        std::optional<std::string_view> text = builtin_preset_text(name_or_path);
        if (!text) {
            std::string known;
            for (const std::string& n : list_presets()) known += (known.empty() ? "" : ", ") + n;
            return Expected<DevicePreset>::failure("unknown device preset '" + std::string(name_or_path) +
                                                   "' (built in: " + known +
                                                   "; or give the path of a .json file)");
        }
        return parse_preset(*text, std::string(name_or_path) + ".json");
    }
    std::string path(name_or_path);
    auto text = launch::read_input_file(path, launch::kMaxSpecBytes, "device preset");
    if (!text) return Expected<DevicePreset>::failure(text.error());
    return parse_preset(*text, path);
}

}  // namespace warpsim::device
