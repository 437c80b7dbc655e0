// sim/memory/device_memory.hpp — the simulated device's global memory: an allocation table that every
// guest access goes through, so nothing a kernel does can reach host memory.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/memory/address_map.hpp"

namespace warpsim::memory {

struct Allocation {
    uint64_t base = 0;
    uint64_t size = 0;
    std::string label;       // "cudaMalloc #3" or a module variable's name
    bool read_only = false;  // module .const data
    std::unique_ptr<uint8_t[]> data;
    uint8_t* host = nullptr;  // zero-copy host memory (map_host); data is empty then
    uint8_t* bytes() const { return host ? host : data.get(); }
    // Byte ranges [first, second) (offsets, merged, sorted) written from the host (write() and module
    // variables) or by an earlier launch the checkers watched (warpsim exec --check). The correctness
    // checkers treat them as initialised.
    std::map<uint64_t, uint64_t> host_written;
};

// Where a failed access was relative to the allocations, for compute-sanitizer-like messages.
struct NearestAllocation {
    bool found = false;
    uint64_t base = 0, size = 0;
    std::string label;
    int64_t distance = 0;  // bytes past the end (>0) or before the start (<0)
};

class DeviceMemory {
  public:
    DeviceMemory() = default;
    DeviceMemory(const DeviceMemory&) = delete;
    DeviceMemory& operator=(const DeviceMemory&) = delete;

    // 0 when the request cannot be satisfied (zero bytes or the simulated heap is full).
    uint64_t malloc(uint64_t bytes, std::string label = {}, bool read_only = false);
    bool free(uint64_t addr);  // false: not the base of a live allocation
    // Allocates [base, base+bytes) again, zeroed, where malloc once handed it out and it was freed since (a
    // CUDA graph's allocation keeps its address from launch to launch): false when the range was never
    // handed out or overlaps a live allocation.
    bool malloc_at(uint64_t base, uint64_t bytes, std::string label);
    bool write(uint64_t addr, std::span<const uint8_t> bytes);
    // Marks [addr, addr+n) as initialised from the host without changing it (zero-initialised variables).
    bool mark_host_written(uint64_t addr, uint64_t n);
    // True when every byte of [addr, addr+n) was written from the host (see Allocation::host_written).
    bool host_written(uint64_t addr, uint64_t n) const;
    // The first byte of [addr, addr+n), inside one allocation, that was not written (see host_written);
    // nullopt when every byte was, or when the range is not inside one allocation.
    std::optional<uint64_t> first_unwritten(uint64_t addr, uint64_t n) const;
    std::optional<std::vector<uint8_t>> read(uint64_t addr, uint64_t n) const;

    // Host pointer for [addr, addr+width) when it lies inside one allocation, else nullptr.
    // The table is not modified during a launch, so lookups from worker threads are safe.
    uint8_t* translate(uint64_t addr, uint64_t width) const;
    const Allocation* find(uint64_t addr) const;
    // Calls f(allocation) for each allocation overlapping [lo, hi), in address order.
    template <class F>
    void for_each_overlapping(uint64_t lo, uint64_t hi, F&& f) const {
        auto it = table_.upper_bound(lo);
        if (it != table_.begin()) {
            auto prev = std::prev(it);
            if (prev->second.base + prev->second.size > lo) f(prev->second);
        }
        for (; it != table_.end() && it->first < hi; ++it) f(it->second);
    }
    bool is_read_only(uint64_t addr) const;
    NearestAllocation nearest(uint64_t addr) const;

    std::size_t allocation_count() const { return table_.size(); }

    // Moves the heap to [base, limit) before the first allocation (the CUDA runtime puts it in an address
    // range it reserved in the host process, so a device pointer never aliases host memory). The range must
    // lie below the generic-address windows (address_map.hpp). False when it does not or memory is in use.
    bool set_heap(uint64_t base, uint64_t limit);
    // Registers host memory [base, base+size) as device-visible memory the kernel reads and writes in place
    // (zero-copy: cudaHostRegister, mapped and managed allocations). False when it overlaps an allocation
    // or a generic-address window. The memory must stay valid until unmap_host.
    bool map_host(uint64_t base, uint64_t size, uint8_t* host, std::string label);
    bool unmap_host(uint64_t base);
    // Bytes of the simulated device's own allocations (not zero-copy host ranges).
    uint64_t device_bytes_in_use() const;

  private:
    std::map<uint64_t, Allocation> table_;  // keyed by base
    uint64_t next_ = kHeapBase;
    uint64_t heap_base_ = kHeapBase, heap_limit_ = kHeapLimit;
    uint64_t serial_ = 0;
};

}  // namespace warpsim::memory
