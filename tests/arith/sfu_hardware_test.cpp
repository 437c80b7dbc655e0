// tests/arith/sfu_hardware_test.cpp — compares the arith models with GPU results in
// tests/hardware/sfu/sfu_results.bin.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "tests/arith/sfu_models.hpp"
#include "tests/hardware/sfu/sfu_inputs.h"

namespace {

using warpsim::arith::testing::Expect;
using warpsim::arith::testing::OutFmt;
using warpsim::arith::testing::SfuModel;

struct Swept {
    sfu::FunctionHeader h;
    std::vector<unsigned char> data;
    uint64_t out(uint32_t i) const {
        uint64_t v = 0;
        for (uint32_t b = 0; b < h.out_bytes; ++b)
            v |= uint64_t(data[size_t(i) * h.out_bytes + b]) << (8 * b);
        return v;
    }
};

struct SweepFile {
    sfu::FileHeader header{};
    std::vector<Swept> functions;
};

// Returns false (with `why`) when the file is absent or malformed.
bool load(const std::string& path, SweepFile& file, std::string& why) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        why = "not found: " + path;
        return false;
    }
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    size_t pos = 0;
    auto take = [&](void* dst, size_t n) {
        if (pos + n > bytes.size()) return false;
        std::memcpy(dst, bytes.data() + pos, n);
        pos += n;
        return true;
    };
    if (!take(&file.header, sizeof file.header) || std::memcmp(file.header.magic, sfu::kMagic, 8) != 0) {
        why = "bad header in " + path;
        return false;
    }
    for (uint32_t k = 0; k < file.header.function_count; ++k) {
        Swept s{};
        if (!take(&s.h, sizeof s.h)) {
            why = "truncated function header";
            return false;
        }
        s.h.name[sizeof s.h.name - 1] = '\0';
        s.data.resize(size_t(s.h.count) * s.h.out_bytes);
        if (!take(s.data.data(), s.data.size())) {
            why = std::string("truncated data of ") + s.h.name;
            return false;
        }
        file.functions.push_back(std::move(s));
    }
    return true;
}

// Monotonic integer image of a float's bits (for ULP distance); -0 and +0 are 0 and -1 apart by design.
int64_t ordered(uint64_t bits, int width) {
    const uint64_t sign = uint64_t{1} << (width - 1);
    const auto mag = static_cast<int64_t>(bits & (sign - 1));
    return (bits & sign) ? -mag : mag;
}

bool is_nan(uint64_t bits, OutFmt f) {
    switch (f) {
        case OutFmt::f32:
            return (bits & 0x7fffffffu) > 0x7f800000u;
        case OutFmt::f64:
            return (bits & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
        case OutFmt::f16:
            return (bits & 0x7fffu) > 0x7c00u;
        case OutFmt::bf16:
            return (bits & 0x7fffu) > 0x7f80u;
        default:
            return false;
    }
}

int width_of(OutFmt f) {
    switch (f) {
        case OutFmt::f32:
            return 32;
        case OutFmt::f64:
            return 64;
        default:
            return 16;
    }
}

constexpr uint64_t kInfUlp = std::numeric_limits<uint64_t>::max();

// Distance in units in the last place; NaN vs NaN is 0, NaN vs number is "infinite".
uint64_t ulp_distance(uint64_t a, uint64_t b, OutFmt f) {
    if (f == OutFmt::integer) return a > b ? a - b : b - a;
    if (f == OutFmt::f16x2) {
        return std::max(ulp_distance(a & 0xffff, b & 0xffff, OutFmt::f16),
                        ulp_distance(a >> 16, b >> 16, OutFmt::f16));
    }
    if (f == OutFmt::f8x2_e4m3 || f == OutFmt::f8x2_e5m2) {
        const auto d8 = [](uint64_t x, uint64_t y) {
            const int64_t ox = (x & 0x80) ? -int64_t(x & 0x7f) : int64_t(x & 0x7f);
            const int64_t oy = (y & 0x80) ? -int64_t(y & 0x7f) : int64_t(y & 0x7f);
            return uint64_t(ox > oy ? ox - oy : oy - ox);
        };
        return std::max(d8(a & 0xff, b & 0xff), d8(a >> 8, b >> 8));
    }
    const bool na = is_nan(a, f), nb = is_nan(b, f);
    if (na || nb) return na && nb ? 0 : kInfUlp;
    const int64_t oa = ordered(a, width_of(f)), ob = ordered(b, width_of(f));
    return uint64_t(oa > ob ? oa - ob : ob - oa);
}

struct Report {
    uint32_t matches = 0;
    uint64_t max_ulp = 0;
    uint32_t bound_failures = 0;
    uint32_t first_mismatch = ~0u;
};

Report compare(const Swept& s, const SfuModel& m) {
    Report r;
    for (uint32_t i = 0; i < s.h.count; ++i) {
        uint64_t ops[3];
        sfu::inputs(s.h.kind, i, ops);
        const uint64_t model = m.model(ops), gpu = s.out(i);
        if (model == gpu) {
            ++r.matches;
            continue;
        }
        if (r.first_mismatch == ~0u) r.first_mismatch = i;
        r.max_ulp = std::max(r.max_ulp, ulp_distance(gpu, model, m.fmt));
        if (m.expect == Expect::documented && !m.bound(ops, gpu, model)) ++r.bound_failures;
        if (m.expect == Expect::max_ulp && ulp_distance(gpu, model, m.fmt) > uint64_t(m.limit))
            ++r.bound_failures;
    }
    return r;
}

const SfuModel* find_model(const std::string& name) {
    for (const auto& m : warpsim::arith::testing::sfu_models())
        if (m.name == name) return &m;
    return nullptr;
}

std::string describe(const Swept& s, const SfuModel& m, const Report& r) {
    char line[256];
    std::snprintf(line, sizeof line, "%-28s %6u/%-6u bit-exact  max diff %s ulp  bound failures %u", s.h.name,
                  r.matches, s.h.count, r.max_ulp == kInfUlp ? "NaN" : std::to_string(r.max_ulp).c_str(),
                  r.bound_failures);
    std::string out = line;
    if (r.first_mismatch != ~0u) {
        uint64_t ops[3];
        sfu::inputs(s.h.kind, r.first_mismatch, ops);
        std::snprintf(line, sizeof line, "  first mismatch #%u: in %llx %llx %llx gpu %llx model %llx",
                      r.first_mismatch, (unsigned long long)ops[0], (unsigned long long)ops[1],
                      (unsigned long long)ops[2], (unsigned long long)s.out(r.first_mismatch),
                      (unsigned long long)m.model(ops));
        out += line;
    }
    return out;
}

// FNV-1a 64 of the model's outputs over the fingerprint's indices (out_bytes little-endian bytes each).
uint64_t model_fingerprint(const Swept& s, const SfuModel& m) {
    uint64_t h = sfu::kFnvOffset;
    for (uint32_t i = 0; i < s.h.large_count; ++i) {
        uint64_t ops[3];
        sfu::inputs(s.h.kind, i, ops);
        const uint64_t v = m.model(ops);
        unsigned char bytes[8];
        for (uint32_t b = 0; b < s.h.out_bytes; ++b) bytes[b] = static_cast<unsigned char>(v >> (8 * b));
        h = sfu::fnv1a_update(h, bytes, s.h.out_bytes);
    }
    return h;
}

bool load_or_warn(SweepFile& file) {
    const std::string path = std::string(WARPSIM_SOURCE_DIR) + "/tests/hardware/sfu/sfu_results.bin";
    std::string why;
    if (load(path, file, why)) return true;
    WARN("GPU measurements unavailable ("
         << why
         << "): run tests/hardware/sfu/sfu_sweep on a GPU, see "
            "tests/hardware/sfu/README.md; skipping the hardware comparison");
    return false;
}

}  // namespace

