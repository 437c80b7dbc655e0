// sim/runtime/fatbin.hpp — the PTX of a program's embedded fatbinary, read in memory: the wrapper nvcc emits
// (__fatBinC_Wrapper_t), the fatbinary container and its entries, ZSTD- or LZ4-compressed or plain.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace warpsim::runtime {

inline constexpr uint32_t kFatbinWrapperMagic = 0x466243B1;  // fatbinary_section.h: FATBINC_MAGIC
inline constexpr uint32_t kFatbinMagic = 0xBA55ED50;         // the container's header

struct FatbinEntry {
    enum class Kind : uint16_t { ptx = 1, elf = 2, other = 0 } kind = Kind::other;
    uint32_t arch = 0;        // 90 for compute_90 / sm_90
    std::string compression;  // "", "zstd", "lz4"
    std::string payload;      // decompressed bytes (PTX text without trailing NULs)
};

struct FatbinContents {
    std::vector<FatbinEntry> entries;
    std::string error;  // non-empty: the container could not be read (what and where)
    uint64_t size = 0;  // bytes of the container, header included
};

// Reads one fatbinary container starting at `data`; at most `limit` bytes are looked at.
FatbinContents read_fatbin(const uint8_t* data, uint64_t limit);

// What the wrapper nvcc registers points at: the container(s) of one translation unit, or (version 2,
// -rdc=true) the prelinked containers of several.
struct WrapperView {
    uint32_t version = 0;
    const uint8_t* data = nullptr;
    const void* const* prelinked = nullptr;  // version 2: null-terminated array of containers
    std::string error;
};
WrapperView read_wrapper(const void* wrapper);

// The PTX entry to run on `arch` (90 for sm_90): the highest PTX architecture not above it. Empty text and a
// reason when there is none.
struct PtxChoice {
    std::string ptx;
    uint32_t arch = 0;
    std::string reason;
};
PtxChoice choose_ptx(const std::vector<FatbinEntry>& entries, uint32_t arch);

}  // namespace warpsim::runtime
