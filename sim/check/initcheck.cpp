// sim/check/initcheck.cpp — written-byte shadows for shared (per block) and global memory (see header).
#include "sim/check/initcheck.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <bit>

#include "sim/memory/address_map.hpp"

namespace warpsim::check {

void InitChecker::begin_cluster(std::span<const engine::BlockIndex> ctas) {
    ctas_.assign(ctas.begin(), ctas.end());
    awaiting_ = static_cast<uint32_t>(ctas_.size());
}

void InitChecker::begin_block(const engine::BlockIndex& b, uint32_t shared_bytes) {
    const bool in_cluster =
        std::any_of(ctas_.begin(), ctas_.end(), [&](const auto& c) { return c.linear == b.linear; });
    if (awaiting_ > 0 && in_cluster) {  // a CTA of the announced cluster: the shadows are made at its first
        if (awaiting_-- == ctas_.size()) shared_.assign(ctas_.size(), std::vector<uint8_t>(shared_bytes, 0));
        return;
    }
    awaiting_ = 0;
    ctas_.assign(1, b);
    shared_.assign(1, std::vector<uint8_t>(shared_bytes, 0));
}

std::vector<uint8_t>* InitChecker::shared_of(const engine::MemoryEvent& e, uint32_t lane, uint64_t& offset) {
    uint32_t rank = 0;
    while (rank < ctas_.size() && ctas_[rank].linear != e.site.block.linear) ++rank;
    offset = e.addr[lane];
    if (offset >= memory::kClusterRankStride) {  // a shared::cluster address: CTA rank and offset
        rank = static_cast<uint32_t>((offset >> memory::kClusterRankShift) - 1);
        offset &= memory::kClusterRankStride - 1;
    }
    return rank < shared_.size() ? &shared_[rank] : nullptr;
}

bool InitChecker::shared_written(const std::vector<uint8_t>& shadow, uint64_t off, uint32_t n) const {
    if (off >= shadow.size()) return true;  // out of the window: memcheck's business
    const uint64_t end = std::min<uint64_t>(shadow.size(), off + n);
    return std::all_of(shadow.begin() + static_cast<std::ptrdiff_t>(off),
                       shadow.begin() + static_cast<std::ptrdiff_t>(end), [](uint8_t v) { return v != 0; });
}

bool InitChecker::global_written(uint64_t addr, uint32_t n) const {
    if (!memory_ || memory_->host_written(addr, n)) return true;
    for (uint64_t a = addr; a < addr + n; ++a) {
        auto it = global_words_.find(a / 4);
        if ((it == global_words_.end() || !(it->second >> (a % 4) & 1)) && !memory_->host_written(a, 1))
            return false;
    }
    return true;
}

void InitChecker::mark(const engine::MemoryEvent& e, uint32_t lane, uint32_t n) {
    if (e.space == engine::MemorySpace::shared) {
        uint64_t off = 0;
        std::vector<uint8_t>* shadow = shared_of(e, lane, off);
        if (!shadow) return;
        for (uint64_t a = off; a < off + n && a < shadow->size(); ++a) (*shadow)[a] = 1;
        return;
    }
    const uint64_t addr = e.addr[lane];
    if (memory_ && memory_->host_written(addr, n)) return;
    for (uint64_t a = addr; a < addr + n; ++a) global_words_[a / 4] |= static_cast<uint8_t>(1u << (a % 4));
}

std::vector<std::pair<uint64_t, uint64_t>> InitChecker::written_global() const {
    std::vector<std::pair<uint64_t, uint8_t>> words(global_words_.begin(), global_words_.end());
    std::sort(words.begin(), words.end());
    std::vector<std::pair<uint64_t, uint64_t>> out;
    for (const auto& [w, bits] : words) {
        for (uint64_t b = 0; b < 4; ++b) {
            if (!(bits >> b & 1)) continue;
            const uint64_t a = w * 4 + b;
            if (!out.empty() && out.back().second == a)
                ++out.back().second;
            else
                out.emplace_back(a, a + 1);
        }
    }
    return out;
}

void InitChecker::report(const engine::MemoryEvent& e, uint32_t lane, bool shared, uint64_t offset) {
    const Site at{e.site.function, e.site.pc};
    Finding f;
    f.tool = Tool::initcheck;
    f.kind = shared ? "init.shared" : "init.global";
    f.title = fmt::format("Uninitialized __{}__ memory {} of size {} bytes", shared ? "shared" : "global",
                          e.kind == engine::MemoryKind::atomic ? "atomic read" : "read", e.bytes_per_lane);
    f.parties.push_back({e.kind == engine::MemoryKind::atomic ? "atomic" : "read", at,
                         ctx_.thread(e.site.warp, lane), e.site.block.ctaid});
    f.address = offset;
    f.space = shared ? "shared" : "global";
    f.variable = shared ? ctx_.shared_name(offset, e.bytes_per_lane) : ctx_.global_name(offset);
    if (shared) {
        f.notes.push_back(
            "no thread of this block has written these bytes yet (shared memory starts undefined "
            "in every block)");
        f.fix =
            "write the element before reading it, with a __syncthreads() between the write and the read when "
            "another thread writes it; for accumulators, zero them first";
    } else {
        f.notes.push_back("neither the host nor the kernel has written these bytes");
        f.fix =
            "initialise the buffer (cudaMemset or a launch-spec init) or write it in the kernel before "
            "reading";
    }
    log_.add(std::move(f));
}

void InitChecker::on_memory(const engine::MemoryEvent& e) {
    const bool shared = e.space == engine::MemorySpace::shared;
    if (!shared && e.space != engine::MemorySpace::global) return;
    const uint32_t n = std::max<uint32_t>(e.bytes_per_lane, 1);
    const bool reads =
        e.kind == engine::MemoryKind::read || (e.kind == engine::MemoryKind::atomic && e.read_modify_write);
    const bool writes = e.kind != engine::MemoryKind::read;
    for (uint32_t m = e.active_mask; m; m &= m - 1) {
        const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
        if (!reads) break;
        uint64_t offset = e.addr[lane];
        if (shared) {
            const std::vector<uint8_t>* shadow = shared_of(e, lane, offset);
            if (shadow && !shared_written(*shadow, offset, n)) report(e, lane, true, offset);
        } else if (!global_written(offset, n)) {
            report(e, lane, false, offset);
        }
    }
    if (!writes) return;
    for (uint32_t m = e.active_mask; m; m &= m - 1) mark(e, static_cast<uint32_t>(std::countr_zero(m)), n);
}

}  // namespace warpsim::check
