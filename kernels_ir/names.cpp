// kernels_ir/names.cpp — just enough of the Itanium C++ ABI mangling to name kernels the way users wrote
// them.
#include "kernels_ir/names.hpp"

#include <optional>

namespace warpsim::ir {
namespace {

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

// A cursor over a mangled name; every read is bounds-checked and failure is sticky.
struct Reader {
    std::string_view s;
    std::size_t i = 0;
    bool failed = false;

    char peek(std::size_t k = 0) const { return i + k < s.size() ? s[i + k] : '\0'; }
    bool done() const { return failed || i >= s.size(); }

    // <source-name> ::= <length> <identifier>
    std::optional<std::string_view> source_name() {
        std::size_t len = 0;
        if (!is_digit(peek())) return std::nullopt;
        while (is_digit(peek())) {
            len = len * 10 + static_cast<std::size_t>(peek() - '0');
            if (len > s.size()) return fail();
            ++i;
        }
        if (i + len > s.size()) return fail();
        std::string_view id = s.substr(i, len);
        i += len;
        return id;
    }
    std::nullopt_t fail() {
        failed = true;
        return std::nullopt;
    }

    // Skips one balanced template-argument list `I ... E`; literals `L <type> <value> E` are read as a unit
    // because their digits are values, not lengths.
    void skip_template_args() {
        int depth = 0;
        do {
            if (done()) {
                failed = true;
                return;
            }
            char c = peek();
            if (c == 'I' || c == 'N' || c == 'X' || c == 'J') {
                ++depth;
                ++i;
            } else if (c == 'E') {
                --depth;
                ++i;
            } else if (c == 'L') {
                ++i;
                if (peek() == '_' && peek(1) == 'Z') {  // an external name as argument: skip to its E
                    ++depth;
                    continue;
                }
                if (is_digit(peek()) && !source_name()) return;
                if (!is_digit(peek())) ++i;  // builtin type letter
                while (!done() && peek() != 'E') ++i;
                ++i;
            } else if (is_digit(c)) {
                if (!source_name()) return;
            } else if ((c == 'S' || c == 'T') && !(c == 'S' && peek(1) >= 'a' && peek(1) <= 'z')) {
                // A substitution S<seq-id>_ or a template parameter T<seq-id>_: the seq-id's base-36 digits
                // (S1_, SI_, TN_) are no I/N/X/J/E/L of their own.
                ++i;
                while (!done() && peek() != '_') ++i;
                ++i;
            } else {
                ++i;
            }
        } while (depth > 0);
    }
};

}  // namespace

std::string demangled_base_name(std::string_view mangled) {
    if (mangled.size() < 3 || mangled.substr(0, 2) != "_Z") return std::string(mangled);
    Reader r{mangled, 2};
    if (r.peek() == 'L') ++r.i;  // internal linkage
    if (r.peek() != 'N') {
        auto name = r.source_name();
        return name && !r.failed ? std::string(*name) : std::string(mangled);
    }
    ++r.i;
    while (r.peek() == 'r' || r.peek() == 'V' || r.peek() == 'K') ++r.i;
    std::optional<std::string_view> last;
    while (!r.done() && r.peek() != 'E') {
        char c = r.peek();
        if (is_digit(c)) {
            last = r.source_name();
        } else if (c == 'I') {
            r.skip_template_args();
        } else if (c == 'S') {  // substitution: St, Sa, S_, S0_, ...
            ++r.i;
            if (r.peek() >= 'a' && r.peek() <= 'z') {
                ++r.i;
            } else {
                while (!r.done() && r.peek() != '_') ++r.i;
                ++r.i;
            }
        } else {
            break;  // operators, constructors: not kernel names
        }
    }
    return last && !r.failed ? std::string(*last) : std::string(mangled);
}

KernelLookup find_kernel(const Module& module, std::string_view name) {
    KernelLookup out;
    for (const auto& f : module.functions) {
        if (f.is_entry && f.name == name) {
            out.function = &f;
            out.candidates = {f.name};
            return out;
        }
    }
    std::vector<const Function*> matches;
    for (const auto& f : module.functions) {
        if (f.is_entry && demangled_base_name(f.name) == name) matches.push_back(&f);
    }
    if (matches.size() == 1) {
        out.function = matches[0];
        out.candidates = {matches[0]->name};
        return out;
    }
    std::string list;
    if (matches.empty()) {
        for (const auto& f : module.functions) {
            if (f.is_entry) out.candidates.push_back(f.name);
        }
    } else {
        for (const Function* f : matches) out.candidates.push_back(f->name);
    }
    for (const auto& c : out.candidates) list += (list.empty() ? "" : ", ") + c;
    if (matches.empty()) {
        out.error = "no kernel named '" + std::string(name) + "' in the module" +
                    (list.empty() ? std::string(" (it has no .entry)") : "; kernels: " + list);
    } else {
        out.error = "kernel name '" + std::string(name) + "' is ambiguous; candidates: " + list;
    }
    return out;
}

}  // namespace warpsim::ir
