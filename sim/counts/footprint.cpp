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
        const double miss = 1.0 - static_cast<double>(model.l2_sectors) / static_cast<double>(footprint.either);
        const uint64_t reread = lookups_read > footprint.read ? lookups_read - footprint.read : 0;
        const uint64_t rewrite = lookups_write > footprint.write ? lookups_write - footprint.write : 0;
        d.read_sectors += static_cast<uint64_t>(static_cast<double>(reread) * miss + 0.5);
        d.write_sectors += static_cast<uint64_t>(static_cast<double>(rewrite) * miss + 0.5);
    }
    d.write_sectors = d.write_sectors > model.retained_dirty_sectors ? d.write_sectors - model.retained_dirty_sectors : 0;
    return d;
}

}  // namespace warpsim::counts
