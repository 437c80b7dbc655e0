// sim/runtime/api_texture.cpp — CUDA arrays (cudaMallocArray, cudaMalloc3DArray of one, two or three
// dimensions and layered, cudaFreeArray, cudaArrayGetInfo, cudaGetChannelDesc, the copies to and from them,
// cudaMemcpy3D), texture objects over linear memory, pitched memory and arrays, and surface objects over
// arrays. The engine reads the objects
// through the TextureTable each launch gets (textures.hpp).
#include "sim/runtime/runtime.hpp"

#include <cstring>
#include <new>

#include <fmt/format.h>

#include "sim/runtime/graph.hpp"
#include "sim/runtime/streams.hpp"

using warpsim::runtime::CudaArray;
using warpsim::runtime::Runtime;
using warpsim::runtime::TextureObjects;
namespace engine = warpsim::engine;

namespace {

uint64_t addr(const void* p) {
    return reinterpret_cast<uint64_t>(p);
}

// The engine's format of a channel descriptor; nullopt for kinds warpsim does not fetch (the
// block-compressed, sRGB, NV12 and packed normalized kinds).
std::optional<engine::TexelFormat> texel_format(const cudaChannelFormatDesc& d) {
    engine::TexelFormat f;
    const int bits[4] = {d.x, d.y, d.z, d.w};
    for (int c = 0; c < 4; ++c) {
        if (bits[c] < 0 || bits[c] > 32) return std::nullopt;
        f.bits[c] = static_cast<uint8_t>(bits[c]);
    }
    switch (d.f) {
        case cudaChannelFormatKindSigned:
            f.kind = engine::ChannelKind::signed_int;
            break;
        case cudaChannelFormatKindUnsigned:
            f.kind = engine::ChannelKind::unsigned_int;
            break;
        case cudaChannelFormatKindFloat:
            f.kind = engine::ChannelKind::float_;
            break;
        default:
            return std::nullopt;
    }
    if (!f.valid()) return std::nullopt;
    return f;
}

engine::TextureAddressMode address_mode(cudaTextureAddressMode m) {
    switch (m) {
        case cudaAddressModeWrap:
            return engine::TextureAddressMode::wrap;
        case cudaAddressModeMirror:
            return engine::TextureAddressMode::mirror;
        case cudaAddressModeBorder:
            return engine::TextureAddressMode::border;
        default:
            return engine::TextureAddressMode::clamp;
    }
}

cudaError_t make_array(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent,
                       unsigned int flags) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!array || !desc) return Runtime::finish(cudaErrorInvalidValue);
    *array = nullptr;
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    if (flags & cudaArrayCubemap) return warpsim::runtime::not_supported("cudaMalloc3DArray of a cubemap");
    if (flags & ~static_cast<unsigned>(cudaArraySurfaceLoadStore | cudaArrayTextureGather | cudaArrayLayered))
        return warpsim::runtime::not_supported(
            "cudaMalloc3DArray with flags other than cudaArraySurfaceLoadStore, cudaArrayTextureGather and "
            "cudaArrayLayered");
    const bool is_layered = (flags & cudaArrayLayered) != 0;
    if (is_layered && extent.depth == 0) return Runtime::finish(cudaErrorInvalidValue);  // no layers
    if (extent.depth > 0 && extent.height == 0 && !is_layered)
        return Runtime::finish(cudaErrorInvalidValue);  // a 3D array needs a height
    const auto format = texel_format(*desc);
    if (!format) {
        std::fprintf(stderr,
                     "warpsim: cudaMallocArray: channel format {%d, %d, %d, %d, kind %d} is not one warpsim "
                     "reads (1-4 channels of 8, 16 or 32 bits, signed, unsigned or float)\n",
                     desc->x, desc->y, desc->z, desc->w, static_cast<int>(desc->f));
        return Runtime::finish(cudaErrorInvalidChannelDescriptor);
    }
    if (extent.width == 0) return Runtime::finish(cudaErrorInvalidValue);
    const uint64_t rows = extent.height == 0 ? 1 : extent.height;
    const uint64_t slices = extent.depth == 0 ? 1 : extent.depth;
    const uint64_t row_bytes = extent.width * format->bytes();
    if (extent.width > (uint64_t{1} << 20) || rows > (uint64_t{1} << 20) || slices > (uint64_t{1} << 14))
        return Runtime::finish(cudaErrorInvalidValue);
    uint64_t base = 0;
    try {
        base = rt.sim().memory().malloc(row_bytes * rows * slices,
                                        fmt::format("cudaMallocArray #{}", rt.next_allocation_serial()));
    } catch (const std::bad_alloc&) {
        base = 0;
    }
    if (!base) return Runtime::finish(cudaErrorMemoryAllocation);
    auto a = std::make_unique<CudaArray>();
    a->desc = *desc;
    a->extent = extent;
    a->flags = flags;
    a->resource.kind = engine::TextureResource::Kind::array;
    a->resource.base = base;
    a->resource.format = *format;
    a->resource.width = extent.width;
    a->resource.height = rows;
    a->resource.depth = is_layered ? 1 : slices;
    a->resource.layers = is_layered ? slices : 0;
    a->resource.dimensions = extent.height == 0 ? 1 : (extent.depth == 0 || is_layered) ? 2 : 3;
    a->resource.pitch = row_bytes;
    *array = reinterpret_cast<cudaArray_t>(a.get());
    rt.textures().arrays[a.get()] = std::move(a);
    return cudaSuccess;
}

