// sim/timing/sass_spills.hpp — where ptxas put a kernel's local-memory accesses in the machine code: the
// STL and LDL instructions of an sm_90 cubin, each with the PTX line it was compiled from (the cubin's
// .nv_debug_line_sass, which `ptxas -lineinfo` writes), so the timing model can weight every spill by how
// often its PTX line ran instead of by the average instruction (ptxas -v reports spill code bytes only).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::timing {

struct SassLocalAccess {
    std::string section;    // ".text.<function>"
    uint32_t offset = 0;    // byte offset of the instruction in its section
    uint32_t ptx_line = 0;  // 1-based line of the PTX text given to ptxas; 0 when the line table has none
    bool store = false;     // STL (else LDL)
};

// The STL/LDL instructions of every .text section of a cubin (decoded by sim/sass/decode.hpp), in section
// order. nullopt with `error` set when the bytes are no such ELF or its line table is malformed.
std::optional<std::vector<SassLocalAccess>> sass_local_accesses(std::string_view cubin,
                                                                std::string* error = nullptr);

// Runs `ptxas -lineinfo -arch=ARCH` on the PTX (a temporary file, no shell) and reads the cubin. nullopt
// when there is no ptxas or it fails; `log` says why.
std::optional<std::vector<SassLocalAccess>> sass_local_accesses_of_ptx(std::string_view ptx_text,
                                                                       std::string_view arch,
                                                                       std::string* log = nullptr);

}  // namespace warpsim::timing
