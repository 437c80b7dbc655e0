// launch/hash.cpp — FNV-1a 64 and its hex spelling.
#include "launch/hash.hpp"

namespace warpsim::launch {
namespace {
constexpr char kHexDigits[] = "0123456789abcdef";
}  // namespace

uint64_t fnv1a64(std::span<const uint8_t> bytes, uint64_t state) {
    for (uint8_t b : bytes) {
        state ^= b;
        state *= kFnvPrime;
    }
    return state;
}

uint64_t fnv1a64(std::string_view text) {
    return fnv1a64(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

std::string hex16(uint64_t v) {
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i, v >>= 4) out[size_t(i)] = kHexDigits[v & 15];
    return out;
}

}  // namespace warpsim::launch
