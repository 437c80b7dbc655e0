// kernels_ir/link.hpp — joining separately compiled modules (nvcc -rdc=true) into one, as nvlink does: an
// `.extern` declaration takes the definition another module gives, `.weak` and `.common` definitions give way
// to a strong one, source files and inlining sites are renumbered, and every call is resolved again.
#pragma once

#include <string>
#include <vector>

#include "kernels_ir/ir.hpp"
#include "kernels_ir/parser.hpp"

namespace warpsim::ir {

struct LinkResult {
    Module module;
    std::vector<Diagnostic> diagnostics;  // errors name the symbol and the modules (by `names`)
    bool ok() const;
};

// Links `parts` (each parsed cleanly; `names[i]` names part i in messages) in order. Errors: a symbol defined
// with strong linkage in two parts, one the parts declare `.extern` and none defines, parts whose
// `.address_size` differ. The result's `.version` is the highest of the parts', its target the first part's.
LinkResult link_modules(std::vector<Module> parts, const std::vector<std::string>& names);

}  // namespace warpsim::ir
