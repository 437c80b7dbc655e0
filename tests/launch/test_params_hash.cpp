// tests/launch/test_params_hash.cpp — argument checking and packing against hand-written signatures; FNV-1a.
#include <catch2/catch.hpp>

#include "launch/hash.hpp"
#include "launch/params.hpp"

using namespace warpsim;
using namespace warpsim::launch;

namespace {

ir::Param param(const std::string& name, ir::Type t, uint32_t align = 0, uint32_t array = 0) {
    ir::Param p;
    p.name = name;
    p.type = t;
    p.align = align;
    p.array = array;
    return p;
}

// .entry vecAdd(.param .u64 vecAdd_param_0, .param .u64 vecAdd_param_1, .param .u64 vecAdd_param_2,
//               .param .u32 vecAdd_param_3)
ir::Function vec_add() {
    ir::Function f;
    f.name = "vecAdd";
    f.is_entry = true;
    for (int i = 0; i < 3; ++i) f.params.push_back(param("vecAdd_param_" + std::to_string(i), ir::Type::u64));
    f.params.push_back(param("vecAdd_param_3", ir::Type::u32));
    return f;
}

LaunchSpec spec_of(const std::string& args) {
    SpecParse p = parse_spec(
        R"({"source": "v.ptx", "kernel": "vecAdd", "grid": [1], "block": [1], "args": [)" + args + "]}",
        "v.json");
    INFO(p.error_text());
    REQUIRE(p.ok());
    return *p.spec;
}

}  // namespace

TEST_CASE("arguments that fit the signature pass", "[launch][params]") {
    auto s = spec_of(R"({"type": "f32", "count": 8}, {"type": "f32", "count": 8}, {"type": "f32", "count": 8},
                        {"type": "i32", "value": 8})");
    CHECK(check_args(vec_add(), s).empty());
}

TEST_CASE("argument count and size mismatches are reported before running", "[launch][params]") {
    auto three =
        spec_of(R"({"type": "f32", "count": 8}, {"type": "f32", "count": 8}, {"type": "f32", "count": 8})");
    auto e = check_args(vec_add(), three);
    REQUIRE(e.size() == 1);
    CHECK(e[0] == "v.json: args: the spec gives 3 arguments but kernel vecAdd takes 4 parameters");

    auto sizes =
        spec_of(R"({"type": "f32", "count": 8}, {"type": "i32", "value": 1}, {"type": "f32", "count": 8},
                            {"type": "f64", "value": 8})");
    e = check_args(vec_add(), sizes);
    REQUIRE(e.size() == 2);
    CHECK(e[0] ==
          "v.json: args[1]: a i32 scalar is 4 bytes but parameter 1 'vecAdd_param_1' of vecAdd is .u64 (8 "
          "bytes)");
    CHECK(e[1] ==
          "v.json: args[3]: a f64 scalar is 8 bytes but parameter 3 'vecAdd_param_3' of vecAdd is .u32 (4 "
          "bytes)");

    ir::Function f;
    f.name = "k";
    f.params = {param("s", ir::Type::b8, 4, 12), param("n", ir::Type::u32)};
    auto b =
        spec_of(R"({"type": "bytes", "hex": "00112233445566778899aabbccdd"}, {"type": "f32", "count": 1})");
    e = check_args(f, b);
    REQUIRE(e.size() == 2);
    CHECK(e[0] ==
          "v.json: args[0]: the bytes argument has 14 bytes but parameter 0 's' of k is .b8 [12] (12 bytes)");
    CHECK(e[1] ==
          "v.json: args[1]: a buffer is passed as an 8-byte pointer but parameter 1 'n' of k is .u32 (4 "
          "bytes)");
}

TEST_CASE("pack_params honours alignment", "[launch][params]") {
    // .param .u32 a; .param .u64 b; .param .align 4 .b8 s[12]; .param .u16 c; .param .f64 d
    // offsets: a 0..4, b 8..16 (8-aligned), s 16..28, c 28..30, d 32..40 -> 40 bytes.
    ir::Function f;
    f.name = "k";
    f.params = {param("a", ir::Type::u32), param("b", ir::Type::u64), param("s", ir::Type::b8, 4, 12),
                param("c", ir::Type::u16), param("d", ir::Type::f64)};
    uint64_t total = 0;
    CHECK(param_offsets(f, &total) == std::vector<uint64_t>{0, 8, 16, 28, 32});
    CHECK(total == 40);
    auto s = spec_of(R"({"type": "u32", "value": "0xdeadbeef"}, {"type": "f32", "count": 4},
                        {"type": "bytes", "hex": "0102030405060708090a0b0c"}, {"type": "u16", "value": 513},
                        {"type": "f64", "value": 1})");
    REQUIRE(check_args(f, s).empty());
    auto packed = pack_params(f, {0, 0x7f0012345600ull, 0, 0, 0}, s);
    const std::vector<uint8_t> expected = {
        0xef, 0xbe, 0xad, 0xde, 0,    0,    0,    0,  // a, then padding to 8
        0x00, 0x56, 0x34, 0x12, 0x00, 0x7f, 0,    0,  // b: the buffer's address, little-endian
        1,    2,    3,    4,    5,    6,    7,    8,    9, 10, 11, 12,  // s
        0x01, 0x02, 0,    0,                             // c = 513 = 0x0201, then padding to 32
        0,    0,    0,    0,    0,    0,    0xf0, 0x3f,  // d = 1.0
    };
    CHECK(packed == expected);
    // One address per buffer argument gives the same buffer.
    CHECK(pack_params(f, {0x7f0012345600ull}, s) == expected);
}

TEST_CASE("FNV-1a 64 of known strings", "[launch][hash]") {
    CHECK(hex16(fnv1a64("")) == "cbf29ce484222325");
    CHECK(hex16(fnv1a64("a")) == "af63dc4c8601ec8c");
    CHECK(hex16(fnv1a64("foobar")) == "85944171f73967e8");
    CHECK(hex16(0) == "0000000000000000");
    CHECK(hex16(0xABCull) == "0000000000000abc");
}
