// sim/runtime/address_space.hpp — the address range the runtime reserves in the program's process. The lower
// part is the simulated device heap: PROT_NONE, so a host dereference of a device pointer faults as it would
// with a GPU, and no host allocation ever gets the same address. The upper part holds memory both sides touch
// (pinned, mapped and managed allocations): pages made readable and writable on demand, at addresses below
// the simulator's generic-address windows.
#pragma once

#include <cstdint>
#include <map>

namespace warpsim::runtime {

class AddressSpace {
  public:
    // Reserves the range; false when the process has no room (then device pointers are plain numbers).
    bool reserve();
    bool reserved() const { return base_ != 0; }
    uint64_t heap_base() const { return base_; }
    uint64_t heap_limit() const { return base_ + kHeapBytes; }
    bool in_heap(uint64_t addr) const { return addr - base_ < kHeapBytes; }

    // Host-accessible pages for `bytes` (rounded up to pages, zeroed); nullptr when the range is full.
    void* map_shared(uint64_t bytes);
    // Returns pages of map_shared; false when `p` is not the start of such a mapping.
    bool unmap_shared(void* p);
    uint64_t shared_size(const void* p) const;

  private:
    static constexpr uint64_t kHeapBytes = 1ull << 40;    // 1 TiB of device addresses
    static constexpr uint64_t kSharedBytes = 1ull << 39;  // 512 GiB of host-visible ones
    uint64_t base_ = 0;
    uint64_t next_shared_ = 0;
    std::map<uint64_t, uint64_t> shared_;  // base -> mapped bytes
};

}  // namespace warpsim::runtime
