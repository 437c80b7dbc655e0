// launch/npy.cpp — .npy headers (a Python dict literal after a magic string), data and writing.
#include "launch/npy.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "launch/input_file.hpp"

namespace warpsim::launch {
namespace {

constexpr uint8_t kMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
constexpr size_t kMaxHeaderBytes = 1 << 20;  // NumPy itself refuses headers over 10 KB unless told otherwise

struct DtypeRow {
    const char* code;  // kind and size after the byte-order character
    ElemType type;
    const char* name;
};
constexpr DtypeRow kDtypes[] = {
    {"i1", ElemType::i8, "int8"},     {"u1", ElemType::u8, "uint8"},    {"i2", ElemType::i16, "int16"},
    {"u2", ElemType::u16, "uint16"},  {"i4", ElemType::i32, "int32"},   {"u4", ElemType::u32, "uint32"},
    {"i8", ElemType::i64, "int64"},   {"u8", ElemType::u64, "uint64"},  {"f2", ElemType::f16, "float16"},
    {"V2", ElemType::bf16, "void16"}, {"f4", ElemType::f32, "float32"}, {"f8", ElemType::f64, "float64"},
};

const DtypeRow* find_dtype(const std::string& descr) {
    if (descr.size() < 2) return nullptr;
    const char order = descr[0];
    const std::string code =
        (order == '<' || order == '>' || order == '|' || order == '=') ? descr.substr(1) : descr;
    for (const auto& row : kDtypes)
        if (code == row.code) return &row;
    return nullptr;
}

// The NumPy name of a warpsim component type, for "save it with a.astype(np.X)".
std::string numpy_name(ElemType scalar) {
    for (const auto& row : kDtypes)
        if (row.type == scalar && scalar != ElemType::bf16) return row.name;
    return "uint16";  // bf16: its bit patterns
}

// A cursor over the header's Python literal: {'descr': '<f4', 'fortran_order': False, 'shape': (3,), }
class DictReader {
  public:
    explicit DictReader(std::string_view s) : s_(s) {}
    void skip_space() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
    }
    bool eat(char c) {
        skip_space();
        if (i_ < s_.size() && s_[i_] == c) {
            ++i_;
            return true;
        }
        return false;
    }
    bool peek(char c) {
        skip_space();
        return i_ < s_.size() && s_[i_] == c;
    }
    std::optional<std::string> string_literal() {
        skip_space();
        if (i_ >= s_.size() || (s_[i_] != '\'' && s_[i_] != '"')) return std::nullopt;
        const char quote = s_[i_++];
        const size_t start = i_;
        while (i_ < s_.size() && s_[i_] != quote) ++i_;
        if (i_ >= s_.size()) return std::nullopt;
        return std::string(s_.substr(start, i_++ - start));
    }
    std::optional<std::string> word() {
        skip_space();
        const size_t start = i_;
        while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
        if (start == i_) return std::nullopt;
        return std::string(s_.substr(start, i_ - start));
    }
    size_t pos() const { return i_; }

  private:
    std::string_view s_;
    size_t i_ = 0;
};

std::optional<std::vector<uint64_t>> read_shape(DictReader& r) {
    if (!r.eat('(')) return std::nullopt;
    std::vector<uint64_t> shape;
    while (!r.eat(')')) {
        auto w = r.word();
        if (!w || w->size() > 19 ||
            !std::all_of(w->begin(), w->end(), [](char c) { return c >= '0' && c <= '9'; }))
            return std::nullopt;
        shape.push_back(std::stoull(*w));
        if (!r.eat(',') && !r.peek(')')) return std::nullopt;
    }
    return shape;
}

// Fills h from the dict text; returns "" or what is wrong with it.
std::string read_dict(std::string_view text, NpyHeader& h) {
    DictReader r(text);
    if (!r.eat('{')) return "the header is not a Python dict";
    bool have_descr = false, have_order = false, have_shape = false;
    while (!r.eat('}')) {
        auto key = r.string_literal();
        if (!key || !r.eat(':')) return "cannot read the header near byte " + std::to_string(r.pos());
        if (*key == "descr") {
            if (r.peek('['))
                return "structured dtypes (records) are not supported: save a plain numeric array";
            auto v = r.string_literal();
            if (!v) return "'descr' is not a dtype string";
            h.descr = *v;
            have_descr = true;
        } else if (*key == "fortran_order") {
            auto v = r.word();
            if (!v || (*v != "True" && *v != "False")) return "'fortran_order' is not True or False";
            h.fortran_order = *v == "True";
            have_order = true;
        } else if (*key == "shape") {
            auto v = read_shape(r);
            if (!v) return "'shape' is not a tuple of integers";
            h.shape = *v;
            have_shape = true;
        } else {
            return "unexpected key '" + *key + "' in the header";
        }
        if (!r.eat(',') && !r.peek('}')) return "cannot read the header near byte " + std::to_string(r.pos());
    }
    if (!have_descr || !have_order || !have_shape)
        return "the header lacks 'descr', 'fortran_order' or 'shape'";
    return {};
}

uint64_t read_le(std::span<const uint8_t> b, size_t at, size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= uint64_t(b[at + i]) << (8 * i);
    return v;
}

}  // namespace

