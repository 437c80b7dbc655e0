// sim/engine/wgmma_layout.hpp — the operand layouts of Hopper's warpgroup MMA (wgmma.mma_async, PTX ISA
// 9.7.15.5.1 "Register Fragments and Shared Memory Matrix Layouts"): the 64-bit matrix descriptor, the
// canonical shared-memory layouts (K- or MN-major, no swizzle or the 32/64/128-byte swizzle) and the
// accumulator fragment. Pure functions, used by handlers_wgmma.cpp and unit-tested on their own.
#pragma once

#include <cstdint>

namespace warpsim::engine::wgmma {

// The descriptor's swizzle field (bits 62-63).
enum class Swizzle : uint8_t { none = 0, b128 = 1, b64 = 2, b32 = 3 };

struct MatrixDescriptor {
    uint32_t start = 0;        // shared::cta byte address (bits 0-13, in 16-byte units)
    uint32_t lbo = 0;          // leading dimension byte offset (bits 16-29, in 16-byte units)
    uint32_t sbo = 0;          // stride dimension byte offset (bits 32-45, in 16-byte units)
    uint32_t base_offset = 0;  // bits 49-51
    Swizzle swizzle = Swizzle::none;
};

MatrixDescriptor decode_descriptor(uint64_t bits);

// Bytes of one row of the swizzle atom: 128, 64, 32, and 16 (one core-matrix row) without swizzle.
uint32_t swizzle_row_bytes(Swizzle s);

// The shared::cta byte address of element (mn, k) of an operand (mn: the row of A or the column of B; k
// along K) of `element_bytes` bytes, K-major (imm-trans 0) or MN-major (imm-trans 1). The canonical layouts
// with T = 16 / element_bytes elements per 16 bytes and W = swizzle_row_bytes:
//   K-major,  no swizzle: (mn%8)*16 + (mn/8)*SBO + kb%16 + (kb/16)*LBO          (kb = k * element_bytes)
//   K-major,  swizzled:   (mn%8)*W  + (mn/8)*SBO + kb                            (LBO unused)
//   MN-major, no swizzle: mb%16 + (mb/16)*SBO + (k%8)*16 + (k/8)*LBO            (mb = mn * element_bytes)
//   MN-major, swizzled:   mb%W  + (mb/W)*LBO  + (k%8)*W  + (k/8)*SBO
// added to the start address; then the swizzle XORs the address's 16-byte-chunk bits 4.. with bits 7..
// (one bit for 32B, two for 64B, three for 128B): the pattern follows the absolute address, so a start
// address advanced inside a swizzled row (a k-step) reads the same swizzled tile.
uint32_t element_address(const MatrixDescriptor& d, bool mn_major, uint32_t element_bytes, uint32_t mn,
                         uint32_t k);

// The swizzle alone, on a shared::cta byte address.
uint32_t swizzle_address(uint32_t addr, Swizzle s);

// Row and column of the m64nN accumulator (f32 or s32, N/2 registers per thread) that register `reg` of
// thread `thread` (0..127 within the warpgroup) holds: row 16*(thread/32) + (thread%32)/4 + 8*((reg/2)%2),
// column 8*(reg/4) + 2*(thread%4) + reg%2.
struct RowCol {
    uint32_t row = 0, col = 0;
};
RowCol accumulator_position(uint32_t thread, uint32_t reg);

// Row and column of element `sub` (0 = the low bits) of A-fragment register `reg` (0..3) of `thread`, for an
// operand of `per_reg` elements per 32-bit register (f16/bf16 2, tf32 1, s8/u8 4; K = 8 * per_reg):
// row 16*(thread/32) + (thread%32)/4 + 8*(reg%2), column (thread%4)*per_reg + sub + (reg/2)*K/2.
RowCol a_fragment_position(uint32_t thread, uint32_t reg, uint32_t sub, uint32_t per_reg);

}  // namespace warpsim::engine::wgmma
