// sim/timing/model.cpp — evaluates the timing model on a LaunchProfile (see model.hpp for the structure).
#include "sim/timing/model.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <fmt/format.h>

namespace warpsim::timing {

namespace {

struct NamedParam {
    const char* name;
    double ModelParams::*field;
};

constexpr NamedParam kFitted[] = {
    {"launch_overhead_us", &ModelParams::launch_overhead_us},
    {"dram_efficiency", &ModelParams::dram_efficiency},
    {"l2_bytes_per_cycle", &ModelParams::l2_bytes_per_cycle},
    {"dram_latency_cycles", &ModelParams::dram_latency_cycles},
    {"issue_efficiency", &ModelParams::issue_efficiency},
    {"overlap_p", &ModelParams::overlap_p},
    {"block_overhead_cycles", &ModelParams::block_overhead_cycles},
    {"block_issue_cycles", &ModelParams::block_issue_cycles},
    {"int_issue_weight", &ModelParams::int_issue_weight},
    {"partial_sector_cost", &ModelParams::partial_sector_cost},
};
constexpr NamedParam kFixed[] = {
    {"alu_latency_cycles", &ModelParams::alu_latency},
    {"fp32_latency_cycles", &ModelParams::fp32_latency},
    {"fp64_latency_cycles", &ModelParams::fp64_latency},
    {"sfu_latency_cycles", &ModelParams::sfu_latency},
    {"shared_latency_cycles", &ModelParams::shared_latency},
    {"constant_latency_cycles", &ModelParams::constant_latency},
    {"warp_latency_cycles", &ModelParams::warp_latency},
    {"barrier_latency_cycles", &ModelParams::barrier_latency},
    {"l1_hit_latency_cycles", &ModelParams::l1_latency_cycles},
    {"l2_hit_latency_cycles", &ModelParams::l2_latency_cycles},
    {"l2_latency_cycles", &ModelParams::l2_latency_cycles},
    {"l1_latency_cycles", &ModelParams::l1_latency_cycles},
    {"l2_keep_all_fraction", &ModelParams::l2_keep_all_fraction},
    {"l2_keep_none_fraction", &ModelParams::l2_keep_none_fraction},
    {"l2_keep_none_written_fraction", &ModelParams::l2_keep_none_written_fraction},
    {"atomic_parallel_regions", &ModelParams::atomic_parallel_regions},
    {"loads_in_flight_per_warp", &ModelParams::loads_in_flight_per_warp},
    {"l2_cycles_per_line", &ModelParams::l2_cycles_per_line},
    {"l1_cycles_per_line", &ModelParams::l1_cycles_per_line},
    {"l1_lines_free", &ModelParams::l1_lines_free},
};

const NamedParam* find_param(const std::string& name) {
    for (const auto& p : kFitted)
        if (name == p.name) return &p;
    for (const auto& p : kFixed)
        if (name == p.name) return &p;
    return nullptr;
}

// Smooth maximum: overlapping limits cost a little more than the largest alone.
double pnorm(double a, double b, double p) {
    double hi = std::max(a, b), lo = std::min(a, b);
    if (hi <= 0) return 0;
    if (!(p < 64)) return hi;
    return hi * std::pow(1.0 + std::pow(lo / hi, p), 1.0 / p);
}

double latency_of(const ChainInst& c, const ModelParams& m, double l2_hit, double* memory_part) {
    switch (c.kind) {
        case LatKind::alu:
            return m.alu_latency;
        case LatKind::fp32:
            return m.fp32_latency;
        case LatKind::fp64:
            return m.fp64_latency;
        case LatKind::sfu:
            return m.sfu_latency;
        case LatKind::shared:
            return m.shared_latency + c.extra_passes;
        case LatKind::constant:
            return m.constant_latency;
        case LatKind::warp:
            return m.warp_latency;
        case LatKind::barrier:
            return m.barrier_latency;
        case LatKind::none:
            return 1;
        case LatKind::global: {
            if (!c.is_load) return 1;  // stores retire without a consumer waiting
            double miss = 1.0 - c.l1_hit;
            const double lines = c.lines;
            const double l1_extra = m.l1_cycles_per_line * std::max(0.0, lines - m.l1_lines_free);
            const double l2_extra = m.l2_cycles_per_line * std::max(0.0, lines - 1.0);
            double lat =
                c.l1_hit * (m.l1_latency_cycles + l1_extra) +
                miss * (l2_hit * m.l2_latency_cycles + (1.0 - l2_hit) * m.dram_latency_cycles + l2_extra);
            if (memory_part) *memory_part = lat;
            return lat;
        }
    }
    return 1;
}

// One basic block of one warp, as ptxas schedules it. Instructions issue in PTX order, one per cycle, each
// when its in-block producers are ready (an instruction that waits holds up the ones behind it), except the
// global loads and the instructions their addresses come from: ptxas hoists those over the consumers of
// earlier loads, so they issue as soon as their own producers allow (tests/timing/mlp: the SASS of a counted
// loop unrolled U times issues its U LDGs back to back, and one warp takes 1/U of a round trip per load,
// sumk_u2..u8). What ptxas cannot reorder is kept: a load does not start before an earlier store of the same
// memory (global/local, or shared) has issued, since the pointers may alias (saxpy_u4's copies stay load,
// load, FFMA, store), and a warp keeps at most `loads_in_flight_per_warp` global loads outstanding
// (sumk_u16/u32 with one warp: 9.4 per round trip). The block ends when its last result is ready; the warp's
// next block starts after it (the copies of a grid-stride loop that ptxas unrolls are separated by exit
// tests, so its iterations do not overlap: sum_u2..u8 run as sum_u1).
double block_length(const ChainBlock& b, const ModelParams& m, double l2_hit, double& memory_wait,
                    std::vector<double>& ready, std::vector<char>& hoisted) {
    const std::size_t n = b.insts.size();
    ready.assign(n, 0.0);
    hoisted.assign(n, 0);
    for (std::size_t i = n; i-- > 0;) {
        const auto& c = b.insts[i];
        if (c.kind == LatKind::global && c.is_load) hoisted[i] = 1;
        if (!hoisted[i]) continue;
        for (auto d : c.deps)
            if (d >= 0) hoisted[static_cast<std::size_t>(d)] = 1;
    }
    double issue = 0, hoist_issue = 0, end = 0;
    // Round trips: an instruction that waits for a global load issued after the last round trip began ends
    // one.
    std::vector<double> load_issue(n, -1.0);
    double round_began = 0;
    int round = 0;
    double store_global = 0, store_shared = 0;  // issue cycle of the latest store, per memory
    std::vector<double> load_done;              // completion of the global loads so far, sorted
    const auto window = static_cast<std::size_t>(std::max(1.0, std::round(m.loads_in_flight_per_warp)));
    memory_wait = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const auto& c = b.insts[i];
        double start = hoisted[i] ? hoist_issue : issue;
        double round_trip_done = -1;
        for (auto d : c.deps) {
            if (d < 0) continue;
            const auto di = static_cast<std::size_t>(d);
            start = std::max(start, ready[di]);
            if (load_issue[di] >= round_began) round_trip_done = std::max(round_trip_done, ready[di]);
        }
        if (round_trip_done >= 0) {
            ++round;
            round_began = round_trip_done;
        }
        const bool global = c.kind == LatKind::global, shared = c.kind == LatKind::shared;
        if (c.is_load && global) start = std::max(start, store_global);
        if (c.is_load && shared) start = std::max(start, store_shared);
        if (c.is_load && global && load_done.size() >= window)
            start = std::max(start, load_done[load_done.size() - window]);
        double mem = 0;
        ready[i] = start + latency_of(c, m, l2_hit, &mem);
        (hoisted[i] ? hoist_issue : issue) = start + 1;
        if (global && c.is_load) load_issue[i] = start;
        if (global && c.is_load)
            load_done.insert(std::upper_bound(load_done.begin(), load_done.end(), ready[i]), ready[i]);
        if (!c.is_load && global) store_global = std::max(store_global, start);
        if (!c.is_load && shared) store_shared = std::max(store_shared, start);
        end = std::max(end, ready[i]);
        memory_wait = std::max(memory_wait, mem);
    }
    double len = std::max({issue, hoist_issue, end});
    // ptxas unrolled this block's loop further (sass_copies per SASS iteration) and waits `sass_rounds` times
    // per SASS iteration: where that is fewer round trips per copy than this schedule's, the SASS's share of
    // them.
    const bool open =
        std::any_of(load_issue.begin(), load_issue.end(), [&](double t) { return t >= round_began; });
    const double rounds = double(round) + (open ? 1 : 0);
    // The warp's loads in flight stay capped: a pass through the SASS loop takes at least its loads over
    // loads_in_flight_per_warp round trips.
    const double sass_rounds =
        std::max(b.sass_rounds, b.sass_copies * double(load_done.size()) / m.loads_in_flight_per_warp);
    if (b.sass_copies >= 1.5 && b.sass_rounds > 0 && rounds > 0)
        len *= std::min(1.0, sass_rounds / b.sass_copies / rounds);
    return len;
}

}  // namespace

