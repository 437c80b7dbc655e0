// sim/engine/simulator.cpp — Simulator: device memory API, module loading (variables, initialisers,
// relocations, pre-decoding), launch checks, and the block schedule over host workers.
#include "sim/engine/simulator.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cstring>
#include <thread>

#include "sim/engine/block_runner.hpp"
#include "sim/engine/cluster.hpp"
#include "sim/engine/decode.hpp"
#include "sim/engine/exec_state.hpp"
#include "sim/engine/printf.hpp"
#include "sim/engine/schedule.hpp"
#include "sim/engine/warp_runner.hpp"
#include "sim/memory/address_map.hpp"

namespace warpsim::engine {

struct Simulator::LoadedModule {
    ModuleLayout layout;
    Program program;
    std::string load_error;
};

Simulator::Simulator() = default;
Simulator::~Simulator() = default;

uint64_t Simulator::malloc(uint64_t bytes) {
    return memory_.malloc(bytes);
}
bool Simulator::free(uint64_t addr) {
    return memory_.free(addr);
}
bool Simulator::write(uint64_t addr, std::span<const uint8_t> bytes) {
    return memory_.write(addr, bytes);
}
std::optional<std::vector<uint8_t>> Simulator::read(uint64_t addr, uint64_t n) const {
    return memory_.read(addr, n);
}

LoadResult Simulator::load(const ir::Module& module, const Placement& placed) {
    LoadedModule* m = loaded(module, &placed);
    return {m->load_error.empty(), m->load_error};
}

Simulator::LoadedModule* Simulator::loaded(const ir::Module& module, const Placement* placed) {
    auto it = modules_.find(&module);
    if (it != modules_.end()) return it->second.get();
    auto lm = std::make_unique<LoadedModule>();
    for (const auto& v : module.globals) {
        if (v.space != ir::Space::global && v.space != ir::Space::const_) continue;
        const uint64_t size = v.size_bytes();
        if (size == 0) continue;
        uint64_t addr = 0;
        if (auto at = placed ? placed->find(v.name) : Placement::const_iterator{};
            placed && at != placed->end()) {
            if (!memory_.translate(at->second, size)) {
                lm->load_error = fmt::format(
                    "module variable {} ({} bytes) was placed at 0x{:x}, where no mapped "
                    "memory of that size is",
                    v.name, size, at->second);
                continue;
            }
            addr = at->second;
        } else {
            addr = memory_.malloc(size, v.name, v.space == ir::Space::const_);
        }
        if (!addr) {
            lm->load_error = fmt::format("cannot allocate {} bytes for module variable {}", size, v.name);
            continue;
        }
        lm->layout.global_addr[v.name] = addr;
        memory_.mark_host_written(addr, size);  // static storage: zero or its initialiser
        if (!v.init.empty())
            memory_.write(addr, std::span(v.init.data(), std::min<uint64_t>(v.init.size(), size)));
    }
    for (const auto& v : module.globals) {  // relocations need every variable's address
        auto base = lm->layout.global_addr.find(v.name);
        if (base == lm->layout.global_addr.end()) continue;
        for (const auto& r : v.relocs) {
            auto target = lm->layout.global_addr.find(r.symbol);
            uint64_t value = 0;
            if (target != lm->layout.global_addr.end())
                value = target->second;
            else if (const ir::Function* f = module.find_function(r.symbol))
                value = memory::function_address(static_cast<uint64_t>(f - module.functions.data()));
            else
                lm->load_error =
                    fmt::format("initialiser of {} refers to unknown symbol {}", v.name, r.symbol);
            value += static_cast<uint64_t>(r.addend);
            uint8_t bytes[8];
            std::memcpy(bytes, &value, 8);
            memory_.write(base->second + r.offset,
                          std::span<const uint8_t>(bytes, std::min<uint8_t>(r.bytes, 8)));
        }
    }
    lm->program = decode_module(module, lm->layout);
    auto* raw = lm.get();
    modules_.emplace(&module, std::move(lm));
    return raw;
}

std::optional<uint64_t> Simulator::symbol_address(const ir::Module& module, std::string_view name) const {
    auto it = modules_.find(&module);
    if (it == modules_.end()) return std::nullopt;
    auto a = it->second->layout.global_addr.find(name);
    if (a == it->second->layout.global_addr.end()) return std::nullopt;
    return a->second;
}

namespace {

// Launch shapes the device cannot run: on an H200 (CUDA 13, driver 580) the launch answers
// cudaErrorInvalidValue "invalid argument" for a zero or too large grid or block, a block of 2048 threads, a
// block larger than the kernel's __launch_bounds__ and more dynamic shared memory than the limit (CUDA 12
// said "invalid configuration argument" for some of these; tests/hardware/h200/results.json,
// tests/hardware/programs/h200/results.json: error.grid_zero, error.block_zero, error.grid_x_too_big,
// error.dyn_shared_48k_plus_1, error.dyn_shared_optin).
LaunchError shape_error(std::string details) {
    return LaunchError(Fault::invalid_value, std::move(details));
}
// Too many registers for the block is the one resource the H200 answers cudaErrorLaunchOutOfResources for
// (error.too_many_registers).
LaunchError resource_error(std::string details) {
    return LaunchError(Fault::launch_out_of_resources, std::move(details));
}

// .maxntid (__launch_bounds__) caps the block's thread count; .reqntid fixes the block shape.
std::optional<LaunchError> check_launch_bounds(const LaunchConfig& c, uint64_t threads,
                                               const ir::Function& fn) {
    const auto& mx = fn.perf.maxntid;
    const uint64_t max_threads = uint64_t{std::max(mx[0], 1u)} * std::max(mx[1], 1u) * std::max(mx[2], 1u);
    if (mx[0] && threads > max_threads)
        return shape_error(
            fmt::format("the block has {} threads; {} was compiled for at most {} (.maxntid / "
                        "__launch_bounds__)",
                        threads, fn.name, max_threads));
    const auto& rq = fn.perf.reqntid;
    if (rq[0] &&
        (c.block[0] != rq[0] || c.block[1] != std::max(rq[1], 1u) || c.block[2] != std::max(rq[2], 1u)))
        return shape_error(fmt::format(
            "{} requires a block of exactly {}x{}x{} threads (.reqntid); the launch "
            "has {}x{}x{}",
            fn.name, rq[0], std::max(rq[1], 1u), std::max(rq[2], 1u), c.block[0], c.block[1], c.block[2]));
    return std::nullopt;
}

std::optional<LaunchError> check_config(const LaunchConfig& c, const DecodedFunction& k) {
    const auto& lim = c.limits;
    const char* axis = "xyz";
    uint64_t threads = 1;
    for (int i = 0; i < 3; ++i) {
        if (c.block[i] == 0) return shape_error(fmt::format("blockDim.{} = 0", axis[i]));
        if (c.block[i] > lim.max_block_dim[i])
            return shape_error(
                fmt::format("blockDim.{} = {} is outside 1..{}", axis[i], c.block[i], lim.max_block_dim[i]));
        if (c.grid[i] == 0 || c.grid[i] > lim.max_grid_dim[i])
            return shape_error(
                fmt::format("gridDim.{} = {} is outside 1..{}", axis[i], c.grid[i], lim.max_grid_dim[i]));
        threads *= c.block[i];
    }
    if (threads > lim.max_threads_per_block)
        return shape_error(fmt::format("the block has {} threads ({}x{}x{}); the limit is {} per block",
                                       threads, c.block[0], c.block[1], c.block[2],
                                       lim.max_threads_per_block));
    if (auto e = check_launch_bounds(c, threads, *k.fn)) return e;
    if (c.registers_per_thread) {
        // Registers are allocated per warp in units of 256.
        const uint64_t warps = (threads + 31) / 32;
        const uint64_t per_warp = (uint64_t{c.registers_per_thread} * 32 + 255) / 256 * 256;
        if (per_warp * warps > lim.registers_per_sm)
            return resource_error(
                fmt::format("{} registers per thread x {} threads need {} registers (allocated "
                            "per warp in units of 256); an SM has {}",
                            c.registers_per_thread, threads, per_warp * warps, lim.registers_per_sm));
    }
    // Three cases a user must tell apart: above the device's opt-in maximum no attribute can help; above the
    // kernel's attribute a larger attribute would; above the default 48 KiB the opt-in would.
    const uint64_t shared = uint64_t{k.static_shared} + c.dynamic_shared_bytes;
    const bool opted = c.max_dynamic_shared_optin > 0;
    const std::string needs =
        fmt::format("the block needs {} bytes of shared memory ({} static + {} dynamic)", shared,
                    k.static_shared, c.dynamic_shared_bytes);
    if (shared > lim.shared_per_block_optin)
        return shape_error(fmt::format(
            "{}; the device allows at most {} bytes per block even with "
            "cudaFuncAttributeMaxDynamicSharedMemorySize: no opt-in can help, the block must use less",
            needs, lim.shared_per_block_optin));
    if (opted && c.dynamic_shared_bytes > c.max_dynamic_shared_optin)
        return shape_error(
            fmt::format("{} bytes of dynamic shared memory exceed the kernel's "
                        "cudaFuncAttributeMaxDynamicSharedMemorySize "
                        "of {}: raising the attribute to {} lets the launch run (up to {} bytes of dynamic "
                        "shared memory fit "
                        "beside this kernel's static shared memory on the device)",
                        c.dynamic_shared_bytes, c.max_dynamic_shared_optin, c.dynamic_shared_bytes,
                        lim.shared_per_block_optin - k.static_shared));
    if (!opted && shared > lim.shared_per_block_default)
        return shape_error(fmt::format(
            "{}; the limit is {} without an opt-in: cudaFuncSetAttribute(kernel, "
            "cudaFuncAttributeMaxDynamicSharedMemorySize, {}) lets the launch run (the device allows up to "
            "{} "
            "bytes per block)",
            needs, lim.shared_per_block_default, c.dynamic_shared_bytes, lim.shared_per_block_optin));
    return std::nullopt;
}

// One contiguous run of blocks with its own statistics and printf text; chunks are merged in order, so
// results do not depend on how many workers ran them.
struct Chunk {
    uint64_t first = 0, last = 0;
    std::unique_ptr<counts::KernelCounters> counters;
    PrintfFifo printf;
    std::optional<LaunchError> error;
    uint64_t warp_insts = 0, thread_insts = 0;
};

// A block at its start: its place in the grid (`at`, in blocks) and the SM it stands for, zeroed shared
// memory, and what the blocks of its chunk share: counters, taken-backedge counts, register-file pool.
void init_block(BlockContext& b, const LaunchContext& L, Chunk& c, bool with_counters,
                const std::array<uint64_t, 3>& at, std::vector<std::vector<uint64_t>>& backedges,
                RegisterFilePool* pool) {
    const uint64_t lin = at[0] + at[1] * L.grid[0] + at[2] * uint64_t{L.grid[0]} * L.grid[1];
    b.launch = &L;
    b.linear = lin;
    b.ctaid = {static_cast<uint32_t>(at[0]), static_cast<uint32_t>(at[1]), static_cast<uint32_t>(at[2])};
    b.sm = static_cast<uint32_t>(lin % L.cfg->limits.num_sms);
    b.threads = L.block[0] * L.block[1] * L.block[2];
    if (pool) b.shared = std::move(pool->spare_shared);
    b.shared.assign(L.shared_window, 0);
    b.counters = with_counters ? c.counters.get() : nullptr;
    b.backedges = &backedges;
    b.clock = lin * 1000;
    b.register_pool = pool;
}

// A finished block into its chunk: its printf text in warp order, its instruction counts, the chunk's first
// error, and one more block done for a progress display.
void fold_block(const LaunchContext& L, BlockContext& b, Chunk& c) {
    trim_block_printf(b, L.cfg->printf_fifo_bytes);
    c.printf.note_dropped(b.printf_dropped_records, b.printf_dropped_bytes);
    for (auto& r : b.printf_records) c.printf.push(std::move(r.text));
    c.warp_insts += b.warp_insts;
    c.thread_insts += b.thread_insts;
    if (b.error && !c.error) c.error = std::move(b.error);
    if (L.cfg->progress) L.cfg->progress->blocks_done.fetch_add(1, std::memory_order_relaxed);
}

// Whether the blocks of kernel `k` interact through global atomics whose outcome depends on their order
// (decode.cpp): in the kernel or in any function it may call. An indirect call may reach every function.
bool needs_block_order(const Program& prog, uint32_t k) {
    std::vector<bool> seen(prog.functions.size(), false);
    std::vector<uint32_t> todo{k};
    seen[k] = true;
    while (!todo.empty()) {
        const DecodedFunction& f = prog.functions[todo.back()];
        todo.pop_back();
        if (f.uses_global_atomics) return true;
        for (const CallSite& cs : f.calls) {
            if (cs.callee == kNone)
                return std::any_of(prog.functions.begin(), prog.functions.end(),
                                   [](const DecodedFunction& g) { return g.uses_global_atomics; });
            if (cs.callee < seen.size() && !seen[cs.callee]) {
                seen[cs.callee] = true;
                todo.push_back(cs.callee);
            }
        }
    }
    return false;
}

// LaunchConfig::only_blocks: distinct blocks of the grid, of a launch without clusters that is not
// cooperative.
std::optional<LaunchError> check_block_list(const LaunchConfig& cfg, uint64_t nblocks,
                                            const std::array<uint32_t, 3>& cluster) {
    if (cfg.cooperative || uint64_t{cluster[0]} * cluster[1] * cluster[2] > 1)
        return LaunchError(Fault::not_supported,
                           "a launch of some of its blocks only (sampling) cannot be "
                           "cooperative or use thread-block clusters: run it whole");
    if (cfg.skip_block) {
        if (!cfg.only_blocks.empty() || *cfg.skip_block >= nblocks)
            return LaunchError(Fault::invalid_value,
                               fmt::format("the skipped block {} is not one of the grid's {} "
                                           "(or a block list is given too)",
                                           *cfg.skip_block, nblocks));
        return std::nullopt;
    }
    std::vector<uint64_t> sorted = cfg.only_blocks;
    std::sort(sorted.begin(), sorted.end());
    if (sorted.back() >= nblocks)
        return LaunchError(Fault::invalid_value,
                           fmt::format("block {} of the block list is outside the grid of {} "
                                       "blocks",
                                       sorted.back(), nblocks));
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
        return LaunchError(Fault::invalid_value, "the block list names a block twice");
    return std::nullopt;
}

void run_cluster_chunk(const LaunchContext& L, Chunk& c, bool with_counters);
void run_cooperative_chunk(const LaunchContext& L, Chunk& c, bool with_counters);

// `registers`: the worker's pool, kept from chunk to chunk (what it holds is emptied or refilled before
// reuse).
void run_chunk(const LaunchContext& L, Chunk& c, bool with_counters, RegisterFilePool& registers) {
    if (L.cfg->cooperative) return run_cooperative_chunk(L, c, with_counters);
    if (L.cluster[0] * L.cluster[1] * L.cluster[2] > 1) return run_cluster_chunk(L, c, with_counters);
    std::vector<std::vector<uint64_t>> backedges(L.program->functions.size());
    const uint64_t gx = L.grid[0], gy = L.grid[1];
    const BlockOrder order(L.cfg->schedule_seed, c.first, c.last - c.first);
    for (uint64_t k = 0; k < c.last - c.first && !c.error; ++k) {
        const uint64_t lin = L.block_at(c.first + order.at(k));
        BlockContext b;
        init_block(b, L, c, with_counters, {lin % gx, (lin / gx) % gy, lin / (gx * gy)}, backedges,
                   &registers);
        run_block(b);
        recycle_frames(b);
        fold_block(L, b, c);
    }
}

// Clusters c.first..c.last (linear over the grid of clusters, x fastest), each run by run_cluster with its
// CTAs in %cluster_ctarank order; statistics and printf text are collected CTA by CTA in that order.
void run_cluster_chunk(const LaunchContext& L, Chunk& c, bool with_counters) {
    std::vector<std::vector<uint64_t>> backedges(L.program->functions.size());
    const auto& cd = L.cluster;
    const uint32_t ctas = cd[0] * cd[1] * cd[2];
    const uint64_t nx = L.grid[0] / cd[0], ny = L.grid[1] / cd[1];
    for (uint64_t k = c.first; k < c.last && !c.error; ++k) {
        const std::array<uint64_t, 3> cl{k % nx, (k / nx) % ny, k / (nx * ny)};
        std::vector<BlockContext> blocks(ctas);
        for (uint32_t r = 0; r < ctas; ++r) {
            const std::array<uint64_t, 3> at{cl[0] * cd[0] + r % cd[0], cl[1] * cd[1] + (r / cd[0]) % cd[1],
                                             cl[2] * cd[2] + r / (cd[0] * cd[1])};
            init_block(blocks[r], L, c, with_counters, at, backedges, nullptr);
            blocks[r].cluster_rank = r;
        }
        ClusterContext cluster;
        run_cluster(blocks, cluster);
        for (BlockContext& b : blocks) fold_block(L, b, c);
    }
}

// The whole grid of a cooperative launch (one chunk): every block set up, then all run together in linear
// order; statistics and printf text are collected block by block in that order.
void run_cooperative_chunk(const LaunchContext& L, Chunk& c, bool with_counters) {
    std::vector<std::vector<uint64_t>> backedges(L.program->functions.size());
    const uint64_t gx = L.grid[0], gy = L.grid[1];
    std::vector<BlockContext> blocks(c.last - c.first);
    for (uint64_t k = 0; k < blocks.size(); ++k) {
        const uint64_t lin = c.first + k;
        init_block(blocks[k], L, c, with_counters, {lin % gx, (lin / gx) % gy, lin / (gx * gy)}, backedges,
                   nullptr);
    }
    run_together(blocks, nullptr);
    for (BlockContext& b : blocks) fold_block(L, b, c);
}

}  // namespace

bool Simulator::blocks_interact(const ir::Module& module, const ir::Function& kernel) {
    LoadedModule* lm = loaded(module);
    const std::size_t k = static_cast<std::size_t>(&kernel - module.functions.data());
    return k < lm->program.functions.size() && needs_block_order(lm->program, static_cast<uint32_t>(k));
}

LaunchResult Simulator::launch(const ir::Module& module, const ir::Function& kernel, const LaunchConfig& cfg,
                               std::span<const uint8_t> param_bytes, counts::KernelCounters* counters) {
    LaunchResult result;
    LoadedModule* lm = loaded(module);
    if (lm->load_error.empty() && lm->layout.shared_base != cfg.limits.reserved_shared_per_block) {
        // Shared addresses are decoded as constants: a device with another reservation decodes again.
        lm->layout.shared_base = cfg.limits.reserved_shared_per_block;
        lm->program = decode_module(module, lm->layout);
    }
    const std::size_t kidx = static_cast<std::size_t>(&kernel - module.functions.data());
    if (kidx >= module.functions.size() || !kernel.is_entry || !kernel.has_body) {
        result.error = LaunchError(Fault::invalid_device_function,
                                   fmt::format("{} is not a kernel (.entry) of this module", kernel.name));
        return result;
    }
    if (!lm->load_error.empty() || !lm->program.problems.empty()) {
        std::string d = lm->load_error;
        for (const auto& p : lm->program.problems) d += (d.empty() ? "" : "\n") + p;
        result.error = LaunchError(Fault::invalid_ptx, d);
        return result;
    }
    const DecodedFunction& k = lm->program.functions[kidx];
    if (auto e = check_config(cfg, k)) {
        result.error = std::move(e);
        return result;
    }
    std::array<uint32_t, 3> cluster{1, 1, 1};
    bool explicit_cluster = false;
    if (auto e = resolve_cluster_shape(cfg, kernel, cluster, explicit_cluster)) {
        result.error = std::move(e);
        return result;
    }
    const uint64_t grid_blocks = uint64_t{cfg.grid[0]} * cfg.grid[1] * cfg.grid[2];
    if (cfg.cooperative) {
        if (explicit_cluster) {
            result.error = LaunchError(Fault::not_supported,
                                       "cooperative launches of thread-block clusters are not "
                                       "supported yet: launch without a cluster shape");
            return result;
        }
        const uint64_t resident = uint64_t{cfg.limits.num_sms} * cfg.limits.max_blocks_per_sm;
        if (grid_blocks > resident) {
            result.error = LaunchError(
                Fault::cooperative_launch_too_large,
                fmt::format("a cooperative launch of {} blocks: at most {} ({} SMs x {}) can be "
                            "resident at once",
                            grid_blocks, resident, cfg.limits.num_sms, cfg.limits.max_blocks_per_sm));
            return result;
        }
    }
    const ir::ParamLayout pl = ir::param_layout(kernel.params);
    if (param_bytes.size() < pl.total) {
        result.error =
            LaunchError(Fault::invalid_value, fmt::format("{} takes {} bytes of parameters, {} were given",
                                                          kernel.name, pl.total, param_bytes.size()));
        return result;
    }
    ++launch_count_;
    std::atomic<uint64_t> budget{0};
    LaunchContext L;
    L.program = &lm->program;
    L.cfg = &cfg;
    L.memory = &memory_;
    L.params = param_bytes;
    L.grid = cfg.grid;
    L.block = cfg.block;
    L.kernel = static_cast<uint32_t>(kidx);
    L.static_shared = k.static_shared;
    L.dynamic_shared = cfg.dynamic_shared_bytes;
    L.shared_base = lm->program.shared.base;
    L.shared_window =
        static_cast<uint32_t>(lm->program.shared.block_bytes(L.kernel, cfg.dynamic_shared_bytes));
    L.warps_per_block = (cfg.block[0] * cfg.block[1] * cfg.block[2] + 31) / 32;
    L.grid_id = launch_count_;
    L.timer_base = 1'000'000'000ull * launch_count_;
    // The budget's running total is the thread-instruction count a progress display wants: share it.
    if (cfg.progress) {
        cfg.progress->blocks_done.store(0);
        cfg.progress->thread_instructions.store(0);
    }
    L.budget_used = cfg.progress ? &cfg.progress->thread_instructions : &budget;
    if (cfg.time_limit_seconds > 0) {
        L.deadline = std::chrono::steady_clock::now() +
                     std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(std::min(cfg.time_limit_seconds, 1e9)));
    }
    L.observer = cfg.observer;
    L.textures = cfg.textures;
    L.cluster = cluster;
    L.explicit_cluster = explicit_cluster;

