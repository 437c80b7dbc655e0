// launch/json_text.cpp — escaping of non-UTF-8 bytes before a JSON dump.
#include "launch/json_text.hpp"

#include <fmt/format.h>

namespace warpsim::launch {
namespace {

// Length of the well-formed UTF-8 sequence at text[i] (RFC 3629: no overlongs, no surrogates, at most
// U+10FFFF), or 0 when the byte does not start one.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
    auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    unsigned char b0 = byte(i);
    if (b0 < 0x80) return 1;
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        n = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        n = 3;
        if (b0 == 0xE0) lo = 0xA0;
        if (b0 == 0xED) hi = 0x9F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        n = 4;
        if (b0 == 0xF0) lo = 0x90;
        if (b0 == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (i + n > text.size()) return 0;
    if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k) {
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    }
    return n;
}

template <class Json>
void escape_all(Json& j) {
    if (j.is_string()) {
        auto& s = j.template get_ref<std::string&>();
        if (!is_valid_utf8(s)) s = escape_invalid_utf8(s);
    } else if (j.is_array()) {
        for (auto& e : j) escape_all(e);
    } else if (j.is_object()) {
        bool keys_valid = true;
        for (auto it = j.begin(); it != j.end(); ++it) keys_valid = keys_valid && is_valid_utf8(it.key());
        if (!keys_valid) {
            Json rebuilt = Json::object();
            for (auto it = j.begin(); it != j.end(); ++it)
                rebuilt[escape_invalid_utf8(it.key())] = it.value();
            j = std::move(rebuilt);
        }
        for (auto& e : j) escape_all(e);
    }
}

template <class Json>
std::string dump_escaped(const Json& j, int indent) {
    Json copy = j;
    escape_all(copy);
    return copy.dump(indent);
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        std::size_t n = utf8_sequence_length(text, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

std::string escape_invalid_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        std::size_t n = utf8_sequence_length(text, i);
        if (n == 0) {
            out += fmt::format("\\x{:02X}", static_cast<unsigned char>(text[i]));
            ++i;
            continue;
        }
        out.append(text.substr(i, n));
        i += n;
    }
    return out;
}

std::size_t json_too_deep(std::string_view text, std::size_t max_depth) {
    std::size_t depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"')
            in_string = true;
        else if (c == '[' || c == '{') {
            if (++depth > max_depth) return i;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::string_view::npos;
}

std::string json_text(const nlohmann::json& j, int indent) {
    return dump_escaped(j, indent);
}
std::string json_text(const nlohmann::ordered_json& j, int indent) {
    return dump_escaped(j, indent);
}

}  // namespace warpsim::launch