const std::vector<std::string>& fitted_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const auto& p : kFitted) v.emplace_back(p.name);
        return v;
    }();
    return names;
}

double get_param(const ModelParams& m, const std::string& name) {
    const auto* p = find_param(name);
    return p ? m.*(p->field) : 0.0;
}

void set_param(ModelParams& m, const std::string& name, double v) {
    if (const auto* p = find_param(name)) m.*(p->field) = v;
}

ModelParams params_from_values(const std::map<std::string, double>& values, ModelParams base) {
    for (const auto& [k, v] : values) set_param(base, k, v);
    return base;
}

std::map<std::string, double> params_to_values(const ModelParams& m) {
    std::map<std::string, double> out;
    for (const auto& p : kFitted) out[p.name] = m.*(p.field);
    return out;
}

double l2_kept_share(const LaunchProfile& prof, const ModelParams& m) {
    if (prof.l2_capacity_bytes <= 0 || prof.l2_cold) return 0;
    double all = prof.l2_capacity_bytes * m.l2_keep_all_fraction;
    double half_written =
        prof.footprint_bytes > 0 ? 2 * prof.footprint_write_bytes / prof.footprint_bytes : 0;
    double w = std::min(1.0, half_written);
    double none_fraction =
        m.l2_keep_none_fraction + w * (m.l2_keep_none_written_fraction - m.l2_keep_none_fraction);
    double none = prof.l2_capacity_bytes * std::max(m.l2_keep_all_fraction, none_fraction);
    double used = std::max(prof.footprint_bytes, prof.footprint_l2_bytes);
    if (used <= all) return 1;
    if (used >= none) return 0;
    return (none - used) / (none - all);
}

