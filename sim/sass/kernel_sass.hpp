// sim/sass/kernel_sass.hpp — from the cubin ptxas made of a launch's PTX to the counters' SASS plan for its
// kernel, with the sentence the reports print about how the counts were made.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "kernels_ir/ir.hpp"
#include "sim/counts/sass_plan.hpp"

namespace warpsim::sass {

struct KernelSass {
    std::shared_ptr<const counts::SassPlan> plan;  // nullptr: the counts stay PTX-level
    std::string counting;  // "per SASS instruction (ptxas sm_90)" or "PTX-level counts (...)"
};

// Decodes `cubin` (nullptr or empty: ptxas did not run) and plans the kernel `function` of `module`. Only the
// architecture whose encodings the decoder was checked against (sm_90) is decoded; others are PTX-level.
KernelSass kernel_sass(const ir::Module& module, uint32_t function, std::string_view arch,
                       const std::string* cubin);

}  // namespace warpsim::sass
