// launch/launch_spec.cpp — parsing and validating launch-spec JSON with located messages.
#include "launch/launch_spec.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "launch/input_file.hpp"
#include "launch/json_text.hpp"
#include "launch/npy.hpp"
#include "launch/suggest.hpp"

namespace warpsim::launch {
namespace {

using json = nlohmann::json;

const std::set<std::string> kTopFields = {
    "source",    "kernel",        "arch",         "grid",
    "block",     "cluster",       "shared_bytes", "max_dynamic_shared_bytes",
    "registers", "deterministic", "expect_error", "args",
    "l2",        "comment",       "description",  "name",
    "notes"};
const std::set<std::string> kArgFields = {"type",    "count",  "init", "value", "hex",  "name",
                                          "comment", "expect", "rtol", "atol",  "exact"};

std::string json_kind(const json& j) {
    switch (j.type()) {
        case json::value_t::null:
            return "null";
        case json::value_t::boolean:
            return "a boolean";
        case json::value_t::string:
            return "a string";
        case json::value_t::array:
            return "an array";
        case json::value_t::object:
            return "an object";
        case json::value_t::number_float:
            return "a floating-point number";
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
            return "an integer";
        default:
            return "an unsupported value";
    }
}

std::string quote(std::string_view s) {
    std::string out = "'";
    for (char c : s) {
        if (static_cast<unsigned char>(c) < 0x20)
            out += '?';
        else
            out += c;
        if (out.size() > 80) return out + "...'";
    }
    return out + "'";
}

bool parse_hex_bytes(std::string_view hex, std::vector<uint8_t>& out) {
    if (hex.size() % 2) return false;
    for (size_t i = 0; i < hex.size(); i += 2) {
        unsigned v = 0;
        auto r = std::from_chars(hex.data() + i, hex.data() + i + 2, v, 16);
        if (r.ec != std::errc() || r.ptr != hex.data() + i + 2) return false;
        out.push_back(static_cast<uint8_t>(v));
    }
    return true;
}

// Integer range of one component: signed types take [-2^(n-1), 2^(n-1)-1], unsigned [0, 2^n-1].
bool int_in_range(ElemType t, bool negative, uint64_t magnitude) {
    const uint32_t bits = scalar_bytes(t) * 8;
    if (elem_is_signed(t)) {
        const uint64_t limit = 1ull << (bits - 1);
        return negative ? magnitude <= limit : magnitude < limit;
    }
    return !negative && (bits == 64 || magnitude < (1ull << bits));
}

class SpecReader {
  public:
    SpecReader(std::string_view path, SpecParse& out) : path_(path), out_(out) {
        dir_ = std::filesystem::path(std::string(path)).parent_path();
    }
    void run(const json& root);

  private:
    void error(const std::string& field, const std::string& msg) {
        out_.errors.push_back(path_ + ": " + field + ": " + msg);
    }
    void warn(const std::string& field, const std::string& msg) {
        out_.warnings.push_back(path_ + ": " + field + ": " + msg);
    }
    std::optional<std::string> get_string(const json& obj, const std::string& key, const std::string& field,
                                          bool required);
    std::optional<uint64_t> get_uint(const json& j, const std::string& field, uint64_t min, uint64_t max);
    std::optional<std::array<uint32_t, 3>> get_dims(const json& j, const std::string& field);
    std::optional<ArgSpec> get_arg(const json& j, const std::string& field);
    bool get_buffer(const json& j, const std::string& field, ArgSpec& arg);
    bool get_scalar(const json& j, const std::string& field, ArgSpec& arg);
    bool get_init(const std::string& text, const std::string& field, const ArgSpec& arg, BufferInit& init,
                  bool expect);
    bool get_npy(const std::string& rest, const std::string& field, const ArgSpec& arg, BufferInit& init,
                 bool expect);
    bool get_iota(const std::string& rest, const std::string& field, const ArgSpec& arg, BufferInit& init);
    bool get_expect(const json& j, const std::string& field, ArgSpec& arg);
    std::optional<uint64_t> number_text_bits(std::string_view text, ElemType t, const std::string& field);
    std::optional<uint64_t> json_number_bits(const json& v, ElemType t, const std::string& field);
    std::optional<ElemType> get_type(const json& j, const std::string& field);

