// tests/launch/test_npy_expect.cpp — .npy reading and writing against hand-built bytes, expect checks
// against hand-worked mismatches, --show selections, "did you mean", and C++ signatures.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "launch/buffer_init.hpp"
#include "launch/buffer_values.hpp"
#include "launch/cxx_signature.hpp"
#include "launch/expect.hpp"
#include "launch/npy.hpp"
#include "launch/show.hpp"
#include "launch/suggest.hpp"

using namespace warpsim::launch;

namespace {

std::filesystem::path scratch_dir() {
    auto dir = std::filesystem::path(WARPSIM_BINARY_DIR) / "test_npy_expect";
    std::filesystem::create_directories(dir);
    return dir;
}

void write_bytes(const std::filesystem::path& p, const std::vector<uint8_t>& bytes) {
    std::ofstream out(p, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// A .npy file as NumPy 1.24 writes np.save(f, np.array([1.5, -2, 0.25], dtype='<f4')), byte by byte.
std::vector<uint8_t> hand_npy(const std::string& dict, uint8_t major, const std::vector<uint8_t>& data) {
    std::vector<uint8_t> b = {0x93, 'N', 'U', 'M', 'P', 'Y', major, 0};
    const size_t len = dict.size();
    b.push_back(static_cast<uint8_t>(len & 0xff));
    b.push_back(static_cast<uint8_t>(len >> 8));
    if (major >= 2) {
        b.push_back(0);
        b.push_back(0);
    }
    b.insert(b.end(), dict.begin(), dict.end());
    b.insert(b.end(), data.begin(), data.end());
    return b;
}

LaunchSpec spec_of(const std::string& args, const std::string& path = "t.json") {
    SpecParse p =
        parse_spec(R"({"source": "k.ptx", "kernel": "k", "grid": 1, "block": 32, "args": )" + args + "}",
                   (scratch_dir() / path).string());
    INFO(p.error_text());
    REQUIRE(p.ok());
    return *p.spec;
}

std::string spec_error(const std::string& args) {
    SpecParse p =
        parse_spec(R"({"source": "k.ptx", "kernel": "k", "grid": [1], "block": [32], "args": )" + args + "}",
                   (scratch_dir() / "e.json").string());
    REQUIRE_FALSE(p.ok());
    return p.error_text();
}

std::vector<uint8_t> f32_bytes(std::initializer_list<float> v) {
    std::vector<uint8_t> out(v.size() * 4);
    std::memcpy(out.data(), std::data(v), out.size());
    return out;
}

}  // namespace

TEST_CASE("npy writer: format 1.0, header padded to 64 bytes as NumPy writes it", "[launch][npy]") {
    const auto data = f32_bytes({1.5f, -2.0f, 0.25f});
    const auto file = npy_file_bytes(ElemType::f32, 3, data);
    // 10 bytes of magic, version and length, then the dict padded with spaces to 118 bytes incl. '\n'.
    const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
    REQUIRE(file.size() == 128 + 12);
    CHECK(std::memcmp(file.data(), "\x93NUMPY\x01\x00", 8) == 0);
    CHECK(file[8] == 118);
    CHECK(file[9] == 0);
    CHECK(std::string(file.begin() + 10, file.begin() + 10 + dict.size()) == dict);
    CHECK(file[127] == '\n');
    CHECK(file[126] == ' ');
    CHECK(std::memcmp(file.data() + 128, data.data(), 12) == 0);
    // Vector types are (count, components); bf16 is its bit patterns.
    const auto v = npy_file_bytes(ElemType::f32x4, 2, std::vector<uint8_t>(32));
    CHECK(std::string(v.begin() + 10, v.begin() + 70).find("'shape': (2, 4), }") != std::string::npos);
    CHECK(npy_descr(ElemType::bf16) == "<u2");
    CHECK(npy_descr(ElemType::u8) == "|u1");
    CHECK(npy_descr(ElemType::i64) == "<i8");
}

TEST_CASE("npy reader: versions 1 and 2, byte order, shapes, and what does not fit", "[launch][npy]") {
    auto dir = scratch_dir();
    // Version 2.0 (4-byte header length), big-endian int32 {1, 256}.
    write_bytes(dir / "v2_be.npy", hand_npy("{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }\n", 2,
                                            {0, 0, 0, 1, 0, 0, 1, 0}));
    auto h = read_npy_header((dir / "v2_be.npy").string());
    REQUIRE(h.ok());
    CHECK(h->descr == ">i4");
    CHECK(h->shape == std::vector<uint64_t>{2});
    CHECK(h->data_offset == 12 + 58);
    std::vector<uint8_t> out(8);
    CHECK(read_npy_data((dir / "v2_be.npy").string(), *h, out).empty());
    CHECK(out == std::vector<uint8_t>{1, 0, 0, 0, 0, 1, 0, 0});
    CHECK(npy_fit_error(*h, ElemType::i32, 2, true).empty());
    CHECK_THAT(npy_fit_error(*h, ElemType::f32, 2, true),
               Catch::Contains(
                   "holds int32 (big-endian) but the argument is f32; save it with a.astype(np.float32)"));
    CHECK_THAT(npy_fit_error(*h, ElemType::i32, 3, true),
               Catch::Contains("has shape (2,) (2 elements) but the argument has 3 x i32"));
    // Any numeric dtype fits an expect, by value.
    CHECK(npy_fit_error(*h, ElemType::f64, 2, false).empty());

    // A 2-D Fortran-order array and a shape that fits an f32x2 buffer of 3 elements.
    write_bytes(dir / "f.npy", hand_npy("{'descr': '<f4', 'fortran_order': True, 'shape': (3, 2), }\n", 1,
                                        std::vector<uint8_t>(24)));
    auto f = read_npy_header((dir / "f.npy").string());
    REQUIRE(f.ok());
    CHECK_THAT(npy_fit_error(*f, ElemType::f32x2, 3, true), Catch::Contains("Fortran order"));
    write_bytes(dir / "c.npy", hand_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }\n", 1,
                                        std::vector<uint8_t>(24)));
    auto c = read_npy_header((dir / "c.npy").string());
    REQUIRE(c.ok());
    CHECK(npy_fit_error(*c, ElemType::f32x2, 3, true).empty());
    CHECK(npy_fit_error(*c, ElemType::f32, 6, true).empty());

