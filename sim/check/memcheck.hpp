// sim/check/memcheck.hpp — memory faults in the checker's format. The engine checks every access against
// the exact allocation sizes (so one element past the end is caught even where the GPU's 2 MiB/256-byte
// granules would hide it), alignment, freed and never-allocated addresses, and stops at the first fault with
// a LaunchError; memcheck turns that error into a finding and adds what the engine does not know: which
// launch-spec argument the address belongs to (or lies just past), and the shared variable and index.
// Other launch errors (illegal instruction, trap, instruction budget, barrier deadlock) become findings too,
// since the run stopped there.
#pragma once

#include "sim/check/context.hpp"
#include "sim/check/findings.hpp"
#include "sim/engine/simulator.hpp"

namespace warpsim::check {

// The finding for a launch error; the tool is memcheck except for barrier deadlocks (synccheck).
Finding launch_error_finding(const engine::LaunchError& err, const CheckContext& ctx);

// The instruction at a PTX line (first match across the module's functions), for errors that carry a line.
std::optional<Site> site_at_ptx_line(const ir::Module& m, uint32_t ptx_line);

}  // namespace warpsim::check
