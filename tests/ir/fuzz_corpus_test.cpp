// tests/ir/fuzz_corpus_test.cpp — the committed fuzz corpus (tests/fuzz/corpus/ptx: deep nesting, bytes that
// are not UTF-8, the mutants ptxas rejects) replayed through what fuzz_ptx drives, in every build: a
// regression that crashes on one of them fails here, sanitized or not, without clang's libFuzzer.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "kernels_ir/cfg.hpp"
#include "kernels_ir/parser.hpp"
#include "kernels_ir/printer.hpp"
#include "kernels_ir/verifier.hpp"

using namespace warpsim::ir;

TEST_CASE("the PTX fuzz corpus parses, verifies and round-trips without a crash", "[fuzz][hostile]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(WARPSIM_SOURCE_DIR) / "tests/fuzz/corpus/ptx";
    int files = 0, clean = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        std::ifstream in(entry.path(), std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string text = ss.str();
        INFO(entry.path().filename().string());
        ParseResult r = parse_ptx(text, "corpus.ptx");
        verify(r.module, "corpus.ptx");
        for (const auto& fn : r.module.functions) {
            if (fn.has_body) build_cfg(fn);
        }
        ++files;
        if (!r.ok()) continue;
        ++clean;
        ParseResult again = parse_ptx(print_module(r.module), "printed.ptx");
        CHECK(again.ok());
        CHECK(equal_ignoring_ptx_positions(r.module, again.module));
    }
    CHECK(files >= 20);
    CHECK(clean >= 1);
}
