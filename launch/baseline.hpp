// launch/baseline.hpp — two reports side by side (`warpsim compare A B`), what Nsight Compute calls a
// baseline: every metric of either, B minus A and B over A, the ones that changed most first. Either side may
// be a spec run on the simulator (or a GPU) or a report saved with `run --json`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "launch/result.hpp"

namespace warpsim::launch {

struct BaselineRow {
    std::string metric;          // an ncu metric name, time_us, registers_per_thread, occupancy.*, buffer ...
    std::optional<double> a, b;  // numeric values; nullopt when that side lacks it (or for text rows)
    std::string a_text, b_text;  // text rows (buffer hashes, errors, the bound); "" for numeric rows
    bool changed() const;        // the two sides differ (a side missing counts as a change)
    double ratio() const;        // b / a: 1 when equal, +inf when only b is non-zero, NaN without both
};

struct Baseline {
    std::string a_label, b_label;       // "A: path (sim, h200)"
    std::vector<BaselineRow> headline;  // time, bound, registers, occupancy, errors, buffers: always shown
    std::vector<BaselineRow>
        metrics;  // changed ones first (largest |log ratio| first), then equal ones by name
};

// `filters`: keep only the metrics whose name contains one of them (empty: every metric).
Baseline make_baseline(const RunReport& a, const RunReport& b, std::string a_label, std::string b_label,
                       const std::vector<std::string>& filters = {});

// The table; equal metrics are counted in one line unless `all` (or filters were given to make_baseline).
std::string baseline_text(const Baseline& base, bool all);
// metric,a,b,difference,ratio: every row, numbers as numbers, RFC 4180 quoting.
std::string baseline_csv(const Baseline& base);
// {"schema": 1, "a": label, "b": label, "rows": [{"metric", "a", "b", "difference", "ratio"}...]}: numbers as
// JSON numbers (null when a side lacks the value; ratio null when undefined, a string "inf" when infinite).
nlohmann::ordered_json baseline_json(const Baseline& base);

}  // namespace warpsim::launch
