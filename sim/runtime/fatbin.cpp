// sim/runtime/fatbin.cpp — the fatbinary container's layout, as nvcc 13 writes it (read off
// `nvcc --keep`'s .fatbin files): a 16-byte header {u32 magic, u16 version, u16 header_size, u64
// entries_size}, then entries, each a header {u16 kind, u16 version, u32 header_size, u32 padded_size, u32 -,
// u32 payload_size, u32 -, u32 -, u32 arch, u32 address_bits, u32 -, u64 flags, u64 -, u64 uncompressed_size}
// and its payload. flags 0x2000: LZ4-compressed payload, 0x8000: ZSTD.
#include "sim/runtime/fatbin.hpp"

#include <cstring>

#include <fmt/format.h>
#include <lz4.h>
#include <zstd.h>

namespace warpsim::runtime {
namespace {

template <class T>
T load(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

constexpr uint64_t kFlagLz4 = 0x2000;
constexpr uint64_t kFlagZstd = 0x8000;
constexpr uint32_t kEntryHeaderMin = 64;
// A PTX module of a real program is well under this; a larger claim is a corrupt header.
constexpr uint64_t kMaxPayload = 1ull << 31;

std::string decompress(const uint8_t* p, uint64_t n, uint64_t flags, uint64_t out_size, std::string& error) {
    std::string out;
    if (!(flags & (kFlagLz4 | kFlagZstd))) return std::string(reinterpret_cast<const char*>(p), n);
    if (out_size == 0 || out_size > kMaxPayload) {
        error = fmt::format("compressed entry claims {} bytes uncompressed", out_size);
        return out;
    }
    out.resize(out_size);
    if (flags & kFlagZstd) {
        const size_t got = ZSTD_decompress(out.data(), out.size(), p, n);
        if (ZSTD_isError(got)) {
            error = std::string("ZSTD: ") + ZSTD_getErrorName(got);
            return {};
        }
        out.resize(got);
    } else {
        const int got = LZ4_decompress_safe(reinterpret_cast<const char*>(p), out.data(), static_cast<int>(n),
                                            static_cast<int>(out.size()));
        if (got < 0) {
            error = "LZ4: corrupt data";
            return {};
        }
        out.resize(static_cast<size_t>(got));
    }
    return out;
}

}  // namespace

FatbinContents read_fatbin(const uint8_t* data, uint64_t limit) {
    FatbinContents c;
    if (!data || limit < 16) {
        c.error = "no fatbinary data";
        return c;
    }
    if (load<uint32_t>(data) != kFatbinMagic) {
        c.error = fmt::format("not a fatbinary (magic {:#010x}, expected {:#010x})", load<uint32_t>(data),
                              kFatbinMagic);
        return c;
    }
    const uint16_t header = load<uint16_t>(data + 6);
    const uint64_t body = load<uint64_t>(data + 8);
    if (header < 16 || body > limit - header) {
        c.error = fmt::format("fatbinary header claims {} bytes", body);
        return c;
    }
    c.size = header + body;
    const uint8_t* p = data + header;
    const uint8_t* end = p + body;
    for (int index = 0; p < end; ++index) {
        if (static_cast<uint64_t>(end - p) < kEntryHeaderMin) break;
        const uint16_t kind = load<uint16_t>(p);
        const uint32_t eh = load<uint32_t>(p + 4);
        const uint32_t padded = load<uint32_t>(p + 8);
        const uint32_t payload = load<uint32_t>(p + 16);
        const uint32_t arch = load<uint32_t>(p + 28);
        const uint64_t flags = load<uint64_t>(p + 40);
        const uint64_t uncompressed = load<uint64_t>(p + 56);
        if (eh < kEntryHeaderMin || eh > static_cast<uint64_t>(end - p) ||
            padded > static_cast<uint64_t>(end - p) - eh) {
            c.error = fmt::format("fatbinary entry {} overruns the container", index);
            return c;
        }
        FatbinEntry e;
        e.kind = kind == 1   ? FatbinEntry::Kind::ptx
                 : kind == 2 ? FatbinEntry::Kind::elf
                             : FatbinEntry::Kind::other;
        e.arch = arch;
        e.compression = flags & kFlagZstd ? "zstd" : flags & kFlagLz4 ? "lz4" : "";
        const uint64_t stored = payload && payload <= padded ? payload : padded;
        std::string error;
        e.payload = decompress(p + eh, stored, flags, uncompressed, error);
        if (!error.empty()) {
            c.error = fmt::format("fatbinary entry {} (arch {}): {}", index, arch, error);
            return c;
        }
        if (e.kind == FatbinEntry::Kind::ptx) {
            while (!e.payload.empty() && e.payload.back() == '\0') e.payload.pop_back();
        }
        c.entries.push_back(std::move(e));
        p += eh + padded;
    }
    return c;
}

WrapperView read_wrapper(const void* wrapper) {
    WrapperView w;
    if (!wrapper) {
        w.error = "null fatbinary wrapper";
        return w;
    }
    const auto* b = static_cast<const uint8_t*>(wrapper);
    const uint32_t magic = load<uint32_t>(b);
    if (magic == kFatbinMagic) {  // a bare container (some tools register it directly)
        w.version = 1;
        w.data = b;
        return w;
    }
    if (magic != kFatbinWrapperMagic) {
        w.error = fmt::format("not a fatbinary wrapper (magic {:#010x})", magic);
        return w;
    }
    w.version = load<uint32_t>(b + 4);
    w.data = load<const uint8_t*>(b + 8);
    if (w.version == 2) w.prelinked = load<const void* const*>(b + 16);
    return w;
}

PtxChoice choose_ptx(const std::vector<FatbinEntry>& entries, uint32_t arch) {
    PtxChoice c;
    std::string seen;
    for (const auto& e : entries) {
        if (e.kind != FatbinEntry::Kind::ptx) continue;
        seen += fmt::format("{}compute_{}", seen.empty() ? "" : ", ", e.arch);
        if (e.arch <= arch && e.arch >= c.arch) {
            c.arch = e.arch;
            c.ptx = e.payload;
        }
    }
    if (c.ptx.empty()) {
        c.reason = seen.empty() ? "the fatbinary carries no PTX (only SASS); build with -arch=sm_" +
                                      std::to_string(arch) + " (or add -gencode arch=compute_" +
                                      std::to_string(arch) + ",code=compute_" + std::to_string(arch) + ")"
                                : "the fatbinary's PTX (" + seen + ") is for a newer architecture than sm_" +
                                      std::to_string(arch);
    }
    return c;
}

}  // namespace warpsim::runtime
