// launch/memory_budget.hpp — whether the host can hold what a run is about to allocate, asked before
// allocating: a spec within its limits (16 GiB of buffers) must not end in std::bad_alloc or the OOM killer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace warpsim::launch {

// Bytes this process may still allocate: the least of the system's MemAvailable (/proc/meminfo), the
// cgroup's memory.max less its memory.current (v2, or v1's limit_in_bytes less usage_in_bytes), and the
// address-space limit (RLIMIT_AS, `ulimit -v`) less the process's current virtual size. `source` names
// which one it was. nullopt when none of them can be read (not Linux).
struct AvailableMemory {
    uint64_t bytes = 0;
    std::string source;
};
std::optional<AvailableMemory> available_memory();

// "" when `needed` bytes fit in what is available; else the message (`what` says what needs them, e.g.
// "spec.json: the 3 buffers (4294967296 bytes)").
std::string check_memory_budget(uint64_t needed, const std::string& what);

}  // namespace warpsim::launch
