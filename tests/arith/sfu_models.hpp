// tests/arith/sfu_models.hpp — the warpsim model of each function swept by tests/hardware/sfu/sfu_sweep.cu.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace warpsim::arith::testing {

// How a function's output bits are read when measuring distance (ULPs or integer difference).
enum class OutFmt { f32, f64, f16, bf16, integer, f16x2, f8x2_e4m3, f8x2_e5m2 };

// What the comparison with the GPU asserts.
enum class Expect {
    exact,        // bit-exact on every sample
    max_ulp,      // |gpu - model| <= limit ULPs on every sample (NaN must match NaN)
    documented,   // a function-specific documented error bound (see `bound`)
    report_only,  // only reported (behaviour the ISA leaves unspecified)
};

struct SfuModel {
    std::string name;  // the PTX instruction as named in sfu_results.bin
    OutFmt fmt;
    std::function<uint64_t(const uint64_t* ops)> model;
    Expect expect;
    double limit = 0;  // max_ulp: ULPs
    // documented: true when the GPU value is within the ISA's error bound of the model value.
    std::function<bool(const uint64_t* ops, uint64_t gpu, uint64_t model)> bound;
};

const std::vector<SfuModel>& sfu_models();

}  // namespace warpsim::arith::testing
