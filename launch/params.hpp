// launch/params.hpp — checking spec arguments against a kernel's .param list, and packing them into
// the parameter buffer both backends use (the GPU backend passes it as CU_LAUNCH_PARAM_BUFFER_POINTER).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels_ir/ir.hpp"
#include "launch/launch_spec.hpp"

namespace warpsim::launch {

// One message per mismatch (count, and each argument's size), each naming the spec file, the argument
// and the parameter; empty when the arguments fit. A buffer is a pointer: its parameter must be 8 bytes.
std::vector<std::string> check_args(const ir::Function& kernel, const LaunchSpec& spec);

// Byte offset of each parameter, and the total size (the end of the last parameter): ir::param_layout.
std::vector<uint64_t> param_offsets(const ir::Function& kernel, uint64_t* total_bytes = nullptr);

// The packed parameter buffer: each parameter at its aligned offset, little-endian; a buffer argument
// holds its device address. `buffer_addresses` has either one entry per spec argument (entries of
// non-buffer arguments are ignored) or one per buffer argument, in argument order. Call check_args
// first: arguments that do not fit their parameter are truncated or zero-padded here.
std::vector<uint8_t> pack_params(const ir::Function& kernel, const std::vector<uint64_t>& buffer_addresses,
                                 const LaunchSpec& spec);

}  // namespace warpsim::launch
