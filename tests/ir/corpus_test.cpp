// tests/ir/corpus_test.cpp — every PTX file of the repository parses, verifies, builds a CFG and round-trips.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "kernels_ir/cfg.hpp"
#include "kernels_ir/parser.hpp"
#include "kernels_ir/printer.hpp"
#include "kernels_ir/verifier.hpp"

using namespace warpsim::ir;
namespace fs = std::filesystem;

namespace {

// Globbed at run time, so files added to tests/ptx/ or examples/ are picked up without rebuilding.
std::vector<fs::path> corpus_files() {
    std::vector<fs::path> out;
    for (const char* dir : {"tests/ptx", "examples"}) {
        fs::path root = fs::path(WARPSIM_SOURCE_DIR) / dir;
        if (!fs::exists(root)) continue;
        for (const auto& e : fs::recursive_directory_iterator(root)) {
            if (e.is_regular_file() && e.path().extension() == ".ptx") out.push_back(e.path());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Names the first difference, so that a failing round trip says where to look.
std::string first_difference(const Module& a, const Module& b) {
    if (a.functions.size() != b.functions.size()) return "function count";
    if (a.globals != b.globals) return "globals";
    for (std::size_t i = 0; i < a.functions.size(); ++i) {
        const Function& fa = a.functions[i];
        const Function& fb = b.functions[i];
        if (fa.regs != fb.regs) return fa.name + ": regs";
        if (fa.labels != fb.labels) return fa.name + ": labels";
        if (fa.params != fb.params || fa.returns != fb.returns) return fa.name + ": params";
        if (fa.body.size() != fb.body.size()) return fa.name + ": body size";
        for (std::size_t pc = 0; pc < fa.body.size(); ++pc) {
            Instruction x = fa.body[pc], y = fb.body[pc];
            x.loc.ptx_line = x.loc.ptx_col = y.loc.ptx_line = y.loc.ptx_col = 0;
            if (!(x == y)) return fa.name + ": pc " + std::to_string(pc);
        }
    }
    return "module header, files or locals";
}

}  // namespace

TEST_CASE("the PTX corpus parses, verifies and round-trips", "[corpus]") {
    auto files = corpus_files();
    INFO("corpus files: " << files.size());
    CHECK(files.size() >= 1);
    std::size_t instructions = 0;
    for (const auto& path : files) {
        INFO(path.string());
        std::string text = read_file(path);
        ParseResult r = parse_ptx(text, path.filename().string());
        for (const auto& d : r.diagnostics) UNSCOPED_INFO(d.str());
        REQUIRE(r.ok());
        CHECK(r.diagnostics.empty());
        auto problems = verify(r.module, path.filename().string());
        for (const auto& d : problems) UNSCOPED_INFO(d.str());
        CHECK(problems.empty());
        for (const auto& fn : r.module.functions) {
            instructions += fn.body.size();
            if (!fn.has_body) continue;
            Cfg cfg = build_cfg(fn);
            CHECK(cfg.reconverge_pc.size() == fn.body.size());
            for (uint32_t pc = 0; pc < fn.body.size(); ++pc) {
                if (fn.body[pc].op == Opcode::bra) CHECK(cfg.reconverge_pc[pc] <= fn.body.size());
            }
        }
        std::string printed = print_module(r.module);
        ParseResult again = parse_ptx(printed, "printed.ptx");
        for (const auto& d : again.diagnostics) UNSCOPED_INFO(d.str());
        REQUIRE(again.ok());
        bool same = equal_ignoring_ptx_positions(r.module, again.module);
        INFO("first difference: " << (same ? std::string("none") : first_difference(r.module, again.module)));
        CHECK(same);
        // Printing is a fixed point after one round.
        CHECK(print_module(again.module) == printed);
    }
    CHECK(instructions > 0);
}
