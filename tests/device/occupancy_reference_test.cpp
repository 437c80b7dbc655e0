// The occupancy calculator against the CUDA toolkit's own cuda_occupancy.h, case for case, over large sweeps.
#include <catch2/catch.hpp>

#if __has_include(<cuda_occupancy.h>)
#include <cuda_occupancy.h>

#include <random>
#include <sstream>

#include "sim/device/device.hpp"
#include "sim/device/occupancy.hpp"

namespace {

using warpsim::device::CachePreference;
using warpsim::device::DevicePreset;
using warpsim::device::KernelResources;
using warpsim::device::Limiter;
using warpsim::device::Occupancy;

DevicePreset preset(const char* name) {
    auto loaded = warpsim::device::load_preset(name);
    INFO(loaded.error());
    REQUIRE(loaded.has_value());
    return loaded.value();
}

// The cudaDeviceProp the CUDA runtime would report for this preset.
cudaOccDeviceProp occ_properties(const DevicePreset& p) {
    cudaOccDeviceProp prop;
    prop.computeMajor = p.compute_capability.major;
    prop.computeMinor = p.compute_capability.minor;
    prop.maxThreadsPerBlock = p.block.max_threads;
    prop.maxThreadsPerMultiprocessor = p.sm.max_threads;
    prop.regsPerBlock = p.block.max_registers;
    prop.regsPerMultiprocessor = p.sm.registers;
    prop.warpSize = p.warp_size;
    prop.sharedMemPerBlock = static_cast<size_t>(p.block.shared_default_bytes);
    prop.sharedMemPerMultiprocessor = static_cast<size_t>(p.sm.shared_bytes);
    prop.numSms = p.sm_count;
    prop.sharedMemPerBlockOptin = static_cast<size_t>(p.block.shared_optin_bytes);
    prop.reservedSharedMemPerBlock = static_cast<size_t>(p.sm.reserved_shared_per_block);
    return prop;
}

unsigned limiter_bits(const Occupancy& o) {
    unsigned bits = 0;
    for (Limiter l : o.limiters) {
        switch (l) {
            case Limiter::warps:
                bits |= OCC_LIMIT_WARPS;
                break;
            case Limiter::registers:
                bits |= OCC_LIMIT_REGISTERS;
                break;
            case Limiter::shared_memory:
                bits |= OCC_LIMIT_SHARED_MEMORY;
                break;
            case Limiter::blocks:
                bits |= OCC_LIMIT_BLOCKS;
                break;
            case Limiter::barriers:
                bits |= OCC_LIMIT_BARRIERS;
                break;
        }
    }
    return bits;
}

std::string describe(const DevicePreset& p, const KernelResources& k) {
    std::ostringstream s;
    s << p.name << ": threads " << k.threads_per_block << ", regs " << k.registers_per_thread << ", static "
      << k.static_shared_bytes << ", dynamic " << k.dynamic_shared_bytes << ", max dynamic "
      << (k.max_dynamic_shared_bytes ? std::to_string(*k.max_dynamic_shared_bytes) : "unset") << ", carveout "
      << k.carveout_percent << ", cache " << static_cast<int>(k.cache_preference) << ", barriers "
      << k.barriers_per_block;
    return s.str();
}

// Compares one case; returns an empty string when ours and the toolkit's agree on everything.
std::string compare(const DevicePreset& p, const cudaOccDeviceProp& prop, const KernelResources& k) {
    cudaOccFuncAttributes attr;
    attr.maxThreadsPerBlock = INT_MAX;
    attr.numRegs = k.registers_per_thread;
    attr.sharedSizeBytes = static_cast<size_t>(k.static_shared_bytes);
    attr.partitionedGCConfig = PARTITIONED_GC_OFF;
    attr.shmemLimitConfig = k.max_dynamic_shared_bytes ? FUNC_SHMEM_LIMIT_OPTIN : FUNC_SHMEM_LIMIT_DEFAULT;
    attr.maxDynamicSharedSizeBytes = static_cast<size_t>(k.max_dynamic_shared_bytes.value_or(0));
    attr.numBlockBarriers = k.barriers_per_block;
    cudaOccDeviceState state;
    state.carveoutConfig = k.carveout_percent;
    state.cacheConfig = static_cast<cudaOccCacheConfig>(static_cast<int>(k.cache_preference));

    cudaOccResult ref{};
    cudaOccError status = cudaOccMaxActiveBlocksPerMultiprocessor(
        &ref, &prop, &attr, &state, k.threads_per_block, static_cast<size_t>(k.dynamic_shared_bytes));
    auto ours = warpsim::device::compute_occupancy(p, k);
    if (status != CUDA_OCC_SUCCESS || !ours) {
        return describe(p, k) + ": toolkit status " + std::to_string(status) + ", ours: " + ours.error();
    }
    const Occupancy& o = *ours;
    size_t ref_config = 0;
    cudaOccSMemPerMultiprocessor(&ref_config, &prop, &state);
    auto preferred = warpsim::device::preferred_shared_config(p, k);

    std::ostringstream diff;
    auto check = [&](const char* what, long long mine, long long theirs) {
        if (mine != theirs) diff << " " << what << " ours " << mine << " toolkit " << theirs << ";";
    };
    check("blocks", o.blocks_per_sm, ref.activeBlocksPerMultiprocessor);
    check("warps limit", o.limits.warps, ref.blockLimitWarps);
    check("registers limit", o.limits.registers, ref.blockLimitRegs);
    check("shared limit", o.limits.shared, ref.blockLimitSharedMem);
    check("blocks limit", o.limits.blocks, ref.blockLimitBlocks);
    check("barriers limit", o.limits.barriers, ref.blockLimitBarriers);
    check("registers per block", o.registers_per_block, ref.allocatedRegistersPerBlock);
    check("shared per block", o.shared_per_block, static_cast<long long>(ref.allocatedSharedMemPerBlock));
    check("preferred shared config", preferred ? *preferred : -1, static_cast<long long>(ref_config));
    // The toolkit keeps the bits it set before the barrier limit lowered the answer; compare the mask only
    // where barriers did not decide it.
    int before_barriers =
        std::min({ref.blockLimitWarps, ref.blockLimitRegs, ref.blockLimitSharedMem, ref.blockLimitBlocks});
    if (ref.blockLimitBarriers >= before_barriers)
        check("limiter bits", limiter_bits(o), ref.limitingFactors);
    std::string out = diff.str();
    return out.empty() ? out : describe(p, k) + ":" + out;
}

struct Tally {
    long long cases = 0;
    long long mismatches = 0;
    std::string first;
    void add(const std::string& diff) {
        ++cases;
        if (diff.empty()) return;
        if (mismatches++ == 0) first = diff;
    }
};

const char* const swept_presets[] = {"h200", "h100", "a100", "v100", "rtx4090", "rtx4060-laptop", "t4"};

}  // namespace

