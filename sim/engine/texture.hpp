// sim/engine/texture.hpp — texture and surface objects as a launch sees them: the table from a 64-bit handle
// (the value a kernel receives as its cudaTextureObject_t / cudaSurfaceObject_t parameter) to the resource
// (where the texels are, their format and extent) and the sampler (address modes, filtering, read mode), and
// the pure functions that fetch and filter texels (texture_sample.cpp) the tex/suld/sust handlers call.
//
// Filtering follows the CUDA Programming Guide's texture-fetching appendix as the H200 showed it bit for bit
// (tests/programs/textures.cu, recorded in tests/hardware/programs/h200): coordinates in texel space are
// shifted by 0.5 and rounded to 8 fractional bits; the weights are 1/256 units with the corner weight
// w11 = round(a*b) and the others a - w11, b - w11, 256 - a - b + w11 (they always sum to 256); f32 texels
// are summed exactly and rounded once to f32, f16 texels likewise but rounded to f16; normalized integer
// texels are filtered at 16 bits (8-bit ones widened first: unsigned k * 257, signed magnitude m as
// round(m * 32767 / 127)), the 16-bit sum rounded to nearest (ties up) and read as u / 65535 or s / 32767.
// Normalized coordinates are truncated to kNormalizedCoordBits fractional bits before they are scaled by
// the extent. A border colour is first converted to the texel format.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>

