// sim/memory/device_memory.cpp — allocation table, bump allocator with guard gaps, checked translation.
#include "sim/memory/device_memory.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cstring>

#include "sim/memory/address_map.hpp"

namespace warpsim::memory {

namespace {
constexpr uint64_t align_up(uint64_t v, uint64_t a) {
    return (v + a - 1) / a * a;
}
}  // namespace

uint64_t DeviceMemory::malloc(uint64_t bytes, std::string label, bool read_only) {
    if (bytes == 0 || bytes > heap_limit_ - heap_base_) return 0;
    uint64_t base = next_;
    if (base + bytes > heap_limit_) return 0;
    // Leave at least one 256-byte gap after every allocation: an access one element past the end must land
    // outside every allocation so that it is reported (the real GPU's granularity would often hide it).
    next_ = align_up(base + bytes, kAllocAlign) + kAllocAlign;
    Allocation a;
    a.base = base;
    a.size = bytes;
    a.label = label.empty() ? fmt::format("allocation #{}", ++serial_) : std::move(label);
    a.read_only = read_only;
    a.data = std::make_unique<uint8_t[]>(bytes);  // value-initialised: zero, deterministic
    table_.emplace(base, std::move(a));
    return base;
}

bool DeviceMemory::malloc_at(uint64_t base, uint64_t bytes, std::string label) {
    if (bytes == 0 || base < heap_base_ || base > next_ || bytes > next_ - base) return false;
    bool overlaps = false;
    for_each_overlapping(base, base + bytes, [&](const Allocation&) { overlaps = true; });
    if (overlaps) return false;
    Allocation a;
    a.base = base;
    a.size = bytes;
    a.label = std::move(label);
    a.data = std::make_unique<uint8_t[]>(bytes);
    table_.emplace(base, std::move(a));
    return true;
}

bool DeviceMemory::free(uint64_t addr) {
    auto it = table_.find(addr);
    if (it == table_.end() || it->second.host) return false;
    table_.erase(it);
    return true;
}

bool DeviceMemory::set_heap(uint64_t base, uint64_t limit) {
    if (!table_.empty() || base >= limit || base % kAllocAlign || limit > kLocalWindow) return false;
    heap_base_ = next_ = base;
    heap_limit_ = limit;
    return true;
}

bool DeviceMemory::map_host(uint64_t base, uint64_t size, uint8_t* host, std::string label) {
    if (size == 0 || !host || base + size < base) return false;
    if (classify_generic(base) != GenericSpace::global ||
        classify_generic(base + size - 1) != GenericSpace::global)
        return false;
    if (base < kLocalWindow && base + size > kLocalWindow) return false;
    auto next = table_.lower_bound(base);
    if (next != table_.end() && next->first < base + size) return false;
    if (next != table_.begin() && std::prev(next)->second.base + std::prev(next)->second.size > base)
        return false;
    Allocation a;
    a.base = base;
    a.size = size;
    a.label = std::move(label);
    a.host = host;
    table_.emplace(base, std::move(a));
    return true;
}

uint64_t DeviceMemory::device_bytes_in_use() const {
    uint64_t total = 0;
    for (const auto& [base, a] : table_)
        if (!a.host) total += a.size;
    return total;
}

bool DeviceMemory::unmap_host(uint64_t base) {
    auto it = table_.find(base);
    if (it == table_.end() || !it->second.host) return false;
    table_.erase(it);
    return true;
}

const Allocation* DeviceMemory::find(uint64_t addr) const {
    auto it = table_.upper_bound(addr);
    if (it == table_.begin()) return nullptr;
    --it;
    const Allocation& a = it->second;
    return addr - a.base < a.size ? &a : nullptr;
}

uint8_t* DeviceMemory::translate(uint64_t addr, uint64_t width) const {
    const Allocation* a = find(addr);
    if (!a || width > a->size - (addr - a->base)) return nullptr;
    return a->bytes() + (addr - a->base);
}

bool DeviceMemory::is_read_only(uint64_t addr) const {
    const Allocation* a = find(addr);
    return a && a->read_only;
}

namespace {
// Adds [lo, hi) to a set of disjoint half-open ranges, merging neighbours and overlaps.
void add_range(std::map<uint64_t, uint64_t>& ranges, uint64_t lo, uint64_t hi) {
    auto it = ranges.upper_bound(lo);
    if (it != ranges.begin() && std::prev(it)->second >= lo) it = std::prev(it);
    while (it != ranges.end() && it->first <= hi) {
        lo = std::min(lo, it->first);
        hi = std::max(hi, it->second);
        it = ranges.erase(it);
    }
    ranges.emplace(lo, hi);
}
}  // namespace

bool DeviceMemory::write(uint64_t addr, std::span<const uint8_t> bytes) {
    if (bytes.empty()) return true;
    uint8_t* p = translate(addr, bytes.size());
    if (!p) return false;
    std::memcpy(p, bytes.data(), bytes.size());
    return mark_host_written(addr, bytes.size());
}

bool DeviceMemory::mark_host_written(uint64_t addr, uint64_t n) {
    if (n == 0) return true;
    auto it = table_.upper_bound(addr);
    if (it == table_.begin()) return false;
    Allocation& a = std::prev(it)->second;
    if (addr - a.base >= a.size || n > a.size - (addr - a.base)) return false;
    add_range(a.host_written, addr - a.base, addr - a.base + n);
    return true;
}

bool DeviceMemory::host_written(uint64_t addr, uint64_t n) const {
    const Allocation* a = find(addr);
    if (!a) return false;
    const uint64_t lo = addr - a->base;
    auto it = a->host_written.upper_bound(lo);
    if (it == a->host_written.begin()) return false;
    --it;
    return it->first <= lo && it->second >= lo + n;
}

std::optional<uint64_t> DeviceMemory::first_unwritten(uint64_t addr, uint64_t n) const {
    const Allocation* a = find(addr);
    if (!a || n == 0 || n > a->size - (addr - a->base)) return std::nullopt;
    uint64_t lo = addr - a->base;
    const uint64_t hi = lo + n;
    auto it = a->host_written.upper_bound(lo);
    if (it != a->host_written.begin()) --it;
    for (; it != a->host_written.end() && it->first <= lo; ++it)
        if (it->second > lo) lo = it->second;  // ranges are merged: one covering lo moves it to its end
    if (lo >= hi) return std::nullopt;
    return a->base + lo;
}

std::optional<std::vector<uint8_t>> DeviceMemory::read(uint64_t addr, uint64_t n) const {
    if (n == 0) return std::vector<uint8_t>{};
    const uint8_t* p = translate(addr, n);
    if (!p) return std::nullopt;
    return std::vector<uint8_t>(p, p + n);
}

NearestAllocation DeviceMemory::nearest(uint64_t addr) const {
    NearestAllocation best;
    uint64_t best_gap = ~0ull;
    auto consider = [&](const Allocation& a) {
        int64_t dist = 0;
        uint64_t gap = 0;
        if (addr < a.base) {
            gap = a.base - addr;
            dist = -static_cast<int64_t>(gap);
        } else if (addr >= a.base + a.size) {
            gap = addr - (a.base + a.size) + 1;
            dist = static_cast<int64_t>(addr - (a.base + a.size));
        }
        if (gap < best_gap) {
            best_gap = gap;
            best = {true, a.base, a.size, a.label, dist};
        }
    };
    auto it = table_.upper_bound(addr);
    if (it != table_.end()) consider(it->second);
    if (it != table_.begin()) consider(std::prev(it)->second);
    return best;
}

}  // namespace warpsim::memory