// The device address of byte (w_offset, h_offset) of an array, after checking that `width` bytes of
// `height` rows from there lie inside it.
std::optional<uint64_t> array_at(CudaArray* a, size_t w_offset, size_t h_offset, size_t width,
                                 size_t height) {
    if (!a) return std::nullopt;
    const auto& r = a->resource;
    if (w_offset + width > r.pitch || h_offset + height > r.height) return std::nullopt;
    return r.base + h_offset * r.pitch + w_offset;
}

// One side of a cudaMemcpy3D: where its first byte is, bytes from row to row and slice to slice, and whether
// it is an array (whose extent and positions count elements). Nullopt when the box does not fit.
struct Side3D {
    uint64_t at = 0;
    uint64_t row_pitch = 0, slice_pitch = 0;
};

std::optional<Side3D> side_3d(Runtime& rt, cudaArray_t array, cudaPos pos, cudaPitchedPtr ptr,
                              uint64_t width_bytes, const cudaExtent& e) {
    if (array) {
        CudaArray* a = rt.textures().array(array);
        if (!a) return std::nullopt;
        const auto& r = a->resource;
        const uint64_t x = pos.x * r.format.bytes();
        if (x + width_bytes > r.pitch || pos.y + e.height > r.height || pos.z + e.depth > r.slices())
            return std::nullopt;
        return Side3D{r.base + pos.z * r.slice_pitch() + pos.y * r.pitch + x, r.pitch, r.slice_pitch()};
    }
    if (!ptr.ptr || ptr.pitch < pos.x + width_bytes) return std::nullopt;
    // ysize is the rows of one slice; a single-slice copy may leave it 0.
    if (e.depth > 1 && ptr.ysize < pos.y + e.height) return std::nullopt;
    const uint64_t slice = ptr.pitch * ptr.ysize;
    return Side3D{addr(ptr.ptr) + pos.z * slice + pos.y * ptr.pitch + pos.x, ptr.pitch, slice};
}

// cudaMemcpy3D(Async): slice by slice as 2D copies (positions and the extent's width in elements when an
// array is involved, in bytes otherwise, as CUDA counts them).
cudaError_t copy_3d(const cudaMemcpy3DParms* p, bool blocking, cudaStream_t stream) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!p) return Runtime::finish(cudaErrorInvalidValue);
    if ((p->srcArray && p->srcPtr.ptr) || (p->dstArray && p->dstPtr.ptr) ||
        (!p->srcArray && !p->srcPtr.ptr) || (!p->dstArray && !p->dstPtr.ptr))
        return Runtime::finish(cudaErrorInvalidValue);  // exactly one of array and pointer per side
    const cudaExtent& e = p->extent;
    uint64_t element = 1;
    for (cudaArray_t a : {p->srcArray, p->dstArray}) {
        if (!a) continue;
        CudaArray* arr = rt.textures().array(a);
        if (!arr) return Runtime::finish(cudaErrorInvalidResourceHandle);
        element = arr->resource.format.bytes();
    }
    const uint64_t width_bytes = e.width * element;
    const auto src = side_3d(rt, p->srcArray, p->srcPos, p->srcPtr, width_bytes, e);
    const auto dst = side_3d(rt, p->dstArray, p->dstPos, p->dstPtr, width_bytes, e);
    if (!src || !dst) return Runtime::finish(cudaErrorInvalidValue);
    if (e.width == 0 || e.height == 0 || e.depth == 0) return cudaSuccess;
    cudaMemcpyKind kind = p->kind;
    if (p->srcArray && p->dstArray) kind = cudaMemcpyDeviceToDevice;
    for (uint64_t z = 0; z < e.depth; ++z) {
        void* d = reinterpret_cast<void*>(dst->at + z * dst->slice_pitch);
        const void* s = reinterpret_cast<const void*>(src->at + z * src->slice_pitch);
        const cudaError_t r =
            blocking ? cudaMemcpy2D(d, dst->row_pitch, s, src->row_pitch, width_bytes, e.height, kind)
                     : cudaMemcpy2DAsync(d, dst->row_pitch, s, src->row_pitch, width_bytes, e.height, kind,
                                         stream);
        if (r != cudaSuccess) return r;
    }
    return cudaSuccess;
}

