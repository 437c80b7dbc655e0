// sim/engine/handlers_control.cpp — bra (divergence onto the reconvergence stack), brx.idx, call/ret with
// frames, exit, trap, and the device-library calls the engine implements itself (vprintf, __assertfail,
// cudaGraphSetConditional).
#include <fmt/format.h>
#include <cstring>

#include "sim/engine/dispatch.hpp"
#include "sim/engine/handler_util.hpp"
#include "sim/engine/printf.hpp"
#include "sim/engine/warp_runner.hpp"
#include "sim/memory/address_map.hpp"

namespace warpsim::engine {

namespace {

void note_backedge(Exec& x, const DInst& in) {
    if (!x.block->backedges) return;
    auto& per_fn = (*x.block->backedges)[x.frame->code->index];
    if (per_fn.empty()) per_fn.assign(x.frame->code->code.size(), 0);
    ++per_fn[in.pc];
}

// Divergence: the current entry waits at the reconvergence pc; the not-taken and taken paths run first.
void diverge(Exec& x, const DInst& in, uint32_t taken, uint32_t target) {
    auto& st = x.frame->stack;
    const uint32_t mask = st.back().mask;
    const uint32_t not_taken = mask & ~taken;
    if (!taken) return;  // pc already points past the branch
    if (target <= in.pc) note_backedge(x, in);
    if (!not_taken) {
        st.back().pc = target;
        return;
    }
    st.back().pc = in.rpc;
    st.push_back({in.pc + 1, in.rpc, not_taken});
    st.push_back({target, in.rpc, taken});
}

void bra(Exec& x, const DInst& in, uint32_t exec) {
    if (x.launch->observer && in.guard != kNone) {
        BranchEvent ev;
        ev.site = event_site(x, in);
        ev.active_mask = x.frame->stack.back().mask;
        ev.taken_mask = exec;
        ev.target_pc = in.target;
        ev.reconverge_pc = in.rpc;
        x.launch->observer->on_branch(ev);
    }
    diverge(x, in, exec, in.target);
}

// brx.idx: lanes may pick different targets; each distinct target becomes its own stack entry.
void brx(Exec& x, const DInst& in, uint32_t exec) {
    const ir::Function& fn = *x.frame->code->fn;
    const ir::BranchTable* table = nullptr;
    for (const auto& t : fn.branch_tables)
        if (in.ir->args.size() > 1 && t.name == in.ir->args[1].name) table = &t;
    if (!table || table->pcs.empty()) return exec_unsupported(x, in, exec);
    const uint64_t* idx = lanes_of(x, in.src[0]);
    uint32_t remaining = exec;
    auto& st = x.frame->stack;
    const uint32_t not_taken = st.back().mask & ~exec;
    std::vector<StackEntry> paths;
    while (remaining) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(remaining));
        const uint32_t i = static_cast<uint32_t>(idx[l]);
        if (i >= table->pcs.size()) {
            raise_fault(x, in, l, Fault::illegal_instruction, {},
                        fmt::format("brx.idx index {} is outside the {}-entry branch table {}", i,
                                    table->pcs.size(), table->name));
            return;
        }
        uint32_t group = 0;
        for_lanes(remaining, [&](uint32_t k) {
            if (static_cast<uint32_t>(idx[k]) == i) group |= 1u << k;
        });
        paths.push_back({table->pcs[i], in.rpc, group});
        remaining &= ~group;
    }
    if (paths.size() == 1 && !not_taken) {
        st.back().pc = paths[0].pc;
        return;
    }
    st.back().pc = in.rpc;
    if (not_taken) st.push_back({in.pc + 1, in.rpc, not_taken});
    for (auto it = paths.rbegin(); it != paths.rend(); ++it) st.push_back(*it);
}

void exit_lanes(Exec& x, const DInst& in, uint32_t exec) {
    if (!exec) return;
    retire_lanes(*x.warp, exec, true);
    lanes_exited(x, in, exec);
}

void ret(Exec& x, const DInst& in, uint32_t exec) {
    if (x.warp->frames.size() == 1) return exit_lanes(x, in, exec);
    retire_lanes(*x.warp, exec, false);
}

void trap(Exec& x, const DInst& in, uint32_t exec) {
    if (!exec) return;
    raise_fault(x, in, static_cast<uint32_t>(std::countr_zero(exec)), Fault::launch_failure, {},
                "the kernel executed `trap`");
}

void nop(Exec&, const DInst&, uint32_t) {}

void call(Exec& x, const DInst& in, uint32_t exec) {
    if (!exec) return;
    const auto& fns = x.launch->program->functions;
    if (in.target >= fns.size()) return exec_unsupported(x, in, exec);
    push_frame(x, in, fns[in.target], exec, in.call_site);
}

