// tests/engine/test_reconverge.cpp — the engine takes its reconvergence points from kernels_ir's CFG
// (ir::build_cfg's reconverge_pc); this checks, over every function of the PTX corpus, that each bra/brx
// of a decoded function carries exactly that pc, and that a hand-checked diamond and loop agree.
#include <catch2/catch.hpp>

#include <filesystem>

#include "kernels_ir/cfg.hpp"
#include "sim/engine/decode.hpp"
#include "tests/engine/engine_harness.hpp"

using namespace warpsim;

namespace {

std::vector<std::string> corpus_files() {
    std::vector<std::string> files;
    const std::filesystem::path root(WARPSIM_SOURCE_DIR);
    for (const char* dir : {"tests/ptx", "examples", "tests/engine/data"})
        for (const auto& e : std::filesystem::directory_iterator(root / dir))
            if (e.path().extension() == ".ptx") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

TEST_CASE("every branch of the corpus reconverges where kernels_ir's CFG says") {
    std::size_t functions = 0, branches = 0;
    for (const auto& path : corpus_files()) {
        auto k = test::parse(test::read_text(path));
        if (!k.parsed.ok())
            continue;  // the parser's own tests cover the corpus; only parsed modules matter here
        const engine::Program prog = engine::decode_module(k.parsed.module, {});
        for (std::size_t f = 0; f < k.parsed.module.functions.size(); ++f) {
            const ir::Function& fn = k.parsed.module.functions[f];
            if (!fn.has_body) continue;
            ++functions;
            const ir::Cfg cfg = ir::build_cfg(fn);
            for (uint32_t pc = 0; pc < fn.body.size(); ++pc) {
                const auto op = fn.body[pc].op;
                if (op != ir::Opcode::bra && op != ir::Opcode::brx) continue;
                ++branches;
                INFO(path << " " << fn.name << " pc " << pc);
                REQUIRE(prog.functions[f].code[pc].rpc == cfg.reconverge_pc[pc]);
            }
        }
    }
    CHECK(functions > 200);
    CHECK(branches > 1000);
}

TEST_CASE("reconvergence of a diamond and of a loop with a divergent break (hand-checked pcs)") {
    auto k = test::parse(R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry shapes(.param .u32 n)
{
    .reg .pred %p<3>;
    .reg .b32 %r<4>;
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 16;
    @%p1 bra ELSE;
    add.u32 %r2, %r1, 1;
    bra.uni JOIN;
ELSE:
    add.u32 %r2, %r1, 2;
JOIN:
    mov.u32 %r3, 0;
LOOP:
    add.u32 %r3, %r3, 1;
    setp.gt.u32 %p2, %r3, %r1;
    @%p2 bra OUT;
    setp.lt.u32 %p2, %r3, 100;
    @%p2 bra LOOP;
OUT:
    ret;
}
)");
    REQUIRE(k.parsed.ok());
    const engine::Program prog = engine::decode_module(k.parsed.module, {});
    const auto& code = prog.functions[0].code;
    // pcs: 0 mov, 1 setp, 2 @p bra ELSE, 3 add, 4 bra JOIN, 5 add (ELSE), 6 mov (JOIN), 7 add (LOOP),
    // 8 setp, 9 @p bra OUT, 10 setp, 11 @p bra LOOP, 12 ret (OUT).
    CHECK(code[2].rpc == 6);
    CHECK(code[9].rpc == 12);
    CHECK(code[11].rpc == 12);
}
