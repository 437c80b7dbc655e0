// tests/engine/test_dispatch.cpp — the dispatch table: which opcodes have handlers, and which instructions of
// the example kernels the engine cannot execute yet.
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>

#include "sim/engine/decode.hpp"
#include "sim/engine/dispatch.hpp"
#include "tests/engine/engine_harness.hpp"

using namespace warpsim;

TEST_CASE("opcodes with a selector in the dispatch table") {
    std::set<std::string> have, missing;
    const auto& table = engine::dispatch_table();
    for (std::size_t i = 0; i < ir::kOpcodeCount; ++i)
        (table[i] ? have : missing).insert(std::string(ir::opcode_name(static_cast<ir::Opcode>(i))));
    // The executed set; adding a handler means adding its opcode here.
    const std::set<std::string> expected_missing = {
        "fns", "createpolicy", "mapa", "getctarank", "alloca", "stacksave", "stackrestore", "mbarrier",
        "griddepcontrol", "cp", "ldmatrix", "stmatrix", "mma", "wmma", "wgmma", "tensormap", "setmaxnreg",
        "multimem", "suld", "sust", "sured", "suq", "tex", "tld4", "txq", "istypeof", "movmatrix",
        // the deprecated SIMD video family
        "vabsdiff", "vadd", "vsub", "vmin", "vmax", "vset", "vshl", "vshr", "vmad", "vabsdiff2", "vabsdiff4", "vadd2",
        "vadd4", "vavrg2", "vavrg4", "vmax2", "vmax4", "vmin2", "vmin4", "vset2", "vset4", "vsub2", "vsub4"};
    CHECK(missing == expected_missing);
    CHECK(have.count("shfl") == 1);
    CHECK(have.count("atom") == 1);
    CHECK(have.size() + missing.size() == ir::kOpcodeCount);
}

TEST_CASE("instructions of the example kernels without a handler") {
    std::set<std::string> unsupported;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(WARPSIM_SOURCE_DIR) + "/examples")) {
        if (entry.path().extension() != ".ptx") continue;
        auto k = test::parse(test::read_text(entry.path().string()));
        if (!k.parsed.ok()) continue;
        engine::ModuleLayout layout;
        const engine::Program prog = engine::decode_module(k.parsed.module, layout);
        for (const auto& f : prog.functions)
            for (const auto& in : f.code)
                if (in.fn == &engine::exec_unsupported) {
                    std::string s(ir::opcode_name(in.ir->op));
                    for (const auto& m : in.ir->mods) s += "." + m;
                    unsupported.insert(s);
                }
    }
    INFO([&] { std::string s; for (const auto& u : unsupported) s += u + "\n"; return s; }());
    // Only the asynchronous-copy and cluster examples use instructions the engine does not execute yet.
    for (const auto& u : unsupported) {
        const bool async_or_cluster = u.rfind("cp.", 0) == 0 || u.rfind("mbarrier", 0) == 0 ||
                                      u.rfind("mapa", 0) == 0 || u.rfind("barrier.cluster", 0) == 0 ||
                                      u.rfind("getctarank", 0) == 0 || u.find("cluster") != std::string::npos;
        CHECK(async_or_cluster);
    }
}
