// sim/engine/decode.hpp — turns a loaded Module into a Program of pre-decoded functions.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "kernels_ir/ir.hpp"
#include "sim/engine/program.hpp"

namespace warpsim::engine {

// Where module-scope variables live once the module is loaded.
struct ModuleLayout {
    std::map<std::string, uint64_t, std::less<>> global_addr;  // .global/.const variables: device address
    // Offset of user shared memory in a block's shared window: the reserved region lies below it
    // (DeviceLimits::reserved_shared_per_block).
    uint32_t shared_base = 1024;
};

Program decode_module(const ir::Module& module, const ModuleLayout& layout);

// The ir::Type's size in bytes as a register mask (all ones for 8-byte and larger types).
uint64_t width_mask(ir::Type t);

}  // namespace warpsim::engine
