// sim/sass/compile.hpp — the cubin ptxas makes of a PTX text, with the SASS line table (-lineinfo).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace warpsim::sass {

// Runs `ptxas -lineinfo -arch=ARCH` (sm_90a for PTX that targets it) on the PTX through a temporary file
// (no shell) and returns the cubin's bytes. nullopt when there is no ptxas or it fails; `log` says why.
std::optional<std::string> compile_cubin(std::string_view ptx_text, std::string_view arch,
                                         std::string* log = nullptr);

}  // namespace warpsim::sass
