// launch/suggest.hpp — "did you mean" for misspelt names (spec fields, kernels, arguments).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace warpsim::launch {

// Edit distance: insertions, deletions, substitutions and swaps of neighbours (case-sensitive).
size_t edit_distance(std::string_view a, std::string_view b);

// The option closest to `given` when it is close enough to be a misspelling (at most a third of its letters
// differ, at least one; case differences count as half), else "".
std::string closest_name(std::string_view given, const std::vector<std::string>& options);

// " (did you mean 'x'?)" or "".
std::string did_you_mean(std::string_view given, const std::vector<std::string>& options);

}  // namespace warpsim::launch
