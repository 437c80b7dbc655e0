// sim/runtime/graph_copies.cpp — the memset and memcpy steps of graphs (graph.hpp): memsets of 1-, 2- and
// 4-byte elements over several rows (cudaMemsetParams), copies of cudaMemcpy3DParms between linear memory and
// CUDA arrays (cudaGraphAddMemcpyNode, cudaMemcpy3DAsync in a capture), and the parameters the Get calls
// report for them.
#include "sim/runtime/runtime.hpp"

#include <optional>

#include "sim/runtime/graph.hpp"
#include "sim/runtime/textures.hpp"

using warpsim::runtime::GraphStep;
using warpsim::runtime::Runtime;

namespace {

// One side of a 3D copy: where its rows lie, how many bytes a row may hold, how many rows a slice has and
// how many slices there are (zero: no limit, a pointer's), and the bytes of one of its elements.
struct CopySide {
    uint8_t* base = nullptr;
    size_t pitch = 0;
    size_t row_capacity = 0;
    size_t rows = 0;
    size_t slices = 0;
    unsigned element = 1;
    bool array = false;
};

// The side named by an array or a pitched pointer: exactly one of them (cudaMemcpy3D's rule).
cudaError_t side_of(Runtime& rt, cudaArray_t array, const cudaPitchedPtr& ptr, CopySide& side) {
    if ((array != nullptr) == (ptr.ptr != nullptr)) return cudaErrorInvalidValue;
    if (array) {
        warpsim::runtime::CudaArray* a = rt.textures().array(array);
        if (!a) return cudaErrorInvalidValue;
        const auto& r = a->resource;
        side.base = reinterpret_cast<uint8_t*>(r.base);
        side.pitch = r.pitch;
        side.row_capacity = r.pitch;
        side.rows = r.height;
        side.slices = r.slices();  // depth or layers (1 for 1D and 2D arrays)
        side.element = r.format.bytes();
        side.array = true;
        return cudaSuccess;
    }
    side.base = static_cast<uint8_t*>(ptr.ptr);
    side.pitch = ptr.pitch;
    side.row_capacity = ptr.pitch;
    side.rows = ptr.ysize;
    return cudaSuccess;
}

// The first byte of the region at `pos` when `side` holds `row_bytes` x height x depth from there.
std::optional<uint8_t*> region_start(const CopySide& side, const cudaPos& pos, size_t row_bytes,
                                     const cudaExtent& e) {
    const size_t x = pos.x * side.element;
    if (x + row_bytes > side.row_capacity) return std::nullopt;
    // A pointer's ysize only matters when the copy crosses slices (it is the slice's height).
    const bool slices_matter = side.array || e.depth > 1 || pos.z > 0;
    if (slices_matter && pos.y + e.height > side.rows) return std::nullopt;
    if (side.slices && pos.z + e.depth > side.slices) return std::nullopt;
    return side.base + pos.z * side.pitch * side.rows + pos.y * side.pitch + x;
}

// The direction once arrays are known to be device memory: CUDA corrects a kind that puts an array on the
// host ("silently", as cudaMemcpy3D's documentation says).
cudaMemcpyKind corrected_kind(cudaMemcpyKind kind, bool src_array, bool dst_array) {
    if (kind == cudaMemcpyDefault || (!src_array && !dst_array)) return kind;
    const bool src_device = src_array || kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    const bool dst_device = dst_array || kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    if (src_device) return dst_device ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost;
    return dst_device ? cudaMemcpyHostToDevice : cudaMemcpyHostToHost;
}

}  // namespace