    std::string path_;
    std::filesystem::path dir_;
    SpecParse& out_;
};

std::optional<std::string> SpecReader::get_string(const json& obj, const std::string& key,
                                                  const std::string& field, bool required) {
    auto it = obj.find(key);
    if (it == obj.end()) {
        if (required) error(field, "missing (a string is required)");
        return std::nullopt;
    }
    if (!it->is_string()) {
        error(field, "expected a string, got " + json_kind(*it));
        return std::nullopt;
    }
    return it->get<std::string>();
}

std::optional<uint64_t> SpecReader::get_uint(const json& j, const std::string& field, uint64_t min,
                                             uint64_t max) {
    if (!j.is_number_integer() && !(j.is_number_float() && std::isfinite(j.get<double>()) &&
                                    j.get<double>() == std::floor(j.get<double>()))) {
        error(field, "expected an integer, got " + json_kind(j));
        return std::nullopt;
    }
    bool negative =
        j.is_number_integer() ? (!j.is_number_unsigned() && j.get<int64_t>() < 0) : j.get<double>() < 0;
    if (negative) {
        error(field, "must not be negative (got " + j.dump() + ")");
        return std::nullopt;
    }
    double dv = j.is_number_float() ? j.get<double>() : 0;
    if (j.is_number_float() && dv >= 18446744073709551616.0) {
        error(field, j.dump() + " is too large (at most " + std::to_string(max) + ")");
        return std::nullopt;
    }
    uint64_t v = j.is_number_float() ? static_cast<uint64_t>(dv) : j.get<uint64_t>();
    if (v < min || v > max) {
        error(field,
              j.dump() + " is out of range (" + std::to_string(min) + " to " + std::to_string(max) + ")");
        return std::nullopt;
    }
    return v;
}

std::optional<std::array<uint32_t, 3>> SpecReader::get_dims(const json& j, const std::string& field) {
    if (j.is_number()) {  // "grid": 32 is dim3(32), as in <<<32, 256>>>
        auto v = get_uint(j, field, 1, 0xffffffffu);
        if (!v) return std::nullopt;
        return std::array<uint32_t, 3>{static_cast<uint32_t>(*v), 1, 1};
    }
    if (!j.is_array() || j.empty() || j.size() > 3) {
        error(field, "expected a positive integer or an array of 1 to 3 of them, got " +
                         (j.is_array() ? "an array of " + std::to_string(j.size()) : json_kind(j)));
        return std::nullopt;
    }
    std::array<uint32_t, 3> dims{1, 1, 1};
    bool ok = true;
    for (size_t i = 0; i < j.size(); ++i) {
        auto v = get_uint(j[i], field + "[" + std::to_string(i) + "]", 1, 0xffffffffu);
        if (v)
            dims[i] = static_cast<uint32_t>(*v);
        else
            ok = false;
    }
    if (!ok) return std::nullopt;
    return dims;
}

std::optional<ElemType> SpecReader::get_type(const json& j, const std::string& field) {
    if (!j.is_string()) {
        error(field, "expected an element type string, got " + json_kind(j));
        return std::nullopt;
    }
    auto t = elem_from_name(j.get<std::string>());
    if (!t)
        error(field, "unknown element type " + quote(j.get<std::string>()) + " (expected one of " +
                         elem_names_list() + ", or bytes)");
    return t;
}

// "fill:V" and hex scalar strings. Hex (0x...) is the exact bit pattern of one component; otherwise an
// integer type takes a decimal integer and a float type a decimal (or inf/nan) rounded to nearest even.
std::optional<uint64_t> SpecReader::number_text_bits(std::string_view text, ElemType t,
                                                     const std::string& field) {
    const uint32_t bits = scalar_bytes(t) * 8;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        uint64_t v = 0;
        auto r = std::from_chars(text.data() + 2, text.data() + text.size(), v, 16);
        if (r.ec != std::errc() || r.ptr != text.data() + text.size()) {
            error(field, "bad hexadecimal bits " + quote(text));
            return std::nullopt;
        }
        if (bits < 64 && v >> bits) {
            error(field, quote(text) + " does not fit in " + std::to_string(bits) + " bits");
            return std::nullopt;
        }
        return v;
    }
    std::string_view s = text;
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    if (elem_is_float(t)) {
        double d = 0;
        auto r = std::from_chars(s.data(), s.data() + s.size(), d);
        if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) {
            error(field, "bad number " + quote(text) + " for " + std::string(elem_name(t)));
            return std::nullopt;
        }
        return bits_from_double(t, d);
    }
    bool negative = !s.empty() && s[0] == '-';
    if (negative) s.remove_prefix(1);
    uint64_t mag = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), mag, 10);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) {
        error(field, "bad integer " + quote(text) + " for " + std::string(elem_name(t)) +
                         " (a decimal integer, or 0x... for exact bits)");
        return std::nullopt;
    }
    if (!int_in_range(t, negative, mag)) {
        error(field, quote(text) + " is out of range for " + std::string(elem_name(t)) +
                         " (give 0x... for exact bits)");
        return std::nullopt;
    }
    return negative ? bits_from_int(t, -static_cast<int64_t>(mag - 1) - 1) : bits_from_uint(t, mag);
}