namespace warpsim::engine {

enum class ChannelKind : uint8_t { signed_int, unsigned_int, float_ };
enum class TextureAddressMode : uint8_t { wrap, clamp, mirror, border };
enum class TextureFilter : uint8_t { point, linear };

// cudaChannelFormatDesc: bits per channel (0: channel absent) and their kind.
struct TexelFormat {
    std::array<uint8_t, 4> bits{0, 0, 0, 0};
    ChannelKind kind = ChannelKind::float_;
    uint32_t channels() const;
    uint32_t bytes() const;  // one texel
    // A format the engine can fetch: 1-4 channels of one width (8, 16 or 32 bits; float: 16 or 32).
    bool valid() const;
};

// Where the texels live. Arrays are row-major at `base` with rows of `pitch` bytes, and the slices of a 3D
// array or the layers of a layered one follow each other every height * pitch bytes (the runtime's own
// layout).
struct TextureResource {
    enum class Kind : uint8_t { linear, pitch2d, array };
    Kind kind = Kind::array;
    uint64_t base = 0;
    TexelFormat format;
    uint64_t width = 0;       // texels (linear: sizeInBytes / texel bytes)
    uint64_t height = 1;      // rows (linear and 1D arrays: 1)
    uint64_t depth = 1;       // slices of a 3D array; 1 otherwise
    uint64_t layers = 0;      // layers of a layered array; 0 when it is not layered
    uint32_t dimensions = 2;  // of the array's extent: 1 (height 0 at cudaMalloc3DArray), 2 or 3
    uint64_t pitch = 0;       // bytes from one row to the next
    uint64_t slices() const { return layers > 0 ? layers : depth; }
    uint64_t slice_pitch() const { return pitch * height; }
    uint64_t bytes() const {
        return slice_pitch() * (slices() - 1) + pitch * (height - 1) + width * format.bytes();
    }
};

struct TextureSampler {
    std::array<TextureAddressMode, 3> address{TextureAddressMode::clamp, TextureAddressMode::clamp,
                                              TextureAddressMode::clamp};
    TextureFilter filter = TextureFilter::point;
    bool normalized_float = false;   // cudaReadModeNormalizedFloat (8- and 16-bit integer formats)
    bool normalized_coords = false;  // coordinates in [0, 1) over the extent
    std::array<float, 4> border{0, 0, 0, 0};
};

struct TextureObject {
    TextureResource resource;
    TextureSampler sampler;
};

// The texture and surface objects alive at a launch, by handle. Handles never collide: the runtime hands
// out texture and surface handles from one counter.
struct TextureTable {
    std::map<uint64_t, TextureObject> textures;
    std::map<uint64_t, TextureResource> surfaces;
    const TextureObject* texture(uint64_t handle) const {
        auto it = textures.find(handle);
        return it == textures.end() ? nullptr : &it->second;
    }
    const TextureResource* surface(uint64_t handle) const {
        auto it = surfaces.find(handle);
        return it == surfaces.end() ? nullptr : &it->second;
    }
};

// Fractional bits normalized coordinates keep (at least 9, texture_sample.cpp): the H200 picked texel 0 at
// u = 0.2f + 16 ulps and texel 1 at 0.2f + 32 ulps on 5 texels, texel 2 at 0.6f + 4 ulps and texel 3 at
// 0.6f + 8 ulps (normalized.point.boundaries), which 21 bits give and 20 or 22 do not.
inline constexpr uint32_t kNormalizedCoordBits = 21;

// The four 32-bit words a tex instruction writes: floats (float formats and normalized reads) or integers
// (element reads of integer formats, sign- or zero-extended); channels the format lacks read 0.
using TexelWords = std::array<uint32_t, 4>;

// Where a fetch samples: `dims` filtered axes (1: x, 2: x and y, 3: x, y and z) and, for layered textures,
// the layer (the coordinate vector's first element, as an unsigned integer).
struct TexCoords {
    uint32_t dims = 2;
    std::array<float, 3> at{0.5f, 0.5f, 0.5f};
    uint32_t layer = 0;
};

// The slice a layer index selects: an index past the last layer reads the last, -1 (2^32 - 1 as the u32 it
// is) too: the H200's layered1d/2d fetches at layers 7 and -1 in tests/programs/textures3d.cu.
uint64_t layer_slice(const TextureResource& r, uint32_t layer);

// tex.{1d,2d,3d,a1d,a2d} with f32 coordinates (`texels`: the resource's first byte). Trilinear weights, as
// the H200 showed them (tests/programs/textures3d.cu: 3d.*.linear.*): the bilinear rule over x and z (the
// corner round(a * c / 256), the others from it), then each of those four split along y, round(w * b / 256)
// to the far row and the rest to the near one; the sum rounded once. f32 results round halfway cases away
// from zero (layered1d.float.linear.clamp).
TexelWords sample(const TextureObject& t, const uint8_t* texels, const TexCoords& c);
// tex.2d (and tex.1d of an array: y = 0.5, one row) at (x, y).
TexelWords sample_2d(const TextureObject& t, const uint8_t* texels, float x, float y);
// tld4.{r,g,b,a}.{2d,a2d} (tex2Dgather): channel `comp` of the four texels linear filtering at (x, y) would
// weigh, as the PTX ISA orders them, counter-clockwise from the lower left: (i, j+1), (i+1, j+1), (i+1, j),
// (i, j). Address modes and the border colour apply as for tex; the filter mode does not.
TexelWords gather(const TextureObject& t, const uint8_t* texels, const TexCoords& c, uint32_t comp);
// tex.1d with an integer coordinate (tex1Dfetch over linear memory): no filtering, no address modes; an index
// outside [0, width) reads 0 in every channel.
TexelWords fetch_1d(const TextureObject& t, const uint8_t* texels, int32_t index);

// The texel index along an axis of n texels for integer position i, or -1 for the border. Unnormalized
// coordinates wrap and mirror as clamp (CUDA supports those modes with normalized coordinates only).
int64_t address_texel(int64_t i, uint64_t n, TextureAddressMode mode, bool normalized_coords);

// The position along one axis in 1/256 texel units, as the filter sees it: for point sampling floor(x) * 256,
// for linear round((x - 0.5) * 256); normalized coordinates scaled by n after their truncation.
int64_t fixed_position(float coord, uint64_t n, bool normalized_coords, bool linear);

// Surfaces (suld.b / sust.b / sured.b): byte x, row y, slice (3D) or layer (layered) z, `bytes` per access.
enum class SurfaceBoundary : uint8_t { trap, clamp, zero };
// The byte offset of the access in the resource, or -1 when it falls outside (zero: the read gives 0 and the
// write is dropped; trap: a fault). Clamp moves it to the nearest element of the same size in range; a
// layer index is one more coordinate to it.
int64_t surface_offset(const TextureResource& r, int64_t x_bytes, int64_t y, int64_t z, uint32_t bytes,
                       SurfaceBoundary mode);
inline int64_t surface_offset(const TextureResource& r, int64_t x_bytes, int64_t y, uint32_t bytes,
                              SurfaceBoundary mode) {
    return surface_offset(r, x_bytes, y, 0, bytes, mode);
}

// The txq and suq queries (texture_query.cpp), with the values the PTX ISA defines: txq has them all but
// memory_layout, suq has width, height, depth, array_size and memory_layout. channel_data_type and
// channel_order return "the source language's enumeration", which CUDA does not define, and are left out:
// a module with every query in one kernel did not load on the H200 (cudaErrorNotSupported at its first
// launch, tests/hardware/programs/README.md), so none of these values is measured.
enum class TextureQuery : uint8_t {
    width,
    height,
    depth,
    normalized_coords,
    array_size,
    num_mipmap_levels,
    num_samples,
    filter_mode,
    addr_mode_0,
    addr_mode_1,
    addr_mode_2,
    memory_layout,
};
// The query a modifier names (`width`, `addr_mode_0`, ...), for txq (`texture`) or suq; nullopt for none.
std::optional<TextureQuery> texture_query_named(std::string_view name, bool texture);
uint32_t texture_query(const TextureObject& t, TextureQuery q);
uint32_t surface_query(const TextureResource& r, TextureQuery q);

// sust.p: the first `count` of the values R, G, B, A (f32 bits for float formats, u32 or s32 for unsigned
// and signed integers) converted to the format and written to the sample at `dst`; channels the values do
// not reach keep their bytes.
void store_formatted(const TexelFormat& f, const std::array<uint32_t, 4>& values, uint32_t count,
                     uint8_t* dst);

}  // namespace warpsim::engine
