// sim/counts/unrolled_loop.cpp — the walk through an unrolled loop's SASS blocks for one trip count.
#include "sim/counts/unrolled_loop.hpp"

#include <algorithm>
#include <array>

namespace warpsim::counts {

namespace {

using Node = UnrolledLoop::Node;

// The largest chunk that fits in `left` among the nodes reachable from `start` through nodes of no trips
// (the chunk 0 when left is 0 and the exit is reachable so); -1 when none.
int64_t best_chunk(const UnrolledLoop& loop, int32_t start, uint64_t left) {
    int64_t best = -1;
    std::vector<bool> seen(loop.nodes.size(), false);
    std::vector<int32_t> work{start};
    while (!work.empty()) {
        const int32_t n = work.back();
        work.pop_back();
        if (n == UnrolledLoop::kExit) {
            if (left == 0) best = std::max<int64_t>(best, 0);
            continue;
        }
        if (n < 0 || seen[static_cast<std::size_t>(n)]) continue;
        seen[static_cast<std::size_t>(n)] = true;
        const Node& node = loop.nodes[static_cast<std::size_t>(n)];
        if (node.copies != 0) {
            if (node.copies <= left) best = std::max<int64_t>(best, node.copies);
            continue;
        }
        work.push_back(node.taken);
        work.push_back(node.fall);
    }
    return best;
}

// Which way a warp goes on with `left` trips: the way to the larger chunk; the fall-through on a tie (the
// branch ptxas puts before an unrolled loop or a remainder jumps over it only when it does not fit). Sets
// `took` when the branch is taken; kNone when neither way fits.
int32_t choose(const UnrolledLoop& loop, int32_t taken, int32_t fall, uint64_t left, bool& took) {
    const int64_t t = taken == UnrolledLoop::kNone ? -1 : best_chunk(loop, taken, left);
    const int64_t f = fall == UnrolledLoop::kNone ? -1 : best_chunk(loop, fall, left);
    took = t > f;
    if (t < 0 && f < 0) return UnrolledLoop::kNone;
    return took ? taken : fall;
}

}  // namespace

std::optional<LoopWalk> walk_unrolled_loop(const UnrolledLoop& loop, uint64_t trips) {
    LoopWalk out;
    out.runs.assign(loop.nodes.size(), 0);
    out.taken.assign(loop.nodes.size(), 0);
    uint64_t left = trips;
    bool took = false;
    int32_t at = choose(loop, loop.entry_taken, loop.entry_fall, left, took);
    out.entry_taken = took;
    // Every run of a node either takes trips or moves on through the tests between chunks.
    const uint64_t limit = (trips + 2) * (loop.nodes.size() + 1);
    for (uint64_t steps = 0; at >= 0; ++steps) {
        if (steps > limit) return std::nullopt;
        const Node& node = loop.nodes[static_cast<std::size_t>(at)];
        if (node.copies > left) return std::nullopt;
        left -= node.copies;
        ++out.runs[static_cast<std::size_t>(at)];
        const int32_t next = node.conditional ? choose(loop, node.taken, node.fall, left, took)
                                              : (node.taken != UnrolledLoop::kNone ? node.taken : node.fall);
        if (node.conditional && took) ++out.taken[static_cast<std::size_t>(at)];
        if (!node.conditional && node.taken != UnrolledLoop::kNone) ++out.taken[static_cast<std::size_t>(at)];
        at = next;
    }
    if (at != UnrolledLoop::kExit || left != 0) return std::nullopt;
    return out;
}

std::optional<GroupWalk> walk_lane_groups(const UnrolledLoop& loop,
                                          const std::vector<std::pair<uint64_t, uint32_t>>& lanes) {
    const std::size_t n = loop.nodes.size();
    GroupWalk out;
    out.nodes.assign(n + 1, {});
    // Per node: the distinct positive runs of the lanes (a node looping on itself splits its lanes once at
    // each of them but the last) and whether some lane took and some did not take its branch.
    std::vector<std::vector<uint64_t>> run_values(n);
    std::vector<std::array<bool, 2>> ways(n + 1, {false, false});
    for (const auto& [trips, count] : lanes) {
        const auto walk = walk_unrolled_loop(loop, trips);
        if (!walk || count == 0) return std::nullopt;
        for (std::size_t k = 0; k < n; ++k) {
            const uint64_t runs = walk->runs[k];
            if (runs == 0) continue;
            const auto self = static_cast<int32_t>(k);
            const bool loops = loop.nodes[k].taken == self || loop.nodes[k].fall == self;
            if (!loops && runs > 1) return std::nullopt;
            auto& node = out.nodes[k];
            node.runs = std::max(node.runs, runs);
            node.lanes += runs * count;
            node.taken = std::max(node.taken, walk->taken[k]);
            node.taken_lanes += walk->taken[k] * count;
            run_values[k].push_back(runs);
            ways[k][walk->taken[k] != 0] = true;
        }
        auto& entry = out.nodes[n];
        entry.runs = 1;
        entry.lanes += count;
        entry.taken = std::max<uint64_t>(entry.taken, walk->entry_taken);
        entry.taken_lanes += walk->entry_taken ? count : 0;
        ways[n][walk->entry_taken] = true;
    }
    for (std::size_t k = 0; k <= n; ++k) {
        if (k < n && !loop.nodes[k].conditional) continue;
        const auto self = static_cast<int32_t>(k);
        if (k < n && (loop.nodes[k].taken == self || loop.nodes[k].fall == self)) {
            auto& v = run_values[k];
            std::sort(v.begin(), v.end());
            const auto distinct = static_cast<uint64_t>(std::unique(v.begin(), v.end()) - v.begin());
            out.nodes[k].divergent = distinct > 0 ? distinct - 1 : 0;
        } else {
            out.nodes[k].divergent = ways[k][0] && ways[k][1] ? 1 : 0;
        }
    }
    return out;
}

}  // namespace warpsim::counts
