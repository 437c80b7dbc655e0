// sim/runtime/launch_reuse.hpp — reusing the result of an identical earlier launch. Timing loops launch the
// same kernel on the same data hundreds of times; simulating each would take minutes. A launch is identical
// to an earlier one when the kernel, the packed arguments and the configuration are equal and every
// allocation the earlier launch read or wrote holds what it held before that launch (compared by a 128-bit
// hash of its bytes) — or, for an allocation it only wrote, what it left there. Then the kernel reads what it
// read before, so it writes and counts the same: its result is the earlier one, and memory becomes what the
// earlier launch left (the written allocations are kept as they were after it). The hashes are cheap: every
// write into simulated device memory goes through the runtime (the host cannot touch it, it is not mapped),
// which counts writes per allocation and hashes an allocation again only after one; host memory kernels see
// (pinned, mapped, managed) is hashed every time.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/counts/footprint.hpp"
#include "sim/memory/device_memory.hpp"
#include "sim/runtime/launch_log.hpp"

namespace warpsim::runtime {

struct LaunchKey {
    const void* kernel = nullptr;
    std::vector<uint8_t> params;
    std::array<uint32_t, 3> grid{}, block{}, cluster{};
    uint32_t shared_bytes = 0, optin = 0;
    bool cooperative = false;
    bool operator==(const LaunchKey&) const = default;
};

struct ContentHash {
    uint64_t lo = 0, hi = 0;
    bool operator==(const ContentHash&) const = default;
};
// A 128-bit hash of n bytes (four 64-bit multiply-rotate lanes; not cryptographic).
ContentHash hash_bytes(const uint8_t* p, uint64_t n);

class LaunchReuse {
  public:
    // A write into memory at [addr, addr + n) from outside a simulated kernel (copies, memsets, symbols).
    void wrote(const memory::DeviceMemory& mem, uint64_t addr, uint64_t n);

    // The hash of every allocation now: what a simulated launch is compared against later.
    using Snapshot = std::map<uint64_t, ContentHash>;
    Snapshot snapshot(const memory::DeviceMemory& mem);

    // An earlier identical launch whose allocations hold what they held before it, if any: memory is set to
    // what that launch left, its printf text is returned, and its record comes back. nullptr: simulate.
    const LaunchRecord* reuse(const LaunchKey& key, memory::DeviceMemory& mem, std::string& printf_text);

    // After a simulated launch: bumps the write count of every allocation it wrote, and keeps what a later
    // identical launch needs. Returns why it cannot be reused ("" when it can).
    std::string record(const LaunchKey& key, const Snapshot& before, const counts::SectorFootprint& footprint,
                       const memory::DeviceMemory& mem, const LaunchRecord& rec,
                       const std::string& printf_text);

    uint64_t hashed_bytes() const { return hashed_bytes_; }

  private:
    struct Written {
        uint64_t base = 0;
        std::vector<uint8_t> after;  // the allocation's bytes after the launch
        ContentHash after_hash;
    };
    struct Entry {
        LaunchKey key;
        struct Dependency {
            uint64_t base = 0;
            ContentHash before;
            bool read = false;  // false: only written (its earlier content was not looked at)
            int written = -1;   // index into Entry::written; -1: not written
        };
        std::vector<Dependency> deps;  // every allocation it touched
        std::vector<Written> written;
        LaunchRecord record;
        std::string printf_text;
    };
    struct Cached {
        uint64_t generation = ~uint64_t{0};
        ContentHash hash;
    };
    ContentHash current_hash(const memory::Allocation& a);
    uint64_t kept_bytes() const;

    static constexpr size_t kEntriesPerKernel = 4;
    static constexpr uint64_t kMaxKeptBytes = 2ull << 30;  // copies of written allocations, all entries
    std::map<uint64_t, uint64_t> generations_;             // allocation base -> writes so far
    std::map<uint64_t, Cached> hashes_;
    std::map<const void*, std::vector<Entry>> entries_;  // per kernel, most recent last
    uint64_t hashed_bytes_ = 0;
};

}  // namespace warpsim::runtime
