// launch/launch_spec.hpp — the launch spec (DESIGN.md "The launch spec"): what both backends run.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "launch/elem_type.hpp"

namespace warpsim::launch {

// Hard limits: a spec over them is refused with a message, not attempted.
inline constexpr uint64_t kMaxBufferBytes = 4ull << 30;        // one buffer
inline constexpr uint64_t kMaxTotalBufferBytes = 16ull << 30;  // all buffers of one spec together
inline constexpr size_t kMaxArgs = 1024;
inline constexpr uint64_t kMaxBytesArg = 32764;  // the PTX limit on a kernel's parameter space

// How a buffer is filled before the launch. The generators are in buffer_init.hpp.
struct BufferInit {
    enum class Kind : uint8_t { zero, iota, fill, random, file, npy, host };
    Kind kind = Kind::zero;
    uint64_t fill_bits = 0;  // fill: the bit pattern of one component (already converted to the type)
    uint64_t seed = 0;       // random
    // iota:START:STEP — component k holds START + STEP * k (plain iota: 0 and 1); integral for integer types.
    long double iota_start = 0, iota_step = 1;
    std::string file;  // file, npy: the path, resolved relative to the spec's folder
    std::span<const uint8_t>
        host;  // host: the caller's bytes (the C++ API), valid while the launch is set up
    // npy: where the data begin in the file, and its dtype (the argument's type for an init; an expect may
    // hold another numeric type, compared by value).
    uint64_t npy_data_offset = 0;
    std::string npy_descr;
    std::string text;  // as written in the spec ("random:3"), for messages and reports
};

// What a buffer must hold after the kernel (an argument's "expect"), and how close counts as equal:
// exact compares bits (a NaN matches only the same NaN); else |got - expected| <= atol + rtol * |expected|,
// a NaN matching any NaN and an infinity only itself.
struct BufferExpect {
    BufferInit values;  // the init grammar: iota[:START:STEP], fill:V, zero, npy:PATH, file:PATH, random:S
    bool exact = false;
    double rtol = 0, atol = 0;
};

struct ArgSpec {
    enum class Kind : uint8_t { buffer, scalar, bytes };
    Kind kind = Kind::scalar;
    ElemType type = ElemType::i32;       // buffer and scalar
    uint64_t count = 0;                  // buffer: elements (a vector element counts once)
    BufferInit init;                     // buffer
    std::optional<BufferExpect> expect;  // buffer: what it must hold after the kernel
    std::vector<uint8_t> value;          // scalar: little-endian bits; bytes: the raw bytes
    std::string name;                    // optional "name" from the spec, for messages

    uint64_t buffer_bytes() const { return count * elem_bytes(type); }
    // Bytes this argument occupies in the kernel's parameter space: 8 for a buffer (a pointer).
    uint64_t param_bytes() const { return kind == Kind::buffer ? 8 : value.size(); }
};

// What the L2 holds when the launch starts, for the predicted time: `warm`, what it kept from the launch's
// previous run (CUDA-event timing repeats a launch), or `cold`, nothing (flushed, as Nsight Compute's
// --cache-control all and a flush kernel leave it). The counts are a cold L2's either way.
enum class L2State { warm, cold };

struct LaunchSpec {
    std::string path;         // the spec file as given ("examples/specs/vector_add_1000.json")
    std::string source;       // as written in the spec
    std::string source_path;  // resolved relative to the spec's folder
    std::string kernel;
    std::string arch = "sm_90";
    bool arch_given = false;  // the spec names `arch`; else a .cu is compiled for the device preset's
    std::array<uint32_t, 3> grid{1, 1, 1};
    std::array<uint32_t, 3> block{1, 1, 1};
    // CTAs per thread-block cluster (a launch with cuLaunchKernelEx's cluster dimension); nullopt: none, or
    // the kernel's own __cluster_dims__.
    std::optional<std::array<uint32_t, 3>> cluster;
    uint32_t shared_bytes = 0;                         // dynamic shared memory per block
    std::optional<uint32_t> max_dynamic_shared_bytes;  // opt-in above 48 KiB (cuFuncSetAttribute)
    std::optional<uint32_t> registers;                 // registers per thread the simulator assumes
    bool deterministic = true;  // false: buffer hashes may differ between runs (races on purpose)
    std::optional<std::string> expect_error;  // the launch is meant to fail with a message containing this
    L2State l2 = L2State::warm;               // the L2 at the launch's start, for the predicted time
    std::vector<ArgSpec> args;

    uint64_t threads_per_block() const { return uint64_t(block[0]) * block[1] * block[2]; }
    uint64_t block_count() const { return uint64_t(grid[0]) * grid[1] * grid[2]; }
};

// Errors are complete messages ("vector_add.json: args[2].type: unknown element type 'f33' (expected one
// of i8 u8 ...)"; for malformed JSON "spec.json:4:8: invalid JSON: ...", at the last character the JSON
// reader took in, i.e. the end of the offending token); warnings are for fields the parser does not know.
struct SpecParse {
    std::optional<LaunchSpec> spec;
    std::vector<std::string> errors;
    std::vector<std::string> warnings;
    bool ok() const { return spec.has_value(); }
    std::string error_text() const;  // the errors, one per line
};

// Parses spec text; `path` names the file in messages and anchors relative paths (source, file: inits).
// Never throws.
SpecParse parse_spec(std::string_view text, std::string_view path);
// Reads and parses a spec file.
SpecParse load_spec(const std::string& path);

// Byte offset (0-based) in text -> 1-based line and column.
std::pair<uint32_t, uint32_t> line_col(std::string_view text, size_t offset);

}  // namespace warpsim::launch
