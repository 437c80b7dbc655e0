// launch/version.hpp — warpsim's version, the CMake project version (the one place it is written).
#pragma once

#include <string_view>

namespace warpsim::launch {

std::string_view version();  // "0.2.0"

}  // namespace warpsim::launch
