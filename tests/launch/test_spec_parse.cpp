// tests/launch/test_spec_parse.cpp — launch-spec parsing: every shipped spec, and located errors.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "launch/launch_spec.hpp"

using namespace warpsim::launch;

namespace {

bool any_error_contains(const SpecParse& p, const std::string& needle) {
    for (const auto& e : p.errors)
        if (e.find(needle) != std::string::npos) return true;
    return false;
}

std::string spec_with_args(const std::string& args) {
    return R"({"source": "k.ptx", "kernel": "k", "grid": [1], "block": [32], "args": [)" + args + "]}";
}

}  // namespace

TEST_CASE("every example and test spec parses", "[launch][spec]") {
    namespace fs = std::filesystem;
    int parsed = 0;
    for (const char* dir : {"examples/specs", "tests/specs"}) {
        fs::path folder = fs::path(WARPSIM_SOURCE_DIR) / dir;
        if (!fs::is_directory(folder)) continue;
        for (const auto& entry : fs::recursive_directory_iterator(folder)) {
            if (entry.path().extension() != ".json") continue;
            const std::string name = entry.path().filename().string();
            SpecParse p = load_spec(entry.path().string());
            INFO(entry.path().string() << "\n" << p.error_text());
            if (name.find("invalid") != std::string::npos || name.find("malformed") != std::string::npos) {
                CHECK_FALSE(p.ok());
                continue;
            }
            REQUIRE(p.ok());
            CHECK(p.warnings.empty());
            CHECK(std::filesystem::exists(p.spec->source_path));
            ++parsed;
        }
    }
    CHECK(parsed >= 50);  // examples/specs alone holds 58 at the time of writing
}

TEST_CASE("vector_add_1000 is read field by field", "[launch][spec]") {
    SpecParse p = load_spec(std::string(WARPSIM_SOURCE_DIR) + "/examples/specs/vector_add_1000.json");
    REQUIRE(p.ok());
    const LaunchSpec& s = *p.spec;
    CHECK(s.kernel == "vecAdd");
    CHECK(s.arch == "sm_90");
    CHECK(s.grid == std::array<uint32_t, 3>{4, 1, 1});
    CHECK(s.block == std::array<uint32_t, 3>{256, 1, 1});
    CHECK(s.source_path == std::string(WARPSIM_SOURCE_DIR) + "/examples/vector_add.ptx");
    REQUIRE(s.args.size() == 4);
    CHECK(s.args[0].kind == ArgSpec::Kind::buffer);
    CHECK(s.args[0].count == 1000);
    CHECK(s.args[0].buffer_bytes() == 4000);
    CHECK(s.args[0].init.kind == BufferInit::Kind::iota);
    CHECK(s.args[2].init.kind == BufferInit::Kind::zero);
    CHECK(s.args[3].kind == ArgSpec::Kind::scalar);
    CHECK(s.args[3].value == std::vector<uint8_t>{0xe8, 0x03, 0, 0});  // 1000 = 0x3e8
    CHECK(s.deterministic);
    CHECK_FALSE(s.expect_error);
    CHECK(s.l2 == L2State::warm);
}

TEST_CASE("\"l2\" is \"warm\" or \"cold\"; anything else is an error naming the field", "[launch][spec]") {
    auto with = [](const std::string& l2) {
        return parse_spec(R"({"source": "k.ptx", "kernel": "k", "grid": [1], "block": [32], "l2": )" + l2 +
                              R"(, "args": []})",
                          "s.json");
    };
    SpecParse cold = with("\"cold\"");
    INFO(cold.error_text());
    REQUIRE(cold.ok());
    CHECK(cold.spec->l2 == L2State::cold);
    SpecParse warm = with("\"warm\"");
    REQUIRE(warm.ok());
    CHECK(warm.spec->l2 == L2State::warm);
    SpecParse bad = with("\"lukewarm\"");
    CHECK_FALSE(bad.ok());
    CHECK(bad.error_text().find("l2") != std::string::npos);
    CHECK(bad.error_text().find("'lukewarm' is not an L2 state") != std::string::npos);
    CHECK_FALSE(with("1").ok());
}

