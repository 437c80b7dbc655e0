// sim/engine/warp_runner.cpp — the hot loop: one warp-level instruction at a time over the top entry of the
// reconvergence stack, with call frames, implicit returns and instruction accounting.
#include "sim/engine/warp_runner.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cstring>

#include "sim/engine/handler_util.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace warpsim::engine {

namespace {

// `tid` is the lane's %tid (x, y, z).
uint64_t sreg_value(const SregSlot& s, const Warp& w, const BlockContext& b, uint32_t lane,
                    const std::array<uint32_t, 3>& tid) {
    using S = ir::SpecialReg;
    const LaunchContext& L = *b.launch;
    const uint32_t c = s.component < 3 ? s.component : 0;
    switch (s.sreg) {
        case S::tid:
            return tid[c];
        case S::ntid:
            return L.block[c];
        case S::ctaid:
            return b.ctaid[c];
        case S::nctaid:
            return L.grid[c];
        case S::laneid:
            return lane;
        case S::warpid:
            return w.index;
        case S::nwarpid:
            return 64;  // warps per SM on sm_90
        case S::smid:
            return b.sm;
        case S::nsmid:
            return L.cfg->limits.num_sms;
        case S::gridid:
            return L.grid_id;
        case S::lanemask_eq:
            return 1u << lane;
        case S::lanemask_le:
            return lane == 31 ? 0xffffffffu : (2u << lane) - 1;
        case S::lanemask_lt:
            return (1u << lane) - 1;
        case S::lanemask_ge:
            return ~((1u << lane) - 1);
        case S::lanemask_gt:
            return lane == 31 ? 0u : ~((2u << lane) - 1);
        // A launch without clusters is a grid of one-CTA clusters (PTX ISA 10.x: %cluster_* of an implicit
        // cluster).
        case S::clusterid:
            return b.ctaid[c] / L.cluster[c];
        case S::nclusterid:
            return L.grid[c] / L.cluster[c];
        case S::cluster_ctaid:
            return b.ctaid[c] % L.cluster[c];
        case S::cluster_nctaid:
            return L.cluster[c];
        case S::cluster_ctarank:
            return b.cluster_rank;
        case S::cluster_nctarank:
            return L.cluster[0] * L.cluster[1] * L.cluster[2];
        case S::is_explicit_cluster:
            return L.explicit_cluster ? 1 : 0;
        // The driver's ABI for cooperative groups: %envreg1 (high) and %envreg2 (low) hold the grid
        // workspace's address (cooperative_groups/details/driver_abi.h); 0 outside a cooperative launch,
        // where grid.sync() traps (cudaErrorLaunchFailure, as on the H200: tests/programs
        // error.grid_sync_plain_launch).
        case S::envreg:
            return s.component == 1   ? L.grid_workspace >> 32
                   : s.component == 2 ? L.grid_workspace & 0xffffffffu
                                      : 0;
        case S::dynamic_smem_size:
            return L.dynamic_shared;
        // Rounded up to the 128-byte allocation unit of sm_8x/9x (PTX ISA 10.30; the H200 gives 384 for 64
        // static
        // + 256 dynamic bytes); %aggr_smem_size adds the reserved region.
        case S::total_smem_size:
            return (L.static_shared + L.dynamic_shared + 127) / 128 * 128;
        case S::aggr_smem_size:
            return (L.static_shared + L.dynamic_shared + 127) / 128 * 128 + L.shared_base;
        // The reserved region [0, shared_base) as the H200's driver (580.159.04) reports it for every block:
        // begin 0, end 288, cap 1024, offsets 0 and 1 both 0
        // (tests/hardware/approx/reserved_smem_probe_h200.txt). Cooperative groups' tiles of more than 32
        // threads keep their scratch at %reserved_smem_offset_1.
        case S::reserved_smem_offset_begin:
        case S::reserved_smem_offset_0:
        case S::reserved_smem_offset_1:
            return 0;
        case S::reserved_smem_offset_end:
            return std::min<uint32_t>(L.shared_base, 288);
        case S::reserved_smem_offset_cap:
            return L.shared_base;
        default:
            return 0;
    }
}

// Whether sreg_value depends on the lane (else it is the same for every lane of the warp).
bool sreg_per_lane(ir::SpecialReg s) {
    using S = ir::SpecialReg;
    return s == S::tid || s == S::laneid || s == S::lanemask_eq || s == S::lanemask_le ||
           s == S::lanemask_lt || s == S::lanemask_ge || s == S::lanemask_gt;
}

// One register's 32 lanes set to 0 in 16-byte stores: std::fill_n of 256 bytes becomes `rep stos`, whose
// start-up cost is most of the time for so few bytes.
void zero_lanes(uint64_t* lanes) {
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
#pragma GCC unroll 16
    for (int i = 0; i < 16; ++i) _mm_storeu_si128(reinterpret_cast<__m128i*>(lanes) + i, zero);
#else
    std::fill_n(lanes, 32, 0);
#endif
}

void init_frame(Frame& f, const DecodedFunction& fn, const Warp& w, const BlockContext& b) {
    f.code = &fn;
    if (b.register_pool && !b.register_pool->spare.empty()) {
        f.regs = std::move(b.register_pool->spare.back());
        b.register_pool->spare.pop_back();
    }
    if (fn.zero_every_register) {
        f.regs.assign(static_cast<std::size_t>(fn.num_regs) * 32, 0);
    } else {
        f.regs.resize(static_cast<std::size_t>(fn.num_regs) * 32);
        for (uint32_t r : fn.zeroed_registers) zero_lanes(f.regs.data() + static_cast<std::size_t>(r) * 32);
    }
    for (std::size_t i = 0; i < fn.const_regs.size(); ++i)
        std::fill_n(f.regs.data() + static_cast<std::size_t>(fn.const_regs[i]) * 32, 32, fn.reg_init[i]);
    if (fn.sregs.empty()) return;
    // The lanes' %tid, stepped from the warp's first thread (threads are numbered x fastest, then y, then z)
    // rather than divided out per lane and register.
    const auto& dim = b.launch->block;
    const uint32_t t0 = w.index * 32;
    std::array<uint32_t, 3> t{t0 % dim[0], (t0 / dim[0]) % dim[1], t0 / (dim[0] * dim[1])};
    // A block whose x extent is a multiple of 32 holds each warp in one row: %tid.x steps by one from the
    // first lane's and %tid.y and %tid.z are the first lane's (the stepping below gives the same).
    const bool one_row = dim[0] % 32 == 0;
    const std::array<uint32_t, 3> first = t;
    const uint32_t first_x = t[0];
    std::array<std::array<uint32_t, 3>, 32> tid;
    bool stepped = false;
    const auto step_tid = [&] {  // every lane's %tid, once, for the registers that need it
        if (stepped) return;
        stepped = true;
        for (uint32_t l = 0; l < 32; ++l) {
            tid[l] = t;
            if (++t[0] == dim[0]) {
                t[0] = 0;
                if (++t[1] == dim[1]) {
                    t[1] = 0;
                    ++t[2];
                }
            }
        }
    };
    for (const auto& s : fn.sregs) {
        uint64_t* r = f.regs.data() + static_cast<std::size_t>(s.reg) * 32;
        if (s.sreg == ir::SpecialReg::tid && s.component == 0 && one_row) {
            for (uint32_t l = 0; l < 32; ++l) r[l] = first_x + l;
            continue;
        }
        if (!sreg_per_lane(s.sreg)) {
            std::fill_n(r, 32, sreg_value(s, w, b, 0, first));
            continue;
        }
        step_tid();
        if (s.sreg == ir::SpecialReg::tid && s.component < 3) {
            for (uint32_t l = 0; l < 32; ++l) r[l] = tid[l][s.component];
        } else {
            for (uint32_t l = 0; l < 32; ++l) r[l] = sreg_value(s, w, b, l, tid[l]);
        }
    }
}

// Where the i-th argument (or return value) lives in the callee's param area, and its size: from the callee
// itself, so direct and indirect calls share one layout.
std::pair<uint32_t, uint32_t> callee_slot(const DecodedFunction& callee, bool ret, std::size_t i) {
    const auto& offs = ret ? callee.return_offsets : callee.formal_offsets;
    const auto& decl = ret ? callee.fn->returns : callee.fn->params;
    if (i >= offs.size() || i >= decl.size()) return {0, 0};
    return {offs[i], static_cast<uint32_t>(decl[i].size_bytes())};
}

// Copies return values back to the caller and pops the frame.
void pop_frame(Warp& w, RegisterFilePool* pool) {
    Frame& callee = w.frames.back();
    Frame& caller = w.frames[w.frames.size() - 2];
    const CallSite& cs = caller.code->calls[callee.call_site];
    const uint32_t live = callee.entry_mask & ~w.exited;
    for_lanes(live, [&](uint32_t l) {
        for (std::size_t i = 0; i < cs.rets.size(); ++i) {
            const auto& r = cs.rets[i];
            const auto [off, bytes] = callee_slot(*callee.code, true, i);
            if (!bytes) continue;
            const uint8_t* src = w.params[l].data() + callee.param_base + off;
            if (r.from_reg) {
                uint64_t v = 0;
                std::memcpy(&v, src, std::min<uint32_t>(bytes, 8));
                caller.regs[static_cast<std::size_t>(r.reg) * 32 + l] =
                    v & caller.code->reg_width_mask[r.reg];
            } else {
                std::memcpy(w.params[l].data() + caller.param_base + r.caller_off, src, bytes);
            }
        }
    });
    const uint32_t local_top = caller.local_base + caller.code->local_bytes;
    const uint32_t param_top = caller.param_base + caller.code->param_bytes;
    for (uint32_t l = 0; l < w.lanes; ++l) {
        w.local[l].resize(caller.alloca_top.empty() ? local_top : caller.alloca_top[l]);
        w.params[l].resize(param_top);
    }
    if (pool) {
        pool->spare.push_back(std::move(callee.regs));
        pool->spare_stacks.push_back(std::move(callee.stack));
    }
    w.frames.pop_back();
}

// A warp of an earlier block made new: every field set as a default Warp has it (a field added to Warp must
// be reset here too), the frame list and the per-lane local and param stacks emptied with their capacity
// kept. In place: building a default Warp and moving 64 vectors into it cost more than the allocations
// it spares for a short kernel.
void reset_warp(Warp& w) {
    w.index = 0;
    w.lanes = 32;
    w.exited = 0;
    w.carry = 0;
    w.state = WarpState::ready;
    w.barrier_id = 0;
    w.yield = false;
    w.wait_failed = false;
    w.frames.clear();
    for (uint32_t l = 0; l < 32; ++l) {
        w.local[l].clear();
        w.params[l].clear();
    }
}

}  // namespace

