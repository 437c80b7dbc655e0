// tests/engine/engine_harness.hpp — helpers for engine tests: parse PTX text, pack parameters, launch.
#pragma once

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "kernels_ir/parser.hpp"
#include "sim/engine/simulator.hpp"

namespace warpsim::test {

struct Kernel {
    ir::ParseResult parsed;
    std::string diagnostics;
    const ir::Function* find(std::string_view name) const {
        for (const auto& f : parsed.module.functions)
            if (f.name == name) return &f;
        return nullptr;
    }
};

inline Kernel parse(std::string_view ptx) {
    Kernel k{ir::parse_ptx(ptx, "test.ptx"), {}};
    for (const auto& d : k.parsed.diagnostics) k.diagnostics += d.str() + "\n";
    return k;
}

// Parameter bytes packed like cuLaunchKernel does (natural alignment).
class Params {
  public:
    template <class T>
    Params& add(T v) {
        const std::size_t a = sizeof(T);
        bytes_.resize((bytes_.size() + a - 1) / a * a);
        const std::size_t off = bytes_.size();
        bytes_.resize(off + sizeof(T));
        std::memcpy(bytes_.data() + off, &v, sizeof(T));
        return *this;
    }
    std::span<const uint8_t> span() const { return bytes_; }

  private:
    std::vector<uint8_t> bytes_;
};

template <class T>
uint64_t upload(engine::Simulator& sim, const std::vector<T>& v) {
    const uint64_t a = sim.malloc(v.size() * sizeof(T));
    sim.write(a, std::span(reinterpret_cast<const uint8_t*>(v.data()), v.size() * sizeof(T)));
    return a;
}

template <class T>
std::vector<T> download(const engine::Simulator& sim, uint64_t addr, std::size_t n) {
    auto bytes = sim.read(addr, n * sizeof(T));
    std::vector<T> out(n);
    if (bytes) std::memcpy(out.data(), bytes->data(), n * sizeof(T));
    return out;
}

inline std::string read_text(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    std::string s;
    if (!f) return s;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
    std::fclose(f);
    return s;
}

// The shared test kernels (tests/engine/data/engine_kernels.cu compiled by nvcc).
inline const Kernel& engine_kernels() {
    static const Kernel k =
        parse(read_text(std::string(WARPSIM_SOURCE_DIR) + "/tests/engine/data/engine_kernels.ptx"));
    return k;
}

// Finds a kernel by its demangled base name ("recursion" matches _Z9recursionPi).
inline const ir::Function* kernel_named(const Kernel& k, std::string_view base) {
    for (const auto& f : k.parsed.module.functions) {
        if (!f.is_entry) continue;
        const std::string needle = std::to_string(base.size()) + std::string(base);
        if (f.name == base || f.name.rfind("_Z" + needle, 0) == 0) return &f;
    }
    return nullptr;
}

inline engine::LaunchConfig config(std::array<uint32_t, 3> grid, std::array<uint32_t, 3> block) {
    engine::LaunchConfig c;
    c.grid = grid;
    c.block = block;
    c.ptx_file = "test.ptx";
    return c;
}

}  // namespace warpsim::test
