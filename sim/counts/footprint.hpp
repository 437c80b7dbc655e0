// sim/counts/footprint.hpp — order-independent L2/DRAM model: the set of distinct sectors a kernel touched.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <utility>

namespace warpsim::counts {

// Which sectors were read and which were written, as bitmaps over 64 KiB chunks of the address space. Union
// is commutative and associative, so merging workers in any order, with blocks spread over them in any way,
// gives the same footprint: this is what makes the L2 and DRAM figures independent of the host's threads.
class SectorFootprint {
  public:
    static constexpr uint32_t kChunkShift = 11;  // 2048 sectors = 64 KiB per chunk
    static constexpr uint32_t kWordsPerChunk = (1u << kChunkShift) / 64;

    SectorFootprint() = default;
    // Copies drop the cached chunk pointer, which would otherwise point into the source's map.
    SectorFootprint(const SectorFootprint& o) : chunks_(o.chunks_) {}
    SectorFootprint& operator=(const SectorFootprint& o) {
        if (this == &o) return *this;
        chunks_ = o.chunks_;
        last_ = nullptr;
        return *this;
    }
    SectorFootprint(SectorFootprint&& o) noexcept : chunks_(std::move(o.chunks_)) { o.last_ = nullptr; }
    SectorFootprint& operator=(SectorFootprint&& o) noexcept {
        chunks_ = std::move(o.chunks_);
        last_ = nullptr;
        o.last_ = nullptr;
        return *this;
    }

    void add_read(uint64_t sector) { chunk(sector).read[word_of(sector)] |= bit_of(sector); }
    void add_write(uint64_t sector) { chunk(sector).write[word_of(sector)] |= bit_of(sector); }
    void merge(const SectorFootprint& other);

    struct Totals {
        uint64_t read = 0, write = 0, either = 0;  // distinct sectors read, written, and read or written
        uint64_t read_blocks64 = 0;                // distinct 64-byte blocks with a sector read
    };
    Totals totals() const;
    // The totals of the sectors in [first_sector, end_sector) that `minus` (if given) does not hold: what a
    // block adds to its neighbour's footprint in one buffer (sampled launches estimate the grid's footprint
    // from it). A 64-byte block counts when it has a sector read here and none read in `minus`.
    Totals totals_in(uint64_t first_sector, uint64_t end_sector,
                     const SectorFootprint* minus = nullptr) const;

    // Calls f(first_sector, last_sector, written) for each run of up to 64 sectors with a sector read
    // (written false) or written (true): the lowest and highest such sector of the run. What the CUDA runtime
    // maps to the allocations a launch read and wrote (sim/runtime: reusing identical launches).
    void for_each_touched(const std::function<void(uint64_t first, uint64_t last, bool written)>& f) const;

  private:
    struct Chunk {
        std::array<uint64_t, kWordsPerChunk> read{};
        std::array<uint64_t, kWordsPerChunk> write{};
    };
    static uint32_t word_of(uint64_t sector) {
        return static_cast<uint32_t>(sector >> 6) & (kWordsPerChunk - 1);
    }
    static uint64_t bit_of(uint64_t sector) { return uint64_t{1} << (sector & 63); }
    Chunk& chunk(uint64_t sector);
    const Chunk* find_chunk(uint64_t key) const;

    std::unordered_map<uint64_t, Chunk> chunks_;
    // The chunk of the previous call: consecutive accesses nearly always stay in one 64 KiB chunk.
    // unordered_map never moves its elements, so the pointer stays valid across insertions.
    uint64_t last_key_ = ~uint64_t{0};
    Chunk* last_ = nullptr;
};

// What the L2 sends to DRAM under the footprint model (see counters.hpp for the assumptions).
struct DramEstimate {
    uint64_t read_sectors = 0;   // 32-byte sectors fetched from DRAM (a 64-byte granule fetches two)
    uint64_t write_sectors = 0;  // dirty sectors written back before the kernel ends
};

struct DramModel {
    uint64_t l2_sectors = 0;              // L2 capacity in sectors
    bool read_granule_64 = true;          // a read miss fetches the aligned 64-byte pair of sectors
    uint64_t retained_dirty_sectors = 0;  // dirty sectors still in L2 (not yet written back) at kernel end
};

// `lookups_read`/`lookups_write`: sectors the L1s sent to L2 (every access, repeats included). Within
// capacity, each distinct sector read misses once (cold L2, as ncu's default cache control leaves it
// before every profiled pass), fetching its 64-byte granule; past capacity, repeated touches miss with
// probability 1 - capacity/footprint (a random-replacement-like streaming estimate). Writes reach DRAM only
// for the dirty sectors that do not fit among the ones L2 still holds when the kernel ends.
DramEstimate estimate_dram(const SectorFootprint::Totals& footprint, uint64_t lookups_read,
                           uint64_t lookups_write, const DramModel& model);

}  // namespace warpsim::counts