bool push_frame(Exec& x, const DInst& in, const DecodedFunction& fn, uint32_t mask, uint32_t call_site) {
    Warp& w = *x.warp;
    Frame f;
    if (!w.frames.empty()) {
        const Frame& caller = w.frames.back();
        f.local_base = frame_local_end(caller, caller.code->local_bytes);
        f.param_base = caller.param_base + caller.code->param_bytes;
    }
    const uint64_t local_top = uint64_t{f.local_base} + fn.local_bytes;
    if (local_top > x.launch->cfg->limits.local_bytes_per_thread || w.frames.size() > 4096) {
        raise_fault(
            x, in, static_cast<uint32_t>(std::countr_zero(mask)), Fault::launch_failure, {},
            fmt::format("call stack overflow: {} call frames need {} bytes of local memory per thread, the "
                        "limit is {} (deep or unbounded recursion?)",
                        w.frames.size() + 1, local_top, x.launch->cfg->limits.local_bytes_per_thread));
        return false;
    }
    init_frame(f, fn, w, *x.block);
    if (RegisterFilePool* pool = x.block->register_pool; pool && !pool->spare_stacks.empty()) {
        f.stack = std::move(pool->spare_stacks.back());
        pool->spare_stacks.pop_back();
        f.stack.clear();
    }
    f.stack.push_back({0, kNone, mask});
    f.entry_mask = mask;
    f.call_site = call_site;
    // A kernel's first frame on a warp that start_warps has just reset finds every lane's stacks empty: with
    // no local depot and no param area there is nothing to size.
    const uint32_t param_top = f.param_base + fn.param_bytes;
    if (!w.frames.empty() || local_top != 0 || param_top != 0)
        for (uint32_t l = 0; l < w.lanes; ++l) {
            w.local[l].resize(local_top);
            w.params[l].resize(param_top);
        }
    if (!w.frames.empty()) {
        const Frame& caller = w.frames.back();
        const CallSite& cs = caller.code->calls[call_site];
        for_lanes(mask, [&](uint32_t l) {
            for (std::size_t i = 0; i < cs.args.size(); ++i) {
                const auto& a = cs.args[i];
                const auto [off, bytes] = callee_slot(fn, false, i);
                if (!bytes) continue;
                uint8_t* dst = w.params[l].data() + f.param_base + off;
                if (a.from_reg) {
                    const uint64_t v = caller.regs[static_cast<std::size_t>(a.reg) * 32 + l];
                    std::memcpy(dst, &v, std::min<uint32_t>(bytes, 8));
                } else {
                    std::memcpy(dst, w.params[l].data() + caller.param_base + a.caller_off, bytes);
                }
            }
        });
    }
    w.frames.push_back(std::move(f));
    return true;
}

