// sim/engine/live_in.hpp — the registers a frame must start zeroed: those some path may read before writing.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "kernels_ir/cfg.hpp"
#include "kernels_ir/ir.hpp"
#include "sim/engine/program.hpp"

namespace warpsim::engine {

// The registers of `df` (decoded, mul + add contracted) that some lane may read before writing them on a
// path from the entry, plus every shfl's source (read from other lanes, which may never have written it)
// and the scratch sink: a frame whose other registers hold stale values reads the same as a zeroed one.
// Constants and special registers are left out (init_frame fills them). nullopt when the function has an
// instruction outside the simple set whose operand slots name every register it reads (calls, tensor
// fragments, textures, ...): then every register starts zeroed.
std::optional<std::vector<uint32_t>> registers_read_before_written(const ir::Function& fn, const ir::Cfg& cfg,
                                                                   const DecodedFunction& df,
                                                                   uint32_t scratch);

// The value of each register that every read sees the same, known at decode: a constant pseudo register, or
// a register written by exactly one instruction of the function, an unguarded mov of an integer immediate,
// and not read before it on any path (absent from `read_before_written`, the list above). nullopt for the
// others.
std::vector<std::optional<uint64_t>> known_constant_registers(
    const ir::Function& fn, const DecodedFunction& df, const std::vector<uint32_t>& read_before_written);

}  // namespace warpsim::engine
