// sim/counts/metric_table.cpp — the constexpr tables behind metric_table.hpp, expanded from stats.def.
#include "sim/counts/metric_table.hpp"

#include <array>

namespace warpsim::counts {

namespace {

constexpr std::array<StatInfo, kStatCount> kStats = {{
#define WARPSIM_STAT(id, name, origin) {Stat::id, name, MetricOrigin::origin},
#define WARPSIM_RATIO(name, num, den, origin)
#include "sim/counts/stats.def"
#undef WARPSIM_STAT
#undef WARPSIM_RATIO
}};

constexpr RatioInfo kRatios[] = {
#define WARPSIM_STAT(id, name, origin)
#define WARPSIM_RATIO(name, num, den, origin) {name, Stat::num, Stat::den, MetricOrigin::origin},
#include "sim/counts/stats.def"
#undef WARPSIM_STAT
#undef WARPSIM_RATIO
};

// The table is indexed by Stat: each row must sit at its own id's position.
constexpr bool rows_in_order() {
    for (std::size_t i = 0; i < kStats.size(); ++i)
        if (static_cast<std::size_t>(kStats[i].id) != i) return false;
    return true;
}
static_assert(rows_in_order());

}  // namespace

std::span<const StatInfo> stat_table() {
    return kStats;
}
std::span<const RatioInfo> ratio_table() {
    return kRatios;
}
std::string_view metric_name(Stat s) {
    return kStats[static_cast<std::size_t>(s)].metric;
}

std::vector<std::string> ncu_metric_names() {
    std::vector<std::string> names;
    for (const auto& s : kStats)
        if (s.origin == MetricOrigin::ncu) names.emplace_back(s.metric);
    for (const auto& r : kRatios)
        if (r.origin == MetricOrigin::ncu) names.emplace_back(r.metric);
    return names;
}

}  // namespace warpsim::counts
