// sim/session/sampled_run.cpp — a launch's counts from a sample of its blocks (see sampled_run.hpp).
//
// Sums (instructions, requests, sectors, wavefronts, L1 hits, L2 requests) are per block: a class's sum is
// its sampled blocks' mean times its size, with the stratified-sampling variance as the error (three standard
// errors; zero when every sampled block of every class counted the same). Classes whose sampled blocks
// disagree are halved and sampled again until they agree, are run whole, or the budget is spent.
// The footprint (distinct sectors, which the L2 and DRAM figures come from) is not a sum: per buffer it is
// estimated as the mean block footprint times, per grid dimension, 1 + (extent - 1) * the share of a block's
// footprint its next neighbour in that dimension does not share (exact for tiles that shift by a fixed step,
// halos included), kept between the sampled blocks' union and the buffer's size.
#include "sim/session/sampled_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace warpsim::session {
namespace {

constexpr uint32_t kPicksPerClass = 5;
constexpr uint64_t kMaxSampledBlocks = 4096;
constexpr uint64_t kSampleBudget = 3'000'000'000ull;  // thread-instructions spent on splitting classes
constexpr uint32_t kMaxRounds = 24;
constexpr uint64_t kMinBlocksToSample = 64;  // automatic mode: smaller grids run whole
constexpr double kSigmas = 3.0;

using Coord = std::array<uint32_t, 3>;

uint64_t linear_of(const Coord& b, const std::array<uint32_t, 3>& grid) {
    return b[0] + uint64_t{grid[0]} * (b[1] + uint64_t{grid[1]} * b[2]);
}
Coord coord_of(uint64_t lin, const std::array<uint32_t, 3>& grid) {
    return {static_cast<uint32_t>(lin % grid[0]), static_cast<uint32_t>(lin / grid[0] % grid[1]),
            static_cast<uint32_t>(lin / (uint64_t{grid[0]} * grid[1]))};
}

// The spec's integer sizes: positive integer scalars and buffer element counts.
std::vector<uint64_t> spec_sizes(const launch::LaunchSpec& spec) {
    std::vector<uint64_t> out;
    for (const auto& a : spec.args) {
        if (a.kind == launch::ArgSpec::Kind::buffer) {
            out.push_back(a.count);
            continue;
        }
        using E = launch::ElemType;
        const bool is_int = a.type == E::i16 || a.type == E::u16 || a.type == E::i32 || a.type == E::u32 ||
                            a.type == E::i64 || a.type == E::u64;
        if (a.kind != launch::ArgSpec::Kind::scalar || !is_int || a.value.empty() || a.value.size() > 8)
            continue;
        uint64_t v = 0;
        for (std::size_t i = 0; i < a.value.size(); ++i) v |= uint64_t{a.value[i]} << (8 * i);
        const bool negative =
            (a.type == E::i16 || a.type == E::i32 || a.type == E::i64) && (a.value.back() & 0x80) != 0;
        if (!negative && v > 0) out.push_back(v);
    }
    return out;
}

using Measure = std::array<double, 4>;  // distinct sectors read, written, either; 64-byte blocks read
Measure measure_of(const counts::SectorFootprint::Totals& t) {
    return {double(t.read), double(t.write), double(t.either), double(t.read_blocks64)};
}

// A buffer of the spec in sectors, [first, end); the last region (end 0) is everything else.
struct Region {
    uint64_t first = 0, end = 0;
    Measure cap{};
};

// Per region, a footprint's totals there that `minus` (optional) does not hold; the last entry is the rest.
std::vector<Measure> region_measures(const counts::SectorFootprint& fp, const counts::SectorFootprint* minus,
                                     const std::vector<Region>& regions) {
    std::vector<Measure> out(regions.size());
    Measure rest = measure_of(fp.totals_in(0, std::numeric_limits<uint64_t>::max(), minus));
    for (std::size_t r = 0; r + 1 < regions.size(); ++r) {
        out[r] = measure_of(fp.totals_in(regions[r].first, regions[r].end, minus));
        for (int m = 0; m < 4; ++m) rest[m] -= out[r][m];
    }
    out.back() = rest;
    return out;
}

struct Sampler {
    const PreparedLaunch& p;
    engine::Simulator& sim;
    engine::LaunchConfig cfg;
    std::span<const uint8_t> params;
    std::map<uint64_t, engine::BlockCounts> blocks;  // by linear index
    std::string printf_text;
    std::optional<engine::LaunchError> error;
    uint64_t thread_insts = 0;
    double launch_seconds = 0, cpu_seconds = 0;

