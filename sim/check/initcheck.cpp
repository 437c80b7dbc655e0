// sim/check/initcheck.cpp — written-byte shadows for shared (per block) and global memory (see header).
#include "sim/check/initcheck.hpp"

#include <algorithm>
#include <bit>
#include <fmt/format.h>

namespace warpsim::check {

void InitChecker::begin_block(const engine::BlockIndex& b, uint32_t shared_bytes) {
    block_ = b;
    shared_.assign(shared_bytes, 0);
}

bool InitChecker::shared_written(uint64_t off, uint32_t n) const {
    if (off >= shared_.size()) return true;  // out of the window: memcheck's business
    const uint64_t end = std::min<uint64_t>(shared_.size(), off + n);
    return std::all_of(shared_.begin() + static_cast<std::ptrdiff_t>(off),
                       shared_.begin() + static_cast<std::ptrdiff_t>(end), [](uint8_t v) { return v != 0; });
}

bool InitChecker::global_written(uint64_t addr, uint32_t n) const {
    if (!memory_ || memory_->host_written(addr, n)) return true;
    for (uint64_t a = addr; a < addr + n; ++a) {
        auto it = global_words_.find(a / 4);
        if ((it == global_words_.end() || !(it->second >> (a % 4) & 1)) && !memory_->host_written(a, 1)) return false;
    }
    return true;
}

void InitChecker::mark(const engine::MemoryEvent& e, uint32_t lane, uint32_t n) {
    const uint64_t addr = e.addr[lane];
    if (e.space == engine::MemorySpace::shared) {
        for (uint64_t a = addr; a < addr + n && a < shared_.size(); ++a) shared_[a] = 1;
        return;
    }
    if (memory_ && memory_->host_written(addr, n)) return;
    for (uint64_t a = addr; a < addr + n; ++a) global_words_[a / 4] |= static_cast<uint8_t>(1u << (a % 4));
}

void InitChecker::report(const engine::MemoryEvent& e, uint32_t lane, bool shared) {
    const Site at{e.site.function, e.site.pc};
    Finding f;
    f.tool = Tool::initcheck;
    f.kind = shared ? "init.shared" : "init.global";
    f.title = fmt::format("Uninitialized __{}__ memory {} of size {} bytes", shared ? "shared" : "global",
                          e.kind == engine::MemoryKind::atomic ? "atomic read" : "read", e.bytes_per_lane);
    f.parties.push_back({e.kind == engine::MemoryKind::atomic ? "atomic" : "read", at,
                         ctx_.thread(e.site.warp, lane), block_.ctaid});
    f.address = e.addr[lane];
    f.space = shared ? "shared" : "global";
    f.variable = shared ? ctx_.shared_name(e.addr[lane], e.bytes_per_lane) : ctx_.global_name(e.addr[lane]);
    if (shared) {
        f.notes.push_back("no thread of this block has written these bytes yet (shared memory starts undefined "
                          "in every block)");
        f.fix = "write the element before reading it, with a __syncthreads() between the write and the read when "
                "another thread writes it; for accumulators, zero them first";
    } else {
        f.notes.push_back("neither the host nor the kernel has written these bytes");
        f.fix = "initialise the buffer (cudaMemset or a launch-spec init) or write it in the kernel before reading";
    }
    log_.add(std::move(f));
}

void InitChecker::on_memory(const engine::MemoryEvent& e) {
    const bool shared = e.space == engine::MemorySpace::shared;
    if (!shared && e.space != engine::MemorySpace::global) return;
    const uint32_t n = std::max<uint32_t>(e.bytes_per_lane, 1);
    const bool reads = e.kind == engine::MemoryKind::read ||
                       (e.kind == engine::MemoryKind::atomic && e.read_modify_write);
    const bool writes = e.kind != engine::MemoryKind::read;
    for (uint32_t m = e.active_mask; m; m &= m - 1) {
        const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
        if (reads && !(shared ? shared_written(e.addr[lane], n) : global_written(e.addr[lane], n)))
            report(e, lane, shared);
    }
    if (!writes) return;
    for (uint32_t m = e.active_mask; m; m &= m - 1) mark(e, static_cast<uint32_t>(std::countr_zero(m)), n);
}

}  // namespace warpsim::check