SpillTraffic spill_traffic(const LaunchProfile& prof) {
    SpillTraffic s;
    double warps = double(prof.blocks) * prof.warps_per_block;
    if (warps <= 0 || prof.static_insts <= 0 || (prof.spill_store_bytes <= 0 && prof.spill_load_bytes <= 0))
        return s;
    if (prof.spill_sites_known) {
        double store_bytes = prof.spill_store_insts > 0 ? prof.spill_store_bytes / prof.spill_store_insts : 0;
        double load_bytes = prof.spill_load_insts > 0 ? prof.spill_load_bytes / prof.spill_load_insts : 0;
        s.store_sectors = store_bytes * prof.spill_store_execs;
        s.load_sectors = load_bytes * prof.spill_load_execs;
        s.instructions = prof.spill_store_execs + prof.spill_load_execs;
    } else {
        double insts = 0;
        for (double v : prof.warp_insts) insts += v;
        double runs = insts / warps / prof.static_insts;  // executions of the average instruction per warp
        s.store_sectors = prof.spill_store_bytes * runs * warps;
        s.load_sectors = prof.spill_load_bytes * runs * warps;
        s.instructions = (prof.spill_store_bytes + prof.spill_load_bytes) / 4.0 * runs * warps;
    }
    // Capacity share (random-replacement estimate) of the resident threads' stack frames.
    double threads_per_sm = double(std::max<uint32_t>(1, prof.blocks_per_sm)) * prof.warps_per_block * 32.0;
    double frames_sm = threads_per_sm * prof.stack_frame_bytes;
    double resident = std::min<double>(double(prof.blocks), double(prof.blocks_per_sm) * prof.sm_count);
    double frames_device = resident * prof.warps_per_block * 32.0 * prof.stack_frame_bytes;
    if (frames_sm > 0) s.l1_hit = std::min(1.0, prof.l1_capacity_bytes / frames_sm);
    if (frames_device > 0) s.l2_hit = std::min(1.0, prof.l2_capacity_bytes / frames_device);
    return s;
}

