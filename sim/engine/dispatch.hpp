// sim/engine/dispatch.hpp — the dispatch table: per ir::Opcode, a selector that picks the handler for one
// instruction (by type and modifiers) at decode time, or leaves it unsupported.
#pragma once

#include <array>
#include <string>

#include "kernels_ir/ir.hpp"
#include "sim/engine/program.hpp"

namespace warpsim::engine {

// What a selector may need besides the instruction: the decoded operands are already in `in`.
struct SelectContext {
    const ir::Module* module = nullptr;
    const ir::Function* function = nullptr;
};

// Returns the handler for `inst` (with in's operand slots filled) or nullptr when this form of the opcode
// is not executed; selectors may adjust `in` (e.g. set member_src).
using Selector = Handler (*)(const ir::Instruction& inst, DInst& in, const SelectContext& ctx);

using DispatchTable = std::array<Selector, ir::kOpcodeCount>;
const DispatchTable& dispatch_table();

// Per-family selectors (each family lives in its own handlers_*.cpp).
Handler select_int(const ir::Instruction&, DInst&, const SelectContext&);
Handler select_logic(const ir::Instruction&, DInst&, const SelectContext&);
Handler select_compare(const ir::Instruction&, DInst&, const SelectContext&);
Handler select_float(const ir::Instruction&, DInst&, const SelectContext&);
Handler select_move(const ir::Instruction&, DInst&, const SelectContext&);
Handler select_cvt(const ir::Instruction&, DInst&, const SelectContext&);
Handler select_memory(const ir::Instruction&, DInst&, const SelectContext&);
Handler select_atomic(const ir::Instruction&, DInst&, const SelectContext&);
Handler select_control(const ir::Instruction&, DInst&, const SelectContext&);
Handler select_barrier(const ir::Instruction&, DInst&, const SelectContext&);
Handler select_warp(const ir::Instruction&, DInst&, const SelectContext&);
Handler select_video(const ir::Instruction&, DInst&, const SelectContext&);
Handler select_async(const ir::Instruction&, DInst&, const SelectContext&);
Handler select_tensor(const ir::Instruction&, DInst&,
                      const SelectContext&);  // ldmatrix, stmatrix, mma, movmatrix
Handler select_wmma(const ir::Instruction&, DInst&, const SelectContext&);  // wmma.load, wmma.store, wmma.mma
Handler select_stack(const ir::Instruction&, DInst&,
                     const SelectContext&);  // alloca, stacksave, stackrestore
Handler select_texture(const ir::Instruction&, DInst&, const SelectContext&);  // tex, suld, sust
Handler select_wgmma(const ir::Instruction&, DInst&, const SelectContext&);    // wgmma.* (handlers_wgmma.cpp)
// fma.rn{.ftz} over (a, b, c) with the product and/or the addend negated: a contracted mul + add/sub
// (contract.cpp); `type` is f32 or f64; nullptr otherwise.
Handler contracted_fma(ir::Type type, bool neg_product, bool neg_addend);
// add/sub/min/max on .u16x2/.s16x2 (handlers_video.cpp), reached through select_int.
Handler select_int_x2(const ir::Instruction& inst);

// shfl (of 4 bytes) whose b and c are the same in every lane and known at decode, held in
// DInst::shfl_lanes (handlers_warp.cpp); nullptr for the forms the general handler alone runs.
Handler shfl_with_known_lanes(const ir::Instruction& inst);

// The handler that stops a launch with "warpsim does not execute `...` yet (file:line)".
void exec_unsupported(Exec& x, const DInst& in, uint32_t exec);
// An instruction whose modifiers PTX does not have (its typed form is an ir::FormError): the verifier's
// message, as a fault, for a kernel launched without verifying.
void exec_ill_formed(Exec& x, const DInst& in, uint32_t exec);

}  // namespace warpsim::engine
