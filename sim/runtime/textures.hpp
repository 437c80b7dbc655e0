// sim/runtime/textures.hpp — the runtime's CUDA arrays, texture objects and surface objects: arrays are
// device allocations of the runtime's own, row-major without padding (their layout is opaque to programs);
// objects are handles into the engine's TextureTable, which every launch passes to the engine
// (LaunchConfig::textures), with the descriptors the program gave kept for the cudaGet*ObjectResourceDesc
// queries.
#pragma once

#include <cstdint>
#include <map>
#include <memory>

#include <cuda_runtime_api.h>

#include "sim/engine/texture.hpp"

namespace warpsim::runtime {

struct CudaArray {
    cudaChannelFormatDesc desc{};
    cudaExtent extent{};  // as CUDA reports it: height 0 for a 1D array, depth 0 for 1D and 2D
    unsigned int flags = 0;
    engine::TextureResource resource;  // kind array, base = the allocation, pitch = width * texel bytes
};

struct TextureObjects {
    engine::TextureTable table;
    std::map<const void*, std::unique_ptr<CudaArray>> arrays;  // by the cudaArray_t handed out
    std::map<uint64_t, std::pair<cudaResourceDesc, cudaTextureDesc>> texture_descs;
    std::map<uint64_t, cudaResourceDesc> surface_descs;
    uint64_t next_handle = 1;  // texture and surface handles share it, as the engine's table assumes
    CudaArray* array(const void* handle) {
        auto it = arrays.find(handle);
        return it == arrays.end() ? nullptr : it->second.get();
    }
};

}  // namespace warpsim::runtime