double chain_cycles(const LaunchProfile& prof, const ModelParams& m, double* memory_share) {
    double warps = double(prof.blocks) * prof.warps_per_block;
    if (warps <= 0) return 0;
    double total = 0, mem = 0;
    std::vector<double> ready;
    std::vector<char> hoisted;
    // A load that misses L1 finds its sector in L2 when the counts model (a cold L2) says so, or when the L2
    // kept it from the previous run of the launch (CUDA-event timing repeats it; l2_kept_share).
    const double l2_hit = 1.0 - (1.0 - prof.l2_read_hit_rate) * (1.0 - l2_kept_share(prof, m));
    for (const auto& b : prof.chain) {
        double mw = 0;
        double len = block_length(b, m, l2_hit, mw, ready, hoisted);
        total += b.warp_execs * len;
        mem += b.warp_execs * std::min(mw, len);
    }
    if (memory_share) *memory_share = total > 0 ? mem / total : 0;
    return total / warps;
}

namespace {

struct PerBlock {
    double insts = 0, lsu = 0, shared = 0, dram = 0, l2 = 0;
    std::array<double, kPipeCount> pipe{};
    // Whole launch, for the prediction's fields.
    double dram_total = 0, spill_bytes = 0, spill_share = 0;
};

PerBlock per_block(const LaunchProfile& prof, const ModelParams& m) {
    PerBlock b;
    double n = std::max<double>(1, double(prof.blocks));
    auto warp_insts = prof.warp_insts;
    SpillTraffic spill = spill_traffic(prof);
    warp_insts[static_cast<std::size_t>(Pipe::lsu)] += spill.instructions;
    for (std::size_t c = 0; c < kPipeCount; ++c) {
        auto p = static_cast<Pipe>(c);
        double weight = p == Pipe::int_alu || p == Pipe::branch ? m.int_issue_weight : 1.0;
        b.insts += weight * (warp_insts[c] - prof.expanded_warp_insts[c]) / n;
        b.pipe[c] = warp_insts[c] / n / m.pipe_rate[c];
    }
    b.insts += prof.expanded_sass_insts / n;  // PTX instructions ptxas expands: the SASS they issue
    b.shared = prof.shared_wavefronts / n / m.shared_wavefronts_per_cycle;
    double l1_sectors = prof.global_sectors + spill.store_sectors + spill.load_sectors;
    b.lsu = l1_sectors / n / m.l1_sectors_per_cycle + b.shared;

    // L2: every sector the L1s send, partial sectors costing extra; spill stores write through, reloads
    // that miss L1 read from L2.
    double partial = std::max(0.0, prof.store_sectors - prof.store_ideal_sectors);
    double spill_l2 = spill.store_sectors + spill.load_sectors * (1 - spill.l1_hit);
    double l2_sectors = prof.l2_sectors + m.partial_sector_cost * partial + spill_l2;
    // DRAM in the steady state of repeated launches: what a cold L2 reads (the counts model) less the share
    // the L2 kept from the last run, and every written byte (the H200 writes a stream back to DRAM at DRAM
    // speed even when its footprint fits in L2: tests/timing/l2_reuse, fill); spilled frames beyond L2.
    double dram = prof.dram_read_bytes * (1 - l2_kept_share(prof, m)) + prof.footprint_write_bytes;
    double spill_dram =
        32.0 * (1 - spill.l2_hit) * (spill.store_sectors + spill.load_sectors * (1 - spill.l1_hit));
    b.dram_total = dram + spill_dram;
    b.dram = b.dram_total / n;
    b.l2 = l2_sectors * 32.0 / n;
    b.spill_bytes = 32.0 * (spill.store_sectors + spill.load_sectors);
    double moved = 32.0 * l2_sectors + b.dram_total;
    b.spill_share = moved > 0 ? (32.0 * spill_l2 + spill_dram) / moved : 0;
    return b;
}

// One wave: `blocks` blocks, at most `k` on the busiest SM.
Wave eval_wave(uint64_t blocks, uint32_t k, uint32_t sms, const PerBlock& b, double chain,
               const LaunchProfile& prof, const ModelParams& m, Components& parts, uint64_t count) {
    double dram_bpc = prof.dram_peak_gbps * 1e3 / prof.clock_mhz * m.dram_efficiency;  // bytes per cycle
    double lat = chain + m.block_overhead_cycles;
    double issue = k * b.insts / (m.schedulers * m.issue_efficiency);
    double pipe = 0;
    for (double p : b.pipe) pipe = std::max(pipe, k * p);
    double lsu = k * b.lsu;
    double dispatch = k * m.block_issue_cycles;
    double thr = std::max({issue, pipe, lsu, dispatch});
    double sm = pnorm(lat, thr, m.overlap_p);
    double dram = double(blocks) * b.dram / dram_bpc;
    double l2 = double(blocks) * b.l2 / m.l2_bytes_per_cycle;
    double dev = std::max(dram, l2);
    Wave w{count, blocks, k, sms, pnorm(sm, dev, m.overlap_p)};
    // Attribute the wave to its largest limit.
    double c = w.cycles * double(count);
    double top = std::max({lat, issue, pipe, lsu, dram, l2, dispatch});
    if (top == dram)
        parts.dram += c;
    else if (top == l2)
        parts.l2 += c;
    else if (top == lat)
        parts.latency += c;
    else if (top == lsu)
        parts.lsu += c;
    else if (top == pipe)
        parts.pipe += c;
    else
        parts.issue += c;  // instruction issue or block dispatch
    return w;
}

}  // namespace

