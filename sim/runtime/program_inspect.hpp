// sim/runtime/program_inspect.hpp — what `warpsim exec` looks at in a binary before it runs it: whether it
// uses CUDA, which runtime it links (shared libcudart.so.N or the static one), and whether its fatbinary has
// PTX the simulated device can run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warpsim::runtime {

struct ProgramInfo {
    enum class Kind { unreadable, not_elf, no_cuda, static_cudart, shared_cudart } kind = Kind::unreadable;
    std::string error;                // unreadable: why
    int cudart_major = 0;             // shared_cudart: N of libcudart.so.N
    std::vector<uint32_t> ptx_archs;  // the PTX entries of its fatbinaries (90 for compute_90)
    std::vector<uint32_t> sass_archs;
    bool relocatable = false;  // -rdc=true: the PTX is in __nv_relfatbin
};

ProgramInfo inspect_program(const std::string& path);

}  // namespace warpsim::runtime