    // Cut short, not an npy, structured, complex.
    write_bytes(dir / "short.npy", hand_npy("{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }\n", 1,
                                            std::vector<uint8_t>(16)));
    auto s = read_npy_header((dir / "short.npy").string());
    REQUIRE_FALSE(s.ok());
    CHECK_THAT(s.error(), Catch::Contains("shape (4,) of float64 needs 32 bytes of data, the file has 16"));
    write_bytes(dir / "text.npy", {'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r', 'l', 'd'});
    auto t = read_npy_header((dir / "text.npy").string());
    REQUIRE_FALSE(t.ok());
    CHECK_THAT(t.error(), Catch::Contains("is not a NumPy .npy file"));
    write_bytes(dir / "rec.npy",
                hand_npy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }\n", 1,
                         std::vector<uint8_t>(4)));
    auto r = read_npy_header((dir / "rec.npy").string());
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Catch::Contains("structured dtypes"));
    write_bytes(dir / "cplx.npy", hand_npy("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }\n", 1,
                                           std::vector<uint8_t>(8)));
    auto x = read_npy_header((dir / "cplx.npy").string());
    REQUIRE(x.ok());
    CHECK_THAT(npy_fit_error(*x, ElemType::f32, 1, true),
               Catch::Contains("holds dtype '<c8', which no argument type"));
}

TEST_CASE("npy init: the spec checks dtype and length, the buffer holds the file's data", "[launch][npy]") {
    auto dir = scratch_dir();
    write_bytes(dir / "in.npy", npy_file_bytes(ElemType::f32, 3, f32_bytes({1.5f, -2.0f, 0.25f})));
    auto spec = spec_of(R"([{"type": "f32", "count": 3, "init": "npy:in.npy"}])");
    auto b = make_buffer(spec, 0);
    REQUIRE(b.ok());
    CHECK(*b == f32_bytes({1.5f, -2.0f, 0.25f}));
    CHECK_THAT(spec_error(R"([{"type": "f32", "count": 4, "init": "npy:in.npy"}])"),
               Catch::Contains("args[0].init: '" + (dir / "in.npy").string() +
                               "' has shape (3,) (3 elements) but the argument has 4 x f32"));
    CHECK_THAT(spec_error(R"([{"type": "i32", "count": 3, "init": "npy:in.npy"}])"),
               Catch::Contains("holds float32 but the argument is i32; save it with a.astype(np.int32)"));
    CHECK_THAT(spec_error(R"([{"type": "i32", "count": 3, "init": "npy:missing.npy"}])"),
               Catch::Contains("args[0].init: cannot open"));
}

