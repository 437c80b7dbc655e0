// kernels_ir/forms/tensor.hpp — the typed forms of the tensor family: wgmma (PTX ISA 9.7.17) and
// ldmatrix/stmatrix (9.7.16.5), wmma (9.7.16.4), mma (9.7.16.5.14) and mma.sp (9.7.16.6.3).
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

// The layout of a matrix in memory (wmma.load/store) or of an mma operand (.row / .col).
enum class MatrixLayout : uint8_t { row, col };

// The single-bit forms' operation: .xor.popc or .and.popc (none for every other type).
enum class BitOp : uint8_t { none, xor_popc, and_popc };

// wmma.load.{a,b,c} / wmma.store.d / wmma.mma (PTX ISA 9.7.16.4): the shapes, layouts and element types the
// ISA lists for each of them.
enum class WmmaOp : uint8_t { load, store, mma };
enum class WmmaMatrix : uint8_t { a, b, c, d };

struct WmmaForm {
    WmmaOp op = WmmaOp::load;
    WmmaMatrix matrix = WmmaMatrix::a;  // load: .a, .b or .c; store and mma: d
    MatrixShape shape;  // .m16n16k16, .m32n8k16, .m8n32k16, .m16n16k8, .m8n8k4, .m8n8k32, .m8n8k128
    MatrixLayout layout = MatrixLayout::row;   // load/store: the matrix's; mma: A's
    MatrixLayout blayout = MatrixLayout::row;  // mma: B's
    Space space = Space::none;                 // load/store: .global, .shared{::cta}; none: generic
    Type type = Type::none;                    // load/store: the element type
    // mma: D, A, B and C (A and B are .f16 when the instruction names only D and C).
    Type dtype = Type::none, atype = Type::none, btype = Type::none, ctype = Type::none;
    bool satfinite = false;         // mma: integer forms only
    Rounding rnd = Rounding::none;  // mma: .f64 only
    BitOp bit_op = BitOp::none;     // mma: .b1 only
};

// Dense mma, or sparse A (mma.sp / mma.sp::ordered_metadata, PTX ISA 9.7.16.6.3): A is 2:4 structured
// sparse, the instruction takes the sparsity metadata and selector after C, and K is the dense product's.
enum class MmaSparsity : uint8_t { dense, sp, sp_ordered_metadata };

// mma.sync.aligned (PTX ISA 9.7.16.5.14) and mma.sp{::ordered_metadata}.sync.aligned (9.7.16.6.3), the forms
// up to sm_90 (and sm_89's .e4m3/.e5m2). sm_120's .kind::* / .block_scale forms have no form yet (their
// modifiers stay strings).
struct MmaForm {
    MmaSparsity sparsity = MmaSparsity::dense;
    MatrixShape shape;
    MatrixLayout alayout = MatrixLayout::row, blayout = MatrixLayout::col;
    Type dtype = Type::none, atype = Type::none, btype = Type::none, ctype = Type::none;
    bool satfinite = false;         // integer forms only
    Rounding rnd = Rounding::none;  // .f64 only
    BitOp bit_op = BitOp::none;     // .b1 only
};

}  // namespace warpsim::ir