    // Runs the blocks not run yet; false when a block failed (error holds the fault).
    bool run(std::vector<uint64_t> list) {
        std::erase_if(list, [&](uint64_t b) { return blocks.count(b) != 0; });
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
        if (list.empty()) return true;
        cfg.only_blocks = list;
        counts::KernelCounters sum(cfg.counts_config);
        const auto start = std::chrono::steady_clock::now();
        const std::clock_t cpu = std::clock();
        auto result = sim.launch(*p.module, *p.kernel, cfg, params, &sum);
        cpu_seconds += static_cast<double>(std::clock() - cpu) / CLOCKS_PER_SEC;
        launch_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        printf_text += result.printf_output;
        if (result.error) {
            error = std::move(result.error);
            return false;
        }
        for (auto& b : result.block_counts) {
            thread_insts += b.thread_instructions;
            const uint64_t lin = b.linear;
            blocks.emplace(lin, std::move(b));
        }
        return true;
    }
};

// The sampled blocks of a class, as their linear indices.
std::vector<uint64_t> members(const Sampler& s, const BlockClass& c, const std::array<uint32_t, 3>& grid) {
    std::vector<uint64_t> out;
    for (const auto& [lin, b] : s.blocks)
        if (c.contains(coord_of(lin, grid))) out.push_back(lin);
    return out;
}

bool same_counts(const engine::BlockCounts& a, const engine::BlockCounts& b) {
    if (a.warp_instructions != b.warp_instructions || a.thread_instructions != b.thread_instructions)
        return false;
    for (std::size_t i = 0; i < counts::kStatCount; ++i)
        if (a.counters.stat(static_cast<counts::Stat>(i)) != b.counters.stat(static_cast<counts::Stat>(i)))
            return false;
    return true;
}

// Halves a class along its longest dimension.
std::pair<BlockClass, BlockClass> halves(const BlockClass& c) {
    int d = 0;
    for (int k = 1; k < 3; ++k)
        if (c.hi[k] - c.lo[k] > c.hi[d] - c.lo[d]) d = k;
    BlockClass a = c, b = c;
    a.hi[d] = b.lo[d] = c.lo[d] + (c.hi[d] - c.lo[d]) / 2;
    return {a, b};
}

// Picks for a class, each with its predecessor in every dimension (the block before it there): the footprint
// estimate counts what a block adds to theirs.
std::vector<uint64_t> class_picks(const BlockClass& c, const std::array<uint32_t, 3>& grid, uint64_t seed) {
    std::vector<uint64_t> out;
    for (const Coord& b : pick_blocks(c, kPicksPerClass, seed)) {
        out.push_back(linear_of(b, grid));
        for (int d = 0; d < 3; ++d) {
            if (b[d] == 0) continue;
            Coord n = b;
            --n[d];
            out.push_back(linear_of(n, grid));
        }
    }
    return out;
}

// Samples every class, then halves the classes whose sampled blocks disagree and samples the halves, until
// they all agree, are run whole, or the budget is spent. False when a block failed.
bool classify(Sampler& s, std::vector<BlockClass>& classes, const std::array<uint32_t, 3>& grid) {
    std::vector<uint64_t> first;
    for (std::size_t i = 0; i < classes.size(); ++i) {
        auto picks = class_picks(classes[i], grid, 0x5a3b1e ^ (i * 0x9e3779b97f4a7c15ull));
        first.insert(first.end(), picks.begin(), picks.end());
    }
    if (!s.run(first)) return false;
    for (uint32_t round = 0; round < kMaxRounds; ++round) {
        std::vector<BlockClass> next;
        std::vector<uint64_t> wanted;
        bool split = false;
        for (const BlockClass& c : classes) {
            const auto in = members(s, c, grid);
            const bool uniform = std::all_of(in.begin(), in.end(), [&](uint64_t b) {
                return same_counts(s.blocks.at(b), s.blocks.at(in.front()));
            });
            // Past a quarter of the grid, sampling more would cost about as much as running it whole.
            const bool budget = s.blocks.size() < kMaxSampledBlocks && s.thread_insts < kSampleBudget &&
                                4 * s.blocks.size() < uint64_t{grid[0]} * grid[1] * grid[2];
            if (uniform || in.size() >= c.size() || !budget || c.size() < 2) {
                next.push_back(c);
                continue;
            }
            split = true;
            for (const BlockClass& h : {halves(c).first, halves(c).second}) {
                next.push_back(h);
                // A half small enough is run whole; a larger one gets picks of its own.
                if (h.size() <= 2 * kPicksPerClass) {
                    for (uint32_t z = h.lo[2]; z < h.hi[2]; ++z)
                        for (uint32_t y = h.lo[1]; y < h.hi[1]; ++y)
                            for (uint32_t x = h.lo[0]; x < h.hi[0]; ++x)
                                wanted.push_back(linear_of({x, y, z}, grid));
                } else {
                    auto picks = class_picks(h, grid, linear_of(h.lo, grid) * 31 + h.size() + round);
                    wanted.insert(wanted.end(), picks.begin(), picks.end());
                }
            }
        }
        classes = std::move(next);
        if (!split) break;
        if (!s.run(wanted)) return false;
    }
    return true;
}

// Per class: its size, its sampled blocks' counters summed, and the moments of each sum for the error.
struct ClassTotals {
    double size = 0, sampled = 0;
    counts::KernelCounters sum;
    std::array<double, counts::kStatCount + 2> mean{}, m2{};  // the stats, then warp and thread instructions
};

std::array<double, counts::kStatCount + 2> block_values(const engine::BlockCounts& b) {
    std::array<double, counts::kStatCount + 2> v{};
    for (std::size_t i = 0; i < counts::kStatCount; ++i)
        v[i] = double(b.counters.stat(static_cast<counts::Stat>(i)));
    v[counts::kStatCount] = double(b.warp_instructions);
    v[counts::kStatCount + 1] = double(b.thread_instructions);
    return v;
}

// The footprint of the whole grid, estimated from the sampled blocks (see the top of the file), with the
// totals at the low and high ends of its error.
struct FootprintEstimate {
    counts::SectorFootprint::Totals estimate, low, high;
};

counts::SectorFootprint::Totals to_totals(const Measure& m) {
    auto u = [](double v) { return static_cast<uint64_t>(std::llround(std::max(0.0, v))); };
    return {u(m[0]), u(m[1]), u(m[2]), u(m[3])};
}

// What block `lin` adds to the footprint of the blocks before it in every dimension, per region; nullopt when
// one of those predecessors did not run.
std::optional<std::vector<Measure>> added_measures(const Sampler& s, uint64_t lin,
                                                   const std::vector<Region>& regions,
                                                   const std::array<uint32_t, 3>& grid) {
    counts::SectorFootprint before;
    for (int d = 0; d < 3; ++d) {
        Coord n = coord_of(lin, grid);
        if (n[d] == 0) continue;
        --n[d];
        auto it = s.blocks.find(linear_of(n, grid));
        if (it == s.blocks.end()) return std::nullopt;
        before.merge(it->second.counters.footprint());
    }
    return region_measures(s.blocks.at(lin).counters.footprint(), &before, regions);
}

FootprintEstimate estimate_footprint(const Sampler& s, const std::vector<BlockClass>& classes,
                                     const std::vector<Region>& regions, const std::array<uint32_t, 3>& grid,
                                     const counts::SectorFootprint& sampled_union) {
    const std::size_t R = regions.size();
    std::vector<Measure> total(R), var(R);
    for (const BlockClass& c : classes) {
        std::vector<std::vector<Measure>> added;
        for (uint64_t b : members(s, c, grid))
            if (auto a = added_measures(s, b, regions, grid)) added.push_back(std::move(*a));
        // A class without a block whose predecessors ran: its blocks' whole footprints (shared parts counted
        // again; the caps below bound it).
        if (added.empty())
            for (uint64_t b : members(s, c, grid))
                added.push_back(region_measures(s.blocks.at(b).counters.footprint(), nullptr, regions));
        const double n = double(added.size()), Ns = double(c.size());
        for (std::size_t r = 0; r < R; ++r)
            for (int m = 0; m < 4; ++m) {
                double mu = 0, sq = 0;
                for (const auto& a : added) mu += a[r][m];
                mu /= n;
                for (const auto& a : added) sq += (a[r][m] - mu) * (a[r][m] - mu);
                total[r][m] += Ns * mu;
                if (n > 1 && n < Ns) var[r][m] += Ns * Ns * (1 - n / Ns) * (sq / (n - 1)) / n;
            }
    }
    const auto seen = region_measures(sampled_union, nullptr, regions);
    Measure est{}, lo{}, hi{};
    for (std::size_t r = 0; r < R; ++r)
        for (int m = 0; m < 4; ++m) {
            const double sd = kSigmas * std::sqrt(var[r][m]);
            auto clamp = [&](double v) {
                return std::clamp(v, seen[r][m], std::max(seen[r][m], regions[r].cap[m]));
            };
            est[m] += clamp(total[r][m]);
            lo[m] += clamp(total[r][m] - sd);
            hi[m] += clamp(total[r][m] + sd);
        }
    return {to_totals(est), to_totals(lo), to_totals(hi)};
}

bool has_clusters(const PreparedLaunch& p) {
    const auto& r = p.kernel->perf.reqnctapercluster;
    return p.spec.cluster.has_value() || uint64_t{r[0]} * std::max(r[1], 1u) * std::max(r[2], 1u) > 1;
}

// The spec's buffers as regions of sectors, and a last region for everything else (module variables, stacks).
std::vector<Region> buffer_regions(const PreparedLaunch& p, const std::vector<uint64_t>& addresses) {
    std::vector<Region> out;
    for (std::size_t i = 0; i < p.spec.args.size(); ++i) {
        if (p.spec.args[i].kind != launch::ArgSpec::Kind::buffer || !addresses[i]) continue;
        const uint64_t bytes = std::max<uint64_t>(p.spec.args[i].buffer_bytes(), 1);
        // Whole sectors and 64-byte blocks, rounded up in integers before the conversion.
        const uint64_t sector_count = (bytes + 31) / 32, block64_count = (bytes + 63) / 64;
        const double sectors = double(sector_count), blocks64 = double(block64_count);
        out.push_back(
            {addresses[i] / 32, (addresses[i] + bytes + 31) / 32, {sectors, sectors, sectors, blocks64}});
    }
    const double inf = std::numeric_limits<double>::infinity();
    out.push_back({0, 0, {inf, inf, inf, inf}});
    return out;
}

// The estimated counters into run.counters and the error of every metric into info.bounds; returns the
// estimated warp and thread instructions.
using Values = std::array<double, counts::kStatCount + 2>;

// The sampled blocks' mean and sample variance of every sum.
std::pair<Values, Values> moments(const Sampler& s, const std::vector<uint64_t>& in) {
    Values mean{}, var{};
    const double n = double(in.size());
    // Summed, then divided: blocks that all counted the same give their count exactly and no spread.
    for (uint64_t b : in) {
        const auto v = block_values(s.blocks.at(b));
        for (std::size_t i = 0; i < v.size(); ++i) mean[i] += v[i];
    }
    for (double& m : mean) m /= n;
    for (uint64_t b : in) {
        const auto v = block_values(s.blocks.at(b));
        for (std::size_t i = 0; i < v.size(); ++i)
            var[i] += n > 1 ? (v[i] - mean[i]) * (v[i] - mean[i]) / (n - 1) : 0;
    }
    return {mean, var};
}

std::pair<uint64_t, uint64_t> extrapolate(SimRun& run, const Sampler& s,
                                          const std::vector<BlockClass>& classes,
                                          const std::vector<BlockClass>& initial,
                                          const std::vector<Region>& regions,
                                          const std::array<uint32_t, 3>& grid, SampleInfo& info) {
    constexpr std::size_t K = counts::kStatCount;
    Values total{}, variance{};
    const counts::CountsConfig& cc = run.counters.config();
    // A class split from one whose blocks disagreed may agree by chance in its few samples: it is given the
    // spread of its initial class's samples rather than none.
    std::vector<Values> origin_var;
    origin_var.reserve(initial.size());
    for (const BlockClass& c : initial) origin_var.push_back(moments(s, members(s, c, grid)).second);
    for (const BlockClass& c : classes) {
        const auto in = members(s, c, grid);
        if (in.empty()) continue;  // cannot happen: every class has picks
        const double n = double(in.size()), Ns = double(c.size());
        counts::KernelCounters sum(cc);
        for (uint64_t b : in) sum.merge(s.blocks.at(b).counters);
        run.counters.merge_scaled(sum, Ns / n);
        const auto [mean, var] = moments(s, in);
        const bool split = c.size() < initial[c.origin].size();
        for (std::size_t i = 0; i < K + 2; ++i) {
            total[i] += Ns * mean[i];
            const double spread = split ? std::max(var[i], origin_var[c.origin][i]) : var[i];
            if (n < Ns) variance[i] += Ns * Ns * (1 - n / Ns) * spread / n;
        }
    }
    const FootprintEstimate fp = estimate_footprint(s, classes, regions, grid, run.counters.footprint());
    run.counters.set_footprint_estimate(fp.low);
    const auto low = run.counters.derived_stats();
    run.counters.set_footprint_estimate(fp.high);
    const auto high = run.counters.derived_stats();
    run.counters.set_footprint_estimate(fp.estimate);
    const auto est = run.counters.derived_stats();
    using counts::Stat;
    auto sum_bound = [&](Stat id) { return kSigmas * std::sqrt(variance[static_cast<std::size_t>(id)]); };
    std::array<double, K> bound{};
    for (std::size_t i = 0; i < K; ++i) bound[i] = sum_bound(static_cast<Stat>(i));
    for (Stat id :
         {Stat::l2_read_hits, Stat::l2_read_misses, Stat::dram_read_bytes, Stat::dram_write_bytes}) {
        const std::size_t i = static_cast<std::size_t>(id);
        bound[i] =
            std::max(std::abs(double(low[i]) - double(est[i])), std::abs(double(high[i]) - double(est[i])));
        if (id == Stat::l2_read_hits || id == Stat::l2_read_misses)
            bound[i] += sum_bound(Stat::l2_read_sectors);
    }
    for (const auto& st : counts::stat_table()) {
        const std::size_t i = static_cast<std::size_t>(st.id);
        const bool model = st.id == Stat::l2_read_hits || st.id == Stat::l2_read_misses ||
                           st.id == Stat::dram_read_bytes || st.id == Stat::dram_write_bytes;
        info.bounds[std::string(st.metric)] = {double(est[i]), bound[i], model};
    }
    for (const auto& r : counts::ratio_table()) {
        const double num = double(est[static_cast<std::size_t>(r.numerator)]);
        const double den = double(est[static_cast<std::size_t>(r.denominator)]);
        const double value = den > 0 ? 100 * num / den : 0;
        const double rel = (num > 0 ? bound[static_cast<std::size_t>(r.numerator)] / num : 0) +
                           (den > 0 ? bound[static_cast<std::size_t>(r.denominator)] / den : 0);
        info.bounds[std::string(r.metric)] = {value, std::min(100.0, value * rel), false};
    }
    info.bounds["warpsim__warp_instructions"] = {total[K], kSigmas * std::sqrt(variance[K]), false};
    auto u = [](double v) { return static_cast<uint64_t>(std::llround(v)); };
    return {u(total[K]), u(total[K + 1])};
}

}  // namespace

