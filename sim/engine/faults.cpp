// sim/engine/faults.cpp — guest faults as values: CUDA's error name and message plus a compute-sanitizer-like
// description (address, nearest allocation, width, block, thread, PTX and CUDA lines).
#include <fmt/format.h>
#include <bit>
#include <utility>

#include "sim/engine/handler_util.hpp"

#include "kernels_ir/forms/form.hpp"
#include "kernels_ir/names.hpp"
#include "kernels_ir/source_chain.hpp"

namespace warpsim::engine {

std::string ptx_location(const Exec& x, const DInst& in) {
    return fmt::format("{}:{}", x.launch->cfg->ptx_file, in.ir ? in.ir->loc.ptx_line : 0);
}

std::string cuda_location(const LaunchContext& L, const DInst* in) {
    if (!in || !in->ir) return {};
    return ir::source_location_text(*L.program->module, in->ir->loc, ir::PathStyle::relative);
}

std::string cuda_location(const Exec& x, const DInst& in) {
    return cuda_location(*x.launch, &in);
}

std::string source_line_text(const LaunchContext& L, const DInst* in) {
    if (!in || !in->ir) return "an unknown line";
    const std::string ptx = fmt::format("{}:{}", L.cfg->ptx_file, in->ir->loc.ptx_line);
    const std::string cuda = cuda_location(L, in);
    return cuda.empty() ? ptx : fmt::format("{} ({})", cuda, ptx);
}

namespace {
std::array<uint32_t, 3> thread_of(const Exec& x, uint32_t lane) {
    const auto& b = x.launch->block;
    const uint32_t t = x.warp->index * 32 + lane;
    return {t % b[0], (t / b[0]) % b[1], t / (b[0] * b[1])};
}
}  // namespace

LaunchError::LaunchError(Fault k, std::string d, FaultDetails w, std::string m)
    : kind(k),
      name(cuda_name(k)),
      message(m.empty() ? std::string(cuda_words(k)) : std::move(m)),
      details(std::move(d)),
      where(std::move(w)) {}

void raise_fault(Exec& x, const DInst& in, uint32_t lane, Fault kind, std::string message,
                 std::string details, FaultDetails where) {
    if (x.block->error) {
        x.stop = true;
        return;
    }
    where.block = x.block->ctaid;
    where.thread = thread_of(x, lane);
    where.ptx_line = in.ir ? in.ir->loc.ptx_line : 0;
    where.cuda_location = cuda_location(x, in);
    where.function = x.frame && x.frame->code ? x.frame->code->fn->name : std::string{};
    std::string text = std::move(details);
    text +=
        fmt::format("\n    at {}{} in {}\n    by thread ({},{},{}) in block ({},{},{})",
                    where.cuda_location.empty() ? "" : where.cuda_location + " ",
                    "(" + ptx_location(x, in) + ")", ir::demangled_base_name(where.function), where.thread[0],
                    where.thread[1], where.thread[2], where.block[0], where.block[1], where.block[2]);
    x.block->error = LaunchError(kind, std::move(text), std::move(where), std::move(message));
    x.stop = true;
}

void exec_unsupported(Exec& x, const DInst& in, uint32_t exec) {
    std::string spelled(ir::opcode_name(in.ir->op));
    for (const auto& m : in.ir->mods) spelled += "." + m;
    const std::string loc = ptx_location(x, in);
    raise_fault(x, in, exec ? static_cast<uint32_t>(std::countr_zero(exec)) : 0, Fault::not_supported,
                fmt::format("warpsim does not execute `{}` yet ({})", spelled, loc),
                fmt::format("warpsim does not execute `{}` yet ({})", spelled, loc));
}

void exec_ill_formed(Exec& x, const DInst& in, uint32_t exec) {
    std::string spelled(ir::opcode_name(in.ir->op));
    for (const auto& m : in.ir->mods) spelled += "." + m;
    const ir::FormError* e = ir::form_error(*in.ir);
    const std::string text =
        fmt::format("`{}` ({}): {}", spelled, ptx_location(x, in), e ? e->message : "ill-formed modifiers");
    raise_fault(x, in, exec ? static_cast<uint32_t>(std::countr_zero(exec)) : 0, Fault::invalid_ptx, text,
                text);
}

}  // namespace warpsim::engine