void retire_lanes(Warp& w, uint32_t lanes, bool all_frames) {
    const std::size_t first = all_frames ? 0 : w.frames.size() - 1;
    for (std::size_t i = first; i < w.frames.size(); ++i)
        for (auto& e : w.frames[i].stack) e.mask &= ~lanes;
}

void start_warps(BlockContext& b) {
    const LaunchContext& L = *b.launch;
    const DecodedFunction& kernel = L.program->functions[L.kernel];
    if (b.register_pool && b.warps.empty()) b.warps = std::move(b.register_pool->spare_warps);
    b.warps.resize(L.warps_per_block);
    b.live_warps = L.warps_per_block;
    for (uint32_t i = 0; i < L.warps_per_block; ++i) {
        Warp& w = b.warps[i];
        reset_warp(w);
        w.index = i;
        w.lanes = std::min<uint32_t>(32, b.threads - i * 32);
        const uint32_t mask = w.lanes == 32 ? 0xffffffffu : (1u << w.lanes) - 1;
        Exec x{&w, nullptr, nullptr, &b, &L, false};
        DInst none;
        push_frame(x, none, kernel, mask, kNone);
    }
}

void recycle_frames(BlockContext& b) {
    RegisterFilePool* pool = b.register_pool;
    if (!pool) return;
    for (auto& w : b.warps)
        for (auto& f : w.frames) {
            pool->spare.push_back(std::move(f.regs));
            pool->spare_stacks.push_back(std::move(f.stack));
        }
    pool->spare_warps = std::move(b.warps);
    b.warps.clear();
    pool->spare_shared = std::move(b.shared);
    b.shared.clear();
}

