// tests/fuzz/fuzz_ptx.cpp — libFuzzer target: any bytes through parse, verify, CFG and print must not crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kernels_ir/cfg.hpp"
#include "kernels_ir/names.hpp"
#include "kernels_ir/parser.hpp"
#include "kernels_ir/printer.hpp"
#include "kernels_ir/verifier.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    using namespace warpsim::ir;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    ParseResult r = parse_ptx(text, "fuzz.ptx");
    verify(r.module, "fuzz.ptx");
    for (const auto& fn : r.module.functions) {
        if (fn.has_body) build_cfg(fn);
        demangled_base_name(fn.name);
    }
    if (r.ok()) {
        // A module that parsed cleanly must print to text that parses cleanly to the same module.
        std::string printed = print_module(r.module);
        ParseResult again = parse_ptx(printed, "printed.ptx");
        if (!again.ok() || !equal_ignoring_ptx_positions(r.module, again.module)) __builtin_trap();
    }
    return 0;
}