TEST_CASE("missing dimensions default to 1 and optional fields are read", "[launch][spec]") {
    SpecParse p = parse_spec(R"({"source": "a/k.ptx", "kernel": "k", "arch": "sm_80", "grid": [7, 3],
        "block": [64], "shared_bytes": 65536, "max_dynamic_shared_bytes": 100000, "registers": 40,
        "deterministic": false, "expect_error": "too many resources requested for launch",
        "args": [{"type": "bytes", "hex": "0102030405060708090a0b0c"}, {"type": "f32", "value": "0x40200000"}]})",
                             "dir/s.json");
    INFO(p.error_text());
    REQUIRE(p.ok());
    const LaunchSpec& s = *p.spec;
    CHECK(s.grid == std::array<uint32_t, 3>{7, 3, 1});
    CHECK(s.block == std::array<uint32_t, 3>{64, 1, 1});
    CHECK(s.source_path == "dir/a/k.ptx");
    CHECK(s.arch == "sm_80");
    CHECK(s.shared_bytes == 65536);
    CHECK(s.max_dynamic_shared_bytes == 100000u);
    CHECK(s.registers == 40u);
    CHECK_FALSE(s.deterministic);
    CHECK(s.expect_error == std::string("too many resources requested for launch"));
    CHECK(s.args[0].kind == ArgSpec::Kind::bytes);
    CHECK(s.args[0].value.size() == 12);
    CHECK(s.args[0].value[11] == 0x0c);
    CHECK(s.args[1].value == std::vector<uint8_t>{0x00, 0x00, 0x20, 0x40});
}

TEST_CASE("scalar values: ints, floats and exact bits", "[launch][spec]") {
    SpecParse p = parse_spec(spec_with_args(R"({"type": "f32", "value": 0.5}, {"type": "f32", "value": 3},
        {"type": "i32", "value": -1}, {"type": "u64", "value": 18446744073709551615},
        {"type": "f16", "value": 1.0}, {"type": "bf16", "value": -2}, {"type": "f64", "value": 1},
        {"type": "i8", "value": -128}, {"type": "u16", "value": 2.0})"),
                             "s.json");
    INFO(p.error_text());
    REQUIRE(p.ok());
    const auto& a = p.spec->args;
    CHECK(a[0].value == std::vector<uint8_t>{0, 0, 0, 0x3f});     // 0.5f = 0x3f000000
    CHECK(a[1].value == std::vector<uint8_t>{0, 0, 0x40, 0x40});  // 3.0f = 0x40400000
    CHECK(a[2].value == std::vector<uint8_t>{0xff, 0xff, 0xff, 0xff});
    CHECK(a[3].value == std::vector<uint8_t>(8, 0xff));
    CHECK(a[4].value == std::vector<uint8_t>{0x00, 0x3c});                    // f16 1.0 = 0x3c00
    CHECK(a[5].value == std::vector<uint8_t>{0x00, 0xc0});                    // bf16 -2 = 0xc000
    CHECK(a[6].value == std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0xf0, 0x3f});  // 1.0 = 0x3ff0000000000000
    CHECK(a[7].value == std::vector<uint8_t>{0x80});
    CHECK(a[8].value == std::vector<uint8_t>{2, 0});
}