RunStatus run_warp(Warp& w, BlockContext& b, uint64_t quantum) {
    Exec x{&w, nullptr, nullptr, &b, b.launch, false};
    counts::KernelCounters* counters = b.counters;
    uint64_t warp_insts = 0, thread_insts = 0;
    RunStatus status = RunStatus::quantum;
    while (warp_insts < quantum) {
        Frame& f = w.frames.back();
        if (f.stack.empty()) {
            if (w.frames.size() == 1) {
                status = RunStatus::done;
                break;
            }
            pop_frame(w, b.register_pool);
            continue;
        }
        StackEntry& top = f.stack.back();
        if (top.mask == 0 || top.pc == top.rpc) {
            f.stack.pop_back();
            continue;
        }
        const auto& code = f.code->code;
        if (top.pc >= code.size()) {  // fell off the end: an implicit ret (kernel: exit)
            const uint32_t m = top.mask;
            if (w.frames.size() == 1) {
                x.frame = &f;
                x.R = f.regs.data();
                retire_lanes(w, m, true);
                if (!code.empty()) lanes_exited(x, code.back(), m);
            } else {
                retire_lanes(w, m, false);
            }
            continue;
        }
        const DInst& in = code[top.pc];
        const uint32_t mask = top.mask;
        uint32_t exec = mask;
        if (in.guard != kNone) {
            uint32_t p = 0;
            const uint64_t* g = f.regs.data() + static_cast<std::size_t>(in.guard) * 32;
            for_lanes(mask, [&](uint32_t l) { p |= static_cast<uint32_t>(g[l] & 1) << l; });
            exec = in.guard_neg ? mask & ~p : p;
        }
        ++top.pc;
        ++warp_insts;
        thread_insts += static_cast<uint64_t>(std::popcount(exec));
        if (counters) counters->on_instruction(f.code->index, in.pc, mask, exec, w.index);
        x.frame = &f;
        x.R = f.regs.data();
        in.fn(x, in, exec);
        if (x.stop) {
            if (b.error) {
                status = RunStatus::error;
                break;
            }
            x.stop = false;
            if (w.state == WarpState::at_barrier) {
                status = RunStatus::barrier;
                break;
            }
            if (w.yield) {
                w.yield = false;
                break;
            }
        }
    }
    b.warp_insts += warp_insts;
    b.thread_insts += thread_insts;
    if (status == RunStatus::done) w.state = WarpState::done;
    return status;
}

}  // namespace warpsim::engine