uint64_t NpyHeader::elements() const {
    uint64_t n = 1;
    for (uint64_t d : shape) n = (d && n > UINT64_MAX / d) ? UINT64_MAX : n * d;
    return n;
}

std::string NpyHeader::shape_text() const {
    std::string out = "(";
    for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
    return out + (shape.size() == 1 ? ",)" : ")");
}

std::optional<ElemType> npy_elem_type(const std::string& descr) {
    const DtypeRow* row = find_dtype(descr);
    if (!row) return std::nullopt;
    return row->type;
}

std::string npy_descr(ElemType t) {
    const ElemType s = elem_scalar(t);
    if (s == ElemType::bf16) return "<u2";
    for (const auto& row : kDtypes)
        if (row.type == s) return std::string(scalar_bytes(s) == 1 ? "|" : "<") + row.code;
    return "<u1";
}

std::string npy_dtype_name(const std::string& descr) {
    const DtypeRow* row = find_dtype(descr);
    if (!row) return "'" + descr + "'";
    return std::string(row->name) + (descr[0] == '>' ? " (big-endian)" : "");
}

Outcome<NpyHeader> parse_npy_header(std::span<const uint8_t> bytes, const std::string& name) {
    using Fail = Outcome<NpyHeader>;
    if (bytes.size() < 10 || !std::equal(std::begin(kMagic), std::end(kMagic), bytes.begin()))
        return Fail::failure(name + " is not a NumPy .npy file (it does not start with \\x93NUMPY)");
    const uint8_t major = bytes[6];
    if (major < 1 || major > 3)
        return Fail::failure(name + ": .npy format version " + std::to_string(major) +
                             " is not supported (1 to 3)");
    const size_t len_bytes = major == 1 ? 2 : 4;
    if (bytes.size() < 8 + len_bytes) return Fail::failure(name + ": the .npy header is cut short");
    const uint64_t header_len = read_le(bytes, 8, len_bytes);
    const uint64_t offset = 8 + len_bytes + header_len;
    if (header_len > kMaxHeaderBytes || offset > bytes.size())
        return Fail::failure(name + ": the .npy header is cut short or too long (" +
                             std::to_string(header_len) + " bytes)");
    NpyHeader h;
    h.data_offset = offset;
    std::string_view text(reinterpret_cast<const char*>(bytes.data()) + 8 + len_bytes, header_len);
    if (std::string err = read_dict(text, h); !err.empty()) return Fail::failure(name + ": " + err);
    return h;
}

namespace {

// A FIFO or a device would block or never end: only a regular file (or one missing: "cannot open") is read.
bool exists_but_not_regular(const std::string& path) {
    std::error_code ec;
    return std::filesystem::exists(path, ec) && !is_regular_input(path);
}

}  // namespace