// The exact core functions must also reproduce the GPU's fingerprint over the large sweep (2^24 inputs, or
// all 65536 16-bit patterns).
TEST_CASE("exact arith models reproduce the GPU fingerprints of the large sweep", "[arith][hardware]") {
    SweepFile file;
    if (!load_or_warn(file)) return;
    for (const char* name : {"fma.rn.f32", "cvt.rn.f16.f32", "cvt.rn.bf16.f32", "cvt.f32.f16", "cvt.f32.bf16",
                             "cvt.rn.f16x2.e4m3x2", "cvt.rn.f16x2.e5m2x2", "neg.f16"}) {
        for (const Swept& s : file.functions) {
            if (std::string(s.h.name) != name || s.h.large_count == 0) continue;
            const SfuModel* m = find_model(name);
            REQUIRE(m != nullptr);
            INFO(name << " over " << s.h.large_count << " inputs");
            CHECK(model_fingerprint(s, *m) == s.h.large_fnv1a);
        }
    }
}

TEST_CASE("arith models against H200 measurements (tests/hardware/sfu/sfu_results.bin)",
          "[arith][hardware]") {
    SweepFile file;
    if (!load_or_warn(file)) return;
    std::printf("SFU sweep from %s (sm_%u), %u functions\n", file.header.device_name,
                file.header.compute_capability, file.header.function_count);
    for (const Swept& s : file.functions) {
        const SfuModel* m = find_model(s.h.name);
        if (!m) {
            WARN("no model bound for swept function " << s.h.name);
            continue;
        }
        const Report r = compare(s, *m);
        const std::string text = describe(s, *m, r);
        std::printf("%s\n", text.c_str());
        INFO(text);
        switch (m->expect) {
            case Expect::exact:
                CHECK(r.matches == s.h.count);
                break;
            case Expect::max_ulp:
            case Expect::documented:
                CHECK(r.bound_failures == 0);
                break;
            case Expect::report_only:
                break;
        }
    }
}

// Every exactly-modelled function against its large-sweep fingerprint (hidden: about a minute; run with
// `test_arith "[large]"`).
TEST_CASE("all exact arith models reproduce the GPU fingerprints", "[.][large][arith][hardware]") {
    SweepFile file;
    if (!load_or_warn(file)) return;
    for (const Swept& s : file.functions) {
        const SfuModel* m = find_model(s.h.name);
        if (!m || m->expect != Expect::exact || s.h.large_count == 0) continue;
        INFO(s.h.name << " over " << s.h.large_count << " inputs");
        CHECK(model_fingerprint(s, *m) == s.h.large_fnv1a);
    }
}