TEST_CASE("iota:START:STEP, integers wrapping, floats rounded", "[launch][init]") {
    auto spec = spec_of(R"([{"type": "u8", "count": 3, "init": "iota:254:1"}, {"type": "f32", "count": 3,
                           "init": "iota:0.5:-2"}, {"type": "i32", "count": 2, "init": "iota:-3:-4"}])");
    CHECK(*make_buffer(spec, 0) == std::vector<uint8_t>{254, 255, 0});
    CHECK(*make_buffer(spec, 1) == f32_bytes({0.5f, -1.5f, -3.5f}));
    auto i = *make_buffer(spec, 2);
    CHECK(component_value(ElemType::i32, component_bits_at(i, ElemType::i32, 0)) == -3);
    CHECK(component_value(ElemType::i32, component_bits_at(i, ElemType::i32, 1)) == -7);
    CHECK_THAT(spec_error(R"([{"type": "i32", "count": 2, "init": "iota:0.5:1"}])"),
               Catch::Contains("bad iota 'iota:0.5:1' (iota:START:STEP, e.g. iota:0:2; integers for i32)"));
}

TEST_CASE("expect: mismatches counted and listed with indices, tolerances as written", "[launch][expect]") {
    // c[k] should be 2k; the kernel stopped at 5 of 8 elements (c[5..7] stayed 0), and c[1] is 2 + 1e-6.
    auto spec = spec_of(R"([{"type": "f32", "count": 8, "init": "zero", "expect": "iota:0:2"}])");
    auto got = f32_bytes({0, 2.000001f, 4, 6, 8, 0, 0, 0});
    auto checks = check_expectations(spec, {got}, {"c"});
    REQUIRE(checks.ok());
    REQUIRE(checks->size() == 1);
    const BufferCheck& c = checks->front();
    CHECK(c.mismatched == 3);  // c[1] is within rtol 1e-5
    REQUIRE(c.first.size() == 3);
    CHECK(c.first[0].index == 5);
    CHECK(c.first[0].got == "0");
    CHECK(c.first[0].expected == "10");
    CHECK(c.first[2].index == 7);
    CHECK(c.max_abs_error == Approx(14));
    CHECK(c.tolerance == "rtol 1e-05, atol 1e-08");
    const std::string text = format_checks(*checks);
    CHECK_THAT(text,
               Catch::Contains(
                   "expect    args[0] c: 3 of 8 elements differ from iota:0:2 (rtol 1e-05, atol 1e-08)"));
    CHECK_THAT(text, Catch::Contains("c[5] = 0, expected 10"));
    auto j = checks_json(*checks);
    CHECK(j[0]["verdict"] == "fail");
    CHECK(j[0]["first_mismatches"][0]["index"] == 5);

    // exact: the 1e-6 difference counts too.
    auto exact =
        spec_of(R"([{"type": "f32", "count": 8, "init": "zero", "expect": "iota:0:2", "exact": true}])");
    CHECK(check_expectations(exact, {got}, {})->front().mismatched == 4);
    // atol 10 and rtol 0: differences up to 10 pass (c[5] is 0 against 10).
    auto loose = spec_of(
        R"([{"type": "f32", "count": 8, "init": "zero", "expect": "iota:0:2", "atol": 10, "rtol": 0}])");
    CHECK(check_expectations(loose, {got}, {})->front().mismatched == 2);  // c[6] (12) and c[7] (14)
    // Integers compare exactly; a vector's component is named.
    auto ints = spec_of(R"([{"type": "i32x2", "count": 2, "init": "zero", "expect": "fill:7"}])");
    std::vector<uint8_t> iv(16, 0);
    iv[0] = iv[4] = iv[8] = 7;
    auto ic = check_expectations(ints, {iv}, {"v"});
    REQUIRE(ic.ok());
    CHECK(ic->front().mismatched == 1);
    CHECK_THAT(format_checks(*ic), Catch::Contains("v[1].y = 0, expected 7"));
    // NaN matches NaN within a tolerance, not bit for bit when the payload differs.
    auto nan = spec_of(R"([{"type": "f32", "count": 1, "init": "zero", "expect": "fill:nan"}])");
    CHECK(check_expectations(nan, {std::vector<uint8_t>{1, 0, 0xc0, 0x7f}}, {})->front().passed());
    CHECK_THAT(spec_error(R"([{"type": "f32", "count": 1, "expect": "iota", "exact": true, "rtol": 0.1}])"),
               Catch::Contains("\"exact\": true compares bits; leave out rtol and atol"));
    CHECK_THAT(spec_error(R"([{"type": "f32", "count": 1, "expect": "nonsense"}])"),
               Catch::Contains("args[0].expect: unknown expect 'nonsense'"));
}

