// sim/engine/printf.hpp — device printf (the vprintf call nvcc emits) and guest string reading.
#pragma once

#include <cstdint>
#include <string>

#include "sim/engine/exec_state.hpp"

namespace warpsim::engine {

// Reads bytes at a generic address as lane `lane` sees it; false when any byte is outside memory.
bool read_guest(Exec& x, uint32_t lane, uint64_t generic_addr, void* out, std::size_t n);
// A NUL-terminated string at a generic address (lane 0's view for local/shared), at most 4096 bytes.
std::string read_guest_string(Exec& x, uint64_t generic_addr, uint32_t lane = 0);

// vprintf(format, packed args): formats per active lane in lane order into the block's printf records.
void exec_vprintf(Exec& x, const DInst& in, uint32_t exec);

// Formats a C format string with arguments packed as the CUDA compiler packs them (each naturally aligned;
// floats promoted to double). Exposed for tests.
std::string format_device_printf(const std::string& format, const uint8_t* args, std::size_t args_size);

}  // namespace warpsim::engine
