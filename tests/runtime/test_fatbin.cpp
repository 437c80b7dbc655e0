// tests/runtime/test_fatbin.cpp — the fatbinary reader on containers built here by the layout nvcc 13 writes
// (sim/runtime/fatbin.cpp): plain, ZSTD and LZ4 entries, the PTX chosen for an architecture, corrupt headers.
#include <catch2/catch.hpp>

#include <lz4.h>
#include <zstd.h>
#include <cstring>

#include "sim/runtime/fatbin.hpp"

using namespace warpsim::runtime;

namespace {

template <class T>
void put(std::vector<uint8_t>& out, size_t at, T v) {
    std::memcpy(out.data() + at, &v, sizeof v);
}

// One entry: kind 1 (PTX) or 2 (ELF), an architecture, flags, the stored bytes and the uncompressed size.
void add_entry(std::vector<uint8_t>& body, uint16_t kind, uint32_t arch, uint64_t flags,
               const std::string& stored, uint64_t uncompressed) {
    const size_t at = body.size();
    const uint32_t padded = static_cast<uint32_t>((stored.size() + 7) / 8 * 8);
    body.resize(at + 64 + padded, 0);
    put<uint16_t>(body, at, kind);
    put<uint16_t>(body, at + 2, 0x101);
    put<uint32_t>(body, at + 4, 64);
    put<uint32_t>(body, at + 8, padded);
    put<uint32_t>(body, at + 16, static_cast<uint32_t>(stored.size()));
    put<uint32_t>(body, at + 28, arch);
    put<uint64_t>(body, at + 40, flags);
    put<uint64_t>(body, at + 56, uncompressed);
    std::memcpy(body.data() + at + 64, stored.data(), stored.size());
}

std::vector<uint8_t> container(const std::vector<uint8_t>& body) {
    std::vector<uint8_t> c(16 + body.size(), 0);
    put<uint32_t>(c, 0, kFatbinMagic);
    put<uint16_t>(c, 4, 1);
    put<uint16_t>(c, 6, 16);
    put<uint64_t>(c, 8, body.size());
    if (!body.empty()) std::memcpy(c.data() + 16, body.data(), body.size());
    return c;
}

const std::string kPtx80 = ".version 8.0\n.target sm_80\n.address_size 64\n// eighty\n";
const std::string kPtx90 =
    ".version 9.0\n.target sm_90\n.address_size 64\n// ninety, long enough to compress: "
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n";

}  // namespace

TEST_CASE("fatbin: plain, ZSTD and LZ4 PTX entries come back as text", "[runtime][fatbin]") {
    std::string z(ZSTD_compressBound(kPtx90.size()), '\0');
    z.resize(ZSTD_compress(z.data(), z.size(), kPtx90.data(), kPtx90.size(), 3));
    std::string l(static_cast<size_t>(LZ4_compressBound(static_cast<int>(kPtx80.size()))), '\0');
    l.resize(static_cast<size_t>(LZ4_compress_default(
        kPtx80.data(), l.data(), static_cast<int>(kPtx80.size()), static_cast<int>(l.size()))));
    std::vector<uint8_t> body;
    add_entry(body, 2, 90, 0x11,
              std::string("\x7f"
                          "ELF fake cubin"),
              0);
    add_entry(body, 1, 90, 0x8011, z, kPtx90.size());
    add_entry(body, 1, 80, 0x2011, l, kPtx80.size());
    add_entry(body, 1, 100, 0x11, std::string("PTX for sm_100\0\0", 16), 0);
    const auto c = container(body);
    const auto got = read_fatbin(c.data(), c.size());
    REQUIRE(got.error.empty());
    REQUIRE(got.entries.size() == 4);
    CHECK(got.size == c.size());
    CHECK(got.entries[0].kind == FatbinEntry::Kind::elf);
    CHECK(got.entries[1].compression == "zstd");
    CHECK(got.entries[1].payload == kPtx90);
    CHECK(got.entries[2].compression == "lz4");
    CHECK(got.entries[2].payload == kPtx80);
    CHECK(got.entries[3].payload == "PTX for sm_100");  // trailing NULs dropped

    // The highest PTX not above the device: compute_90 for sm_90, compute_80 for sm_86, none for sm_75.
    CHECK(choose_ptx(got.entries, 90).arch == 90);
    CHECK(choose_ptx(got.entries, 90).ptx == kPtx90);
    CHECK(choose_ptx(got.entries, 86).arch == 80);
    CHECK(choose_ptx(got.entries, 100).arch == 100);
    const auto none = choose_ptx(got.entries, 75);
    CHECK(none.ptx.empty());
    CHECK_THAT(none.reason,
               Catch::Contains("compute_90") && Catch::Contains("newer architecture than sm_75"));
}

TEST_CASE("fatbin: SASS only is named as such", "[runtime][fatbin]") {
    std::vector<uint8_t> body;
    add_entry(body, 2, 90, 0x11, "cubin", 0);
    const auto c = container(body);
    const auto none = choose_ptx(read_fatbin(c.data(), c.size()).entries, 90);
    CHECK_THAT(none.reason, Catch::Contains("carries no PTX") && Catch::Contains("-arch=sm_90"));
}

TEST_CASE("fatbin: corrupt containers are errors, not crashes", "[runtime][fatbin]") {
    std::vector<uint8_t> body;
    add_entry(body, 1, 90, 0x8011, "not zstd data at all", 4000);
    auto c = container(body);
    CHECK_THAT(read_fatbin(c.data(), c.size()).error, Catch::Contains("ZSTD"));
    c[0] ^= 1;
    CHECK_THAT(read_fatbin(c.data(), c.size()).error, Catch::Contains("not a fatbinary"));
    c[0] ^= 1;
    put<uint64_t>(c, 8, 1u << 30);  // claims more than there is
    CHECK_THAT(read_fatbin(c.data(), c.size()).error, Catch::Contains("claims"));
    auto short_entry = container(body);
    put<uint32_t>(short_entry, 16 + 8, 1u << 20);  // padded size beyond the container
    CHECK_THAT(read_fatbin(short_entry.data(), short_entry.size()).error, Catch::Contains("overruns"));
    CHECK_FALSE(read_wrapper(nullptr).error.empty());
}
