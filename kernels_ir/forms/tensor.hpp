// kernels_ir/forms/tensor.hpp — the typed forms of the tensor family: wgmma (PTX ISA 9.7.17) and
// ldmatrix/stmatrix (9.7.16.5). mma and wmma have none yet (their modifiers stay strings).
#pragma once

#include <cstdint>

#include "kernels_ir/ir.hpp"

namespace warpsim::ir {

// A matrix shape .mMnNkK (k 0 where the shape has none, as ldmatrix's .m8n8).
struct MatrixShape {
    uint16_t m = 0, n = 0, k = 0;
    bool operator==(const MatrixShape&) const = default;
};

enum class WgmmaOp : uint8_t { mma_async, fence, commit_group, wait_group };

struct WgmmaForm {
    WgmmaOp op = WgmmaOp::fence;
    bool aligned = false;  // .aligned (ptxas takes mma_async without it; the engine runs only .sync.aligned)
    bool sparse = false;   // .sp: A is 2:4 sparse, K is twice the dense K
    bool satfinite = false;  // .satfinite (integer forms only)
    MatrixShape shape;       // mma_async: m64, N 8..256, K by the input type
    Type dtype = Type::none, atype = Type::none, btype = Type::none;  // mma_async: D, A, B
    bool and_popc = false;                                            // .b1 forms: .and.popc
};

// ldmatrix / stmatrix .sync.aligned.shape.num{.trans}{.ss}.type (PTX ISA 9.7.16.5.x).
enum class MatrixSourceFormat : uint8_t { none, b6x16_p32, b4x16_p64 };  // ldmatrix .m8n16's b8x16 unpacking

struct MatrixMoveForm {
    bool store = false;         // stmatrix
    MatrixShape shape;          // m8n8 (.b16), m16n16 / m8n16 (ldmatrix .b8), m16n8 (stmatrix .b8)
    uint8_t count = 0;          // .x1 / .x2 / .x4: matrices per instruction
    bool trans = false;         // .trans
    Space space = Space::none;  // .shared / .shared::cta; none: generic
    Type type = Type::none;     // .b16 or .b8 (.b8x16 for m8n16)
    MatrixSourceFormat source = MatrixSourceFormat::none;
};

}  // namespace warpsim::ir