Outcome<NpyHeader> read_npy_header(const std::string& path) {
    using Fail = Outcome<NpyHeader>;
    if (exists_but_not_regular(path)) return Fail::failure(path + " is not a regular file: give a .npy file");
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return Fail::failure("cannot open " + path);
    const auto size = static_cast<uint64_t>(in.tellg());
    std::vector<uint8_t> head(std::min<uint64_t>(size, kMaxHeaderBytes + 16));
    in.seekg(0);
    in.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
    if (!in) return Fail::failure("reading " + path + " failed");
    auto h = parse_npy_header(head, path);
    if (!h) return h;
    h->file_bytes = size;
    auto type = npy_elem_type(h->descr);
    if (!type) return h;  // the fit check names the dtype
    const uint64_t elements = h->elements();
    const uint64_t want = elements > UINT64_MAX / 8 ? UINT64_MAX : elements * scalar_bytes(*type);
    if (size - h->data_offset != want)
        return Fail::failure(path + ": shape " + h->shape_text() + " of " + npy_dtype_name(h->descr) +
                             " needs " + std::to_string(want) + " bytes of data, the file has " +
                             std::to_string(size - h->data_offset) + " (cut short or not written by NumPy)");
    return h;
}

std::string npy_fit_error(const NpyHeader& h, ElemType type, uint64_t count, bool same_dtype) {
    const ElemType scalar = elem_scalar(type);
    auto held = npy_elem_type(h.descr);
    const std::string type_name(elem_name(type));
    if (!held)
        return "holds dtype " + npy_dtype_name(h.descr) +
               ", which no argument type matches; save it with "
               "a.astype(np." +
               numpy_name(scalar) + ")";
    const bool bf16_bits = scalar == ElemType::bf16 && (*held == ElemType::u16 || *held == ElemType::bf16);
    if (same_dtype && *held != scalar && !bf16_bits)
        return "holds " + npy_dtype_name(h.descr) + " but the argument is " + type_name +
               "; save it with a.astype(np." + numpy_name(scalar) + ")" +
               (scalar == ElemType::bf16 ? " (bf16 bit patterns)" : "");
    const uint64_t want = count * elem_components(type);
    if (h.elements() != want)
        return "has shape " + h.shape_text() + " (" + std::to_string(h.elements()) +
               " elements) but the argument has " + std::to_string(count) + " x " + type_name +
               (elem_is_vector(type) ? " (" + std::to_string(want) + " components)" : "");
    size_t long_dims = 0;
    for (uint64_t d : h.shape) long_dims += d > 1;
    if (h.fortran_order && long_dims > 1)
        return "is in Fortran order; save np.ascontiguousarray(a) for C order";
    return {};
}

std::string read_npy_data(const std::string& path, const NpyHeader& h, std::span<uint8_t> out) {
    if (exists_but_not_regular(path)) return path + " is not a regular file: give a .npy file";
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot open " + path;
    in.seekg(static_cast<std::streamoff>(h.data_offset));
    in.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(out.size()));
    if (!in) return "reading " + path + " failed (the file is shorter than its header says)";
    auto type = npy_elem_type(h.descr);
    const size_t sb = type ? scalar_bytes(*type) : 1;
    if (h.descr[0] == '>' && sb > 1)
        for (size_t i = 0; i + sb <= out.size(); i += sb) std::reverse(out.begin() + i, out.begin() + i + sb);
    return {};
}

std::vector<uint8_t> npy_file_bytes(ElemType type, uint64_t count, std::span<const uint8_t> data) {
    std::string shape = elem_is_vector(type)
                            ? "(" + std::to_string(count) + ", " + std::to_string(elem_components(type)) + ")"
                            : "(" + std::to_string(count) + ",)";
    std::string dict =
        "{'descr': '" + npy_descr(type) + "', 'fortran_order': False, 'shape': " + shape + ", }";
    // Magic (6) + version (2) + length (2) + dict + padding + '\n' is a multiple of 64, as NumPy writes it.
    const size_t unpadded = 10 + dict.size() + 1;
    dict.append((64 - unpadded % 64) % 64, ' ');
    dict += '\n';
    std::vector<uint8_t> out(std::begin(kMagic), std::end(kMagic));
    out.push_back(1);
    out.push_back(0);
    out.push_back(static_cast<uint8_t>(dict.size() & 0xff));
    out.push_back(static_cast<uint8_t>(dict.size() >> 8));
    out.insert(out.end(), dict.begin(), dict.end());
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

std::string write_npy(const std::string& path, ElemType type, uint64_t count, std::span<const uint8_t> data) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return "cannot write " + path;
    const std::vector<uint8_t> bytes = npy_file_bytes(type, count, data);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) return "writing " + path + " failed";
    return {};
}

}  // namespace warpsim::launch
