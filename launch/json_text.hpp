// launch/json_text.hpp — JSON text that is always valid UTF-8: bytes that are not UTF-8 (a kernel's printf,
// a .file name, a path) are written as the six characters `\xNN` instead of aborting the dump.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace warpsim::launch {

inline constexpr std::size_t kMaxJsonNesting = 64;

// `text` with every byte that is not part of a well-formed UTF-8 sequence written as `\xNN` (upper-case hex).
std::string escape_invalid_utf8(std::string_view text);
bool is_valid_utf8(std::string_view text);

// The offset of the first '[' or '{' nested deeper than `max_depth` (outside strings), or npos. JSON inputs
// are checked before parsing: nlohmann's values are freed and printed recursively, and a spec or preset
// has no reason to nest more than a few levels.
std::size_t json_too_deep(std::string_view text, std::size_t max_depth = kMaxJsonNesting);

// j.dump(indent) after escape_invalid_utf8 on every string and key.
std::string json_text(const nlohmann::json& j, int indent = 2);
std::string json_text(const nlohmann::ordered_json& j, int indent = 2);

}  // namespace warpsim::launch
