// sim/counts/access.hpp — the event the SIMT engine emits for every warp-level memory instruction.
#pragma once

#include <array>
#include <cstdint>

#include "kernels_ir/forms/form.hpp"
#include "kernels_ir/ir.hpp"

namespace warpsim::counts {

enum class AccessSpace : uint8_t { global, shared, local, const_, param };
enum class AccessKind : uint8_t { load, store, atomic, reduction };

// One warp-level memory instruction with at least one active lane, after generic addresses are resolved.
// Addresses: global/const/param are device addresses; local addresses are the thread's own stack offsets
// (plus the local window base), which the counters lay out as the hardware interleaves them; shared
// addresses are byte offsets into the block's shared memory window (so bank = (addr / 4) % 32).
struct WarpAccess {
    AccessSpace space = AccessSpace::global;
    AccessKind kind = AccessKind::load;
    uint8_t bytes_per_lane = 4;   // access width times vector count: 1, 2, 4, 8, 16 (or 32 for .v8.f32)
    uint32_t active_mask = 0;     // lanes that perform the access
    uint32_t pc = 0;              // instruction index within its function
    uint32_t function = 0;        // index into ir::Module::functions
    uint32_t warp = 0;            // warp index within the block (per-warp store merging, local layout)
    bool non_coherent = false;    // ld.global.nc / ldu
    bool caches_in_l1 = true;     // false for .cg/.cs/.cv loads and all stores
    bool async_fill = false;      // the shared-memory write of a cp.async (LDGSTS): not an LSU shared store
    bool redux_op = false;        // a 32-bit integer add/min/max/and/or/xor atomic (REDUX can combine lanes)
    bool barrier_object = false;  // an mbarrier operation (is_barrier_object_op): in no LSU counter
    bool float_op = false;        // a floating-point atomic or reduction (the L2 takes longer per update)
    std::array<uint64_t, 32> addr{};
};

// mbarrier.* and cp.async.mbarrier.arrive act on a barrier object in shared memory, but the H200 runs them
// outside the LSU pipe (SASS SYNCS.*): it counts them in no l1tex__*_pipe_lsu_mem_shared_* metric and in no
// smsp__inst_executed_op_shared_* (mbarrier_phases: 8 arrives and at least 8 test_waits per block, yet
// op_atom 0 and op_ld/op_st only the kernel's own 64 loads and stores; bulk_copy_tx and
// bulk_copy_mbarrier_16 likewise: op_atom 0). The engine still reports them as shared atomics to the
// observers (the checkers order on them); the counters skip them.
inline bool is_barrier_object_op(const ir::Instruction& in) {
    const ir::CpForm* cp = ir::form_as<ir::CpForm>(in);
    return in.op == ir::Opcode::mbarrier || (cp && cp->op == ir::CpOp::async_mbarrier_arrive);
}

}  // namespace warpsim::counts