namespace warpsim::runtime {

cudaError_t memset_step(const cudaMemsetParams* p, GraphStep& step) {
    if (!p || !p->dst) return cudaErrorInvalidValue;
    const unsigned size = p->elementSize;
    if (size != 1 && size != 2 && size != 4) return cudaErrorInvalidValue;
    const size_t rows = p->height == 0 ? 1 : p->height;
    const size_t row_bytes = p->width * size;
    // Elements are written whole: the destination, and every row's start, aligned to them.
    if (reinterpret_cast<uintptr_t>(p->dst) % size != 0) return cudaErrorInvalidValue;
    if (rows > 1 && (p->pitch < row_bytes || p->pitch % size != 0)) return cudaErrorInvalidValue;
    GraphStep s;
    s.kind = GraphStep::Kind::memset;
    s.dst = p->dst;
    s.element_size = size;
    s.value = size == 4 ? p->value : p->value & ((1u << (8 * size)) - 1);
    s.bytes = row_bytes;
    s.rows = rows;
    s.dst_pitch = rows > 1 ? p->pitch : row_bytes;
    step = std::move(s);
    return cudaSuccess;
}

cudaMemsetParams memset_params(const GraphStep& step) {
    cudaMemsetParams p{};
    p.dst = step.dst;
    p.value = step.value;
    p.elementSize = step.element_size;
    p.width = step.bytes / step.element_size;
    p.height = step.rows;
    p.pitch = step.dst_pitch;
    return p;
}

cudaError_t copy3d_step(Runtime& rt, const cudaMemcpy3DParms* p, GraphStep& step) {
    if (!p) return cudaErrorInvalidValue;
    if (p->kind < cudaMemcpyHostToHost || p->kind > cudaMemcpyDefault) return cudaErrorInvalidMemcpyDirection;
    CopySide src, dst;
    if (cudaError_t e = side_of(rt, p->srcArray, p->srcPtr, src)) return e;
    if (cudaError_t e = side_of(rt, p->dstArray, p->dstPtr, dst)) return e;
    if (src.array && dst.array && src.element != dst.element) return cudaErrorInvalidValue;
    // The extent counts the elements of the array taking part, bytes when none does.
    const unsigned element = src.array ? src.element : dst.element;
    const size_t row_bytes = p->extent.width * element;
    const auto from = region_start(src, p->srcPos, row_bytes, p->extent);
    const auto to = region_start(dst, p->dstPos, row_bytes, p->extent);
    if (!from || !to) return cudaErrorInvalidValue;
    GraphStep s;
    s.kind = GraphStep::Kind::copy3d;
    s.src = *from;
    s.dst = *to;
    s.bytes = row_bytes;
    s.rows = p->extent.height;
    s.slices = p->extent.depth;
    s.src_pitch = src.pitch;
    s.dst_pitch = dst.pitch;
    s.src_slice = src.pitch * src.rows;
    s.dst_slice = dst.pitch * dst.rows;
    s.copy_kind = corrected_kind(p->kind, src.array, dst.array);
    s.copy_params = *p;
    step = std::move(s);
    return cudaSuccess;
}

cudaMemcpy3DParms copy_params(const GraphStep& step) {
    if (step.kind == GraphStep::Kind::copy3d) return step.copy_params;
    cudaMemcpy3DParms p{};
    const size_t rows = step.kind == GraphStep::Kind::copy2d ? step.rows : 1;
    const size_t src_pitch = step.kind == GraphStep::Kind::copy2d ? step.src_pitch : step.bytes;
    const size_t dst_pitch = step.kind == GraphStep::Kind::copy2d ? step.dst_pitch : step.bytes;
    p.srcPtr = cudaPitchedPtr{const_cast<void*>(step.src), src_pitch, step.bytes, rows};
    p.dstPtr = cudaPitchedPtr{step.dst, dst_pitch, step.bytes, rows};
    p.extent = cudaExtent{step.bytes, rows, 1};
    p.kind = step.copy_kind;
    return p;
}

cudaError_t copy_3d_on_stream(Runtime& rt, const GraphStep& step, cudaStream_t stream) {
    for (size_t z = 0; z < step.slices; ++z) {
        if (cudaError_t e =
                copy_2d_on_stream(rt, static_cast<uint8_t*>(step.dst) + z * step.dst_slice, step.dst_pitch,
                                  static_cast<const uint8_t*>(step.src) + z * step.src_slice, step.src_pitch,
                                  step.bytes, step.rows, step.copy_kind, stream))
            return e;
    }
    return cudaSuccess;
}

}  // namespace warpsim::runtime
