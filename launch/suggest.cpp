// launch/suggest.cpp — nearest names by edit distance.
#include "launch/suggest.hpp"

#include <algorithm>
#include <cctype>

namespace warpsim::launch {
namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace

size_t edit_distance(std::string_view a, std::string_view b) {
    // Optimal string alignment: Levenshtein plus the swap of two neighbours as one edit ("gird" -> "grid").
    const size_t w = b.size() + 1;
    std::vector<size_t> d((a.size() + 1) * w);
    for (size_t i = 0; i <= a.size(); ++i) d[i * w] = i;
    for (size_t j = 0; j <= b.size(); ++j) d[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t v =
                std::min({d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1, d[(i - 1) * w + j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                v = std::min(v, d[(i - 2) * w + j - 2] + 1);
            d[i * w + j] = v;
        }
    }
    return d[a.size() * w + b.size()];
}

std::string closest_name(std::string_view given, const std::vector<std::string>& options) {
    if (given.empty()) return {};
    const std::string given_lower = lower(given);
    std::string best;
    double best_cost = 1e9;
    for (const auto& o : options) {
        if (o == given) continue;
        // A case-only difference costs half, so "VecAdd" finds "vecAdd" before "vecAdd2".
        const double cost = static_cast<double>(edit_distance(given_lower, lower(o))) +
                            0.5 * (lower(o) == given_lower ? 1 : 0) +
                            0.01 * static_cast<double>(edit_distance(given, o));
        if (cost < best_cost) {
            best_cost = cost;
            best = o;
        }
    }
    const double limit = std::max(1.0, static_cast<double>(given.size()) / 3.0) + 0.5;
    return best_cost <= limit ? best : std::string();
}

std::string did_you_mean(std::string_view given, const std::vector<std::string>& options) {
    std::string best = closest_name(given, options);
    return best.empty() ? std::string() : " (did you mean '" + best + "'?)";
}

}  // namespace warpsim::launch
