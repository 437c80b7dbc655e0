// tests/ir/layout_test.cpp — kernels_ir/layout: parameters, frames and shared memory equal, over the whole
// PTX corpus, the layout the engine computed for itself before the layout moved into kernels_ir (the golden
// file tests/ir/data/layout_engine_3fd1fdc.txt was written from engine::decode_module, engine::param_layout
// and check::shared_layout at commit 3fd1fdc); and the alignment rule on hand-computed cases.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "kernels_ir/layout.hpp"
#include "kernels_ir/parser.hpp"

using namespace warpsim::ir;

namespace {

std::string read_file(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

Module parse_ok(std::string_view text) {
    ParseResult r = parse_ptx(text, "layout_test.ptx");
    std::string diags;
    for (const auto& d : r.diagnostics) diags += d.str() + "\n";
    INFO(diags);
    REQUIRE(r.ok());
    return std::move(r.module);
}

// The golden file's lines for one module: per function its parameter offsets (kernels) or formal and return
// offsets (.func), its frame sizes and frame symbols; per kernel its dynamic base, extern array and the
// static variables of its window.
std::string joined(const std::vector<uint32_t>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s;
}

std::string describe(const Module& m) {
    std::ostringstream out;
    const SharedLayout window = shared_layout(m);
    for (uint32_t f = 0; f < m.functions.size(); ++f) {
        const Function& fn = m.functions[f];
        const FrameLayout frame = frame_layout(fn);
        out << "fn " << fn.name << (fn.is_entry ? " entry" : " func");
        if (fn.is_entry) {
            const ParamLayout pl = param_layout(fn.params);
            out << " params=" << joined(pl.offsets) << " total=" << pl.total
                << " static_shared=" << window.static_bytes[f];
        } else {
            out << " formals=" << joined(frame.formal_offsets) << " returns=" << joined(frame.return_offsets);
        }
        out << " param_bytes=" << frame.param_bytes << " local_bytes=" << frame.local_bytes << "\n";
        for (const auto& [name, slot] : frame.symbols)
            out << "  sym " << name << (slot.space == Space::param ? " param " : " local ") << slot.offset
                << "\n";
        if (!fn.is_entry) continue;
        std::string extern_name;
        for (const auto* vars : {&fn.locals, &m.globals})
            for (const auto& v : *vars)
                if (is_dynamic_shared(v) && extern_name.empty()) extern_name = v.name;
        out << "  dynamic_base " << window.dynamic_base[f] << " " << extern_name << "\n";
        for (const auto& p : window.placements) {
            const bool common = p.owner < 0 || !m.functions[static_cast<size_t>(p.owner)].is_entry;
            const bool visible = common || p.owner == f;
            if (visible) out << "  shared " << p.name << " " << p.offset << " " << p.size << "\n";
        }
    }
    return out.str();
}

}  // namespace

TEST_CASE("layout: equal to the engine's own layout over the whole PTX corpus") {
    const std::string golden_path =
        std::string(WARPSIM_SOURCE_DIR) + "/tests/ir/data/layout_engine_3fd1fdc.txt";
    std::istringstream golden(read_file(golden_path));
    std::map<std::string, std::string> expected;
    std::string line, file;
    while (std::getline(golden, line)) {
        if (line.rfind("file ", 0) == 0)
            file = line.substr(5);
        else
            expected[file] += line + "\n";
    }
    REQUIRE(expected.size() >= 150);
    for (const auto& [path, want] : expected) {
        INFO(path);
        const std::string text = read_file(std::string(WARPSIM_SOURCE_DIR) + "/" + path);
        REQUIRE_FALSE(text.empty());
        ParseResult r = parse_ptx(text, path);
        REQUIRE(r.ok());
        CHECK(describe(r.module) == want);
    }
}

TEST_CASE("layout: .align when written, else the element size times the vector width") {
    // Offsets by hand: u8 at 0; f64 (8-aligned) at 8; .v4.f32 (16-aligned) at 16..32; u16 at 32; .align 4
    // u8 at 36. Static end 37; dynamic memory at the next multiple of 16, 48.
    const Module m = parse_ok(R"(.version 8.0
.target sm_90
.address_size 64
.extern .shared .align 16 .b8 dyn[];
.visible .entry k(.param .u8 a, .param .u64 b, .param .align 16 .b8 c[20], .param .u32 d)
{
    .shared .u8 s0;
    .shared .f64 s1;
    .shared .v4 .f32 s2;
    .shared .u16 s3;
    .shared .align 4 .u8 s4;
    .local .align 8 .b8 depot[12];
    .local .u32 counter;
    ret;
}
)");
    const SharedLayout w = shared_layout(m);
    CHECK(w.offset_of(0, "s0") == 0);
    CHECK(w.offset_of(0, "s1") == 8);
    CHECK(w.offset_of(0, "s2") == 16);
    CHECK(w.offset_of(0, "s3") == 32);
    CHECK(w.offset_of(0, "s4") == 36);
    CHECK(w.offset_of(0, "dyn") == -1);
    CHECK(w.static_bytes[0] == 37);
    CHECK(w.dynamic_base[0] == 48);
    CHECK(w.block_bytes(0, 0) == 37);
    CHECK(w.block_bytes(0, 512) == 48 + 512);
    const ParamLayout p = param_layout(m.functions[0].params);
    CHECK(p.offsets == std::vector<uint32_t>{0, 8, 16, 36});
    CHECK(p.total == 40);
    const FrameLayout f = frame_layout(m.functions[0]);
    CHECK(f.symbols.at("depot").offset == 0);
    CHECK(f.symbols.at("counter").offset == 12);
    CHECK(f.local_bytes == 16);
}

TEST_CASE(
    "layout: a .func's shared variables are common to every kernel; its code sees dynamic memory "
    "at the largest kernel's start") {
    // Module scope: g (4 bytes) at 0; the .func's h (2 bytes) at 4: common part 6 bytes. Kernel a adds 1 byte
    // (static 7, dynamic at 16); kernel b adds 32 bytes of .v4.u32 at 16 (static 48, dynamic at 48).
    const Module m = parse_ok(R"(.version 8.0
.target sm_90
.address_size 64
.shared .u32 g;
.func helper()
{
    .shared .u16 h;
    ret;
}
.visible .entry a()
{
    .shared .u8 x;
    ret;
}
.visible .entry b()
{
    .shared .v4 .u32 y[2];
    ret;
}
)");
    const SharedLayout w = shared_layout(m);
    CHECK(w.offset_of(-1, "g") == 0);
    CHECK(w.offset_of(0, "h") == 4);
    CHECK(w.offset_of(1, "x") == 6);
    CHECK(w.offset_of(2, "y") == 16);
    CHECK(w.static_bytes[1] == 7);
    CHECK(w.static_bytes[2] == 48);
    CHECK(w.dynamic_base[1] == 16);
    CHECK(w.dynamic_base[2] == 48);
    CHECK(w.dynamic_base[0] == 48);
    CHECK(w.block_bytes(1, 0) == 7);
    CHECK(w.block_bytes(1, 64) == 48 + 64);  // a's code may call helper, which addresses dynamic memory at 48
}