std::optional<uint64_t> SpecReader::json_number_bits(const json& v, ElemType t, const std::string& field) {
    if (v.is_string()) {
        auto s = v.get<std::string>();
        if (s.size() < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) {
            error(field, "a string value must be hexadecimal bits (\"0x40200000\"), got " + quote(s));
            return std::nullopt;
        }
        return number_text_bits(s, t, field);
    }
    if (v.is_number_unsigned() || v.is_number_integer()) {
        bool neg = !v.is_number_unsigned() && v.get<int64_t>() < 0;
        if (elem_is_float(t))
            return neg ? bits_from_int(t, v.get<int64_t>()) : bits_from_uint(t, v.get<uint64_t>());
        uint64_t mag = neg ? 0 - uint64_t(v.get<int64_t>()) : v.get<uint64_t>();
        if (!int_in_range(t, neg, mag)) {
            error(field, v.dump() + " is out of range for " + std::string(elem_name(t)) +
                             " (give \"0x...\" for exact bits)");
            return std::nullopt;
        }
        return neg ? bits_from_int(t, v.get<int64_t>()) : bits_from_uint(t, mag);
    }
    if (v.is_number_float()) {
        double d = v.get<double>();
        if (elem_is_float(t)) return bits_from_double(t, d);
        if (d != std::floor(d) || std::fabs(d) >= 18446744073709551616.0) {
            error(field, v.dump() + " is not an integer, but the type is " + std::string(elem_name(t)));
            return std::nullopt;
        }
        if (!int_in_range(t, d < 0, static_cast<uint64_t>(std::fabs(d)))) {
            error(field, v.dump() + " is out of range for " + std::string(elem_name(t)));
            return std::nullopt;
        }
        return d < 0 ? bits_from_int(t, static_cast<int64_t>(d))
                     : bits_from_uint(t, static_cast<uint64_t>(d));
    }
    error(field, "expected a number or a \"0x...\" bit string, got " + json_kind(v));
    return std::nullopt;
}

bool SpecReader::get_init(const std::string& text, const std::string& field, const ArgSpec& arg,
                          BufferInit& init, bool expect) {
    init.text = text;
    auto colon = text.find(':');
    std::string head = text.substr(0, colon), rest = colon == std::string::npos ? "" : text.substr(colon + 1);
    if (text == "zero") {
        init.kind = BufferInit::Kind::zero;
    } else if (text == "iota") {
        init.kind = BufferInit::Kind::iota;
    } else if (head == "iota" && colon != std::string::npos) {
        return get_iota(rest, field, arg, init);
    } else if (head == "npy" && colon != std::string::npos && !rest.empty()) {
        return get_npy(rest, field, arg, init, expect);
    } else if (head == "fill" && colon != std::string::npos) {
        init.kind = BufferInit::Kind::fill;
        auto bits = number_text_bits(rest, arg.type, field);
        if (!bits) return false;
        init.fill_bits = *bits;
    } else if (head == "random" && colon != std::string::npos) {
        init.kind = BufferInit::Kind::random;
        auto r = std::from_chars(rest.data(), rest.data() + rest.size(), init.seed, 10);
        if (rest.empty() || r.ec != std::errc() || r.ptr != rest.data() + rest.size()) {
            error(field, "bad seed " + quote(rest) + " (random:SEED takes a decimal integer below 2^64)");
            return false;
        }
    } else if (head == "file" && colon != std::string::npos && !rest.empty()) {
        init.kind = BufferInit::Kind::file;
        init.file = (dir_ / rest).lexically_normal().string();
        std::error_code ec;
        auto size = std::filesystem::file_size(init.file, ec);
        if (ec) {
            error(field, "cannot read " + quote(init.file) + ": " + ec.message());
            return false;
        }
        if (size != arg.buffer_bytes()) {
            error(field, quote(init.file) + " has " + std::to_string(size) + " bytes but the buffer has " +
                             std::to_string(arg.buffer_bytes()) + " (" + std::to_string(arg.count) + " x " +
                             std::string(elem_name(arg.type)) + ")");
            return false;
        }
    } else {
        error(field,
              "unknown " + std::string(expect ? "expect " : "init ") + quote(text) +
                  " (expected zero, iota, iota:START:STEP, fill:V, random:SEED, npy:PATH or file:PATH)");
        return false;
    }
    return true;
}

