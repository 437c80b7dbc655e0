// sim/engine/handlers_stack.cpp — alloca, stacksave, stackrestore (PTX ISA 9.7.17, PTX 7.3+): dynamic
// allocation on the thread's local-memory stack, in the frame of the executing function.
//
// Each lane has its own stack pointer (Frame::alloca_top): alloca aligns it up to the requested alignment
// (default 8 bytes, a power of two up to 2^23), returns it as a .local address and moves it past `size`
// bytes; stacksave reads it, stackrestore sets it back (and releases the memory above it, so a later access
// there is reported as out of bounds). A call puts the callee's frame above every lane's allocations; the
// memory goes away when the function returns.
#include <fmt/format.h>

#include "sim/engine/dispatch.hpp"
#include "sim/engine/handler_util.hpp"

namespace warpsim::engine {

namespace {

void ensure_tops(Exec& x) {
    Frame& f = *x.frame;
    if (f.alloca_top.empty()) f.alloca_top.assign(32, f.local_base + f.code->local_bytes);
}

uint64_t type_mask(const DInst& in) {
    return in.type == ir::Type::u32 || in.type == ir::Type::b32 ? 0xffffffffull : ~0ull;
}

void alloca_(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    ensure_tops(x);
    Frame& f = *x.frame;
    uint64_t* d = lanes_of(x, in.dst[0]);
    const uint64_t* size = lanes_of(x, in.src[0]);
    const uint64_t align = in.nsrc >= 2 ? lanes_of(x, in.src[1])[0] : 8;
    const uint32_t limit = x.launch->cfg->limits.local_bytes_per_thread;
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        const uint64_t n = size[l] & type_mask(in);
        const uint64_t at = (uint64_t{f.alloca_top[l]} + align - 1) / align * align;
        if (at + n > limit) {
            raise_fault(
                x, in, l, Fault::launch_failure, {},
                fmt::format(
                    "stack overflow: alloca of {} bytes needs local memory up to {} bytes per thread, "
                    "the limit is {} (cudaLimitStackSize)",
                    n, at + n, limit));
            return;
        }
        f.alloca_top[l] = static_cast<uint32_t>(at + n);
        if (x.warp->local[l].size() < at + n) x.warp->local[l].resize(at + n);
        d[l] = at;
    }
}

void stacksave(Exec& x, const DInst& in, uint32_t e) {
    const Frame& f = *x.frame;
    uint64_t* d = lanes_of(x, in.dst[0]);
    for_lanes(e, [&](uint32_t l) {
        d[l] = f.alloca_top.empty() ? f.local_base + f.code->local_bytes : f.alloca_top[l];
    });
}

void stackrestore(Exec& x, const DInst& in, uint32_t e) {
    if (!e) return;
    ensure_tops(x);
    Frame& f = *x.frame;
    const uint64_t* a = lanes_of(x, in.src[0]);
    const uint32_t floor = f.local_base + f.code->local_bytes;
    for (uint32_t m = e; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        const uint64_t v = a[l] & type_mask(in);
        if (v < floor || v > f.alloca_top[l]) {
            raise_fault(
                x, in, l, Fault::launch_failure, {},
                fmt::format("stackrestore to 0x{:x}, which is not a stack pointer of this function's frame "
                            "(its allocations span 0x{:x}..0x{:x}): restore only a value stacksave returned "
                            "in this function, before it was overwritten",
                            v, floor, f.alloca_top[l]));
            return;
        }
        f.alloca_top[l] = static_cast<uint32_t>(v);
        x.warp->local[l].resize(v);
    }
}

}  // namespace

Handler select_stack(const ir::Instruction& inst, DInst& in, const SelectContext&) {
    switch (inst.op) {
        case ir::Opcode::alloca: {
            if (in.ndst != 1 || in.nsrc < 1 || in.nsrc > 2) return nullptr;
            if (in.nsrc == 2) {  // the alignment is an immediate power of two up to 2^23
                const auto& o = inst.args.back();
                if (o.kind != ir::Operand::Kind::imm_int || o.imm <= 0 || o.imm > (1 << 23) ||
                    (o.imm & (o.imm - 1)))
                    return nullptr;
            }
            return &alloca_;
        }
        case ir::Opcode::stacksave:
            return in.ndst == 1 ? &stacksave : nullptr;
        case ir::Opcode::stackrestore:
            return in.nsrc == 1 ? &stackrestore : nullptr;
        default:
            return nullptr;
    }
}

}  // namespace warpsim::engine
