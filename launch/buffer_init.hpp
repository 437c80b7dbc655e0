// launch/buffer_init.hpp — the buffer generators of the launch spec, shared bit for bit by both backends.
//
// Component k of a buffer (vector elements count each component: f32x4 element 3 holds components
// 12..15) is filled as follows, little-endian:
//   zero        all bytes 0.
//   iota        the integer k converted to the component type: integers wrap (u8 holds k mod 256, i8 the
//               two's complement of k mod 256), f16/bf16/f32 round to nearest even (f16 of 2049 is 2048),
//               f64 holds k exactly.
//   fill:V      every component holds V: 0x... is the exact bit pattern; otherwise an integer type takes
//               a decimal integer in its range and a float type a decimal number rounded to nearest even.
//   random:S    z = splitmix64 output number k (0-based) from state S, i.e.
//                 x = S + (k + 1) * 0x9E3779B97F4A7C15            (mod 2^64)
//                 x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9
//                 x = (x ^ (x >> 27)) * 0x94D049BB133111EB
//                 z = x ^ (x >> 31)
//               integers take the low 8/16/32/64 bits of z; f32 is (z >> 40) * 2^-24 and f64 is
//               (z >> 11) * 2^-53 (uniform in [0, 1), exact); f16 and bf16 take that f32 value rounded
//               to nearest even.
//   iota:A:B    the number A + B * k converted to the component type (integers: A and B integral, wrapping;
//               floats: computed in extended precision, rounded to nearest even).
//   file:PATH   the file's bytes (the size must equal count * element size).
//   npy:PATH    a NumPy .npy file's data (its dtype the component type, count * components elements).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "launch/launch_spec.hpp"
#include "launch/outcome.hpp"

namespace warpsim::launch {

uint64_t splitmix64_at(uint64_t seed, uint64_t k);  // output number k of splitmix64 seeded with `seed`

// Bit pattern of component k for iota / random / fill (not file or zero).
uint64_t generated_component_bits(const ArgSpec& arg, uint64_t k);
uint64_t generated_bits(ElemType t, const BufferInit& init, uint64_t k);

// Fills `out` with `components` components of `t` as `init` says (an npy init holds its file's own dtype).
// `label` ("spec.json: args[2].expect") prefixes messages.
std::string fill_components(ElemType t, uint64_t components, const BufferInit& init, std::span<uint8_t> out,
                            const std::string& label);

// Fills `out` (exactly arg.buffer_bytes() long) with the argument's initial contents. Returns an empty
// string on success, else a message naming the spec file and argument.
std::string fill_buffer(const LaunchSpec& spec, size_t arg_index, std::span<uint8_t> out);
// The same into a new vector.
Outcome<std::vector<uint8_t>> make_buffer(const LaunchSpec& spec, size_t arg_index);

}  // namespace warpsim::launch
