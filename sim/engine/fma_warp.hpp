// sim/engine/fma_warp.hpp — fma.rn.f32 without .ftz over a full warp on the host's vector units, with the
// path named so that a test can run each one this CPU has (the engine always asks for the widest).
#pragma once

#include <cstdint>

namespace warpsim::engine {

enum class FmaWarpPath : uint8_t {
    widest,  // AVX2 where the CPU has it, else SSE2, else lane by lane: what the engine runs
    sse2,    // two lanes per instruction
    avx2,    // four lanes per instruction
    lanes,   // one lane at a time (the host's f64 route where it is exact, sim/arith for the rest)
};

// d[l] = fma.rn.f32(a[l], b[l], c[l]) for the 32 lanes, each a 32-bit value in the low half of its 64-bit
// slot (the upper half of d[l] is zeroed); d may be one of the sources. Returns false, writing nothing,
// when `path` is not built for this host or the CPU lacks it.
bool f32_fma_rn_full_warp(uint64_t* d, const uint64_t* a, const uint64_t* b, const uint64_t* c,
                          FmaWarpPath path);

}  // namespace warpsim::engine
