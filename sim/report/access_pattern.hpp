// sim/report/access_pattern.hpp — the one wording for warps whose lanes share addresses, used by the report,
// `warpsim explain` and the HTML page alike, following the hardware's rule for each case:
//   - same-address atomics are contention: updates of one word are serialised, one after another (in shared
//     memory that is not a bank conflict: the lanes do not ask a bank for different words);
//   - a warp-wide reduction whose result is unused is combined into one update (1 sector, nothing to gain);
//   - a broadcast (every lane on one address) and duplicate addresses are free: lanes that share an address
//     are served by the same bytes, and the ideal counts the distinct bytes only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sim/report/lane_sample.hpp"
#include "sim/report/report_model.hpp"

namespace warpsim::report {

// How one warp's active lanes share addresses.
struct AddressSharing {
    uint32_t lanes = 0;               // active lanes
    uint32_t distinct_addresses = 0;  // distinct start addresses among them
    uint32_t most_on_one = 0;         // lanes in the largest group on one address
    uint64_t distinct_bytes = 0;      // bytes the lanes touch, each counted once
};
AddressSharing address_sharing(const LaneSample& s);

// What one request costs against its ideal: sectors (global, local) or wavefronts (shared).
struct RequestCost {
    double per_request = 0, ideal_per_request = 0;
};

// The sentence for an access whose lanes share addresses (most_on_one > 1), or nullopt when every active lane
// has an address of its own (the stride explanations then apply). `kind` is the access's kind.
std::optional<std::string> sharing_sentence(AccessSpace space, AccessKind kind, const LaneSample& s,
                                            const RequestCost& cost);

// The table's used/way cell: "40.0 %" (global: share of the bytes moved that are used), "8-way" (shared: the
// worst bank conflict), "32x same" (atomics: 32 lanes' updates of one word, serialised), "" (nothing lost).
std::string way_note(const AccessRow& a);
// The cost in a few words for "look at": "32.00 wavefronts per request where 1.00 would do (atomic
// contention: 32 updates of one word)", "... (8-way bank conflict)", "2.50 sectors per request where 1.00
// would do (40.0 % of the bytes used)".
std::string cost_summary(const AccessRow& a);

// "2.50 sectors per request where 1.00 would do; 40.0 % of the bytes moved are used" (global) or
// "32.00 wavefronts per request where 1.00 would do" (shared): the cost clause every sentence ends with.
std::string cost_clause(AccessSpace space, const RequestCost& cost);

}  // namespace warpsim::report
