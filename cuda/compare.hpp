// cuda/compare.hpp — the simulated and the measured report side by side (`warpsim compare SPEC`).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "launch/result.hpp"

namespace warpsim::cuda {

struct CompareRow {
    std::string metric;               // an ncu metric name, "buffer args[2]", "error", "time_us" ...
    std::string simulated, measured;  // as printed ("" when a side lacks it)
    std::string difference;           // "+12 (+0.5%)", "0", "" when not numeric on both sides
    std::optional<bool> match;        // nullopt: informational (timings, registers) or one side missing
};

struct CompareOptions {
    bool deterministic = true;        // false: buffer hashes may differ and are not judged
    double traffic_tolerance = 0.10;  // relative, for L2 and DRAM traffic (caches are modelled, not exact)
};

// Rows, in this order: error (present on either side), buffer hashes, metrics (union of both sides,
// sorted by name), registers per thread, blocks per SM, time. Counting metrics (requests, sectors,
// wavefronts, bank conflicts, instructions) match only when equal; L2 and DRAM traffic within the
// tolerance; time, registers and warps active are shown but not judged.
std::vector<CompareRow> compare_reports(const launch::RunReport& sim, const launch::RunReport& gpu,
                                        const CompareOptions& options = {});

std::string format_compare_text(const std::vector<CompareRow>& rows);
// {"rows": [{"metric", "simulated", "measured", "difference", "match"}...], "matched": N, "mismatched": M}
nlohmann::ordered_json compare_to_json(const std::vector<CompareRow>& rows);

}  // namespace warpsim::cuda
