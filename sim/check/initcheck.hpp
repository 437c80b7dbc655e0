// sim/check/initcheck.hpp — reads of memory nothing has written: shared memory per block (compute-sanitizer's
// initcheck does not look at shared memory; warpsim does) and global memory (bytes the host wrote — every
// launch-spec buffer, module variables — count as written, as do the bytes the kernel writes). Atomics that
// read the old value read; cp.async reads its source and writes its destination. In a launch with clusters
// each CTA's shared memory is tracked on its own, and a shared::cluster (distributed shared memory) write by
// another CTA of the cluster counts as written.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <utility>
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

    // The CTAs of the cluster whose on_block_begin calls follow (observer.hpp); without it each block is
    // alone.
    void begin_cluster(std::span<const engine::BlockIndex> ctas);
    void begin_block(const engine::BlockIndex& b, uint32_t shared_bytes);
    void on_memory(const engine::MemoryEvent& e);
    // The global bytes this launch's kernel wrote, as sorted, merged [first, second) address ranges: the
    // launches after it read them as initialised (warpsim exec --check marks them in the device memory).
    std::vector<std::pair<uint64_t, uint64_t>> written_global() const;

  private:
    // The shadow of the CTA whose shared memory a lane's address names and the offset in it; nullptr when the
    // event's block or the named CTA is not one of the current group.
    std::vector<uint8_t>* shared_of(const engine::MemoryEvent& e, uint32_t lane, uint64_t& offset);
    bool shared_written(const std::vector<uint8_t>& shadow, uint64_t off, uint32_t n) const;
    bool global_written(uint64_t addr, uint32_t n) const;
    void mark(const engine::MemoryEvent& e, uint32_t lane, uint32_t n);
    void report(const engine::MemoryEvent& e, uint32_t lane, bool shared, uint64_t offset);

    const CheckContext& ctx_;
    FindingLog& log_;
    const memory::DeviceMemory* memory_;
    std::vector<engine::BlockIndex> ctas_;                // one block, or a cluster's CTAs by rank
    uint32_t awaiting_ = 0;                               // CTAs of the announced cluster not begun yet
    std::vector<std::vector<uint8_t>> shared_;            // [rank]: 1 per written byte of that CTA's window
    std::unordered_map<uint64_t, uint8_t> global_words_;  // 4-byte word -> bit per byte the kernel wrote
};

}  // namespace warpsim::check