TEST_CASE("malformed specs name the file and the field", "[launch][spec][errors]") {
    struct Case {
        std::string text, needle;
    };
    const std::vector<Case> cases = {
        {spec_with_args(R"({"type": "f32", "count": 4}, {"type": "f33", "count": 4})"),
         "vector_add.json: args[1].type: unknown element type 'f33' (expected one of i8 u8 i16"},
        {R"({"kernel": "k", "grid": [1], "block": [1], "args": []})", "vector_add.json: source: missing"},
        {R"({"source": "k.ptx", "grid": [1], "block": [1], "args": []})", "vector_add.json: kernel: missing"},
        {R"({"source": "k.ptx", "kernel": "k", "block": [1], "args": []})", "vector_add.json: grid: missing"},
        {R"({"source": "k.ptx", "kernel": "k", "grid": [1], "block": [1]})",
         "vector_add.json: args: missing"},
        {R"({"source": 3, "kernel": "k", "grid": [1], "block": [1], "args": []})",
         "vector_add.json: source: expected a string, got an integer"},
        {R"({"source": "k.ptx", "kernel": "k", "grid": "4", "block": [1], "args": []})",
         "vector_add.json: grid: expected a positive integer or an array of 1 to 3 of them, got a string"},
        {R"({"source": "k.ptx", "kernel": "k", "grid": [1, 1, 1, 1], "block": [1], "args": []})",
         "grid: expected a positive integer or an array of 1 to 3 of them, got an array of 4"},
        {R"({"source": "k.ptx", "kernel": "k", "grid": [1], "block": [0, 1], "args": []})",
         "vector_add.json: block[0]: 0 is out of range (1 to 4294967295)"},
        {R"({"source": "k.ptx", "kernel": "k", "grid": [1], "block": [1.5], "args": []})",
         "block[0]: expected an integer, got a floating-point number"},
        {R"({"source": "k.ptx", "kernel": "k", "grid": [1], "block": [1], "shared_bytes": -4, "args": []})",
         "vector_add.json: shared_bytes: must not be negative"},
        {R"({"source": "k.ptx", "kernel": "k", "grid": [1], "block": [1], "deterministic": "no", "args": []})",
         "vector_add.json: deterministic: expected true or false, got a string"},
        {spec_with_args(R"({"type": "f32", "count": 4, "init": "ones"})"),
         "vector_add.json: args[0].init: unknown init 'ones' (expected zero, iota, iota:START:STEP, fill:V, "
         "random:SEED, npy:PATH or file:PATH)"},
        {spec_with_args(R"({"type": "f32", "count": 4, "init": "random:x"})"), "args[0].init: bad seed 'x'"},
        {spec_with_args(R"({"type": "f32", "count": 4, "init": "fill:abc"})"),
         "args[0].init: bad number 'abc' for f32"},
        {spec_with_args(R"({"type": "u8", "count": 4, "init": "fill:256"})"),
         "args[0].init: '256' is out of range for u8"},
        {spec_with_args(R"({"type": "f32", "count": 4, "init": "file:no_such.bin"})"),
         "args[0].init: cannot read"},
        {spec_with_args(R"({"type": "f32", "count": 0})"),
         "vector_add.json: args[0].count: 0 is out of range"},
        {spec_with_args(R"({"type": "f32", "count": -3})"), "args[0].count: must not be negative"},
        {spec_with_args(R"({"type": "f32", "count": "many"})"),
         "args[0].count: expected an integer, got a string"},
        {spec_with_args(R"({"type": "f64", "count": 1073741824})"),
         "args[0].count: 1073741824 x f64 is 8589934592 bytes, over the 4 GiB limit per buffer"},
        {spec_with_args(R"({"type": "i32"})"),
         "args[0]: neither \"count\" (a buffer) nor \"value\" (a scalar)"},
        {spec_with_args(R"({"count": 4})"), "args[0].type: missing"},
        {spec_with_args(R"({"type": "i32", "value": 2147483648})"),
         "args[0].value: 2147483648 is out of range for i32"},
        {spec_with_args(R"({"type": "u32", "value": -1})"), "args[0].value: -1 is out of range for u32"},
        {spec_with_args(R"({"type": "i32", "value": 1.5})"), "args[0].value: 1.5 is not an integer"},
        {spec_with_args(R"({"type": "f32", "value": "1.5"})"),
         "args[0].value: a string value must be hexadecimal bits"},
        {spec_with_args(R"({"type": "u8", "value": "0x100"})"),
         "args[0].value: '0x100' does not fit in 8 bits"},
        {spec_with_args(R"({"type": "f32x4", "value": 1})"), "args[0].type: f32x4 is a buffer element type"},
        {spec_with_args(R"({"type": "bytes", "hex": "abc"})"),
         "args[0].hex: expected an even number of hex digits"},
        {spec_with_args(R"({"type": "bytes"})"), "args[0].hex: missing"},
        {spec_with_args(R"(5)"), "args[0]: expected an object, got an integer"},
        {R"([1, 2])", "vector_add.json: a launch spec is a JSON object, got an array"},
    };
    for (const auto& c : cases) {
        SpecParse p = parse_spec(c.text, "vector_add.json");
        INFO(c.text << "\n-> " << p.error_text());
        CHECK_FALSE(p.ok());
        CHECK(any_error_contains(p, c.needle));
    }
}

