// launch/params.cpp — argument checking and parameter packing against a kernel's .param list.
#include "launch/params.hpp"

#include <algorithm>

#include "kernels_ir/layout.hpp"

namespace warpsim::launch {
namespace {

std::string param_desc(const ir::Function& kernel, size_t i) {
    const ir::Param& p = kernel.params[i];
    std::string type = "." + std::string(ir::type_name(p.type));
    if (p.array) type += " [" + std::to_string(p.array) + "]";
    return "parameter " + std::to_string(i) + " '" + p.name + "' of " + kernel.name + " is " + type + " (" +
           std::to_string(p.size_bytes()) + " bytes)";
}

std::string arg_desc(const ArgSpec& a) {
    switch (a.kind) {
        case ArgSpec::Kind::buffer:
            return "a buffer is passed as an 8-byte pointer";
        case ArgSpec::Kind::scalar:
            return "a " + std::string(elem_name(a.type)) + " scalar is " + std::to_string(a.value.size()) +
                   " bytes";
        case ArgSpec::Kind::bytes:
            return "the bytes argument has " + std::to_string(a.value.size()) + " bytes";
    }
    return {};
}

}  // namespace

std::vector<std::string> check_args(const ir::Function& kernel, const LaunchSpec& spec) {
    std::vector<std::string> errors;
    if (spec.args.size() != kernel.params.size()) {
        errors.push_back(spec.path + ": args: the spec gives " + std::to_string(spec.args.size()) +
                         " arguments but kernel " + kernel.name + " takes " +
                         std::to_string(kernel.params.size()) + " parameters");
    }
    const size_t n = std::min(spec.args.size(), kernel.params.size());
    for (size_t i = 0; i < n; ++i) {
        const ArgSpec& a = spec.args[i];
        if (a.param_bytes() == kernel.params[i].size_bytes()) continue;
        errors.push_back(spec.path + ": args[" + std::to_string(i) + "]: " + arg_desc(a) + " but " +
                         param_desc(kernel, i));
    }
    return errors;
}

std::vector<uint64_t> param_offsets(const ir::Function& kernel, uint64_t* total_bytes) {
    const ir::ParamLayout L = ir::param_layout(kernel.params);
    if (total_bytes) *total_bytes = L.total;
    return {L.offsets.begin(), L.offsets.end()};
}

std::vector<uint8_t> pack_params(const ir::Function& kernel, const std::vector<uint64_t>& buffer_addresses,
                                 const LaunchSpec& spec) {
    uint64_t total = 0;
    const std::vector<uint64_t> offsets = param_offsets(kernel, &total);
    std::vector<uint8_t> out(total, 0);
    const bool per_arg = buffer_addresses.size() == spec.args.size();
    size_t next_buffer = 0;
    const size_t n = std::min(spec.args.size(), kernel.params.size());
    for (size_t i = 0; i < n; ++i) {
        const ArgSpec& a = spec.args[i];
        const uint64_t size = kernel.params[i].size_bytes();
        uint8_t* dst = out.data() + offsets[i];
        if (a.kind == ArgSpec::Kind::buffer) {
            const size_t slot = per_arg ? i : next_buffer;
            ++next_buffer;
            const uint64_t addr = slot < buffer_addresses.size() ? buffer_addresses[slot] : 0;
            for (uint64_t b = 0; b < std::min<uint64_t>(size, 8); ++b)
                dst[b] = static_cast<uint8_t>(addr >> (8 * b));
            continue;
        }
        std::copy_n(a.value.begin(), std::min<uint64_t>(size, a.value.size()), dst);
    }
    return out;
}

}  // namespace warpsim::launch
