// sim/report/access_pattern.cpp — sentences for lanes that share addresses (see the header for the rules).
#include "sim/report/access_pattern.hpp"

#include <algorithm>
#include <array>
#include <bit>

#include <fmt/format.h>

#include "sim/counts/global_sectors.hpp"

namespace warpsim::report {
namespace {

std::string_view verb(AccessKind k) {
    switch (k) {
        case AccessKind::load:
            return "read";
        case AccessKind::store:
            return "write";
        case AccessKind::atomic:
        case AccessKind::reduction:
            return "update";
        case AccessKind::other:
            break;
    }
    return "access";
}

}  // namespace

AddressSharing address_sharing(const LaneSample& s) {
    AddressSharing out;
    std::array<uint64_t, 32> addr{};
    uint32_t n = 0;
    for (uint32_t m = s.active_mask; m != 0; m &= m - 1)
        addr[n++] = s.addr[static_cast<uint32_t>(std::countr_zero(m))];
    out.lanes = n;
    if (n == 0) return out;
    out.distinct_bytes = counts::distinct_bytes(addr.data(), n, s.bytes_per_lane);
    std::sort(addr.begin(), addr.begin() + n);
    uint32_t run = 0;
    for (uint32_t i = 0; i < n; ++i) {
        run = i > 0 && addr[i] == addr[i - 1] ? run + 1 : 1;
        if (run == 1) ++out.distinct_addresses;
        out.most_on_one = std::max(out.most_on_one, run);
    }
    return out;
}

std::string cost_clause(AccessSpace space, const RequestCost& c) {
    if (space == AccessSpace::shared)
        return fmt::format("{:.2f} wavefronts per request where {:.2f} would do", c.per_request,
                           c.ideal_per_request);
    const double used =
        c.per_request > 0 ? 100.0 * std::min(1.0, c.ideal_per_request / c.per_request) : 100.0;
    return fmt::format(
        "{:.2f} sectors per request where {:.2f} would do; {:.1f} % of the bytes moved are used",
        c.per_request, c.ideal_per_request, used);
}

std::optional<std::string> sharing_sentence(AccessSpace space, AccessKind kind, const LaneSample& s,
                                            const RequestCost& cost) {
    const AddressSharing a = address_sharing(s);
    if (a.lanes < 2 || a.most_on_one < 2) return std::nullopt;
    const std::string tail = cost_clause(space, cost);
    const bool shared = space == AccessSpace::shared;
    const bool costs_more = cost.per_request > cost.ideal_per_request + 1e-9;
    const uint32_t w = s.bytes_per_lane;
    if (kind == AccessKind::atomic || kind == AccessKind::reduction) {
        const std::string where =
            a.distinct_addresses == 1
                ? fmt::format("all {} lanes update the same {}-byte word", a.lanes, w)
                : fmt::format(
                      "up to {} of the {} lanes update the same {}-byte word ({} distinct "
                      "words in this warp)",
                      a.most_on_one, a.lanes, w, a.distinct_addresses);
        if (!costs_more)
            return fmt::format(
                "{}, and the hardware combines the lanes into one update per word first (a warp-wide "
                "reduction): no contention; {}",
                where, tail);
        return fmt::format(
            "atomic contention: {}; updates of one address are serialised, {} one after another in "
            "this warp{}; fewer updates per address (a per-warp or per-block partial result first) is "
            "the fix; {}",
            where, a.most_on_one,
            shared ? " (not a bank conflict: no bank is asked for different words)" : "", tail);
    }
    const std::string unit = shared ? "word" : "sector";
    if (a.distinct_addresses == 1) {
        if (kind == AccessKind::store)
            return fmt::format(
                "all {} lanes write the same {} bytes: one of the writes lands (which one is not "
                "defined), and it costs one write; {}",
                a.lanes, w, tail);
        return fmt::format(
            "all {} lanes {} the same {} bytes: one {} serves the whole warp (a broadcast, free); {}",
            a.lanes, verb(kind), w, unit, tail);
    }
    return fmt::format(
        "the {} lanes {} {} distinct addresses (up to {} lanes share one): lanes that share an address "
        "are served by the same bytes at no extra cost, so the ideal counts the {} distinct bytes; {}",
        a.lanes, verb(kind), a.distinct_addresses, a.most_on_one, a.distinct_bytes, tail);
}

namespace {

// Lanes of the row's sampled warp on one address, when its updates are atomics that cost more than the ideal.
uint32_t contention(const AccessRow& a) {
    if (!a.sample || (a.kind != AccessKind::atomic && a.kind != AccessKind::reduction) || a.excess() == 0)
        return 0;
    const AddressSharing s = address_sharing(*a.sample);
    return s.most_on_one > 1 ? s.most_on_one : 0;
}

}  // namespace

std::string way_note(const AccessRow& a) {
    if (const uint32_t n = contention(a)) return fmt::format("{}x same", n);
    if (a.space != AccessSpace::shared) return fmt::format("{:.1f} %", 100.0 * a.efficiency());
    // Wide lanes can ask a bank for two words with no wavefront lost: only a cost above the ideal is a
    // conflict.
    return a.s.max_way > 1 && a.excess() > 0 ? fmt::format("{}-way", a.s.max_way) : "";
}

std::string cost_summary(const AccessRow& a) {
    std::string note;
    if (const uint32_t n = contention(a))
        note = fmt::format(" (atomic contention: {} updates of one word)", n);
    if (a.space == AccessSpace::shared) {
        if (note.empty() && a.s.max_way > 1 && a.excess() > 0)
            note = fmt::format(" ({}-way bank conflict)", a.s.max_way);
        return fmt::format("{:.2f} wavefronts per request where {:.2f} would do{}", a.per_request(),
                           a.ideal_per_request(), note);
    }
    if (note.empty()) note = fmt::format(" ({:.1f} % of the bytes used)", 100.0 * a.efficiency());
    return fmt::format("{:.2f} sectors per request where {:.2f} would do{}", a.per_request(),
                       a.ideal_per_request(), note);
}

}  // namespace warpsim::report
