// sim/counts/metric_table.hpp — statistic ids and their Nsight Compute names, generated from stats.def.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::counts {

enum class Stat : uint16_t {
#define WARPSIM_STAT(id, name, origin) id,
#define WARPSIM_RATIO(name, num, den, origin)
#include "sim/counts/stats.def"
#undef WARPSIM_STAT
#undef WARPSIM_RATIO
};

inline constexpr std::size_t kStatCount = 0
#define WARPSIM_STAT(id, name, origin) +1
#define WARPSIM_RATIO(name, num, den, origin)
#include "sim/counts/stats.def"
#undef WARPSIM_STAT
#undef WARPSIM_RATIO
    ;

enum class MetricOrigin : uint8_t { ncu, sim };

struct StatInfo {
    Stat id;
    std::string_view metric;
    MetricOrigin origin;
};

struct RatioInfo {
    std::string_view metric;
    Stat numerator, denominator;
    MetricOrigin origin;
};

std::span<const StatInfo> stat_table();
std::span<const RatioInfo> ratio_table();
std::string_view metric_name(Stat s);

// Every metric the GPU backend should pass to `ncu --metrics` (origin ncu, counts and ratios).
std::vector<std::string> ncu_metric_names();

}  // namespace warpsim::counts