std::vector<BlockClass> initial_classes(const std::array<uint32_t, 3>& grid,
                                        const std::array<uint32_t, 3>& block,
                                        const std::vector<uint64_t>& sizes) {
    std::array<std::vector<uint32_t>, 3> cuts;
    for (int d = 0; d < 3; ++d) {
        std::set<uint32_t> c{0, grid[d]};
        if (grid[d] > 1) c.insert({1u, grid[d] - 1});
        for (uint64_t v : sizes) {
            for (uint64_t t : {v / block[d], (v + block[d] - 1) / block[d]})
                if (t > 0 && t < grid[d]) c.insert(static_cast<uint32_t>(t));
        }
        cuts[d].assign(c.begin(), c.end());
    }
    // Too many boxes (many sizes in three dimensions): keep the edges only.
    if ((cuts[0].size() - 1) * (cuts[1].size() - 1) * (cuts[2].size() - 1) > 512)
        for (int d = 0; d < 3; ++d) {
            std::set<uint32_t> c{0, grid[d]};
            if (grid[d] > 1) c.insert({1u, grid[d] - 1});
            cuts[d].assign(c.begin(), c.end());
        }
    std::vector<BlockClass> out;
    for (std::size_t z = 0; z + 1 < cuts[2].size(); ++z)
        for (std::size_t y = 0; y + 1 < cuts[1].size(); ++y)
            for (std::size_t x = 0; x + 1 < cuts[0].size(); ++x)
                out.push_back({{cuts[0][x], cuts[1][y], cuts[2][z]},
                               {cuts[0][x + 1], cuts[1][y + 1], cuts[2][z + 1]},
                               static_cast<uint32_t>(out.size())});
    return out;
}