Prediction predict_profile(const LaunchProfile& prof, const ModelParams& m) {
    Prediction pr;
    pr.overhead_us = m.launch_overhead_us;
    double mem_share = 0;
    double chain = chain_cycles(prof, m, &mem_share);
    pr.chain_cycles_per_warp = chain;
    pr.parts.memory_chain_share = mem_share;
    PerBlock b = per_block(prof, m);
    pr.parts.shared_part = b.lsu > 0 ? b.shared / b.lsu : 0;
    pr.parts.spill_share = b.spill_share;
    pr.l2_kept = l2_kept_share(prof, m);
    pr.dram_bytes = b.dram_total;
    pr.spill_bytes = b.spill_bytes;
    pr.top_pipe = Pipe::int_alu;
    for (std::size_t c = 0; c < kPipeCount; ++c)
        if (b.pipe[c] > b.pipe[static_cast<std::size_t>(pr.top_pipe)]) pr.top_pipe = static_cast<Pipe>(c);

    uint32_t per_sm = std::max<uint32_t>(1, prof.blocks_per_sm);
    uint64_t per_wave = uint64_t(per_sm) * prof.sm_count;
    uint64_t full = prof.blocks / per_wave, rest = prof.blocks % per_wave;
    pr.warps_per_sm = per_sm * prof.warps_per_block;
    if (full > 0)
        pr.waves.push_back(eval_wave(per_wave, per_sm, prof.sm_count, b, chain, prof, m, pr.parts, full));
    if (rest > 0) {
        auto k = static_cast<uint32_t>((rest + prof.sm_count - 1) / prof.sm_count);
        auto busy = static_cast<uint32_t>(std::min<uint64_t>(rest, prof.sm_count));
        pr.waves.push_back(eval_wave(rest, k, busy, b, chain, prof, m, pr.parts, 1));
        if (full == 0) pr.warps_per_sm = k * prof.warps_per_block;
    }
    for (const auto& w : pr.waves) pr.cycles += w.cycles * double(w.count);
    // Global atomics in the L2 (counts::AtomicContention, measured on the H200): the busiest 512-byte region
    // performs its requests one after another, and the L2 serves about 30 regions at once. A launch-wide
    // limit that overlaps with the waves.
    const double waves_cycles = pr.cycles;
    const double atomic_ns =
        std::max(prof.atomic_busiest_ns, prof.atomic_total_ns / std::max(1.0, m.atomic_parallel_regions));
    pr.atomic_parallel_regions = m.atomic_parallel_regions;
    pr.parts.atomic = atomic_ns * prof.clock_mhz * 1e-3;
    if (pr.parts.atomic > 0) pr.cycles = pnorm(pr.cycles, pr.parts.atomic, m.overlap_p);
    pr.time_us = pr.overhead_us + pr.cycles / prof.clock_mhz;
    pr.dram_gbps = pr.time_us > 0 ? pr.dram_bytes / (pr.time_us * 1e3) : 0;
    pr.gflops = pr.time_us > 0 ? prof.flops / (pr.time_us * 1e3) : 0;

    // The bound: launch overhead, then a tail wave, then the largest limit.
    const auto& P = pr.parts;
    double kernel_us = pr.cycles / prof.clock_mhz;
    uint64_t nwaves = full + (rest ? 1 : 0);
    double fill = rest ? double(rest) / double(per_wave) : 1.0;
    double last = rest && !pr.waves.empty() ? pr.waves.back().cycles : 0;
    if (pr.overhead_us >= kernel_us) {
        pr.bound = "launch";
        pr.bound_text = "launch overhead";
    } else if (P.atomic > waves_cycles) {
        pr.bound = "atomic";
        const bool one_region = prof.atomic_busiest_ns * m.atomic_parallel_regions >= prof.atomic_total_ns;
        if (one_region && prof.atomic_max_same_word >= 4) {
            pr.bound_text = fmt::format(
                "atomics on few addresses: up to {} lanes of a warp update one word, "
                "serialised in the L2",
                prof.atomic_max_same_word);
        } else if (one_region) {
            pr.bound_text =
                "atomics on few addresses: the L2 performs one 512-byte region's requests one after another";
        } else {
            pr.bound_text = "atomic throughput of the L2";
        }
    } else if (nwaves >= 2 && fill < 0.5 && last >= 0.2 * pr.cycles) {
        pr.bound = "tail";
        pr.bound_text = fmt::format("tail wave: 1 of {} waves {:.1f} % full", nwaves, 100.0 * fill);
    } else {
        double top = std::max({P.latency, P.issue, P.pipe, P.lsu, P.dram, P.l2});
        const char* spills = P.spill_share >= 0.5 ? " (register spills to local memory)" : "";
        if (top == P.dram) {
            pr.bound = "dram";
            pr.bound_text = std::string("DRAM bandwidth") + spills;
        } else if (top == P.l2) {
            pr.bound = "l2";
            pr.bound_text = std::string("L2 bandwidth") + spills;
        } else if (top == P.latency) {
            pr.bound = "latency";
            pr.bound_text = mem_share >= 0.5
                                ? "memory latency: too few warps in flight"
                                : "instruction latency: too few warps to hide dependent instructions";
        } else if (top == P.lsu) {
            bool conflicts =
                prof.shared_wavefronts > 1.5 * prof.shared_ideal_wavefronts && P.shared_part >= 0.5;
            pr.bound = conflicts ? "shared" : "lsu";
            pr.bound_text =
                conflicts ? "shared-memory bank conflicts"
                          : (P.shared_part >= 0.5 ? "shared-memory throughput" : "L1 throughput (sectors)");
        } else {
            pr.bound = "issue";
            pr.bound_text = std::string("issue: ") + pipe_name(pr.top_pipe);
        }
    }
    return pr;
}

