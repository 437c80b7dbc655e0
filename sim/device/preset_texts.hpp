// The built-in preset JSON texts, embedded into the binary (preset_texts.cpp is generated from presets/).
#pragma once

#include <span>
#include <string_view>

namespace warpsim::device {

struct EmbeddedPreset {
    std::string_view name;  // file name without ".json"
    std::string_view json;
};

// Sorted by name.
std::span<const EmbeddedPreset> embedded_presets();

}  // namespace warpsim::device