// call (rets), %rd, (args), prototype: lanes may hold different function addresses. The lanes of the first
// target call now; the others re-execute this call (a stack entry at this pc that pops when it reaches the
// next pc) once the first group returns, so every group runs the callee in turn and all meet after the call.
void call_indirect(Exec& x, const DInst& in, uint32_t exec) {
    if (!exec) return;
    const CallSite& cs = x.frame->code->calls[in.call_site];
    const uint64_t* addr = lanes_of(x, cs.indirect_reg);
    const uint32_t first = static_cast<uint32_t>(std::countr_zero(exec));
    const uint64_t target = addr[first];
    const auto& fns = x.launch->program->functions;
    const uint64_t index = (target - memory::kFunctionBase) / memory::kFunctionStride;
    if (target < memory::kFunctionBase || (target - memory::kFunctionBase) % memory::kFunctionStride != 0 ||
        index >= fns.size() || fns[index].fn->is_entry || !fns[index].fn->has_body) {
        raise_fault(
            x, in, first, Fault::illegal_instruction, {},
            fmt::format("indirect call through 0x{:x}, which is not the address of a .func with a body",
                        target));
        return;
    }
    uint32_t group = 0;
    for_lanes(exec, [&](uint32_t l) {
        if (addr[l] == target) group |= 1u << l;
    });
    if (const uint32_t rest = exec & ~group) x.frame->stack.push_back({in.pc, in.pc + 1, rest});
    push_frame(x, in, fns[index], group, in.call_site);
}

// Argument i (of `bytes` bytes) of a call to a device-library function, in lane l.
uint64_t call_arg(Exec& x, const CallSite& cs, std::size_t i, uint32_t bytes, uint32_t l) {
    if (i >= cs.args.size()) return 0;
    uint64_t v = 0;
    if (cs.args[i].from_reg) return x.R[cs.args[i].reg * 32 + l];
    std::memcpy(&v, x.warp->params[l].data() + x.frame->param_base + cs.args[i].caller_off, bytes);
    return v;
}

// __assertfail(message, file, line, function, char size): stops the kernel like a failed device assert.
void assertfail(Exec& x, const DInst& in, uint32_t exec) {
    if (!exec) return;
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(exec));
    const CallSite& cs = x.frame->code->calls[in.call_site];
    auto arg = [&](std::size_t i, uint32_t bytes) { return call_arg(x, cs, i, bytes, l); };
    std::string msg = read_guest_string(x, arg(0, 8)), file = read_guest_string(x, arg(1, 8));
    std::string func = read_guest_string(x, arg(3, 8));
    raise_fault(
        x, in, l, Fault::device_assert, {},
        fmt::format("{}:{}: {}: Assertion `{}` failed.", file, static_cast<uint32_t>(arg(2, 4)), func, msg));
}

// cudaGraphSetConditional(handle, value): the CUDA runtime's device function that sets a conditional graph
// node's value. warpsim's runtime makes a handle the address of a 4-byte cell of device memory
// (sim/runtime/graph_conditional.cpp), so the call stores `value` there; lanes store in lane order (racing
// calls are undefined behaviour, the documentation says).
void graph_set_conditional(Exec& x, const DInst& in, uint32_t exec) {
    const CallSite& cs = x.frame->code->calls[in.call_site];
    for_lanes(exec, [&](uint32_t l) {
        const uint64_t handle = call_arg(x, cs, 0, 8, l);
        const auto value = static_cast<uint32_t>(call_arg(x, cs, 1, 4, l));
        uint8_t* cell = x.launch->memory->translate(handle, sizeof value);
        if (!cell) {
            raise_fault(
                x, in, l, Fault::illegal_address, {},
                fmt::format("cudaGraphSetConditional: 0x{:x} is not a conditional handle of this program "
                            "(cudaGraphConditionalHandleCreate makes them)",
                            handle));
            return;
        }
        std::memcpy(cell, &value, sizeof value);
    });
}

}  // namespace

Handler select_control(const ir::Instruction& inst, DInst& in, const SelectContext& ctx) {
    using O = ir::Opcode;
    switch (inst.op) {
        case O::bra:
            return in.target == kNone ? nullptr : &bra;
        case O::brx:
            return &brx;
        case O::exit:
            return &exit_lanes;
        case O::ret:
            return &ret;
        case O::trap:
            return &trap;
        case O::brkpt:
            return &nop;
        case O::call: {
            if (in.target == kNone && in.nsrc >= 1)
                return &call_indirect;  // the callee register is the only source
            if (in.target == kNone || in.target >= ctx.module->functions.size()) return nullptr;
            const ir::Function& callee = ctx.module->functions[in.target];
            if (callee.has_body) return &call;
            if (callee.name == "vprintf") return &exec_vprintf;
            if (callee.name == "__assertfail") return &assertfail;
            if (callee.name == "cudaGraphSetConditional") return &graph_set_conditional;
            return nullptr;
        }
        default:
            return nullptr;
    }
}

}  // namespace warpsim::engine
