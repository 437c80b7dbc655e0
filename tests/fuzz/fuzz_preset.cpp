// tests/fuzz/fuzz_preset.cpp — libFuzzer target: any bytes as a device preset file must not crash, throw or
// hang, and a preset that validates must give occupancy answers without overflow for any block shape.
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "sim/device/device.hpp"
#include "sim/device/occupancy.hpp"

namespace {

void check(bool condition) {
    if (!condition) std::abort();  // a broken invariant is a finding for libFuzzer
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace warpsim::device;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto preset = parse_preset(text, "fuzz.json");
    if (!preset) {
        check(!preset.error().empty());
        return 0;
    }
    const DevicePreset& p = preset.value();
    for (int threads : {1, 32, 1024, 1025, INT_MAX}) {
        for (int regs : {0, 32, 255}) {
            KernelResources k;
            k.threads_per_block = threads;
            k.registers_per_thread = regs;
            k.static_shared_bytes = threads % 7 * 1024;
            k.dynamic_shared_bytes = regs * 64;
            auto occ = compute_occupancy(p, k);
            if (!occ) continue;
            check(occ->blocks_per_sm >= 0 && occ->warps_per_sm >= 0);
            check(occ->occupancy >= 0 && occ->occupancy <= 1.0 + 1e-9);
        }
    }
    return 0;
}
