// launch/show.cpp — parsing --show selections and printing buffer elements.
#include "launch/show.hpp"

#include <charconv>

#include <fmt/format.h>

#include "launch/buffer_values.hpp"
#include "launch/suggest.hpp"

namespace warpsim::launch {
namespace {

std::optional<int64_t> parse_int(std::string_view s) {
    int64_t v = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
    return v;
}

uint64_t clamp_index(int64_t i, uint64_t n) {
    if (i < 0) i += static_cast<int64_t>(n);
    if (i < 0) return 0;
    return std::min<uint64_t>(static_cast<uint64_t>(i), n);
}

std::string element_text(const ArgSpec& arg, std::span<const uint8_t> bytes, uint64_t i) {
    const uint32_t comps = elem_components(arg.type);
    if (comps == 1) return format_component(arg.type, component_bits_at(bytes, arg.type, i));
    std::string out = "(";
    for (uint32_t j = 0; j < comps; ++j)
        out +=
            (j ? ", " : "") + format_component(arg.type, component_bits_at(bytes, arg.type, i * comps + j));
    return out + ")";
}

}  // namespace

Outcome<ShowRequest> parse_show(std::string_view text, const LaunchSpec& spec,
                                const std::vector<std::string>& names) {
    using Fail = Outcome<ShowRequest>;
    const std::string given(text);
    ShowRequest r;
    std::string_view rest = text;
    std::string who;
    if (rest.starts_with("args[")) {
        auto close = rest.find(']');
        auto n = close == std::string_view::npos ? std::nullopt : parse_int(rest.substr(5, close - 5));
        if (!n || *n < 0 || static_cast<size_t>(*n) >= spec.args.size())
            return Fail::failure("--show " + given + ": the kernel takes args[0] to args[" +
                                 std::to_string(spec.args.size() ? spec.args.size() - 1 : 0) + "]");
        r.arg = static_cast<size_t>(*n);
        who = std::string(rest.substr(0, close + 1));
        rest.remove_prefix(close + 1);
    } else {
        const size_t bracket = std::min(rest.find('['), rest.size());
        const std::string name(rest.substr(0, bracket));
        auto it = std::find(names.begin(), names.end(), name);
        if (name.empty() || it == names.end()) {
            std::vector<std::string> known;
            for (const auto& n : names)
                if (!n.empty()) known.push_back(n);
            std::string list;
            for (const auto& n : known) list += (list.empty() ? "" : ", ") + n;
            return Fail::failure("--show " + given + ": no argument is named '" + name + "'" +
                                 did_you_mean(name, known) + (list.empty() ? "" : "; the names are " + list) +
                                 " (or write args[N])");
        }
        r.arg = static_cast<size_t>(it - names.begin());
        who = name;
        rest.remove_prefix(bracket);
    }
    const ArgSpec& arg = spec.args[r.arg];
    const uint64_t n = arg.kind == ArgSpec::Kind::buffer ? arg.count : 1;
    if (rest.empty()) {
        r.whole = true;
        r.start = 0;
        r.stop = std::min(n, kShowDefault);
        r.label = who;
        return r;
    }
    if (arg.kind != ArgSpec::Kind::buffer)
        return Fail::failure("--show " + given + ": " + who + " is a scalar; show it without an index");
    if (rest.front() != '[' || rest.back() != ']')
        return Fail::failure("--show " + given + ": write NAME[i], NAME[a:b] or args[N][a:b]");
    std::string_view inside = rest.substr(1, rest.size() - 2);
    const size_t colon = inside.find(':');
    if (colon == std::string_view::npos) {
        auto i = parse_int(inside);
        const int64_t signed_n = static_cast<int64_t>(n);
        if (!i || *i >= signed_n || *i < -signed_n)
            return Fail::failure("--show " + given + ": index " + std::string(inside) + " is outside " + who +
                                 "[0:" + std::to_string(n) + "]");
        r.start = clamp_index(*i, n);
        r.stop = r.start + 1;
    } else {
        auto a = inside.substr(0, colon), b = inside.substr(colon + 1);
        auto ia = a.empty() ? std::optional<int64_t>(0) : parse_int(a);
        auto ib = b.empty() ? std::optional<int64_t>(static_cast<int64_t>(n)) : parse_int(b);
        if (!ia || !ib)
            return Fail::failure("--show " + given + ": the slice takes integers, as in c[990:1000]");
        r.start = clamp_index(*ia, n);
        r.stop = std::max(r.start, clamp_index(*ib, n));
    }
    r.label = who + std::string(rest);
    return r;
}

std::string format_show(const ShowRequest& r, const ArgSpec& arg, std::span<const uint8_t> bytes) {
    const std::string type(elem_name(arg.type));
    if (arg.kind != ArgSpec::Kind::buffer) {
        uint64_t bits = 0;
        for (size_t i = 0; i < arg.value.size() && i < 8; ++i) bits |= uint64_t(arg.value[i]) << (8 * i);
        return fmt::format("show      {} ({} value) = {}\n", r.label, type,
                           arg.kind == ArgSpec::Kind::scalar ? format_component(arg.type, bits) : "(bytes)");
    }
    std::string out = fmt::format(
        "show      {} ({}, elements {}..{} of {}){}\n", r.label, type, r.start, r.stop ? r.stop - 1 : 0,
        arg.count, r.whole && arg.count > r.stop ? "; give a slice for others, e.g. [a:b]" : "");
    if (r.start == r.stop) return out + "            (empty)\n";
    const uint64_t per_row = elem_components(arg.type) > 1 ? 4 : 8;
    for (uint64_t i = r.start; i < r.stop; i += per_row) {
        std::string row = fmt::format("  [{:>6}]", i);
        for (uint64_t k = i; k < std::min(r.stop, i + per_row); ++k) row += " " + element_text(arg, bytes, k);
        out += row + "\n";
    }
    return out;
}

nlohmann::ordered_json show_json(const ShowRequest& r, const ArgSpec& arg, std::span<const uint8_t> bytes) {
    nlohmann::ordered_json j = {
        {"arg", r.arg}, {"select", r.label}, {"type", std::string(elem_name(arg.type))}};
    if (arg.kind != ArgSpec::Kind::buffer) {
        uint64_t bits = 0;
        for (size_t i = 0; i < arg.value.size() && i < 8; ++i) bits |= uint64_t(arg.value[i]) << (8 * i);
        j["value"] =
            arg.kind == ArgSpec::Kind::scalar ? component_json(arg.type, bits) : nlohmann::ordered_json();
        return j;
    }
    j["start"] = r.start;
    nlohmann::ordered_json values = nlohmann::ordered_json::array();
    const uint32_t comps = elem_components(arg.type);
    for (uint64_t i = r.start; i < r.stop; ++i) {
        if (comps == 1) {
            values.push_back(component_json(arg.type, component_bits_at(bytes, arg.type, i)));
            continue;
        }
        nlohmann::ordered_json v = nlohmann::ordered_json::array();
        for (uint32_t c = 0; c < comps; ++c)
            v.push_back(component_json(arg.type, component_bits_at(bytes, arg.type, i * comps + c)));
        values.push_back(std::move(v));
    }
    j["values"] = std::move(values);
    return j;
}

}  // namespace warpsim::launch
