// launch/show.hpp — what `--show 'c[990:1000]'` selects and prints: an argument by its name or as
// args[N], and a Python-style slice of its elements.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "launch/launch_spec.hpp"
#include "launch/outcome.hpp"

namespace warpsim::launch {

struct ShowRequest {
    size_t arg = 0;
    uint64_t start = 0, stop = 0;  // elements [start, stop) after clamping, as Python slices do
    std::string label;             // "c[990:1000]"
    bool whole = false;            // no slice was given (the first kShowDefault elements are shown)
};
inline constexpr uint64_t kShowDefault = 16;

// Parses NAME, NAME[i], NAME[a:b], args[N][a:b] ...; a and b may be negative or left out, as in Python.
// `names` holds each argument's name ("" when unknown). Errors say what was not understood, with
// "did you mean" for a misspelt name.
Outcome<ShowRequest> parse_show(std::string_view text, const LaunchSpec& spec,
                                const std::vector<std::string>& names);

// "c[990:1000] (f32, 10 of 1000): 1980 1982 ..." with the index of each row's first element; `bytes` is the
// buffer after the kernel (ignored for scalars, whose value is printed).
std::string format_show(const ShowRequest& r, const ArgSpec& arg, std::span<const uint8_t> bytes);
nlohmann::ordered_json show_json(const ShowRequest& r, const ArgSpec& arg, std::span<const uint8_t> bytes);

}  // namespace warpsim::launch
