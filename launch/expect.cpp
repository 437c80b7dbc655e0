// launch/expect.cpp — comparing buffers with their expected contents.
#include "launch/expect.hpp"

#include <cmath>

#include <fmt/format.h>

#include "launch/buffer_init.hpp"
#include "launch/buffer_values.hpp"
#include "launch/npy.hpp"

namespace warpsim::launch {
namespace {

bool values_close(long double got, long double want, const BufferExpect& e) {
    if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
    if (std::isinf(want) || std::isinf(got)) return got == want;
    return std::fabs(got - want) <=
           static_cast<long double>(e.atol) + static_cast<long double>(e.rtol) * std::fabs(want);
}

std::string tolerance_text(const BufferExpect& e) {
    if (e.exact) return "exact";
    if (e.rtol == 0 && e.atol == 0) return "equal values";
    return fmt::format("rtol {:g}, atol {:g}", e.rtol, e.atol);
}

std::string element_label(const BufferCheck& c, const ElementMismatch& m) {
    std::string base = c.name.empty() ? "args[" + std::to_string(c.arg) + "]" : c.name;
    base += "[" + std::to_string(m.index) + "]";
    if (c.components > 1) base += std::string(".") + "xyzw"[m.component & 3];
    return base;
}

}  // namespace

Outcome<ExpectedValues> expected_values(const LaunchSpec& spec, size_t arg_index) {
    const ArgSpec& arg = spec.args.at(arg_index);
    const BufferInit& init = arg.expect->values;
    ExpectedValues out;
    out.type = elem_scalar(arg.type);
    if (init.kind == BufferInit::Kind::npy)
        if (auto t = npy_elem_type(init.npy_descr)) out.type = *t;
    // An npy expect of <u2 against a bf16 buffer holds bf16 bit patterns.
    if (elem_scalar(arg.type) == ElemType::bf16 && out.type == ElemType::u16) out.type = ElemType::bf16;
    const uint64_t components = arg.count * elem_components(arg.type);
    out.bytes.resize(components * scalar_bytes(out.type));
    const std::string label = spec.path + ": args[" + std::to_string(arg_index) + "].expect";
    if (std::string err = fill_components(out.type, components, init, out.bytes, label); !err.empty())
        return Outcome<ExpectedValues>::failure(err);
    return out;
}

BufferCheck compare_buffer(const ArgSpec& arg, uint32_t arg_index, const ExpectedValues& expected,
                           std::span<const uint8_t> got, size_t listed) {
    const BufferExpect& e = *arg.expect;
    BufferCheck c;
    c.arg = arg_index;
    c.name = arg.name;
    c.expect = e.values.text;
    c.tolerance = tolerance_text(e);
    c.elements = arg.count;
    c.components = elem_components(arg.type);
    const ElemType t = elem_scalar(arg.type);
    const uint32_t comps = elem_components(arg.type);
    const bool same_type = expected.type == t;
    for (uint64_t i = 0; i < arg.count; ++i) {
        bool element_differs = false;
        for (uint32_t j = 0; j < comps; ++j) {
            const uint64_t k = i * comps + j;
            const uint64_t g = component_bits_at(got, t, k),
                           w = component_bits_at(expected.bytes, expected.type, k);
            const long double gv = component_value(t, g), wv = component_value(expected.type, w);
            const bool ok = e.exact ? (same_type ? g == w : gv == wv) : values_close(gv, wv, e);
            if (std::isfinite(gv) && std::isfinite(wv))
                c.max_abs_error = std::max(c.max_abs_error, std::fabs(gv - wv));
            if (ok) continue;
            if (!element_differs && c.first.size() < listed)
                c.first.push_back({i, j, g, w, format_component(t, g), format_component(expected.type, w)});
            element_differs = true;
        }
        c.mismatched += element_differs;
    }
    return c;
}

Outcome<std::vector<BufferCheck>> check_expectations(const LaunchSpec& spec,
                                                     const std::vector<std::vector<uint8_t>>& final_buffers,
                                                     const std::vector<std::string>& names) {
    std::vector<BufferCheck> checks;
    for (size_t i = 0; i < spec.args.size(); ++i) {
        const ArgSpec& arg = spec.args[i];
        if (arg.kind != ArgSpec::Kind::buffer || !arg.expect) continue;
        if (i >= final_buffers.size() || final_buffers[i].size() != arg.buffer_bytes())
            return Outcome<std::vector<BufferCheck>>::failure(
                spec.path + ": args[" + std::to_string(i) +
                "]: the buffer was not read back after the kernel");
        auto expected = expected_values(spec, i);
        if (!expected) return Outcome<std::vector<BufferCheck>>::failure(expected.error());
        BufferCheck c = compare_buffer(arg, static_cast<uint32_t>(i), *expected, final_buffers[i]);
        if (c.name.empty() && i < names.size()) c.name = names[i];
        checks.push_back(std::move(c));
    }
    return checks;
}

std::string format_checks(const std::vector<BufferCheck>& checks) {
    std::string out;
    for (const auto& c : checks) {
        const std::string who = "args[" + std::to_string(c.arg) + "]" + (c.name.empty() ? "" : " " + c.name);
        if (c.passed()) {
            out += fmt::format("expect    {}: all {} elements as expected ({}, {})\n", who, c.elements,
                               c.expect, c.tolerance);
            continue;
        }
        out += fmt::format("expect    {}: {} of {} elements differ from {} ({}); largest difference {:g}\n",
                           who, c.mismatched, c.elements, c.expect, c.tolerance,
                           static_cast<double>(c.max_abs_error));
        for (const auto& m : c.first) {
            out += fmt::format("            {} = {}, expected {}\n", element_label(c, m), m.got, m.expected);
        }
        if (c.mismatched > c.first.size())
            out += fmt::format("            ... and {} more\n", c.mismatched - c.first.size());
    }
    return out;
}

nlohmann::ordered_json checks_json(const std::vector<BufferCheck>& checks) {
    nlohmann::ordered_json all = nlohmann::ordered_json::array();
    for (const auto& c : checks) {
        nlohmann::ordered_json j = {{"arg", c.arg}};
        if (!c.name.empty()) j["name"] = c.name;
        j["expect"] = c.expect;
        j["tolerance"] = c.tolerance;
        j["elements"] = c.elements;
        j["mismatched"] = c.mismatched;
        j["verdict"] = c.passed() ? "pass" : "fail";
        j["max_abs_error"] = static_cast<double>(c.max_abs_error);
        nlohmann::ordered_json first = nlohmann::ordered_json::array();
        for (const auto& m : c.first) {
            nlohmann::ordered_json row = {{"index", m.index}};
            if (c.components > 1) row["component"] = m.component;
            row["got"] = m.got;
            row["expected"] = m.expected;
            first.push_back(std::move(row));
        }
        j["first_mismatches"] = std::move(first);
        all.push_back(std::move(j));
    }
    return all;
}

}  // namespace warpsim::launch
