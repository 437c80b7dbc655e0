// launch/cxx_signature.hpp — a kernel's C++ signature, where it can be known: parameter types from its
// mangled name (the C++ ABI's demangler), parameter names from the CUDA source, and the checks of a spec's
// arguments against them ("this parameter is a pointer: give a count").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels_ir/ir.hpp"
#include "launch/launch_spec.hpp"

namespace warpsim::launch {

struct CxxParam {
    std::string type;  // as the demangler writes it: "float const*", "int", "unsigned long"; "" when unknown
    std::string name;  // from the source: "a"; "" when unknown
};

struct CxxSignature {
    std::string demangled;  // "vecAdd(float const*, float const*, float*, int)"; the name when not mangled
    std::vector<CxxParam> params;  // one per PTX parameter when anything is known, else empty
};

// The demangled text of a mangled name, or the name itself when it is not a mangled C++ name.
std::string demangle(std::string_view mangled);
// The parameter types of a mangled function name, or nullopt (extern "C" names, unreadable names).
std::optional<std::vector<std::string>> demangled_param_types(std::string_view mangled);
// The parameter names of the __global__ function `base_name` with `count` parameters in CUDA source text,
// or nullopt when no such definition is found.
std::optional<std::vector<std::string>> cu_param_names(std::string_view cu_text, std::string_view base_name,
                                                       size_t count);

// The kernel's signature: types from its name, names from the CUDA source (`cu_text`, "" when none is known).
CxxSignature kernel_signature(const ir::Function& kernel, std::string_view cu_text);

// Where the CUDA source of a PTX module can be found: the .cu the spec names, else the .file of the module
// that exists beside the PTX (by its own path or its file name). "" when none.
std::string find_cu_source(const LaunchSpec& spec, const ir::Module& module);

// The spec's arguments against the C++ parameter types: pointer vs value, integer vs floating point, width.
// Errors name the spec file, the argument, the parameter's name and type, and what to give instead; warnings
// are for buffers whose element type is not the pointer's (the kernel may reinterpret them on purpose).
struct ArgTypeCheck {
    std::vector<std::string> errors, warnings;
};
ArgTypeCheck check_args_against(const CxxSignature& sig, const LaunchSpec& spec);

// Names to show for each argument: the spec's "name", else the C++ parameter's, else "".
std::vector<std::string> argument_names(const CxxSignature& sig, const LaunchSpec& spec);

}  // namespace warpsim::launch
