// launch/buffer_values.hpp — reading the components of a buffer as numbers: decoding their bits and
// printing them the way a user wrote them (what --show prints and what an expect check compares).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "launch/elem_type.hpp"

namespace warpsim::launch {

// Bits of component k (vector elements count each component) of a little-endian buffer of `t`.
uint64_t component_bits_at(std::span<const uint8_t> bytes, ElemType t, uint64_t k);

// The value the bits of a component of `t` hold: floats exactly (NaN and infinities as such), integers
// exactly (a long double holds every 64-bit integer).
long double component_value(ElemType t, uint64_t bits);

// Shortest text that reads back as the same component: "1.5", "-0", "nan", "inf", "3", "-7".
std::string format_component(ElemType t, uint64_t bits);

// The value as JSON: an integer or a number; NaN and infinities as the strings "nan", "inf", "-inf".
nlohmann::ordered_json component_json(ElemType t, uint64_t bits);

}  // namespace warpsim::launch
