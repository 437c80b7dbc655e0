// sim/sass/kernel_sass.cpp — decodes a launch's cubin and plans its kernel's SASS-level shared counts.
#include "sim/sass/kernel_sass.hpp"

#include <utility>

#include "sim/sass/block_counts.hpp"
#include "sim/sass/decode.hpp"
#include "sim/sass/mapping.hpp"

namespace warpsim::sass {

KernelSass kernel_sass(const ir::Module& module, uint32_t function, std::string_view arch,
                       const std::string* cubin) {
    KernelSass out;
    if (arch != "sm_90") {
        out.counting = "PTX-level counts (no SASS decoder for " + std::string(arch) + ")";
        return out;
    }
    if (!cubin || cubin->empty()) {
        out.counting = "PTX-level counts (no ptxas)";
        return out;
    }
    std::string error;
    auto program = decode_cubin(*cubin, &error);
    if (!program) {
        out.counting = "PTX-level counts (the cubin could not be read: " + error + ")";
        return out;
    }
    const Function* code =
        function < module.functions.size() ? program->find(module.functions[function].name) : nullptr;
    if (!code) {
        out.counting = "PTX-level counts (the kernel is not in ptxas's cubin)";
        return out;
    }
    auto plan = plan_shared_accesses(module, function, *code);
    plan_instruction_counts(module, function, *code, plan);
    out.counting = "per SASS instruction (ptxas " + std::string(arch) + ")";
    if (!plan.instructions_mapped)
        out.counting += " for shared memory; instruction totals: " + plan.instruction_counting;
    else if (!plan.pred_on_mapped)
        out.counting +=
            "; thread instructions with a true predicate: PTX-level counts (predicates ptxas made)";
    out.plan = std::make_shared<const counts::SassPlan>(std::move(plan));
    return out;
}

}  // namespace warpsim::sass
