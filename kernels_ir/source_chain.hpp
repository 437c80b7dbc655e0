// kernels_ir/source_chain.hpp — the source lines of an instruction: its own .loc and, for inlined code, the
// chain of call sites up to the line of the function that holds it (where per-line totals count it).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kernels_ir/ir.hpp"

namespace warpsim::ir {

struct SourcePosition {
    uint32_t file = 0, line = 0, col = 0;
    bool operator==(const SourcePosition&) const = default;
};

// One level of the chain: a position and the function it lies in.
struct SourceFrame {
    SourcePosition at;
    std::string function;  // demangled base name of an inlined function ("atomicAdd"); "" for the last frame
                           // (the function that holds the instruction) and where the PTX names none
};

// Innermost first: the instruction's own .loc, then each call site it was inlined at, outward; the last
// frame is a line of the function that holds the instruction. One frame for code that is not inlined.
std::vector<SourceFrame> source_chain(const Module& m, const SrcLoc& loc);

// The last frame: the line of the holding function's own body (the call site of inlined code, the .loc itself
// otherwise). Reports count an instruction's work at this line.
SourcePosition call_site(const Module& m, const SrcLoc& loc);

// The frames' positions alone (no names looked up), innermost first.
std::vector<SourcePosition> chain_positions(const Module& m, const SrcLoc& loc);

// Whether file:line is one of the chain's frames.
bool chain_has_line(const Module& m, const SrcLoc& loc, uint32_t file, uint32_t line);

// How a frame's file is named: the path as .file recorded it; only its last component; or, the style every
// report, fault and finding uses, relative to the current directory when the file lies under it
// ("src/stencil.cu"), a relative recorded path as recorded, and the last component for a file elsewhere
// (a CUDA header: "sm_30_intrinsics.hpp").
enum class PathStyle { recorded, file_name, relative };

// "FILE:LINE" of one frame (file 0 or an unknown file: "?").
std::string frame_text(const Module& m, const SourcePosition& at, PathStyle style);

// Frames [first, end) innermost first: "device_atomic_functions.hpp:107 in atomicAdd, inlined from
// reduce.cu:12 in add_twice, inlined from reduce.cu:30" (the last frame's function is not named).
std::string chain_text(const Module& m, const std::vector<SourceFrame>& frames, PathStyle style,
                       std::size_t first = 0, std::size_t end = SIZE_MAX);

// chain_text of the whole chain; "" when the instruction has no source line (no .loc, or a line 0 that is
// not inlined).
std::string source_location_text(const Module& m, const SrcLoc& loc, PathStyle style);

}  // namespace warpsim::ir
