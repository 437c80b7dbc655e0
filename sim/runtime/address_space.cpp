// sim/runtime/address_space.cpp — the reserved range (see address_space.hpp).
#include "sim/runtime/address_space.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include "sim/memory/address_map.hpp"

namespace warpsim::runtime {
namespace {
// Below the usual top-down mmap area of a 47-bit x86-64 process and below the generic-address windows.
constexpr uint64_t kPreferredBase = 0x7c00'0000'0000ull;
uint64_t page_size() {
    return static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}
}  // namespace

bool AddressSpace::reserve() {
    const uint64_t total = kHeapBytes + kSharedBytes;
    const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
    void* p =
        mmap(reinterpret_cast<void*>(kPreferredBase), total, PROT_NONE, flags | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == MAP_FAILED) p = mmap(nullptr, total, PROT_NONE, flags, -1, 0);
    if (p == MAP_FAILED) return false;
    const auto b = reinterpret_cast<uint64_t>(p);
    if (b + total > memory::kLocalWindow) {  // the windows must stay outside every allocation
        munmap(p, total);
        return false;
    }
    // Address 0 + 256 of the range stays unused so that no allocation starts exactly at the range's base.
    base_ = b;
    next_shared_ = b + kHeapBytes;
    return true;
}

void* AddressSpace::map_shared(uint64_t bytes) {
    if (!base_ || bytes == 0) return nullptr;
    const uint64_t page = page_size();
    const uint64_t size = (bytes + page - 1) / page * page;
    if (next_shared_ + size > base_ + kHeapBytes + kSharedBytes) return nullptr;
    void* p = mmap(reinterpret_cast<void*>(next_shared_), size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (p == MAP_FAILED) return nullptr;
    shared_[next_shared_] = size;
    // A guard page after each mapping: an access one past the end faults instead of reaching the next one.
    next_shared_ += size + page;
    return p;
}

bool AddressSpace::unmap_shared(void* p) {
    auto it = shared_.find(reinterpret_cast<uint64_t>(p));
    if (it == shared_.end()) return false;
    // Back to PROT_NONE (still reserved): a use after free faults. A fresh mapping gives the pages back; when
    // the kernel refuses one (no memory for the new mapping), the old pages are kept but still made
    // inaccessible, so a use after free faults all the same.
    if (mmap(p, it->second, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0) ==
        MAP_FAILED)
        mprotect(p, it->second, PROT_NONE);
    shared_.erase(it);
    return true;
}

uint64_t AddressSpace::shared_size(const void* p) const {
    auto it = shared_.find(reinterpret_cast<uint64_t>(p));
    return it == shared_.end() ? 0 : it->second;
}

}  // namespace warpsim::runtime
