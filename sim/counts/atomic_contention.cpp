// sim/counts/atomic_contention.cpp — per-region L2 busy time of a launch's atomics (see the header).
#include "sim/counts/atomic_contention.hpp"

#include <algorithm>
#include <array>
#include <bit>

namespace warpsim::counts {

void AtomicContention::add(const WarpAccess& a, const SortedLanes& sorted, bool combined,
                           const AtomicCost& cost) {
    // Lanes in ascending address order: lanes of one region, of one sector and of one word are adjacent.
    const auto& addr = sorted.addr;
    const uint32_t n = sorted.n;
    if (n == 0) return;
    shift_ = cost.region_shift;
    const uint64_t word_ps = a.float_op ? cost.same_word_float_ps : cost.same_word_int_ps;
    uint32_t i = 0;
    while (i < n) {
        const uint64_t region = addr[i] >> cost.region_shift;
        uint32_t sectors = 0, most = 0, run = 0, lanes = 0;
        uint64_t last_sector = ~uint64_t{0}, last_word = ~uint64_t{0};
        for (; i < n && (addr[i] >> cost.region_shift) == region; ++i) {
            ++lanes;
            if ((addr[i] >> 5) != last_sector) ++sectors;
            last_sector = addr[i] >> 5;
            run = addr[i] == last_word ? run + 1 : 1;
            last_word = addr[i];
            most = std::max(most, run);
        }
        if (combined) most = lanes = sectors = 1;
        max_same_word_ = std::max(max_same_word_, most);
        const uint64_t ps = std::max({lanes * cost.lane_ps, sectors * cost.sector_ps, most * word_ps});
        busy_ps_[region] += ps;
        ++requests_;
    }
}

void AtomicContention::merge(const AtomicContention& other) {
    merge(other, [](uint64_t v) { return v; });
}

void AtomicContention::merge(const AtomicContention& other, const std::function<uint64_t(uint64_t)>& scale) {
    for (const auto& [region, ps] : other.busy_ps_) busy_ps_[region] += scale(ps);
    requests_ += scale(other.requests_);
    if (!other.busy_ps_.empty()) shift_ = other.shift_;
    max_same_word_ = std::max(max_same_word_, other.max_same_word_);
}

AtomicContention::Summary AtomicContention::summary() const {
    Summary s;
    s.requests = requests_;
    s.regions = busy_ps_.size();
    s.max_same_word = max_same_word_;
    uint64_t busiest_region = 0;
    for (const auto& [region, ps] : busy_ps_) {
        s.total_ps += ps;
        // Ties go to the lowest region, so the answer does not depend on the map's order.
        if (ps > s.busiest_ps || (ps == s.busiest_ps && region < busiest_region)) {
            s.busiest_ps = ps;
            busiest_region = region;
        }
    }
    s.busiest_address = busiest_region << shift_;
    return s;
}

}  // namespace warpsim::counts
