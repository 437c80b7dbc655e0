// tests/fuzz/fuzz_spec.cpp — libFuzzer target: the launch-spec parser must never crash, throw or hang,
// and a spec it accepts must be internally consistent.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "kernels_ir/ir.hpp"
#include "launch/buffer_init.hpp"
#include "launch/launch_spec.hpp"
#include "launch/params.hpp"

namespace {

void check(bool condition) {
    if (!condition) std::abort();  // a broken invariant is a finding for libFuzzer
}

// A kernel whose parameters have exactly the sizes of the spec's arguments: check_args must accept it.
warpsim::ir::Function matching_kernel(const warpsim::launch::LaunchSpec& spec) {
    warpsim::ir::Function f;
    f.name = spec.kernel;
    for (const auto& a : spec.args) {
        warpsim::ir::Param p;
        p.name = "p";
        p.type = warpsim::ir::Type::b8;
        p.array = static_cast<uint32_t>(a.param_bytes());
        f.params.push_back(p);
    }
    return f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace warpsim::launch;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    SpecParse p = parse_spec(text, "/nonexistent/fuzz.json");
    check(p.ok() == p.errors.empty());
    if (!p.ok()) return 0;
    const LaunchSpec& spec = *p.spec;
    for (uint32_t d : spec.grid) check(d >= 1);
    for (uint32_t d : spec.block) check(d >= 1);
    uint64_t total = 0;
    for (const auto& a : spec.args) {
        if (a.kind != ArgSpec::Kind::buffer) {
            check(!a.value.empty());
            continue;
        }
        check(a.count >= 1 && a.buffer_bytes() <= kMaxBufferBytes);
        total += a.buffer_bytes();
        // The generators are pure per component: sample a few instead of filling gigabytes.
        for (uint64_t k = 0; k < 8; ++k) (void)generated_component_bits(a, k * (a.count / 8 + 1));
    }
    check(total <= kMaxTotalBufferBytes);
    warpsim::ir::Function kernel = matching_kernel(spec);
    check(check_args(kernel, spec).empty());
    std::vector<uint64_t> addresses(spec.args.size(), 0x100);
    uint64_t packed_size = 0;
    param_offsets(kernel, &packed_size);
    check(pack_params(kernel, addresses, spec).size() == packed_size);
    return 0;
}
