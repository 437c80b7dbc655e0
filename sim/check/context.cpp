// sim/check/context.cpp — source lines, thread coordinates and address names for findings.
#include "sim/check/context.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cctype>

#include "kernels_ir/layout.hpp"
#include "kernels_ir/names.hpp"

namespace warpsim::check {
namespace {

uint32_t element_bytes(const ir::Variable& v) {
    return std::max<uint32_t>(1, ir::type_bytes(v.type) * std::max<uint8_t>(1, v.vec));
}

std::string index_text(uint64_t element, const std::vector<uint64_t>& dims) {
    if (dims.empty()) return element ? fmt::format("[{}]", element) : std::string{};
    std::vector<uint64_t> idx(dims.size());
    for (size_t d = dims.size(); d-- > 0;) {
        const uint64_t n = std::max<uint64_t>(dims[d], 1);
        idx[d] = d == 0 ? element : element % n;
        element = d == 0 ? 0 : element / n;
    }
    std::string s;
    for (uint64_t i : idx) s += fmt::format("[{}]", i);
    return s;
}

}  // namespace

SharedLayout shared_layout(const ir::Module& m, uint32_t kernel_index, uint32_t reserved_bytes) {
    SharedLayout out;
    const ir::SharedLayout window = ir::shared_layout(m, reserved_bytes);
    for (const auto& p : window.placements) {
        // Module scope, every .func, then this kernel: other kernels' variables are not in its window.
        const bool common = p.owner < 0 || !m.functions[static_cast<size_t>(p.owner)].is_entry;
        if (!common && p.owner != int64_t{kernel_index}) continue;
        const auto& vars = p.owner < 0 ? m.globals : m.functions[static_cast<size_t>(p.owner)].locals;
        const ir::Variable& v = vars[p.index];
        out.vars.push_back({v.name, p.offset, p.size, element_bytes(v), v.dims});
    }
    out.reserved_bytes = reserved_bytes;
    out.dynamic_base = kernel_index < window.dynamic_base.size() ? window.dynamic_base[kernel_index] : 0;
    auto find_extern = [&](const std::vector<ir::Variable>& vars) {
        for (const auto& v : vars)
            if (ir::is_dynamic_shared(v) && out.dynamic_name.empty()) {
                out.dynamic_name = v.name;
                out.dynamic_elem_bytes = element_bytes(v);
            }
    };
    if (kernel_index < m.functions.size()) find_extern(m.functions[kernel_index].locals);
    find_extern(m.globals);
    return out;
}

const ir::Instruction* CheckContext::instruction(Site s) const {
    if (!module || s.function >= module->functions.size()) return nullptr;
    const auto& body = module->functions[s.function].body;
    return s.pc < body.size() ? &body[s.pc] : nullptr;
}

uint32_t CheckContext::ptx_line(Site s) const {
    const auto* in = instruction(s);
    return in ? in->loc.ptx_line : 0;
}

uint32_t CheckContext::cuda_line(Site s) const {
    const auto* in = instruction(s);
    return in ? ir::call_site(*module, in->loc).line : 0;
}

std::vector<ir::SourceFrame> CheckContext::source_chain(Site s) const {
    const auto* in = instruction(s);
    if (!in || (in->loc.line == 0 && in->loc.inlined_at == 0)) return {};
    return ir::source_chain(*module, in->loc);
}

std::string CheckContext::where(Site s) const {
    const auto* in = instruction(s);
    if (!in) return fmt::format("{}:?", ptx_file);
    std::string ptx = fmt::format("{}:{}", ptx_file, in->loc.ptx_line);
    const std::string cuda = ir::source_location_text(*module, in->loc, ir::PathStyle::relative);
    return cuda.empty() ? ptx : fmt::format("{} ({})", cuda, ptx);
}

std::string CheckContext::line_word(Site s) const {
    if (uint32_t l = cuda_line(s)) return fmt::format("line {}", l);
    return fmt::format("PTX line {}", ptx_line(s));
}

std::string CheckContext::function_name(Site s) const {
    if (!module || s.function >= module->functions.size()) return "?";
    return ir::demangled_base_name(module->functions[s.function].name);
}

std::array<uint32_t, 3> CheckContext::thread(uint32_t warp, uint32_t lane) const {
    const uint64_t t = uint64_t{warp} * 32 + lane;
    const uint64_t bx = std::max<uint32_t>(block_dim[0], 1), by = std::max<uint32_t>(block_dim[1], 1);
    return {static_cast<uint32_t>(t % bx), static_cast<uint32_t>(t / bx % by),
            static_cast<uint32_t>(t / (bx * by))};
}

std::string CheckContext::source_name(const std::string& mangled) {
    if (mangled.rfind("_ZZ", 0) != 0) return mangled;
    // A local static ends in "E<len><name>": find the split where the length matches.
    for (size_t start = mangled.size(); start-- > 3;) {
        if (!std::isdigit(static_cast<unsigned char>(mangled[start]))) continue;
        size_t d = start;
        while (d > 0 && std::isdigit(static_cast<unsigned char>(mangled[d - 1]))) --d;
        if (d == 0 || mangled[d - 1] != 'E') continue;
        const size_t len = std::stoul(mangled.substr(d, start + 1 - d));
        if (start + 1 + len == mangled.size()) return mangled.substr(start + 1);
    }
    return mangled;
}

namespace {
std::string element_text(const std::string& name, uint64_t rel, uint32_t elem, uint32_t access,
                         const std::vector<uint64_t>& dims) {
    const bool bytes = elem == 1 && access > 1;  // a .b8 array read as wider elements: index in access units
    const uint32_t unit = bytes ? access : elem;
    std::string s = CheckContext::source_name(name) +
                    (bytes ? fmt::format("[{}]", rel / unit) : index_text(rel / unit, dims));
    if (rel % unit) s += fmt::format(" (+{} bytes)", rel % unit);
    if (bytes) s += fmt::format(" (in {}-byte elements)", unit);
    return s;
}
}  // namespace

const SharedVar* CheckContext::shared_var_at(uint64_t offset) const {
    for (const auto& v : shared.vars)
        if (offset >= v.offset && offset < v.offset + v.size) return &v;
    return nullptr;
}

const NamedAllocation* CheckContext::allocation_at(uint64_t addr) const {
    for (const auto& a : allocations)
        if (addr >= a.base && addr < a.base + a.size) return &a;
    return nullptr;
}

std::string CheckContext::shared_name(uint64_t offset, uint32_t access_bytes) const {
    if (const SharedVar* v = shared_var_at(offset))
        return element_text(v->name, offset - v->offset, v->elem_bytes, access_bytes, v->dims);
    if (offset < shared.reserved_bytes) return fmt::format("the driver's reserved shared memory +{}", offset);
    if (offset < shared.dynamic_base) return {};
    const uint64_t rel = offset - shared.dynamic_base;
    if (shared.dynamic_name.empty()) return fmt::format("dynamic shared memory +{}", rel);
    return element_text(shared.dynamic_name, rel, shared.dynamic_elem_bytes, access_bytes, {0});
}

std::string CheckContext::shared_array(uint64_t offset) const {
    if (const SharedVar* v = shared_var_at(offset)) return source_name(v->name);
    if (offset < shared.reserved_bytes || offset < shared.dynamic_base) return {};
    return shared.dynamic_name.empty() ? "dynamic shared memory" : source_name(shared.dynamic_name);
}

std::string CheckContext::global_name(uint64_t addr) const {
    if (const NamedAllocation* a = allocation_at(addr)) {
        const uint64_t rel = addr - a->base;
        std::string s = fmt::format("{}[{}]", a->name, rel / a->elem_bytes);
        if (rel % a->elem_bytes) s += fmt::format(" (+{} bytes)", rel % a->elem_bytes);
        return s;
    }
    for (const auto& a : allocations) {
        if (addr >= a.base + a.size && addr < a.base + a.size + 4096)
            return fmt::format("{}[{}]: {} bytes past the end of {} ({} bytes, {} elements)", a.name,
                               (addr - a.base) / a.elem_bytes, addr - a.base - a.size, a.name, a.size,
                               a.size / a.elem_bytes);
        if (addr < a.base && a.base - addr <= 4096)
            return fmt::format("{} bytes before {}", a.base - addr, a.name);
    }
    return {};
}

std::string CheckContext::global_array(uint64_t addr) const {
    const NamedAllocation* a = allocation_at(addr);
    return a ? a->name : std::string();
}

std::string xyz(const std::array<uint32_t, 3>& v) {
    return fmt::format("({},{},{})", v[0], v[1], v[2]);
}

}  // namespace warpsim::check
