// sim/runtime/host_memory.hpp — the program's page-locked host allocations (cudaMallocHost/HostAlloc) and
// registered host ranges (cudaHostRegister), so copies know pinned from pageable memory and
// cudaFreeHost/HostUnregister know what they may release.
#pragma once

#include <cstdint>
#include <map>

namespace warpsim::runtime {

// Marks a HostRange as managed memory (cudaMallocManaged, __managed__ variables); no cudaHostAlloc flag uses
// it.
constexpr unsigned kManagedFlag = 0x8000'0000u;

struct HostRange {
    uint64_t size = 0;
    unsigned flags = 0;  // cudaHostAlloc* / cudaHostRegister* flags
    bool owned = false;  // allocated by the runtime (cudaHostAlloc), not registered
};

class HostMemory {
  public:
    void add(const void* p, uint64_t size, unsigned flags, bool owned) {
        ranges_[reinterpret_cast<uint64_t>(p)] = {size, flags, owned};
    }
    bool remove(const void* p) { return ranges_.erase(reinterpret_cast<uint64_t>(p)) == 1; }
    const HostRange* exact(const void* p) const {
        auto it = ranges_.find(reinterpret_cast<uint64_t>(p));
        return it == ranges_.end() ? nullptr : &it->second;
    }
    // The range [base, ...) that holds p, if any.
    const HostRange* containing(const void* p, uint64_t* base = nullptr) const {
        const auto a = reinterpret_cast<uint64_t>(p);
        auto it = ranges_.upper_bound(a);
        if (it == ranges_.begin()) return nullptr;
        --it;
        if (a - it->first >= it->second.size) return nullptr;
        if (base) *base = it->first;
        return &it->second;
    }
    bool overlaps(const void* p, uint64_t size) const {
        const auto a = reinterpret_cast<uint64_t>(p);
        auto it = ranges_.lower_bound(a);
        if (it != ranges_.end() && it->first < a + size) return true;
        return it != ranges_.begin() && std::prev(it)->first + std::prev(it)->second.size > a;
    }

  private:
    std::map<uint64_t, HostRange> ranges_;
};

}  // namespace warpsim::runtime