    // Schedule: blocks are cut into chunks of consecutive linear indices. Kernels whose blocks interact
    // through global atomics whose outcome depends on order (float atomics, old values read, exch, cas,
    // inc/dec; needs_block_order) run their blocks one after another in linear order on one worker;
    // otherwise chunks run on all workers and commutative integer red/atom use host atomics.
    // With thread-block clusters a chunk runs whole clusters: its indices count clusters (run_cluster_chunk).
    uint64_t nblocks =
        uint64_t{cfg.grid[0]} * cfg.grid[1] * cfg.grid[2] / (uint64_t{cluster[0]} * cluster[1] * cluster[2]);
    const bool ordered = needs_block_order(lm->program, L.kernel);
    // A cooperative grid is one chunk: its blocks run together. Listed blocks are a chunk each.
    uint64_t nchunks = cfg.cooperative ? 1 : std::min<uint64_t>(nblocks, 256);
    if (!cfg.only_blocks.empty() || cfg.skip_block) {
        if (auto e = check_block_list(cfg, nblocks, cluster)) {
            result.error = std::move(e);
            return result;
        }
        if (cfg.skip_block) {
            L.skip_block = *cfg.skip_block;
            nblocks -= 1;
            nchunks = std::min<uint64_t>(nblocks, 256);
        } else {
            L.only_blocks = &cfg.only_blocks;
            nblocks = nchunks = cfg.only_blocks.size();
        }
    }
    std::vector<Chunk> chunks(nchunks);
    for (uint64_t c = 0; c < nchunks; ++c) {
        chunks[c].first = c * nblocks / nchunks;
        chunks[c].last = (c + 1) * nblocks / nchunks;
        if (counters) chunks[c].counters = std::make_unique<counts::KernelCounters>(cfg.counts_config);
        chunks[c].printf = PrintfFifo(cfg.printf_fifo_bytes);
    }
    uint32_t workers =
        cfg.host_workers ? cfg.host_workers : std::max(1u, std::thread::hardware_concurrency());
    if (ordered || cfg.observer) workers = 1;  // checkers keep per-block state: one block at a time, in order
    workers = static_cast<uint32_t>(std::min<uint64_t>(workers, nchunks));
    L.atomics_on_host = workers > 1;
    result.host_workers = workers;
    if (cfg.observer) {
        LaunchInfo info;
        info.module = &module;
        info.kernel = L.kernel;
        info.grid = cfg.grid;
        info.block = cfg.block;
        info.threads_per_block = cfg.block[0] * cfg.block[1] * cfg.block[2];
        info.warps_per_block = L.warps_per_block;
        info.shared_bytes = L.shared_window;
        cfg.observer->on_launch_begin(info);
    }
    // The grid workspace of a cooperative launch: {wsSize, barrier} as cooperative groups reads it
    // (cooperative_groups/details/driver_abi.h), zeroed, freed when the launch ends.
    struct Workspace {
        memory::DeviceMemory& memory;
        uint64_t addr = 0;
        ~Workspace() {
            if (addr) memory.free(addr);
        }
    } workspace{memory_};
    if (cfg.cooperative) {
        workspace.addr = memory_.malloc(256, "cooperative grid workspace");
        const uint32_t init[2] = {8, 0};
        if (!workspace.addr ||
            !memory_.write(workspace.addr, std::span(reinterpret_cast<const uint8_t*>(init), 8))) {
            result.error = LaunchError(Fault::launch_out_of_resources,
                                       "no device memory for the cooperative launch's "
                                       "grid workspace");
            return result;
        }
        L.grid_workspace = workspace.addr;
    }
    std::atomic<uint64_t> next{0};
    const BlockOrder chunk_order(cfg.schedule_seed, nblocks, nchunks);
    std::atomic<bool> failed{false};
    auto worker = [&] {
        RegisterFilePool registers;
        for (;;) {
            if (failed.load()) return;
            const uint64_t turn = next.fetch_add(1);
            if (turn >= nchunks) return;
            const uint64_t c = chunk_order.at(turn);
            run_chunk(L, chunks[c], counters != nullptr, registers);
            if (chunks[c].error) failed.store(true);
        }
    };
    if (workers <= 1) {
        worker();
    } else {
        std::vector<std::jthread> pool;
        for (uint32_t i = 0; i < workers; ++i) pool.emplace_back(worker);
    }
    PrintfFifo printf(cfg.printf_fifo_bytes);
    for (auto& c : chunks) {
        if (counters && c.counters && (c.warp_insts || c.error)) counters->merge(*c.counters);
        printf.append(std::move(c.printf));
        result.warp_instructions += c.warp_insts;
        result.thread_instructions += c.thread_insts;
        if (c.error && !result.error) result.error = std::move(c.error);
    }
    if (L.only_blocks && counters) {
        result.block_counts.reserve(chunks.size());
        for (uint64_t c = 0; c < nchunks; ++c)
            result.block_counts.push_back({cfg.only_blocks[c], std::move(*chunks[c].counters),
                                           chunks[c].warp_insts, chunks[c].thread_insts});
    }
    result.printf_output = printf.text();
    result.printf_dropped_records = printf.dropped_records();
    result.printf_dropped_bytes = printf.dropped_bytes();
    if (cfg.observer) cfg.observer->on_launch_end();
    return result;
}

}  // namespace warpsim::engine