bool SpecReader::get_buffer(const json& j, const std::string& field, ArgSpec& arg) {
    arg.kind = ArgSpec::Kind::buffer;
    auto count = get_uint(j["count"], field + ".count", 1, kMaxBufferBytes);
    if (!count) return false;
    arg.count = *count;
    if (arg.buffer_bytes() > kMaxBufferBytes) {
        error(field + ".count", std::to_string(arg.count) + " x " + std::string(elem_name(arg.type)) +
                                    " is " + std::to_string(arg.buffer_bytes()) +
                                    " bytes, over the 4 GiB limit per buffer");
        return false;
    }
    if (j.contains("value")) {
        error(field, "has both \"count\" (a buffer) and \"value\" (a scalar)");
        return false;
    }
    std::string init_text = "zero";
    if (j.contains("init")) {
        if (!j["init"].is_string()) {
            error(field + ".init", "expected a string, got " + json_kind(j["init"]));
            return false;
        }
        init_text = j["init"].get<std::string>();
    }
    if (!get_init(init_text, field + ".init", arg, arg.init, false)) return false;
    return get_expect(j, field, arg);
}

// "npy:PATH": the header is read now, so that a wrong dtype or length is an error of the spec, not of the
// run.
bool SpecReader::get_npy(const std::string& rest, const std::string& field, const ArgSpec& arg,
                         BufferInit& init, bool expect) {
    init.kind = BufferInit::Kind::npy;
    init.file = (dir_ / rest).lexically_normal().string();
    auto header = read_npy_header(init.file);
    if (!header) {
        error(field, header.error());
        return false;
    }
    if (std::string why = npy_fit_error(*header, arg.type, arg.count, !expect); !why.empty()) {
        error(field, quote(init.file) + " " + why);
        return false;
    }
    init.npy_data_offset = header->data_offset;
    init.npy_descr = header->descr;
    return true;
}

// "iota:START:STEP": component k holds START + STEP * k, integers wrapping like iota.
bool SpecReader::get_iota(const std::string& rest, const std::string& field, const ArgSpec& arg,
                          BufferInit& init) {
    init.kind = BufferInit::Kind::iota;
    auto colon = rest.find(':');
    long double parts[2] = {0, 1};
    const std::string texts[2] = {rest.substr(0, colon),
                                  colon == std::string::npos ? "" : rest.substr(colon + 1)};
    for (int i = 0; i < 2; ++i) {
        double d = 0;
        const std::string& t = texts[i];
        auto r = std::from_chars(t.data(), t.data() + t.size(), d);
        const bool integral = std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.2e18;
        if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size() ||
            (!elem_is_float(arg.type) && !integral)) {
            error(field, "bad iota " + quote("iota:" + rest) +
                             " (iota:START:STEP, e.g. iota:0:2; integers for " +
                             std::string(elem_name(arg.type)) + ")");
            return false;
        }
        parts[i] = d;
    }
    init.iota_start = parts[0];
    init.iota_step = parts[1];
    return true;
}

bool SpecReader::get_expect(const json& j, const std::string& field, ArgSpec& arg) {
    const bool tolerances = j.contains("rtol") || j.contains("atol") || j.contains("exact");
    if (!j.contains("expect")) {
        if (tolerances) warn(field, "rtol, atol and exact are ignored without \"expect\"");
        return true;
    }
    if (!j["expect"].is_string()) {
        error(field + ".expect", "expected a string (the init grammar: iota, fill:V, npy:PATH ...), got " +
                                     json_kind(j["expect"]));
        return false;
    }
    BufferExpect e;
    // NumPy's isclose defaults for floats; integers compare exactly unless told otherwise.
    const bool is_float = elem_is_float(arg.type);
    e.rtol = is_float ? 1e-5 : 0;
    e.atol = is_float ? 1e-8 : 0;
    if (!get_init(j["expect"].get<std::string>(), field + ".expect", arg, e.values, true)) return false;
    if (j.contains("exact")) {
        if (!j["exact"].is_boolean()) {
            error(field + ".exact", "expected true or false, got " + json_kind(j["exact"]));
            return false;
        }
        e.exact = j["exact"].get<bool>();
        if (e.exact && (j.contains("rtol") || j.contains("atol"))) {
            error(field, "\"exact\": true compares bits; leave out rtol and atol (or set exact to false)");
            return false;
        }
    }
    for (const char* key : {"rtol", "atol"}) {
        if (!j.contains(key)) continue;
        const json& v = j[key];
        if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0) {
            error(field + "." + key, "expected a number of at least 0, got " + v.dump());
            return false;
        }
        (std::string(key) == "rtol" ? e.rtol : e.atol) = v.get<double>();
    }
    arg.expect = std::move(e);
    return true;
}