std::vector<std::array<uint32_t, 3>> pick_blocks(const BlockClass& c, uint32_t count, uint64_t seed) {
    std::vector<Coord> out;
    auto add = [&](const Coord& b) {
        if (out.size() < count && std::find(out.begin(), out.end(), b) == out.end()) out.push_back(b);
    };
    add(c.lo);
    add({c.hi[0] - 1, c.hi[1] - 1, c.hi[2] - 1});
    add({c.lo[0] + (c.hi[0] - c.lo[0]) / 2, c.lo[1] + (c.hi[1] - c.lo[1]) / 2,
         c.lo[2] + (c.hi[2] - c.lo[2]) / 2});
    // The rest drawn from the seed (mt19937_64's sequence is fixed by the standard, `%` keeps it portable).
    std::mt19937_64 rng(seed);
    auto below = [&](uint32_t n) { return n ? static_cast<uint32_t>(rng() % n) : 0u; };
    const uint64_t want = std::min<uint64_t>(count, c.size());
    for (int tries = 0; out.size() < want && tries < 64; ++tries)
        add({c.lo[0] + below(c.hi[0] - c.lo[0]), c.lo[1] + below(c.hi[1] - c.lo[1]),
             c.lo[2] + below(c.hi[2] - c.lo[2])});
    return out;
}