TEST_CASE("expect: an npy of another dtype compares by value", "[launch][expect]") {
    auto dir = scratch_dir();
    std::vector<uint8_t> f64(3 * 8);
    const double ref[3] = {1.0, 0.1, -3.0};
    std::memcpy(f64.data(), ref, sizeof ref);
    write_bytes(dir / "ref64.npy", npy_file_bytes(ElemType::f64, 3, f64));
    auto spec = spec_of(R"([{"type": "f32", "count": 3, "expect": "npy:ref64.npy"}])");
    auto checks = check_expectations(spec, {f32_bytes({1.0f, 0.1f, 3.0f})}, {});
    REQUIRE(checks.ok());
    CHECK(checks->front().mismatched == 1);  // 0.1f is 0.1 within rtol 1e-5; 3 is not -3
    CHECK(checks->front().first[0].index == 2);
}

TEST_CASE("--show selections: names, args[N], Python slices", "[launch][show]") {
    auto spec = spec_of(R"([{"type": "f32", "count": 10, "init": "iota"}, {"type": "i32", "value": 10}])");
    const std::vector<std::string> names = {"c", "n"};
    auto r = parse_show("c[-3:]", spec, names);
    REQUIRE(r.ok());
    CHECK(r->start == 7);
    CHECK(r->stop == 10);
    auto bytes = *make_buffer(spec, 0);
    CHECK(format_show(*r, spec.args[0], bytes) ==
          "show      c[-3:] (f32, elements 7..9 of 10)\n  [     7] 7 8 9\n");
    auto a = parse_show("args[0][2:4]", spec, names);
    REQUIRE(a.ok());
    CHECK(show_json(*a, spec.args[0], bytes)["values"] == nlohmann::json::array({2, 3}));
    CHECK(parse_show("c[5]", spec, names)->stop == 6);
    CHECK_THAT(format_show(*parse_show("n", spec, names), spec.args[1], {}),
               Catch::Contains("n (i32 value) = 10"));
    CHECK_THAT(parse_show("cc[1:2]", spec, names).error(),
               Catch::Contains("no argument is named 'cc' (did you mean 'c'?)"));
    CHECK_THAT(parse_show("c[10]", spec, names).error(), Catch::Contains("index 10 is outside c[0:10]"));
    CHECK_THAT(parse_show("args[2]", spec, names).error(),
               Catch::Contains("the kernel takes args[0] to args[1]"));
}

TEST_CASE("did you mean: close names only", "[launch][suggest]") {
    CHECK(edit_distance("kitten", "sitting") == 3);
    CHECK(edit_distance("gird", "grid") == 1);
    CHECK(closest_name("VecAdd", {"vecAdd", "vecAdd2"}) == "vecAdd");
    CHECK(closest_name("shared_byte", {"shared_bytes", "source"}) == "shared_bytes");
    CHECK(closest_name("xyz", {"shared_bytes", "source"}).empty());
    SpecParse p =
        parse_spec(R"({"source": "k.ptx", "kernel": "k", "grid": [1], "blok": [32], "args": []})", "w.json");
    REQUIRE_FALSE(p.ok());
    bool suggested = false;
    for (const auto& w : p.warnings)
        suggested = suggested || w.find("did you mean 'block'?") != std::string::npos;
    CHECK(suggested);
}