bool SpecReader::get_scalar(const json& j, const std::string& field, ArgSpec& arg) {
    arg.kind = ArgSpec::Kind::scalar;
    if (elem_is_vector(arg.type)) {
        error(field + ".type", std::string(elem_name(arg.type)) +
                                   " is a buffer element type; pass a vector or struct by value as "
                                   "{\"type\": \"bytes\", \"hex\": \"...\"}");
        return false;
    }
    if (j.contains("init")) warn(field + ".init", "ignored: a scalar has a value, not an init");
    auto bits = json_number_bits(j["value"], arg.type, field + ".value");
    if (!bits) return false;
    for (uint32_t i = 0; i < scalar_bytes(arg.type); ++i)
        arg.value.push_back(static_cast<uint8_t>(*bits >> (8 * i)));
    return true;
}

std::optional<ArgSpec> SpecReader::get_arg(const json& j, const std::string& field) {
    if (!j.is_object()) {
        error(field, "expected an object, got " + json_kind(j));
        return std::nullopt;
    }
    for (const auto& [key, val] : j.items())
        if (!kArgFields.count(key))
            warn(field + "." + key,
                 "unknown field, ignored" +
                     did_you_mean(key, std::vector<std::string>(kArgFields.begin(), kArgFields.end())));
    ArgSpec arg;
    if (auto n = get_string(j, "name", field + ".name", false)) arg.name = *n;
    if (!j.contains("type")) {
        error(field + ".type", "missing (an element type, or bytes)");
        return std::nullopt;
    }
    if (j["type"].is_string() && j["type"].get<std::string>() == "bytes") {
        arg.kind = ArgSpec::Kind::bytes;
        auto hex = get_string(j, "hex", field + ".hex", true);
        if (!hex) return std::nullopt;
        if (hex->empty() || hex->size() / 2 > kMaxBytesArg || !parse_hex_bytes(*hex, arg.value)) {
            error(field + ".hex", "expected an even number of hex digits (1 to " +
                                      std::to_string(kMaxBytesArg) + " bytes), got " + quote(*hex));
            return std::nullopt;
        }
        return arg;
    }
    auto type = get_type(j["type"], field + ".type");
    if (!type) return std::nullopt;
    arg.type = *type;
    bool ok = false;
    if (j.contains("count"))
        ok = get_buffer(j, field, arg);
    else if (j.contains("value"))
        ok = get_scalar(j, field, arg);
    else
        error(field, "neither \"count\" (a buffer) nor \"value\" (a scalar)");
    if (!ok) return std::nullopt;
    return arg;
}

