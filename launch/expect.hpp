// launch/expect.hpp — checking a buffer after the kernel against its argument's "expect": how many
// elements differ, the first of them with their indices, and the verdict, as text and as JSON.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "launch/launch_spec.hpp"
#include "launch/outcome.hpp"

namespace warpsim::launch {

struct ElementMismatch {
    uint64_t index = 0;      // element index in the buffer
    uint32_t component = 0;  // within a vector element (0 for scalars)
    uint64_t got_bits = 0, expected_bits = 0;
    std::string got, expected;  // printed values
};

struct BufferCheck {
    uint32_t arg = 0;
    std::string name;       // the argument's name ("c"), or "" when unknown
    std::string expect;     // as written in the spec ("iota:0:2")
    std::string tolerance;  // "exact" or "rtol 1e-05, atol 1e-08"
    uint64_t elements = 0;
    uint32_t components = 1;             // per element (4 for f32x4)
    uint64_t mismatched = 0;             // elements with at least one component outside the tolerance
    std::vector<ElementMismatch> first;  // the first few, in index order
    long double max_abs_error = 0;       // over the compared components with finite values
    bool passed() const { return mismatched == 0; }
};

// The components an expect describes, in its own component type (an npy expect keeps its file's dtype).
struct ExpectedValues {
    ElemType type = ElemType::u8;
    std::vector<uint8_t> bytes;
};
Outcome<ExpectedValues> expected_values(const LaunchSpec& spec, size_t arg_index);

// Compares the buffer's final bytes against the expected values; keeps the first `listed` mismatches.
BufferCheck compare_buffer(const ArgSpec& arg, uint32_t arg_index, const ExpectedValues& expected,
                           std::span<const uint8_t> got, size_t listed = 10);

// Every buffer with an expect: `final_buffers[i]` holds argument i's bytes after the kernel (empty for
// scalars). `names[i]` (may be shorter) names arguments in the messages. Fails when an expected buffer cannot
// be read.
Outcome<std::vector<BufferCheck>> check_expectations(const LaunchSpec& spec,
                                                     const std::vector<std::vector<uint8_t>>& final_buffers,
                                                     const std::vector<std::string>& names);

// "expect   args[2] c: 3 of 1000 elements differ (rtol 1e-05, atol 1e-08); first: c[997] = 0, expected 1994"
std::string format_checks(const std::vector<BufferCheck>& checks);
nlohmann::ordered_json checks_json(const std::vector<BufferCheck>& checks);

}  // namespace warpsim::launch
