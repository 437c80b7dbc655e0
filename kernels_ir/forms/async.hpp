// kernels_ir/forms/async.hpp — the typed forms of the asynchronous family: cp.async, cp.async.bulk(.tensor),
// cp.reduce.async.bulk and mbarrier (PTX ISA 9.7.10.28 and 9.7.15.16).
#pragma once

#include <cstdint>

#include "kernels_ir/ir.hpp"

namespace warpsim::ir {

// What a `cp` instruction does. The names follow the PTX spelling: async_copy is cp.async.ca/.cg,
// bulk_copy is cp.async.bulk.<dst>.<src>, reduce_bulk is cp.reduce.async.bulk.<dst>.<src>.
enum class CpOp : uint8_t {
    async_copy,             // cp.async.ca|cg.shared{::cta}.global [dst], [src], cp-size{, src-size}
    async_commit_group,     // cp.async.commit_group
    async_wait_group,       // cp.async.wait_group N
    async_wait_all,         // cp.async.wait_all
    async_mbarrier_arrive,  // cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [mbar]
    bulk_copy,              // cp.async.bulk.dst.src.completion [dst], [src], size{, [mbar]}
    bulk_tensor,            // cp.async.bulk.tensor.Nd.dst.src{.load_mode}.completion ...
    bulk_prefetch,          // cp.async.bulk.prefetch.L2.global [src], size
    bulk_prefetch_tensor,   // cp.async.bulk.prefetch.tensor.Nd.L2.global ...
    bulk_commit_group,      // cp.async.bulk.commit_group
    bulk_wait_group,        // cp.async.bulk.wait_group{.read} N
    reduce_bulk,            // cp.reduce.async.bulk.dst.src.completion.redOp.type [dst], [src], size{, [mbar]}
    reduce_bulk_tensor,     // cp.reduce.async.bulk.tensor.Nd.dst.src.redOp{.load_mode}.completion ...
};

// How the completion of a bulk copy is signalled.
enum class CpCompletion : uint8_t {
    none,
    mbarrier_complete_tx,  // .mbarrier::complete_tx::bytes: the bytes count down the mbarrier's tx-count
    bulk_group,            // .bulk_group: cp.async.bulk.commit_group / wait_group
};

// The tensor load modes of cp.async.bulk.tensor (.tile when none is written).
enum class TensorLoadMode : uint8_t {
    tile,
    tile_gather4,
    tile_scatter4,
    im2col,
    im2col_w,
    im2col_w_128,
    im2col_no_offs
};

struct CpForm {
    CpOp op = CpOp::async_copy;
    Space dst = Space::none, src = Space::none;  // the state spaces as written, destination first
    CacheOp cache = CacheOp::none;               // cp.async: .ca or .cg
    uint16_t prefetch_bytes = 0;                 // .L2::64B / .L2::128B / .L2::256B
    bool cache_hint = false;                     // .L2::cache_hint (a cache-policy operand follows)
    bool multicast = false;                      // .multicast::cluster (a ctaMask operand follows)
    bool noinc = false;                          // cp.async.mbarrier.arrive.noinc
    bool read = false;                           // cp.async.bulk.wait_group.read
    bool cp_mask = false;                        // .cp_mask (a byte-mask operand follows)
    CpCompletion completion = CpCompletion::none;
    uint8_t dims = 0;  // .1d .. .5d of the tensor forms
    TensorLoadMode load_mode = TensorLoadMode::tile;
    uint8_t cta_group = 0;      // .cta_group::1 / ::2
    AtomOp red = AtomOp::none;  // cp.reduce: the reduction
    Type type = Type::none;     // cp.reduce: the element type
    bool noftz = false;         // cp.reduce .add.noftz (.f16/.bf16)
};

// True for the forms that move data through the bulk-copy (TMA) path rather than the LSU.
constexpr bool is_bulk(CpOp op) {
    return op != CpOp::async_copy && op != CpOp::async_commit_group && op != CpOp::async_wait_group &&
           op != CpOp::async_wait_all && op != CpOp::async_mbarrier_arrive;
}

enum class MbarrierOp : uint8_t {
    init,
    inval,
    arrive,
    arrive_drop,
    expect_tx,
    complete_tx,
    test_wait,
    try_wait,
    pending_count
};

struct MbarrierForm {
    MbarrierOp op = MbarrierOp::init;
    bool expect_tx = false;     // arrive.expect_tx / arrive_drop.expect_tx: the operand is a tx-count
    bool no_complete = false;   // arrive.noComplete / arrive_drop.noComplete
    bool parity = false;        // test_wait.parity / try_wait.parity: the operand is a phase parity
    MemSem sem = MemSem::none;  // .release / .acquire / .relaxed as written (none: the op's default)
    Scope scope = Scope::none;  // .cta / .cluster as written
    Space space = Space::none;  // .shared / .shared::cta / .shared::cluster; none: a generic address
};

}  // namespace warpsim::ir