void SpecReader::run(const json& root) {
    if (!root.is_object()) {
        out_.errors.push_back(path_ + ": a launch spec is a JSON object, got " + json_kind(root));
        return;
    }
    for (const auto& [key, val] : root.items())
        if (!kTopFields.count(key))
            warn(key, "unknown field, ignored" +
                          did_you_mean(key, std::vector<std::string>(kTopFields.begin(), kTopFields.end())));
    LaunchSpec spec;
    spec.path = path_;
    auto source = get_string(root, "source", "source", true);
    if (source) {
        spec.source = *source;
        spec.source_path = (dir_ / *source).lexically_normal().string();
    }
    if (auto k = get_string(root, "kernel", "kernel", true)) spec.kernel = *k;
    if (auto a = get_string(root, "arch", "arch", false)) {
        spec.arch = *a;
        spec.arch_given = true;
    }
    for (const char* key : {"grid", "block"}) {
        if (!root.contains(key)) {
            error(key, "missing (a positive integer or an array of 1 to 3 of them)");
            continue;
        }
        if (auto d = get_dims(root[key], key)) (std::string(key) == "grid" ? spec.grid : spec.block) = *d;
    }
    if (root.contains("cluster"))
        if (auto d = get_dims(root["cluster"], "cluster")) spec.cluster = *d;
    if (root.contains("shared_bytes"))
        if (auto v = get_uint(root["shared_bytes"], "shared_bytes", 0, 0xffffffffu))
            spec.shared_bytes = uint32_t(*v);
    if (root.contains("max_dynamic_shared_bytes"))
        if (auto v = get_uint(root["max_dynamic_shared_bytes"], "max_dynamic_shared_bytes", 0, 0xffffffffu))
            spec.max_dynamic_shared_bytes = uint32_t(*v);
    if (root.contains("registers"))
        if (auto v = get_uint(root["registers"], "registers", 1, 255)) spec.registers = uint32_t(*v);
    if (root.contains("deterministic")) {
        if (root["deterministic"].is_boolean())
            spec.deterministic = root["deterministic"].get<bool>();
        else
            error("deterministic", "expected true or false, got " + json_kind(root["deterministic"]));
    }
    if (auto e = get_string(root, "expect_error", "expect_error", false)) spec.expect_error = *e;
    if (auto l2 = get_string(root, "l2", "l2", false)) {
        if (*l2 == "warm")
            spec.l2 = L2State::warm;
        else if (*l2 == "cold")
            spec.l2 = L2State::cold;
        else
            error("l2",
                  "'" + *l2 +
                      "' is not an L2 state: \"warm\" (the launch repeated, as CUDA-event timing does; the "
                      "default) or \"cold\" (caches flushed before the launch, as Nsight Compute does)");
    }
    if (!root.contains("args")) {
        error("args", "missing (an array of arguments, [] for none)");
    } else if (!root["args"].is_array()) {
        error("args", "expected an array, got " + json_kind(root["args"]));
    } else if (root["args"].size() > kMaxArgs) {
        error("args", std::to_string(root["args"].size()) + " arguments, over the limit of " +
                          std::to_string(kMaxArgs));
    } else {
        uint64_t total = 0;
        for (size_t i = 0; i < root["args"].size(); ++i) {
            auto arg = get_arg(root["args"][i], "args[" + std::to_string(i) + "]");
            if (!arg) continue;
            total += arg->kind == ArgSpec::Kind::buffer ? arg->buffer_bytes() : 0;
            spec.args.push_back(std::move(*arg));
        }
        if (total > kMaxTotalBufferBytes)
            error("args", "the buffers add up to " + std::to_string(total) + " bytes, over the 16 GiB limit");
    }
    if (out_.errors.empty()) out_.spec = std::move(spec);
}

}  // namespace

std::string SpecParse::error_text() const {
    std::string out;
    for (const auto& e : errors) out += e + "\n";
    return out;
}

std::pair<uint32_t, uint32_t> line_col(std::string_view text, size_t offset) {
    uint32_t line = 1, col = 1;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return {line, col};
}

SpecParse parse_spec(std::string_view text, std::string_view path) {
    SpecParse out;
    if (std::size_t at = json_too_deep(text); at != std::string_view::npos) {
        auto [line, col] = line_col(text, at);
        out.errors.push_back(std::string(path) + ":" + std::to_string(line) + ":" + std::to_string(col) +
                             ": JSON nested more than " + std::to_string(kMaxJsonNesting) +
                             " levels deep; a launch spec needs a few");
        return out;
    }
    json root;
    try {
        root = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        // nlohmann's byte is the 1-based count of bytes read when the error was seen.
        auto [line, col] = line_col(text, e.byte ? e.byte - 1 : 0);
        std::string what = e.what();
        auto colon = what.find(": ", what.find("parse error"));
        std::string msg = colon == std::string::npos ? what : what.substr(colon + 2);
        out.errors.push_back(std::string(path) + ":" + std::to_string(line) + ":" + std::to_string(col) +
                             ": invalid JSON: " + msg);
        return out;
    } catch (const std::exception& e) {
        out.errors.push_back(std::string(path) + ": invalid JSON: " + e.what());
        return out;
    }
    SpecReader(path, out).run(root);
    return out;
}

SpecParse load_spec(const std::string& path) {
    auto text = read_input_file(path, kMaxSpecBytes, "launch spec");
    if (!text) {
        SpecParse out;
        out.errors.push_back(text.error());
        return out;
    }
    return parse_spec(*text, path);
}

}  // namespace warpsim::launch
