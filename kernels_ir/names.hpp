// kernels_ir/names.hpp — kernel names: the base name of an Itanium-mangled C++ name, and kernel look-up.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kernels_ir/ir.hpp"

namespace warpsim::ir {

// "_Z6vecAddPKfS0_Pfi" -> "vecAdd"; "_Z11tiledMatMulILi32EEvPKfS1_Pfi" -> "tiledMatMul";
// "_ZN2ns6kernelEv" -> "kernel"; names that are not mangled (or that it cannot read) come back unchanged.
std::string demangled_base_name(std::string_view mangled);

struct KernelLookup {
    const Function* function = nullptr;  // null on error
    std::vector<std::string>
        candidates;     // the entries that matched (several: ambiguous) or, if none, all entries
    std::string error;  // empty on success
};

// Finds an .entry by exact name, else by demangled base name; ambiguity is an error that lists the
// candidates.
KernelLookup find_kernel(const Module& module, std::string_view name);

}  // namespace warpsim::ir
