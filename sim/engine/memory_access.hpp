// sim/engine/memory_access.hpp — per-lane address resolution for ld/st/atom/red: address spaces, generic
// windows, bounds and alignment checks that raise CUDA-like faults, and the WarpAccess events for counts.
#pragma once

#include <array>
#include <cstdint>

#include "sim/counts/access.hpp"
#include "sim/engine/exec_state.hpp"

namespace warpsim::engine {

struct LaneTarget {
    uint8_t* ptr = nullptr;
    counts::AccessSpace space = counts::AccessSpace::global;
    uint64_t addr = 0;           // device address, or offset for shared (what counts sees)
    bool global_memory = false;  // lives in DeviceMemory (host atomics may be needed)
    bool remote_shared = false;  // another CTA's shared memory through a shared::cluster address: the H200
                                 // counts these in none of the LSU shared or global metrics
};

// Resolves lane `lane`'s address for an access of `width` bytes; on failure raises the fault and returns
// false. `kind` names the access in messages ("read", "write", "atomic").
bool resolve_lane(Exec& x, const DInst& in, uint32_t lane, uint32_t width, counts::AccessKind kind,
                  LaneTarget& out);
// The same for the instruction's second or third memory operand (DInst::more_addr).
bool resolve_extra(Exec& x, const DInst& in, const ExtraAddr& a, uint32_t lane, uint32_t width,
                   counts::AccessKind kind, LaneTarget& out);
// The same for an address already computed (`sp` may be generic).
bool resolve_at(Exec& x, const DInst& in, uint32_t lane, uint64_t addr, AddrSpace sp, uint32_t width,
                counts::AccessKind kind, LaneTarget& out);

// A warp-level access whose active lanes all lie in one host buffer (one allocation, the block's shared
// memory or the kernel's parameters): lane l's bytes are at data + (addr[l] - origin).
struct WarpTarget {
    counts::AccessSpace space = counts::AccessSpace::global;
    uint8_t* data = nullptr;
    uint64_t origin = 0;
    uint64_t offset =
        0;  // what a lane adds to its address register (a generic shared access: less the window)
    uint64_t limit =
        0;  // the buffer's size less the access width: a lane is inside iff addr - origin <= limit
    // Active lanes only: device address, or offset for shared (what counts sees). It is the block's
    // BlockContext::warp_access.addr, which AccessRecorder::add_warp then reports without a copy.
    uint64_t* addr = nullptr;
    uint8_t* ptr(uint32_t lane) const { return data + (addr[lane] - origin); }
};

// The lane checks of a warp-level access, folded over its lanes' d = addr - origin without a branch or a
// min/max chain: d <= limit (limit < 2^63) iff neither d nor limit - d has the top bit set. Origins are
// aligned (allocations to 256 bytes, shared memory and parameters start at 0), so d's low bits are the
// address's: any of them below the width is a misaligned lane.
struct LaneChecks {
    uint64_t bits = 0, outside = 0;
    void add(uint64_t d, uint64_t limit) {
        bits |= d;
        outside |= limit - d;
    }
    bool ok(uint32_t width) const { return ((bits | outside) >> 63) == 0 && (bits & (width - 1)) == 0; }
};

// The first half of resolve_warp: the one buffer the lanes of `exec` must lie in, picked by the first active
// lane's address, with out.addr pointing at where the lanes' addresses go. False when the access cannot be
// served warp-wide (local memory, frame parameters, a store to read-only or parameter memory, no buffer).
bool warp_buffer(Exec& x, const DInst& in, uint32_t exec, uint32_t width, counts::AccessKind kind,
                 WarpTarget& out);

// The warp-level fast path of resolve_lane: resolves every lane of `exec` at once with one bounds check when
// they are aligned and fall in one buffer of a space known at decode time (or a generic address in global or
// shared memory). False when they do not (local memory, several allocations, any fault): nothing is raised
// and nothing changes, and the caller takes the per-lane path, which reports faults lane by lane.
bool resolve_warp(Exec& x, const DInst& in, uint32_t exec, uint32_t width, counts::AccessKind kind,
                  WarpTarget& out);

// What every space's WarpAccess of one instruction shares (all but the lanes and the space): the one
// description of an access for the counters, used by AccessRecorder and by explain, which rebuilds a warp's
// access from lane samples. `kind` is what the instruction does (load, store, atomic, reduction);
// `type` its operand type (DInst::type).
struct AccessHeader {
    counts::AccessKind kind = counts::AccessKind::load;
    uint8_t bytes_per_lane = 0;
    bool non_coherent = false, caches_in_l1 = false;
    bool redux_op = false, async_fill = false, barrier_object = false, float_op = false;
};
AccessHeader access_header(const ir::Instruction& inst, ir::Type type, counts::AccessKind kind,
                           uint32_t bytes_per_lane);
// The instruction's part of the header, which decode_module stores in DInst::access.
AccessFlags access_flags(const ir::Instruction& inst);
// The header from those flags (the same as access_header of the instruction).
AccessHeader access_header(const AccessFlags& f, ir::Type type, counts::AccessKind kind,
                           uint32_t bytes_per_lane);

// Collects the lanes' addresses of one warp-level access and reports them to the counters (one event per
// space the lanes touched).
class AccessRecorder {
  public:
    AccessRecorder(const Exec& x, const DInst& in, counts::AccessKind kind, uint32_t bytes_per_lane);
    void add(uint32_t lane, const LaneTarget& t);
    // Every lane of `exec` at once, from resolve_warp, as the only call for this access (no add before or
    // after): the event is the block's warp_access, whose addresses resolve_warp wrote.
    void add_warp(uint32_t exec, const WarpTarget& t);
    void flush(Exec& x);

  private:
    void notify(Exec& x) const;
    counts::WarpAccess& start(counts::AccessSpace space);

    // acc_[s] is built (zeroed, then filled) on the first lane in space s: most accesses touch one space, and
    // clearing five 32-lane address arrays per warp instruction cost more than the access itself.
    union Slot {
        Slot() {}
        counts::WarpAccess a;
    };
    counts::WarpAccess& slot(uint32_t s) { return whole_ ? *whole_ : acc_[s].a; }
    const counts::WarpAccess& slot(uint32_t s) const { return whole_ ? *whole_ : acc_[s].a; }
    void fill_header(counts::WarpAccess& a, counts::AccessSpace space) const;

    Slot acc_[5];
    counts::WarpAccess* whole_ = nullptr;  // add_warp's event (BlockContext::warp_access)
    counts::WarpAccess* block_event_ = nullptr;
    AccessHeader header_;  // the fields every space's access shares
    uint32_t pc_ = 0, function_ = 0, warp_ = 0;
    uint32_t used_ = 0;  // bit per AccessSpace
    const DInst* in_ = nullptr;
    // Lanes whose address is a shared::cluster one (LaneTarget::remote_shared): no counter sees them (the
    // H200 counts distributed shared memory in no LSU metric), the observer does, with the shared::cluster
    // address.
    uint32_t remote_mask_ = 0;
    std::array<uint64_t, 32>
        remote_addr_;  // valid for the lanes of remote_mask_ only (never cleared: see acc_)
};

// Reports one warp-level access of `kind` to the observer (call only when one is set); for accesses that do
// not go through AccessRecorder (cp.async destinations, mbarrier objects, bulk copies).
void report_memory(Exec& x, const DInst& in, MemoryKind kind, MemorySpace space, uint32_t bytes_per_lane,
                   uint32_t mask, const std::array<uint64_t, 32>& addr, bool async);

}  // namespace warpsim::engine
