// launch/version.cpp — the version CMake passes in as WARPSIM_VERSION (project(warpsim VERSION ...)).
#include "launch/version.hpp"

namespace warpsim::launch {

std::string_view version() {
    return WARPSIM_VERSION;
}

}  // namespace warpsim::launch
