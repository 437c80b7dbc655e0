// launch/source.hpp — getting the PTX text of a spec's source: a .ptx as is, a .cu through nvcc.
#pragma once

#include <string>

#include "launch/launch_spec.hpp"
#include "launch/outcome.hpp"

namespace warpsim::launch {

// The PTX text for the spec: a .ptx file is read as is; a .cu file is compiled with
// `nvcc -ptx -arch=ARCH -lineinfo` (ARCH from the spec, default sm_90), nvcc found on PATH, under
// $CUDA_HOME / $CUDA_PATH, or in /usr/local/cuda. Errors carry nvcc's own messages.
Outcome<std::string> load_source(const LaunchSpec& spec);

// Compiles spec.source_path with the given nvcc ("" -> the no-toolkit message).
Outcome<std::string> compile_cu(const LaunchSpec& spec, const std::string& nvcc);

// Compiles CUDA source text (the C++ API); `name` is the .cu file name nvcc and the messages see.
Outcome<std::string> compile_cu_text(const std::string& source, const std::string& name,
                                     const std::string& arch);

// Where nvcc is, or "" when no CUDA toolkit can be found.
std::string find_nvcc();

}  // namespace warpsim::launch
