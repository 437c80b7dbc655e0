// sim/engine/schedule.hpp — seeded legal schedules (LaunchConfig::schedule_seed): another order of warp turns
// and another quantum per turn in each block, and another order of blocks. Seed 0 is the engine's own order.
//
// Every order produced here is one a GPU could pick: warps of a block are independent until a barrier, and
// barriers keep their meaning because the block runner never lets a waiting warp run. The order depends on
// the seed and the block's linear index only, never on the host worker that runs the block, so a launch with
// a given seed gives the same results with any number of workers.
#pragma once

#include <cstdint>
#include <iterator>
#include <numeric>
#include <utility>
#include <vector>

namespace warpsim::engine {

// splitmix64: small, fast and good enough to pick orders (not for anything statistical).
class ScheduleRng {
  public:
    explicit ScheduleRng(uint64_t state) : state_(state) {}
    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    uint64_t below(uint64_t n) { return n ? next() % n : 0; }

  private:
    uint64_t state_;
};

// The order in which a block's warps take their turns, round by round, and how long each turn lasts.
// Seed 0: warps in index order, `base_quantum` instructions a turn (no state, no random numbers).
// Otherwise each round is a fresh permutation, and each turn lasts 1..G instructions where the granularity G
// (1, 2, 4, 16, 64, 256 or `base_quantum`) is drawn once per block: some seeds interleave warps instruction
// by instruction, others in long stretches.
class WarpOrder {
  public:
    WarpOrder(uint64_t seed, uint64_t block_linear, uint32_t warps, uint64_t base_quantum)
        : rng_(seed ^ (block_linear * 0xd1b54a32d192ed03ull)), base_(base_quantum), seeded_(seed != 0) {
        if (!seeded_) return;
        order_.resize(warps);
        const uint64_t sizes[] = {1, 2, 4, 16, 64, 256, base_quantum};
        granularity_ = sizes[rng_.below(std::size(sizes))];
    }
    // Call before each round over the warps.
    void next_round() {
        if (!seeded_) return;
        std::iota(order_.begin(), order_.end(), 0u);
        for (std::size_t i = order_.size(); i > 1; --i) std::swap(order_[i - 1], order_[rng_.below(i)]);
    }
    uint32_t warp(uint32_t k) const { return seeded_ ? order_[k] : k; }
    uint64_t quantum() { return seeded_ ? 1 + rng_.below(granularity_) : base_; }

  private:
    ScheduleRng rng_;
    uint64_t base_;
    uint64_t granularity_ = 1;
    bool seeded_;
    std::vector<uint32_t> order_;
};

// A permutation of 0..n-1 (k -> (a k + c) mod n with a coprime to n): the order of blocks within a chunk, and
// of chunks. Seed 0: the identity.
class BlockOrder {
  public:
    BlockOrder(uint64_t seed, uint64_t salt, uint64_t n) : n_(n) {
        if (!seed || n < 2 || n >= (1ull << 32)) return;  // below 2^32, a k + c cannot overflow
        identity_ = false;
        ScheduleRng rng(seed ^ (salt * 0x9e3779b97f4a7c15ull) ^ 0x5851f42d4c957f2dull);
        do a_ = 1 + rng.below(n - 1);
        while (std::gcd(a_, n) != 1);
        c_ = rng.below(n);
    }
    uint64_t at(uint64_t k) const { return identity_ ? k : (a_ * k + c_) % n_; }

  private:
    uint64_t n_;
    uint64_t a_ = 1, c_ = 0;
    bool identity_ = true;
};

}  // namespace warpsim::engine