// The resource a texture or surface object describes, or the error the call returns.
cudaError_t resource_of(Runtime& rt, const cudaResourceDesc& d, engine::TextureResource& r) {
    switch (d.resType) {
        case cudaResourceTypeArray: {
            CudaArray* a = rt.textures().array(d.res.array.array);
            if (!a) return cudaErrorInvalidResourceHandle;
            r = a->resource;
            return cudaSuccess;
        }
        case cudaResourceTypeLinear:
        case cudaResourceTypePitch2D: {
            const bool linear = d.resType == cudaResourceTypeLinear;
            const auto format = texel_format(linear ? d.res.linear.desc : d.res.pitch2D.desc);
            if (!format) return cudaErrorInvalidChannelDescriptor;
            r.kind = linear ? engine::TextureResource::Kind::linear : engine::TextureResource::Kind::pitch2d;
            r.format = *format;
            r.base = addr(linear ? d.res.linear.devPtr : d.res.pitch2D.devPtr);
            r.width = linear ? d.res.linear.sizeInBytes / format->bytes() : d.res.pitch2D.width;
            r.height = linear ? 1 : d.res.pitch2D.height;
            r.pitch = linear ? r.width * format->bytes() : d.res.pitch2D.pitchInBytes;
            if (r.width == 0 || r.height == 0 || r.pitch < r.width * format->bytes())
                return cudaErrorInvalidValue;
            if (!rt.is_device_range(r.base, r.bytes())) return cudaErrorInvalidValue;
            return cudaSuccess;
        }
        default:
            return cudaErrorNotSupported;
    }
}

}  // namespace

extern "C" {

cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
    cudaChannelFormatDesc d;
    d.x = x;
    d.y = y;
    d.z = z;
    d.w = w;
    d.f = f;
    return d;
}

cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, size_t width,
                            size_t height, unsigned int flags) {
    return make_array(array, desc, cudaExtent{width, height, 0}, flags);
}

cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent,
                              unsigned int flags) {
    return make_array(array, desc, extent, flags);
}

cudaError_t cudaFreeArray(cudaArray_t array) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = rt.synchronize())
        return Runtime::finish(e);  // like cudaFree, it waits for the device
    if (!array) return cudaSuccess;
    auto it = rt.textures().arrays.find(array);
    if (it == rt.textures().arrays.end()) return Runtime::finish(cudaErrorInvalidValue);
    rt.sim().memory().free(it->second->resource.base);
    rt.textures().arrays.erase(it);
    return cudaSuccess;
}

cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned int* flags,
                             cudaArray_t array) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CudaArray* a = rt.textures().array(array);
    if (!a) return Runtime::finish(cudaErrorInvalidResourceHandle);
    if (desc) *desc = a->desc;
    if (extent) *extent = a->extent;
    if (flags) *flags = a->flags;
    return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t array) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CudaArray* a = rt.textures().array(array);
    if (!a) return Runtime::finish(cudaErrorInvalidResourceHandle);
    if (!desc) return Runtime::finish(cudaErrorInvalidValue);
    *desc = a->desc;
    return cudaSuccess;
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                size_t spitch, size_t width, size_t height, cudaMemcpyKind kind) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    const auto at = array_at(rt.textures().array(dst), wOffset, hOffset, width, height);
    if (!at) return Runtime::finish(cudaErrorInvalidValue);
    return cudaMemcpy2D(reinterpret_cast<void*>(*at), rt.textures().array(dst)->resource.pitch, src, spitch,
                        width, height, kind);
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                     size_t spitch, size_t width, size_t height, cudaMemcpyKind kind,
                                     cudaStream_t stream) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    const auto at = array_at(rt.textures().array(dst), wOffset, hOffset, width, height);
    if (!at) return Runtime::finish(cudaErrorInvalidValue);
    return cudaMemcpy2DAsync(reinterpret_cast<void*>(*at), rt.textures().array(dst)->resource.pitch, src,
                             spitch, width, height, kind, stream);
}

cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                  size_t hOffset, size_t width, size_t height, cudaMemcpyKind kind) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CudaArray* a = rt.textures().array(src);
    const auto at = array_at(a, wOffset, hOffset, width, height);
    if (!at) return Runtime::finish(cudaErrorInvalidValue);
    return cudaMemcpy2D(dst, dpitch, reinterpret_cast<const void*>(*at), a->resource.pitch, width, height,
                        kind);
}

cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t width, size_t height, cudaMemcpyKind kind,
                                       cudaStream_t stream) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CudaArray* a = rt.textures().array(src);
    const auto at = array_at(a, wOffset, hOffset, width, height);
    if (!at) return Runtime::finish(cudaErrorInvalidValue);
    return cudaMemcpy2DAsync(dst, dpitch, reinterpret_cast<const void*>(*at), a->resource.pitch, width,
                             height, kind, stream);
}

// The deprecated 1D forms copy `count` bytes from (wOffset, hOffset) on, row after row: the array's rows lie
// back to back, so that is one contiguous range.
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t count,
                              cudaMemcpyKind kind) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CudaArray* a = rt.textures().array(dst);
    const auto at = array_at(a, wOffset, hOffset, 0, 1);
    if (!at || *at + count > a->resource.base + a->resource.bytes())
        return Runtime::finish(cudaErrorInvalidValue);
    return cudaMemcpy(reinterpret_cast<void*>(*at), src, count, kind);
}

cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                size_t count, cudaMemcpyKind kind) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CudaArray* a = rt.textures().array(src);
    const auto at = array_at(a, wOffset, hOffset, 0, 1);
    if (!at || *at + count > a->resource.base + a->resource.bytes())
        return Runtime::finish(cudaErrorInvalidValue);
    return cudaMemcpy(dst, reinterpret_cast<const void*>(*at), count, kind);
}

cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
    return copy_3d(p, true, nullptr);
}

// In a capture, one memcpy node of the parameters (graph_copies.cpp).
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (CUstream_st* capturing = warpsim::runtime::capture_target(rt, stream)) {
        warpsim::runtime::GraphStep step;
        if (cudaError_t e = warpsim::runtime::copy3d_step(rt, p, step)) return Runtime::finish(e);
        return Runtime::finish(warpsim::runtime::capture_add(*capturing, std::move(step)));
    }
    return copy_3d(p, false, stream);
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t* pTexObject, const cudaResourceDesc* pResDesc,
                                    const cudaTextureDesc* pTexDesc,
                                    const cudaResourceViewDesc* pResViewDesc) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!pTexObject || !pResDesc || !pTexDesc) return Runtime::finish(cudaErrorInvalidValue);
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    if (pResViewDesc) return warpsim::runtime::not_supported("cudaCreateTextureObject with a resource view");
    if (pResDesc->resType == cudaResourceTypeMipmappedArray)
        return warpsim::runtime::not_supported("cudaCreateTextureObject of a mipmapped array");
    engine::TextureObject t;
    if (cudaError_t e = resource_of(rt, *pResDesc, t.resource)) return Runtime::finish(e);
    for (int i = 0; i < 3; ++i) t.sampler.address[i] = address_mode(pTexDesc->addressMode[i]);
    t.sampler.filter = pTexDesc->filterMode == cudaFilterModeLinear ? engine::TextureFilter::linear
                                                                    : engine::TextureFilter::point;
    t.sampler.normalized_float = pTexDesc->readMode == cudaReadModeNormalizedFloat;
    t.sampler.normalized_coords = pTexDesc->normalizedCoords != 0;
    for (int i = 0; i < 4; ++i) t.sampler.border[i] = pTexDesc->borderColor[i];
    TextureObjects& T = rt.textures();
    const uint64_t handle = T.next_handle++;
    T.table.textures[handle] = t;
    T.texture_descs[handle] = {*pResDesc, *pTexDesc};
    *pTexObject = handle;
    return cudaSuccess;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (texObject == 0) return cudaSuccess;
    if (!rt.textures().table.textures.erase(texObject)) return Runtime::finish(cudaErrorInvalidValue);
    rt.textures().texture_descs.erase(texObject);
    return cudaSuccess;
}

cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* pResDesc, cudaTextureObject_t texObject) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    auto it = rt.textures().texture_descs.find(texObject);
    if (!pResDesc || it == rt.textures().texture_descs.end()) return Runtime::finish(cudaErrorInvalidValue);
    *pResDesc = it->second.first;
    return cudaSuccess;
}

cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* pTexDesc, cudaTextureObject_t texObject) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    auto it = rt.textures().texture_descs.find(texObject);
    if (!pTexDesc || it == rt.textures().texture_descs.end()) return Runtime::finish(cudaErrorInvalidValue);
    *pTexDesc = it->second.second;
    return cudaSuccess;
}

cudaError_t cudaGetTextureObjectResourceViewDesc(cudaResourceViewDesc*, cudaTextureObject_t) {
    return warpsim::runtime::not_supported("cudaGetTextureObjectResourceViewDesc (resource views)");
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* pSurfObject, const cudaResourceDesc* pResDesc) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!pSurfObject || !pResDesc) return Runtime::finish(cudaErrorInvalidValue);
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    if (pResDesc->resType != cudaResourceTypeArray) return Runtime::finish(cudaErrorInvalidValue);
    CudaArray* a = rt.textures().array(pResDesc->res.array.array);
    if (!a) return Runtime::finish(cudaErrorInvalidResourceHandle);
    if (!(a->flags & cudaArraySurfaceLoadStore)) {
        std::fprintf(stderr,
                     "warpsim: cudaCreateSurfaceObject: the array was not allocated with "
                     "cudaArraySurfaceLoadStore\n");
        return Runtime::finish(cudaErrorInvalidValue);
    }
    TextureObjects& T = rt.textures();
    const uint64_t handle = T.next_handle++;
    T.table.surfaces[handle] = a->resource;
    T.surface_descs[handle] = *pResDesc;
    *pSurfObject = handle;
    return cudaSuccess;
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (surfObject == 0) return cudaSuccess;
    if (!rt.textures().table.surfaces.erase(surfObject)) return Runtime::finish(cudaErrorInvalidValue);
    rt.textures().surface_descs.erase(surfObject);
    return cudaSuccess;
}

cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc* pResDesc, cudaSurfaceObject_t surfObject) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    auto it = rt.textures().surface_descs.find(surfObject);
    if (!pResDesc || it == rt.textures().surface_descs.end()) return Runtime::finish(cudaErrorInvalidValue);
    *pResDesc = it->second;
    return cudaSuccess;
}

// The per-thread-default-stream spellings (nvcc --default-stream per-thread), as in api_memory.cpp.
#define WARPSIM_SAME_AS(name) __attribute__((alias(#name)))
cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t, size_t, size_t, const void*, size_t, size_t, size_t,
                                     cudaMemcpyKind) WARPSIM_SAME_AS(cudaMemcpy2DToArray);
cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t, size_t, size_t, const void*, size_t, size_t, size_t,
                                          cudaMemcpyKind, cudaStream_t)
    WARPSIM_SAME_AS(cudaMemcpy2DToArrayAsync);
cudaError_t cudaMemcpy2DFromArray_ptds(void*, size_t, cudaArray_const_t, size_t, size_t, size_t, size_t,
                                       cudaMemcpyKind) WARPSIM_SAME_AS(cudaMemcpy2DFromArray);
cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void*, size_t, cudaArray_const_t, size_t, size_t, size_t, size_t,
                                            cudaMemcpyKind, cudaStream_t)
    WARPSIM_SAME_AS(cudaMemcpy2DFromArrayAsync);
cudaError_t cudaMemcpyToArray_ptds(cudaArray_t, size_t, size_t, const void*, size_t, cudaMemcpyKind)
    WARPSIM_SAME_AS(cudaMemcpyToArray);
cudaError_t cudaMemcpyFromArray_ptds(void*, cudaArray_const_t, size_t, size_t, size_t, cudaMemcpyKind)
    WARPSIM_SAME_AS(cudaMemcpyFromArray);
cudaError_t cudaMemcpy3D_ptds(const cudaMemcpy3DParms*) WARPSIM_SAME_AS(cudaMemcpy3D);
cudaError_t cudaMemcpy3DAsync_ptsz(const cudaMemcpy3DParms* p, cudaStream_t s) {
    return cudaMemcpy3DAsync(p, s == nullptr ? cudaStreamPerThread : s);
}
#undef WARPSIM_SAME_AS

}  // extern "C"