TEST_CASE("scalar grid and block as in <<<32, 256>>>", "[launch][spec]") {
    auto spec = spec_of("[]");
    CHECK(spec.grid == std::array<uint32_t, 3>{1, 1, 1});
    CHECK(spec.block == std::array<uint32_t, 3>{32, 1, 1});
    SpecParse p =
        parse_spec(R"({"source": "k.ptx", "kernel": "k", "grid": 0, "block": 32, "args": []})", "z.json");
    REQUIRE_FALSE(p.ok());
    CHECK_THAT(p.error_text(), Catch::Contains("grid: 0 is out of range (1 to 4294967295)"));
}

TEST_CASE("C++ signatures: types from the mangled name, names from the source", "[launch][cxx]") {
    auto types = demangled_param_types("_Z6vecAddPKfS0_Pfi");
    REQUIRE(types);
    CHECK(*types == std::vector<std::string>{"float const*", "float const*", "float*", "int"});
    auto tmpl = demangled_param_types("_Z11tiledMatMulILi32EEvPKfS1_Pfi");
    REQUIRE(tmpl);
    CHECK(tmpl->size() == 4);
    CHECK_FALSE(demangled_param_types("vecAdd"));
    const std::string cu = R"(// vecAdd(int x) in a comment
template <int TILE> __global__ void k(const float* __restrict__ A, float B[], int n = 3) {}
__global__ void vecAdd(const float* a, const float* b, float* c, int n) { })";
    CHECK(*cu_param_names(cu, "vecAdd", 4) == std::vector<std::string>{"a", "b", "c", "n"});
    CHECK(*cu_param_names(cu, "k", 3) == std::vector<std::string>{"A", "B", "n"});
    CHECK_FALSE(cu_param_names(cu, "vecAdd", 1));
}

TEST_CASE("arguments against the C++ parameter types", "[launch][cxx]") {
    CxxSignature sig;
    sig.params = {
        {"float const*", "a"}, {"float*", "c"}, {"int", "nx"}, {"unsigned long", "n"}, {"double", "x"}};
    auto spec =
        spec_of(R"([{"type": "f32", "count": 4}, {"type": "i32", "value": 1}, {"type": "f32", "value": 2},
                          {"type": "i32", "value": 3}, {"type": "f64", "count": 2}])",
                "types.json");
    auto r = check_args_against(sig, spec);
    REQUIRE(r.errors.size() == 4);
    CHECK_THAT(r.errors[0],
               Catch::Contains("types.json: args[1]: parameter 1 'c' is float*, a pointer: give a count"));
    CHECK_THAT(r.errors[1],
               Catch::Contains("args[2]: parameter 2 'nx' is int (4 bytes, an integer) but the spec "
                               "gives f32; use \"type\": \"i32\""));
    CHECK_THAT(r.errors[2],
               Catch::Contains("parameter 3 'n' is unsigned long (8 bytes, an integer) but the spec "
                               "gives i32; use \"type\": \"u64\""));
    CHECK_THAT(r.errors[3],
               Catch::Contains("parameter 4 'x' is double, a value: give \"value\" (\"type\": \"f64\"), "
                               "not a count"));
    CHECK(r.warnings.empty());
    // A 64-bit integer for a pointer is an address given by hand: accepted.
    CHECK(check_args_against(sig, spec_of(R"([{"type": "f32", "count": 4}, {"type": "u64", "value": 16}])"))
              .errors.empty());
    auto names = argument_names(sig, spec);
    CHECK(names[2] == "nx");
    // A buffer of another element type is a warning only (kernels reinterpret on purpose).
    CxxSignature ptr;
    ptr.params = {{"int*", "hist"}};
    auto w = check_args_against(ptr, spec_of(R"([{"type": "f32", "count": 4}])"));
    CHECK(w.errors.empty());
    REQUIRE(w.warnings.size() == 1);
    CHECK_THAT(w.warnings[0], Catch::Contains("buffer holds f32 (\"type\": \"i32\" matches it)"));
}