TEST_CASE("several errors are all reported", "[launch][spec][errors]") {
    SpecParse p = parse_spec(
        R"({"grid": [0], "block": "x", "args": [{"type": "q"}, {"type": "f32", "count": 4, "init": "?"}]})",
        "s.json");
    CHECK(p.errors.size() == 6);  // source, kernel, grid[0], block, args[0].type, args[1].init
}

TEST_CASE("JSON syntax errors give line and column", "[launch][spec][errors]") {
    // Line 3 is `  "kernel": "k"` with its comma missing; the parser stops at the end of the next token,
    // `"grid"` on line 4, whose closing quote is column 8 (columns 1-2 are spaces).
    const std::string text = "{\n  \"source\": \"k.ptx\",\n  \"kernel\": \"k\"\n  \"grid\": [1]\n}\n";
    SpecParse p = parse_spec(text, "broken.json");
    REQUIRE(p.errors.size() == 1);
    INFO(p.errors[0]);
    CHECK(p.errors[0].rfind("broken.json:4:8: invalid JSON: ", 0) == 0);

    SpecParse q = parse_spec("{\"a\": [1, 2,,]}", "b.json");  // the second comma is byte 12, column 13
    REQUIRE(q.errors.size() == 1);
    CHECK(q.errors[0].rfind("b.json:1:13: ", 0) == 0);

    SpecParse empty = parse_spec("", "e.json");
    REQUIRE(empty.errors.size() == 1);
    CHECK(empty.errors[0].rfind("e.json:1:1: ", 0) == 0);
}

TEST_CASE("line_col counts from 1", "[launch][spec]") {
    CHECK(line_col("ab\ncd", 0) == std::pair<uint32_t, uint32_t>{1, 1});
    CHECK(line_col("ab\ncd", 2) == std::pair<uint32_t, uint32_t>{1, 3});
    CHECK(line_col("ab\ncd", 3) == std::pair<uint32_t, uint32_t>{2, 1});
}

TEST_CASE("unknown fields are warnings, not errors", "[launch][spec]") {
    SpecParse p = parse_spec(R"({"source": "k.ptx", "kernel": "k", "grid": [1], "block": [1], "gird": 3,
        "args": [{"type": "f32", "count": 2, "intit": "iota"}]})",
                             "w.json");
    REQUIRE(p.ok());
    REQUIRE(p.warnings.size() == 2);
    CHECK(p.warnings[0] == "w.json: gird: unknown field, ignored (did you mean 'grid'?)");
    CHECK(p.warnings[1] == "w.json: args[0].intit: unknown field, ignored (did you mean 'init'?)");
}

TEST_CASE("a missing spec file is an error, not a crash", "[launch][spec][errors]") {
    SpecParse p = load_spec("/nonexistent/spec.json");
    REQUIRE(p.errors.size() == 1);
    CHECK(p.errors[0] == "/nonexistent/spec.json: cannot open the launch spec: No such file or directory");
}