namespace {

// Samples a configured launch into `run`; `s` may hold blocks that ran already (the pilot).
void sample_into(SimRun& run, const PreparedLaunch& p, const LaunchSetup& setup,
                 const engine::LaunchConfig& cfg, Sampler& s, std::vector<BlockClass> classes,
                 SampleInfo info) {
    const auto& grid = p.spec.grid;
    const std::vector<BlockClass> initial = classes;
    const bool ok = classify(s, classes, grid);
    engine::LaunchResult result;
    result.host_workers = 1;
    result.printf_output = s.printf_text;
    if (ok) {
        const auto regions = buffer_regions(p, setup.addresses);
        std::tie(result.warp_instructions, result.thread_instructions) =
            extrapolate(run, s, classes, initial, regions, grid, info);
    } else {
        result.error = s.error;
        for (const auto& [lin, b] : s.blocks) run.counters.merge(b.counters);
    }
    fill_report(run, p, cfg, result);
    run.launch_seconds = s.launch_seconds;
    run.launch_cpu_seconds = s.cpu_seconds;
    info.grid_blocks = p.spec.block_count();
    info.blocks_run = s.blocks.size();
    info.classes = classes.size();
    info.notes.push_back(
        "buffers not produced: only the sampled blocks ran, so no buffer holds the kernel's result "
        "(run with --no-sample for buffers, hashes and expect checks)");
    uint64_t differing = 0;
    for (const BlockClass& c : classes) {
        const auto in = members(s, c, grid);
        if (in.size() < c.size() && !std::all_of(in.begin(), in.end(), [&](uint64_t b) {
                return same_counts(s.blocks.at(b), s.blocks.at(in.front()));
            }))
            ++differing;
    }
    if (differing)
        info.notes.push_back(
            fmt::format("{} class{} of blocks still differ{} between their sampled blocks: their sums "
                        "carry a sampling error (the bounds)",
                        differing, differing == 1 ? "" : "es", differing == 1 ? "s" : ""));
    if (run.counters.stat(counts::Stat::inst_global_atom) + run.counters.stat(counts::Stat::inst_global_red))
        info.notes.push_back(
            "global atomics: the busiest L2 region's time is scaled up from the sampled blocks (too "
            "high when each region is touched by a few blocks only)");
    if (!s.printf_text.empty()) info.notes.push_back("printf output: the sampled blocks' only");
    run.report.extra["sampling"] = sampling_json(info);
    run.sampling = std::move(info);
}

bool has_expect(const PreparedLaunch& p) {
    return std::any_of(p.spec.args.begin(), p.spec.args.end(),
                       [](const launch::ArgSpec& a) { return a.expect.has_value(); });
}

}  // namespace