TEST_CASE("occupancy equals cuda_occupancy.h for every block size and register count",
          "[occupancy][reference]") {
    for (const char* name : swept_presets) {
        DevicePreset p = preset(name);
        cudaOccDeviceProp prop = occ_properties(p);
        Tally tally;
        for (int threads = 1; threads <= 1024; ++threads) {
            for (int regs = 0; regs <= 255; ++regs) {
                KernelResources k;
                k.threads_per_block = threads;
                k.registers_per_thread = regs;
                tally.add(compare(p, prop, k));
            }
        }
        INFO(name << ": " << tally.mismatches << " of " << tally.cases << " differ; first: " << tally.first);
        CHECK(tally.cases == 1024 * 256);
        CHECK(tally.mismatches == 0);
    }
}

TEST_CASE("occupancy equals cuda_occupancy.h over shared memory, carveouts and opt-in",
          "[occupancy][reference]") {
    const int block_sizes[] = {1,   31,  32,  33,  64,  96,   128,  160, 192,
                               256, 384, 512, 640, 768, 1000, 1024, 1025};
    const int carveouts[] = {-1, 0, 1, 10, 25, 33, 50, 66, 75, 99, 100};
    const std::int64_t statics[] = {0, 4096, 49152};
    for (const char* name : swept_presets) {
        DevicePreset p = preset(name);
        cudaOccDeviceProp prop = occ_properties(p);
        Tally tally;
        for (std::int64_t kb = 0; kb <= 230; ++kb) {
            for (std::int64_t offset : {0, 1, 100}) {
                std::int64_t dynamic = kb * 1024 + offset;
                std::optional<std::int64_t> optins[] = {std::nullopt, dynamic, 0, p.block.shared_optin_bytes};
                for (std::int64_t st : statics) {
                    for (int carveout : carveouts) {
                        for (const auto& optin : optins) {
                            for (int threads : block_sizes) {
                                KernelResources k;
                                k.threads_per_block = threads;
                                k.registers_per_thread = 40;
                                k.static_shared_bytes = st;
                                k.dynamic_shared_bytes = dynamic;
                                k.max_dynamic_shared_bytes = optin;
                                k.carveout_percent = carveout;
                                tally.add(compare(p, prop, k));
                            }
                        }
                    }
                }
            }
        }
        INFO(name << ": " << tally.mismatches << " of " << tally.cases << " differ; first: " << tally.first);
        CHECK(tally.cases > 1000000);
        CHECK(tally.mismatches == 0);
    }
}

TEST_CASE("occupancy equals cuda_occupancy.h on random launches", "[occupancy][reference]") {
    std::mt19937 rng(20261129);
    auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    for (const char* name : swept_presets) {
        DevicePreset p = preset(name);
        cudaOccDeviceProp prop = occ_properties(p);
        Tally tally;
        for (int i = 0; i < 200000; ++i) {
            KernelResources k;
            k.threads_per_block = uniform(1, 1100);
            k.registers_per_thread = uniform(0, 255);
            k.static_shared_bytes = uniform(0, 3) == 0 ? 0 : uniform(0, 49152);
            k.dynamic_shared_bytes = uniform(0, 2) == 0 ? 0 : uniform(0, 240 * 1024);
            if (uniform(0, 1) == 1) k.max_dynamic_shared_bytes = uniform(0, 240 * 1024);
            k.carveout_percent = uniform(-1, 100);
            if (uniform(0, 3) == 0) k.carveout_percent = -1;
            k.cache_preference = static_cast<CachePreference>(uniform(0, 3));
            k.barriers_per_block = uniform(0, 16);
            tally.add(compare(p, prop, k));
        }
        INFO(name << ": " << tally.mismatches << " of " << tally.cases << " differ; first: " << tally.first);
        CHECK(tally.mismatches == 0);
    }
}

#else
TEST_CASE("cuda_occupancy.h comparison skipped: the CUDA toolkit headers are not installed",
          "[occupancy][reference]") {
    WARN("cuda_occupancy.h not found: the reference comparison did not run");
}
#endif
