// kernels_ir/link.cpp — joining separately compiled modules (see link.hpp).
#include "kernels_ir/link.hpp"

#include <algorithm>
#include <unordered_map>

namespace warpsim::ir {
namespace {

bool is_declaration(const Variable& v) {
    return v.linkage == Linkage::extern_;
}
bool is_declaration(const Function& f) {
    return !f.has_body;
}
bool gives_way(Linkage l) {
    return l == Linkage::weak || l == Linkage::common;
}

// Part-local numbering made global: source files by `file_base`, inlining sites by `site_base`.
struct Renumber {
    uint32_t file_base = 0;
    uint32_t site_base = 0;
    void apply(SrcLoc& loc) const {
        if (loc.file != 0) loc.file += file_base;
        if (loc.inlined_at != 0) loc.inlined_at += site_base;
    }
};

class Linker {
  public:
    explicit Linker(const std::vector<std::string>& names) : names_(names) {}

    void add(Module part, std::size_t index) {
        parts_ = std::max(parts_, index + 1);
        if (index == 0) {
            out_.version_major = part.version_major;
            out_.version_minor = part.version_minor;
            out_.target = part.target;
            out_.address_size = part.address_size;
        } else {
            if (part.address_size != out_.address_size)
                error(index, "'" + name(index) + "' has .address_size " + std::to_string(part.address_size) +
                                 ", '" + name(0) + "' " + std::to_string(out_.address_size) +
                                 ": compile every file alike");
            if (std::tie(part.version_major, part.version_minor) >
                std::tie(out_.version_major, out_.version_minor)) {
                out_.version_major = part.version_major;
                out_.version_minor = part.version_minor;
            }
        }
        Renumber r;
        for (const auto& f : out_.files) r.file_base = std::max(r.file_base, f.index);
        r.site_base = static_cast<uint32_t>(out_.inline_sites.size());
        const std::string label_suffix = index == 0 ? "" : "$part" + std::to_string(index);
        for (auto& f : part.files) {
            f.index += r.file_base;
            out_.files.push_back(std::move(f));
        }
        for (auto& s : part.inline_sites) {
            if (s.file != 0) s.file += r.file_base;
            if (s.parent != 0) s.parent += r.site_base;
            if (!s.callee.empty()) s.callee += label_suffix;
            out_.inline_sites.push_back(std::move(s));
        }
        for (auto& d : part.debug_strings) {
            d.label += label_suffix;
            out_.debug_strings.push_back(std::move(d));
        }
        for (auto& v : part.globals) {
            r.apply(v.loc);
            place(out_.globals, var_at_, owner_var_, std::move(v), index);
        }
        for (auto& f : part.functions) {
            r.apply(f.loc);
            for (auto& inst : f.body) r.apply(inst.loc);
            for (auto& v : f.locals) r.apply(v.loc);
            place(out_.functions, fn_at_, owner_fn_, std::move(f), index);
        }
    }

    LinkResult finish() {
        for (const auto& v : out_.globals) {
            // `.extern .shared` arrays are the launch's dynamic shared memory: nothing defines them.
            if (is_declaration(v) && v.space != Space::shared)
                error(owner_var_[v.name],
                      "'" + v.name + "' is declared .extern and defined in none of the " +
                          std::to_string(parts_) + " linked files: link the file that defines it",
                      v.loc);
        }
        std::unordered_map<std::string, int64_t> fn_index;
        for (std::size_t i = 0; i < out_.functions.size(); ++i)
            fn_index.emplace(out_.functions[i].name, int64_t(i));
        for (auto& f : out_.functions) {
            for (auto& inst : f.body) {
                if (inst.op != Opcode::call) continue;
                for (auto& a : inst.args) {
                    if (a.kind == Operand::Kind::list) continue;
                    if (a.kind == Operand::Kind::symbol) {
                        auto it = fn_index.find(a.name);
                        a.imm = it == fn_index.end() ? -1 : it->second;
                    }
                    break;  // the callee is the first operand that is not a list
                }
            }
        }
        LinkResult result;
        result.module = std::move(out_);
        result.diagnostics = std::move(diags_);
        return result;
    }

  private:
    // Adds `x` of part `index`: a declaration of a known name is dropped, a definition replaces a
    // declaration (or a weak/common definition) at its place, two strong definitions are an error.
    template <class T>
    void place(std::vector<T>& list, std::unordered_map<std::string, std::size_t>& at,
               std::unordered_map<std::string, std::size_t>& owner, T x, std::size_t index) {
        auto it = at.find(x.name);
        if (it == at.end()) {
            at.emplace(x.name, list.size());
            owner[x.name] = index;
            list.push_back(std::move(x));
            return;
        }
        T& old = list[it->second];
        if (is_declaration(x)) return;
        if (is_declaration(old) || (gives_way(old.linkage) && !gives_way(x.linkage))) {
            owner[x.name] = index;
            old = std::move(x);
            return;
        }
        if (gives_way(x.linkage)) return;
        error(index,
              "'" + x.name + "' is defined in both '" + name(owner[x.name]) + "' and '" + name(index) +
                  "': keep one definition, or make one of them static",
              x.loc);
    }

    std::string name(std::size_t i) const {
        return i < names_.size() ? names_[i] : "module " + std::to_string(i);
    }

    void error(std::size_t part, std::string message, const SrcLoc& at = {}) {
        Diagnostic d;
        d.file = name(part);
        d.line = at.ptx_line;
        d.col = at.ptx_col;
        d.message = std::move(message);
        diags_.push_back(std::move(d));
    }

    const std::vector<std::string>& names_;
    Module out_;
    std::vector<Diagnostic> diags_;
    std::size_t parts_ = 0;
    std::unordered_map<std::string, std::size_t> var_at_, fn_at_, owner_var_, owner_fn_;
};

}  // namespace

bool LinkResult::ok() const {
    return std::none_of(diagnostics.begin(), diagnostics.end(),
                        [](const Diagnostic& d) { return d.severity == Diagnostic::Severity::error; });
}

LinkResult link_modules(std::vector<Module> parts, const std::vector<std::string>& names) {
    Linker linker(names);
    for (std::size_t i = 0; i < parts.size(); ++i) linker.add(std::move(parts[i]), i);
    return linker.finish();
}

}  // namespace warpsim::ir