launch::Outcome<SimRun> run_sampled(const PreparedLaunch& p, const SimOptions& options) {
    using Out = launch::Outcome<SimRun>;
    if (has_expect(p))
        return Out::failure(p.spec.path +
                            ": --sample runs a sample of the blocks and produces no buffers, so the "
                            "spec's \"expect\" checks cannot be made: drop --sample (or the expect)");
    if (options.keep_buffers)
        return Out::failure(
            "--sample produces no buffers: drop --sample to save or show buffers after the kernel");
    if (has_clusters(p))
        return Out::failure(p.spec.path +
                            ": --sample: a launch with thread-block clusters cannot be sampled "
                            "(its blocks run together): drop --sample");
    auto started = new_run(p, options);
    if (!started) return started;
    SimRun run = std::move(started.value());
    auto setup = setup_launch(p, run.preset, run.registers.registers);
    if (!setup) return Out::failure(setup.error());
    engine::LaunchConfig cfg = setup->cfg;
    SimOptions quiet = options;
    quiet.progress = nullptr;  // a progress bar over the whole grid would stop at a few blocks
    configure_launch(run, p, cfg, quiet);
    Sampler s{p, *setup->sim, cfg, setup->params, {}, {}, {}, 0, 0, 0};
    SampleInfo info;
    info.reason = "--sample";
    sample_into(run, p, *setup, cfg, s, initial_classes(p.spec.grid, p.spec.block, spec_sizes(p.spec)),
                std::move(info));
    return run;
}

