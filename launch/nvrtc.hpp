// launch/nvrtc.hpp — CUDA source text to PTX in process with NVRTC (libnvrtc loaded at run time, so warpsim
// builds and runs where there is none), nvcc when NVRTC is absent.
#pragma once

#include <cstdint>
#include <string>

#include "launch/outcome.hpp"

namespace warpsim::launch {

enum class CudaCompiler : uint8_t { automatic, nvrtc, nvcc };

struct CompiledPtx {
    std::string ptx;
    std::string compiler;  // "nvrtc 13.0" or "nvcc"
};

// Compiles `source` (the .cu file name `name` in messages and .loc lines) for `arch` ("sm_90") with line
// information. automatic: NVRTC when it can be loaded, else nvcc, and nvcc also when NVRTC fails on the
// source (NVRTC compiles device code only: host headers and main() need nvcc); nvrtc or nvcc: that one, or
// an error that says it is missing. A compile error carries the compiler's log. Successful compiles are
// cached in the process, keyed by source, name, arch and compiler.
Outcome<CompiledPtx> compile_cuda(const std::string& source, const std::string& name, const std::string& arch,
                                  CudaCompiler which = CudaCompiler::automatic);

// The NVRTC library that compile_cuda loads ("" when none can be loaded): libnvrtc.so.13 or .12 from the
// loader's path, $CUDA_HOME/lib64, $CUDA_PATH/lib64 or /usr/local/cuda/lib64.
std::string find_nvrtc();

}  // namespace warpsim::launch
