// sim/check/initcheck.hpp — reads of memory nothing has written: shared memory per block (compute-sanitizer's
// initcheck does not look at shared memory; warpsim does) and global memory (bytes the host wrote — every
// launch-spec buffer, module variables — count as written, as do the bytes the kernel writes). Atomics that
// read the old value read; cp.async reads its source and writes its destination.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sim/check/context.hpp"
#include "sim/check/findings.hpp"
#include "sim/engine/observer.hpp"
#include "sim/memory/device_memory.hpp"

namespace warpsim::check {

class InitChecker {
public:
    // `memory` answers which global bytes the host initialised; nullptr: treat all global memory as written.
    InitChecker(const CheckContext& ctx, FindingLog& log, const memory::DeviceMemory* memory)
        : ctx_(ctx), log_(log), memory_(memory) {}

    void begin_block(const engine::BlockIndex& b, uint32_t shared_bytes);
    void on_memory(const engine::MemoryEvent& e);

private:
    bool shared_written(uint64_t off, uint32_t n) const;
    bool global_written(uint64_t addr, uint32_t n) const;
    void mark(const engine::MemoryEvent& e, uint32_t lane, uint32_t n);
    void report(const engine::MemoryEvent& e, uint32_t lane, bool shared);

    const CheckContext& ctx_;
    FindingLog& log_;
    const memory::DeviceMemory* memory_;
    engine::BlockIndex block_;
    std::vector<uint8_t> shared_;                          // 1 per written byte of this block's window
    std::unordered_map<uint64_t, uint8_t> global_words_;   // 4-byte word -> bit per byte the kernel wrote
};

}  // namespace warpsim::check
