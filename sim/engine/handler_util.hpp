// sim/engine/handler_util.hpp — small helpers shared by the handler families: typed lane access and
// type-indexed template instantiation.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels_ir/ir.hpp"
#include "sim/engine/exec_state.hpp"

namespace warpsim::engine {

// Pointer to a register's 32 lane values.
inline uint64_t* lanes_of(Exec& x, uint32_t r) {
    return x.R + static_cast<std::size_t>(r) * 32;
}

template <class T>
inline uint64_t to_bits(T v) {
    if constexpr (std::is_same_v<T, bool>)
        return v ? 1 : 0;
    else
        return static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(v));
}

// Predicate sources can be negated (`!%p`).
inline bool pred_src(Exec& x, const DInst& in, int i, uint32_t lane) {
    bool v = (x.R[in.src[i] * 32 + lane] & 1) != 0;
    return (in.neg_mask >> i) & 1 ? !v : v;
}

// Instantiates F<T> for the integer type of an instruction (b types count as unsigned); nullptr if none.
template <template <class> class F>
Handler int_handler(ir::Type t) {
    using T = ir::Type;
    switch (t) {
        case T::u8:
        case T::b8:
            return &F<uint8_t>::run;
        case T::s8:
            return &F<int8_t>::run;
        case T::u16:
        case T::b16:
            return &F<uint16_t>::run;
        case T::s16:
            return &F<int16_t>::run;
        case T::u32:
        case T::b32:
            return &F<uint32_t>::run;
        case T::s32:
            return &F<int32_t>::run;
        case T::u64:
        case T::b64:
            return &F<uint64_t>::run;
        case T::s64:
            return &F<int64_t>::run;
        default:
            return nullptr;
    }
}

// Generic per-lane binary op: d = op(a, b) over type T.
template <class T, class Op>
void lane_binary(Exec& x, const DInst& in, uint32_t exec, Op op) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t* a = lanes_of(x, in.src[0]);
    const uint64_t* b = lanes_of(x, in.src[1]);
    for_lanes(exec, [&](uint32_t l) { d[l] = to_bits<T>(op(static_cast<T>(a[l]), static_cast<T>(b[l]))); });
}
template <class T, class Op>
void lane_unary(Exec& x, const DInst& in, uint32_t exec, Op op) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t* a = lanes_of(x, in.src[0]);
    for_lanes(exec, [&](uint32_t l) { d[l] = to_bits<T>(op(static_cast<T>(a[l]))); });
}
template <class T, class Op>
void lane_ternary(Exec& x, const DInst& in, uint32_t exec, Op op) {
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t* a = lanes_of(x, in.src[0]);
    const uint64_t* b = lanes_of(x, in.src[1]);
    const uint64_t* c = lanes_of(x, in.src[2]);
    for_lanes(exec, [&](uint32_t l) {
        d[l] = to_bits<T>(op(static_cast<T>(a[l]), static_cast<T>(b[l]), static_cast<T>(c[l])));
    });
}

// Reports a warp collective to the observer (call only when one is set). `member` holds the member-mask
// operand's lane values; nullptr: the collective has none (the executing lanes are its members).
// `filled`: an event whose kind-specific fields (shfl's source lanes, vote's predicates) the caller set.
void report_warp_sync(Exec& x, const DInst& in, uint32_t exec, WarpSyncKind kind, const uint64_t* member,
                      WarpSyncEvent* filled = nullptr);

// Stops the launch with an error located at this instruction and lane (defined in faults.cpp); `message`
// empty: CUDA's words for the kind.
void raise_fault(Exec& x, const DInst& in, uint32_t lane, Fault kind, std::string message,
                 std::string details, FaultDetails where = {});
// "kernel.ptx:12" and, when .loc says, "  (vector_add.cu:9)".
std::string ptx_location(const Exec& x, const DInst& in);
// "vector_add.cu:9", for inlined code the chain down from the user's line: "device_atomic_functions.hpp:107
// in atomicAdd, inlined from reduce.cu:42" (kernels_ir/source_chain.hpp); "" without .loc.
std::string cuda_location(const Exec& x, const DInst& in);
std::string cuda_location(const LaunchContext& L, const DInst* in);
// For block-level reports (deadlocks, cluster barriers, the hottest loop): cuda_location and the PTX line,
// "kernel.cu:9 (kernel.ptx:12)", or "kernel.ptx:12" without .loc, or "an unknown line" for a null
// instruction.
std::string source_line_text(const LaunchContext& L, const DInst* in);

}  // namespace warpsim::engine
