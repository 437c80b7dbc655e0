// launch/hash.hpp — FNV-1a 64 of buffer contents, the identity both backends report for a buffer.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace warpsim::launch {

inline constexpr uint64_t kFnvOffsetBasis = 0xcbf29ce484222325ull;
inline constexpr uint64_t kFnvPrime = 0x100000001b3ull;

uint64_t fnv1a64(std::span<const uint8_t> bytes, uint64_t state = kFnvOffsetBasis);
uint64_t fnv1a64(std::string_view text);
std::string hex16(uint64_t v);  // 16 lower-case hex digits, zero-padded

}  // namespace warpsim::launch