bool sample_if_large(SimRun& run, const PreparedLaunch& p, LaunchSetup& setup,
                     const engine::LaunchConfig& cfg, const SimOptions& options,
                     std::optional<engine::BlockCounts>& pilot) {
    const uint64_t nblocks = p.spec.block_count();
    // A pilot that ran first would change what the whole run prints or computes where blocks print or
    // interact.
    if (has_expect(p) || options.keep_buffers || has_clusters(p) || nblocks < kMinBlocksToSample ||
        p.ptx.find("vprintf") != std::string::npos || setup.sim->blocks_interact(*p.module, *p.kernel))
        return false;
    engine::LaunchConfig quiet = cfg;
    quiet.progress = nullptr;
    Sampler s{p, *setup.sim, quiet, setup.params, {}, {}, {}, 0, 0, 0};
    std::vector<BlockClass> classes = initial_classes(p.spec.grid, p.spec.block, spec_sizes(p.spec));
    const BlockClass& largest =
        *std::max_element(classes.begin(), classes.end(),
                          [](const BlockClass& a, const BlockClass& b) { return a.size() < b.size(); });
    const uint64_t at = linear_of(pick_blocks(largest, 3, 0).back(), p.spec.grid);
    // A pilot that failed: the whole run meets the fault again and reports it as a whole run does.
    if (!s.run({at})) return false;
    const double whole = double(s.thread_insts) * double(nblocks);
    if (whole <= double(options.sample_above)) {
        pilot = std::move(s.blocks.at(at));
        return false;
    }
    SampleInfo info;
    info.reason = fmt::format(
        "automatic: a pilot block ran {} thread-instructions, about {:.3g} for the grid's {} "
        "blocks, above --sample-above {}",
        s.thread_insts, whole, nblocks, options.sample_above);
    sample_into(run, p, setup, quiet, s, std::move(classes), std::move(info));
    return true;
}

