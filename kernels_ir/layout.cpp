// kernels_ir/layout.cpp — parameter, frame and shared-memory layouts under one alignment rule.
#include "kernels_ir/layout.hpp"

#include <algorithm>

namespace warpsim::ir {
namespace {

uint32_t align_up(uint32_t v, uint32_t a) {
    return a <= 1 ? v : (v + a - 1) / a * a;
}

}  // namespace

uint32_t alignment_of(const Variable& v) {
    return std::max<uint32_t>(1, v.align ? v.align : type_bytes(v.type) * std::max<uint32_t>(1, v.vec));
}

uint32_t alignment_of(const Param& p) {
    return std::max<uint32_t>(1, p.align ? p.align : type_bytes(p.type));
}

bool is_shared_variable(const Variable& v) {
    return v.space == Space::shared || v.space == Space::shared_cta;
}

bool is_dynamic_shared(const Variable& v) {
    return is_shared_variable(v) && !v.dims.empty() && v.dims[0] == 0;
}

ParamLayout param_layout(const std::vector<Param>& params) {
    ParamLayout L;
    uint32_t off = 0;
    for (const auto& p : params) {
        off = align_up(off, alignment_of(p));
        L.offsets.push_back(off);
        off += static_cast<uint32_t>(p.size_bytes());
    }
    L.total = off;
    return L;
}

FrameLayout frame_layout(const Function& fn) {
    FrameLayout F;
    uint32_t p = 0;
    if (!fn.is_entry) {
        for (const auto& a : fn.params) {
            p = align_up(p, alignment_of(a));
            F.formal_offsets.push_back(p);
            p += static_cast<uint32_t>(a.size_bytes());
        }
        for (const auto& r : fn.returns) {
            p = align_up(p, alignment_of(r));
            F.return_offsets.push_back(p);
            p += static_cast<uint32_t>(r.size_bytes());
        }
    }
    uint32_t l = 0;
    for (const auto& v : fn.locals) {
        uint32_t* cursor = v.space == Space::param ? &p : v.space == Space::local ? &l : nullptr;
        if (!cursor) continue;
        *cursor = align_up(*cursor, alignment_of(v));
        F.symbols[v.name] = {v.space, *cursor};
        *cursor += static_cast<uint32_t>(v.size_bytes());
    }
    F.param_bytes = align_up(p, 16);
    F.local_bytes = align_up(l, 16);
    return F;
}

int64_t SharedLayout::offset_of(int64_t owner, std::string_view name) const {
    auto in_owner = index_.find(owner);
    if (in_owner == index_.end()) return -1;
    auto it = in_owner->second.find(name);
    return it == in_owner->second.end() ? -1 : int64_t{it->second};
}

uint64_t SharedLayout::block_bytes(uint32_t kernel, uint64_t dynamic) const {
    if (kernel >= static_bytes.size()) return dynamic;
    if (dynamic == 0) return static_bytes[kernel];
    const uint32_t own = dynamic_base[kernel];
    const uint32_t start = has_funcs_ ? std::max(own, func_dynamic_base_) : own;
    return uint64_t{start} + dynamic;
}

SharedLayout shared_layout(const Module& m, uint32_t base) {
    SharedLayout L;
    L.base = base;
    auto place_all = [&](int64_t owner, const std::vector<Variable>& vars, uint32_t& cursor) {
        for (uint32_t i = 0; i < vars.size(); ++i) {
            const Variable& v = vars[i];
            if (!is_shared_variable(v) || is_dynamic_shared(v)) continue;
            cursor = align_up(cursor, alignment_of(v));
            L.index_[owner][v.name] = cursor;
            L.placements.push_back({owner, i, v.name, cursor, v.size_bytes()});
            cursor += static_cast<uint32_t>(v.size_bytes());
        }
    };
    uint32_t common = base;
    place_all(-1, m.globals, common);
    for (std::size_t f = 0; f < m.functions.size(); ++f) {
        if (m.functions[f].is_entry) continue;
        L.has_funcs_ = true;
        place_all(static_cast<int64_t>(f), m.functions[f].locals, common);
    }
    L.static_bytes.assign(m.functions.size(), common);
    L.dynamic_base.assign(m.functions.size(), base);
    uint32_t largest = align_up(common, kDynamicSharedAlign);
    for (std::size_t f = 0; f < m.functions.size(); ++f) {
        if (!m.functions[f].is_entry) continue;
        uint32_t k = common;
        place_all(static_cast<int64_t>(f), m.functions[f].locals, k);
        L.static_bytes[f] = k;
        L.dynamic_base[f] = align_up(k, kDynamicSharedAlign);
        largest = std::max(largest, L.dynamic_base[f]);
    }
    L.func_dynamic_base_ = largest;
    for (std::size_t f = 0; f < m.functions.size(); ++f)
        if (!m.functions[f].is_entry) L.dynamic_base[f] = largest;
    return L;
}

}  // namespace warpsim::ir
