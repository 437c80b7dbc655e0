// sim/counts/footprint.cpp — chunked sector bitmaps and the DRAM estimate derived from them.
#include "sim/counts/footprint.hpp"

#include <algorithm>
#include <bit>

namespace warpsim::counts {

SectorFootprint::Chunk& SectorFootprint::chunk(uint64_t sector) {
    const uint64_t key = sector >> kChunkShift;
    if (key != last_key_ || last_ == nullptr) {
        last_ = &chunks_[key];
        last_key_ = key;
    }
    return *last_;
}

void SectorFootprint::merge(const SectorFootprint& other) {
    for (const auto& [key, theirs] : other.chunks_) {
        Chunk& mine = chunks_[key];
        for (uint32_t i = 0; i < kWordsPerChunk; ++i) {
            mine.read[i] |= theirs.read[i];
            mine.write[i] |= theirs.write[i];
        }
    }
}

void SectorFootprint::for_each_touched(const std::function<void(uint64_t, uint64_t, bool)>& f) const {
    for (const auto& [key, c] : chunks_) {
        for (uint32_t i = 0; i < kWordsPerChunk; ++i) {
            const uint64_t base = (key << kChunkShift) + uint64_t{i} * 64;
            for (const bool written : {false, true}) {
                const uint64_t bits = written ? c.write[i] : c.read[i];
                if (!bits) continue;
                f(base + static_cast<uint64_t>(std::countr_zero(bits)),
                  base + 63 - static_cast<uint64_t>(std::countl_zero(bits)), written);
            }
        }
    }
}

const SectorFootprint::Chunk* SectorFootprint::find_chunk(uint64_t key) const {
    auto it = chunks_.find(key);
    return it == chunks_.end() ? nullptr : &it->second;
}

SectorFootprint::Totals SectorFootprint::totals_in(uint64_t first_sector, uint64_t end_sector,
                                                   const SectorFootprint* minus) const {
    Totals t;
    if (end_sector <= first_sector) return t;
    const uint64_t pairs = 0x5555555555555555ull;
    for (const auto& [key, c] : chunks_) {
        const uint64_t base = key << kChunkShift;
        if (base >= end_sector || base + (uint64_t{1} << kChunkShift) <= first_sector) continue;
        const Chunk* other = minus ? minus->find_chunk(key) : nullptr;
        for (uint32_t i = 0; i < kWordsPerChunk; ++i) {
            const uint64_t lo = base + uint64_t{i} * 64;
            if (lo >= end_sector || lo + 64 <= first_sector) continue;
            // The sectors of this word inside the range: whole words but at the range's two ends.
            uint64_t in = ~uint64_t{0};
            if (first_sector > lo) in &= ~uint64_t{0} << (first_sector - lo);
            if (end_sector < lo + 64) in &= (uint64_t{1} << (end_sector - lo)) - 1;
            const uint64_t their_read = other ? other->read[i] : 0, their_write = other ? other->write[i] : 0;
            const uint64_t read = c.read[i] & in, write = c.write[i] & in;
            t.read += static_cast<uint64_t>(std::popcount(read & ~their_read));
            t.write += static_cast<uint64_t>(std::popcount(write & ~their_write));
            t.either += static_cast<uint64_t>(std::popcount((read | write) & ~(their_read | their_write)));
            const uint64_t mine64 = (read | read >> 1) & pairs,
                           theirs64 = (their_read | their_read >> 1) & pairs;
            t.read_blocks64 += static_cast<uint64_t>(std::popcount(mine64 & ~theirs64));
        }
    }
    return t;
}

SectorFootprint::Totals SectorFootprint::totals() const {
    Totals t;
    for (const auto& [key, c] : chunks_) {
        (void)key;
        for (uint32_t i = 0; i < kWordsPerChunk; ++i) {
            t.read += static_cast<uint64_t>(std::popcount(c.read[i]));
            t.write += static_cast<uint64_t>(std::popcount(c.write[i]));
            t.either += static_cast<uint64_t>(std::popcount(c.read[i] | c.write[i]));
            t.read_blocks64 +=
                static_cast<uint64_t>(std::popcount((c.read[i] | c.read[i] >> 1) & 0x5555555555555555ull));
        }
    }
    return t;
}

DramEstimate estimate_dram(const SectorFootprint::Totals& footprint, uint64_t lookups_read,
                           uint64_t lookups_write, const DramModel& model) {
    DramEstimate d{model.read_granule_64 ? 2 * footprint.read_blocks64 : footprint.read, footprint.write};
    if (footprint.either > model.l2_sectors && footprint.either != 0) {
        const double miss =
            1.0 - static_cast<double>(model.l2_sectors) / static_cast<double>(footprint.either);
        const uint64_t reread = lookups_read > footprint.read ? lookups_read - footprint.read : 0;
        const uint64_t rewrite = lookups_write > footprint.write ? lookups_write - footprint.write : 0;
        d.read_sectors += static_cast<uint64_t>(static_cast<double>(reread) * miss + 0.5);
        d.write_sectors += static_cast<uint64_t>(static_cast<double>(rewrite) * miss + 0.5);
    }
    d.write_sectors =
        d.write_sectors > model.retained_dirty_sectors ? d.write_sectors - model.retained_dirty_sectors : 0;
    return d;
}

}  // namespace warpsim::counts