nlohmann::json sampling_json(const SampleInfo& info) {
    nlohmann::json bounds = nlohmann::json::object();
    double worst = 0;
    for (const auto& [name, b] : info.bounds) {
        const double pct =
            b.estimate != 0 ? 100 * b.bound / std::abs(b.estimate) : (b.bound != 0 ? 100.0 : 0.0);
        bounds[name] = {{"estimate", b.estimate},
                        {"bound", b.bound},
                        {"bound_pct", pct},
                        {"kind", b.model ? "footprint model" : "sum over blocks"}};
        if (!b.model && !name.ends_with(".pct")) worst = std::max(worst, pct);
    }
    return {{"grid_blocks", info.grid_blocks},
            {"blocks_run", info.blocks_run},
            {"classes", info.classes},
            {"reason", info.reason},
            {"buffers", "not produced"},
            {"max_sum_bound_pct", worst},
            {"confidence",
             "three standard errors of the stratified sample; 0 where every sampled block of every "
             "class counted the same"},
            {"bounds", std::move(bounds)},
            {"notes", info.notes}};
}

std::string sampling_text(const SampleInfo& info) {
    double worst = 0, worst_model = 0;
    std::string worst_name, worst_model_name;
    for (const auto& [name, b] : info.bounds) {
        if (name.ends_with(".pct") || b.estimate == 0) continue;
        const double pct = 100 * b.bound / std::abs(b.estimate);
        double& w = b.model ? worst_model : worst;
        if (pct > w || (b.model ? worst_model_name : worst_name).empty()) {
            w = pct;
            (b.model ? worst_model_name : worst_name) = name;
        }
    }
    std::string out = fmt::format(
        "sampled   {} of {} blocks in {} classes ({}): counts extrapolated, {}\n", info.blocks_run,
        info.grid_blocks, info.classes, info.reason,
        worst > 0 ? fmt::format("each sum within {:.3g} % (3 sigma) at worst, {}", worst, worst_name)
                  : std::string("every sampled block of every class counted the same "
                                "(bound 0)"));
    if (!worst_model_name.empty())
        out += fmt::format("          L2/DRAM from an estimated footprint: within {:.3g} % at worst ({})\n",
                           worst_model, worst_model_name);
    for (const auto& n : info.notes) out += "          " + n + "\n";
    return out;
}

}  // namespace warpsim::session