std::string prediction_text(const LaunchProfile& prof, const Prediction& pr) {
    std::ostringstream o;
    o << fmt::format(
        "timing    {:.2f} us predicted ({:.0f} cycles at {:.0f} MHz + {:.2f} us launch overhead)\n",
        pr.time_us, pr.cycles, prof.clock_mhz, pr.overhead_us);
    o << fmt::format("bound     {}\n", pr.bound_text);
    o << fmt::format(
        "          DRAM {:.0f} GB/s, {:.1f} GFLOP/s; warp chain {:.0f} cycles ({:.0f} % waiting on "
        "global memory), {} warps per SM\n",
        pr.dram_gbps, pr.gflops, pr.chain_cycles_per_warp, 100.0 * pr.parts.memory_chain_share,
        pr.warps_per_sm);
    if (prof.l2_cold)
        o << fmt::format(
            "          footprint {:.1f} MiB, L2 cold (\"l2\": \"cold\": flushed before the launch, as Nsight "
            "Compute does): every sector the counts miss in L2 comes from DRAM; writes go to DRAM\n",
            prof.footprint_bytes / 1048576.0);
    else
        o << fmt::format(
            "          footprint {:.1f} MiB: {:.0f} % of it stays in L2 between runs (launches repeated, as "
            "CUDA events time them; \"l2\": \"cold\" in the spec for a flushed L2); writes go to DRAM\n",
            prof.footprint_bytes / 1048576.0, 100.0 * pr.l2_kept);
    if (pr.spill_bytes > 0)
        o << fmt::format("          register spills: {:.1f} MiB of local-memory traffic (ptxas -v)\n",
                         pr.spill_bytes / 1048576.0);
    if (prof.atomic_requests > 0)
        o << fmt::format(
            "          atomics: {:.0f} warp requests to the L2, busiest 512-byte region {:.1f} us, all "
            "regions {:.1f} us over {:.0f} at once ({})\n",
            prof.atomic_requests, prof.atomic_busiest_ns * 1e-3, prof.atomic_total_ns * 1e-3,
            pr.atomic_parallel_regions,
            prof.atomic_max_same_word > 1
                ? fmt::format("up to {} lanes of a request on one word", prof.atomic_max_same_word)
                : std::string("one update per word and request"));
    uint64_t first = 1;
    for (const auto& w : pr.waves) {
        std::string which = w.count > 1 ? fmt::format("waves {}-{}", first, first + w.count - 1)
                                        : fmt::format("wave {}", first);
        o << fmt::format("timeline  {:<12} {} blocks: up to {} per SM on {} SMs ({} idle), {:.0f} cycles{}\n",
                         which, w.blocks, w.max_blocks_per_sm, w.sms_busy, prof.sm_count - w.sms_busy,
                         w.cycles, w.count > 1 ? " each" : "");
        first += w.count;
    }
    return o.str();
}

}  // namespace warpsim::timing
